"""A search's accepted sentence pairs, kept as arrays, read as records.

The look-ups hand the tail the near misses and the loose candidates of
edited copies as (first sentence, second sentence, score) records. On the
bench corpora they are a million and more: as Python tuples (a tuple, a
float and a list slot each, about 100 bytes) they were the largest part of a
run's peak memory after the features. :class:`KeyedMatches` keeps the three
columns as NumPy arrays (24 bytes a pair) and the sentences' keys once, and
makes the records only while they are read, in the same order, as often as
they are read.
"""

from __future__ import annotations

from itertools import chain
from operator import itemgetter
from typing import Callable, Collection, Iterable, Iterator, Sequence, Union

import numpy as np

from partialdup.core.arrays import sorted_isin
from partialdup.index.inverted import SentenceKeys
from partialdup.match.pair_rows import codes_of, key_codes
from partialdup.match.pairs import FoundPairs, SentenceKey

__all__ = ["KeyedMatches", "Pending", "RowPart"]

#: Records made at once while reading (bounds the memory of one chunk).
_CHUNK = 1 << 16

#: A record: (first sentence, second sentence, score).
Record = tuple[SentenceKey, SentenceKey, float]

#: A test of records by the (first, second) positions of their sentences:
#: arrays in, a boolean mask out.
RowTest = Callable[[np.ndarray, np.ndarray], np.ndarray]


class KeyedMatches:
    """(first sentence, second sentence, score) records held as arrays.

    Args:
        first: Position of each record's first sentence in ``first_keys``.
        second: Position of each record's second sentence in ``second_keys``.
        score: Each record's score.
        first_keys: The sentence at each position of ``first``.
        second_keys: The sentence at each position of ``second`` (None:
            ``first_keys``, as when an index is searched against itself).
        more: Records read after the arrays' (a second search's few), or
            a second search's own arrays (``detect``'s word-set pairs).
    """

    def __init__(
        self,
        first: np.ndarray,
        second: np.ndarray,
        score: np.ndarray,
        first_keys: Sequence[SentenceKey],
        second_keys: Sequence[SentenceKey] | None = None,
        more: Union[KeyedMatches, Sequence[Record]] = (),
    ) -> None:
        # Positions given as int32 are held so (a million near misses: 8 MB
        # less through the loose search); read, they are int64.
        self._first = _positions_array(first)
        self._second = _positions_array(second)
        self._score = np.asarray(score, np.float64)
        self._first_keys = first_keys
        self._second_keys = first_keys if second_keys is None else second_keys
        self._more: Union[KeyedMatches, list[Record]] = more if isinstance(more, KeyedMatches) else list(more)

    def __len__(self) -> int:
        return len(self._first) + len(self._more)

    def __iter__(self) -> Iterator[Record]:
        return self.records(0, len(self))

    def records(self, low: int, high: int, drop: RowTest | None = None) -> Iterator[Record]:
        """The records at positions ``low`` to ``high`` (excluded), in order;
        ``drop``: a test of the arrays' (first, second) positions whose
        records are passed over (the later records, :meth:`with_more`'s,
        are all given)."""
        return chain(self.array_records(low, high, drop), self.later_records(low, high))

    def array_records(self, low: int, high: int, drop: RowTest | None = None) -> Iterator[Record]:
        """The arrays' records at positions ``low`` to ``high``, but those
        ``drop`` tests true, in order."""
        first_key, second_key = self._first_keys.__getitem__, self._second_keys.__getitem__
        for first, second, score in self.array_rows(low, high, drop):
            yield from zip(map(first_key, first.tolist()), map(second_key, second.tolist()), score.tolist())

    def array_rows(self, low: int, high: int, drop: RowTest | None = None) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """:meth:`array_records` as arrays, a chunk at a time: the (first,
        second) positions in :attr:`first_keys` and :attr:`second_keys`
        and the scores of the records kept."""
        for start in range(low, min(high, len(self._first)), _CHUNK):
            end = min(start + _CHUNK, high)
            first, second, score = _wide(self._first[start:end]), _wide(self._second[start:end]), self._score[start:end]
            if drop is not None:
                kept = ~drop(first, second)
                first, second, score = first[kept], second[kept], score[kept]
            yield first, second, score

    @property
    def first_keys(self) -> Sequence[SentenceKey]:
        """The sentence at each first position."""
        return self._first_keys

    @property
    def second_keys(self) -> Sequence[SentenceKey]:
        """The sentence at each second position."""
        return self._second_keys

    def touching(self, first: Collection[SentenceKey], second: Collection[SentenceKey], least: float) -> Iterator[Record]:
        """The records scoring ``least`` or more whose first sentence is one
        of ``first`` or whose second sentence is one of ``second``, in order:
        what filtering every record gives, found on the arrays (a handful of
        a million near misses is made into records, not all of them)."""
        first_rows = _positions(self._first_keys, first)
        same = self._second_keys is self._first_keys and second == first
        second_rows = first_rows if same else _positions(self._second_keys, second)
        later = (record for record in self._more if record[2] >= least and (record[0] in first or record[1] in second))
        return chain(self._touching_rows(first_rows, second_rows, least), later)

    def _touching_rows(self, first_rows: np.ndarray, second_rows: np.ndarray, least: float) -> Iterator[Record]:
        # touching()'s records of the arrays, a chunk at a time (the masks of
        # a million records at once held 20 MB at the run's peak).
        first_key, second_key = self._first_keys.__getitem__, self._second_keys.__getitem__
        for start in range(0, len(self._first), _CHUNK):
            first, second = _wide(self._first[start : start + _CHUNK]), _wide(self._second[start : start + _CHUNK])
            score = self._score[start : start + _CHUNK]
            keep = score >= least
            keep &= sorted_isin(first, first_rows, among_sorted=True) | sorted_isin(second, second_rows, among_sorted=True)
            yield from zip(map(first_key, first[keep].tolist()), map(second_key, second[keep].tolist()), score[keep].tolist())

    def at(self, positions: np.ndarray) -> list[Record]:
        """The records at ``positions`` (ascending), in order."""
        arrays = len(self._first)
        inside = positions[positions < arrays]
        first_key, second_key = self._first_keys.__getitem__, self._second_keys.__getitem__
        records = list(zip(map(first_key, self._first[inside].tolist()), map(second_key, self._second[inside].tolist()),
                           self._score[inside].tolist()))
        later = positions[positions >= arrays] - arrays
        if isinstance(self._more, KeyedMatches):
            return records + self._more.at(later)
        return records + [self._more[p] for p in later.tolist()]

    def later_records(self, low: int, high: int) -> list[Record]:
        """The later records (:meth:`with_more`'s) at positions ``low`` to ``high``."""
        arrays = len(self._first)
        low, high = max(low - arrays, 0), max(high - arrays, 0)
        if isinstance(self._more, KeyedMatches):
            return list(self._more.records(low, high))
        return self._more[low:high]

    def where(self, keep: np.ndarray) -> KeyedMatches:
        """The records of the arrays that ``keep`` (a mask of them) keeps,
        in order, with the same keys (and no later records: a search's own)."""
        if len(self._more):
            raise ValueError("records added after the arrays' cannot be masked")
        return KeyedMatches(self._first[keep], self._second[keep], self._score[keep], self._first_keys, self._second_keys)

    def key_columns(self, side: int) -> tuple[np.ndarray, np.ndarray]:
        """The (document, sentence) of each record's first (``side`` 0) or
        second sentence, as two int64 arrays (the arrays' records, then the
        later ones): read from the keys' own arrays when they are held so."""
        at, keys = (self._first, self._first_keys) if side == 0 else (self._second, self._second_keys)
        if isinstance(keys, SentenceKeys):
            documents, sentences = keys.documents[at], keys.positions[at]
        else:
            documents, sentences = _columns_of(map(keys.__getitem__, at.tolist()), len(at))
        if not len(self._more):
            return documents, sentences
        if isinstance(self._more, KeyedMatches):
            more = self._more.key_columns(side)
        else:
            more = _columns_of(map(itemgetter(side), self._more), len(self._more))
        return np.concatenate((documents, more[0])), np.concatenate((sentences, more[1]))

    def outside(self, crowded: Collection[SentenceKey]) -> KeyedMatches:
        """The records (of the arrays: see :meth:`where`) but those between
        two ``crowded`` sentences, in order."""
        among = np.sort(codes_of(crowded))
        first, second = self.key_codes()
        return self.where(~(sorted_isin(first, among, among_sorted=True) & sorted_isin(second, among, among_sorted=True)))

    def key_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """:func:`~partialdup.match.pair_rows.key_codes` of each record's
        first and of its second sentence (see :meth:`key_columns`)."""
        return key_codes(*self.key_columns(0)), key_codes(*self.key_columns(1))

    def found_rows(self, found: FoundPairs) -> RowTest | None:
        """:meth:`~partialdup.match.pairs.FoundPairs.found_rows` for this
        search's keys: which records' pairs ``found`` holds, by positions."""
        return found.found_rows(self._first_keys, self._second_keys)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (KeyedMatches, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-like: compared by records

    def release(self) -> None:
        """Forget every record (the arrays go, if nothing else holds them):
        for the caller that has read them all and keeps the object."""
        self._first = self._second = np.empty(0, np.int64)
        self._score = np.empty(0, np.float64)
        self._more = []

    def with_more(self, more: Union[KeyedMatches, Sequence[Record]]) -> KeyedMatches:
        """These records, then ``more`` (records, or another search's
        arrays, kept as they are when these have no later records yet)."""
        if not len(self._more) and isinstance(more, KeyedMatches):
            return KeyedMatches(self._first, self._second, self._score, self._first_keys, self._second_keys, more)
        return KeyedMatches(self._first, self._second, self._score, self._first_keys, self._second_keys, [*self._more, *more])


def _positions_array(positions: np.ndarray) -> np.ndarray:
    # int32 positions as they are, any other as int64.
    positions = np.asarray(positions)
    return positions if positions.dtype == np.int32 else positions.astype(np.int64, copy=False)


def _wide(positions: np.ndarray) -> np.ndarray:
    # A chunk of positions as int64: what reads them computes codes from them.
    return positions.astype(np.int64, copy=False)


def _columns_of(keys: Iterable[SentenceKey], count: int) -> tuple[np.ndarray, np.ndarray]:
    # The documents and the sentences of ``count`` keys, as two int64 arrays.
    flat = np.fromiter(chain.from_iterable(keys), np.int64, 2 * count).reshape(-1, 2)
    return flat[:, 0], flat[:, 1]


def _positions(keys: Sequence[SentenceKey], wanted: Collection[SentenceKey]) -> np.ndarray:
    # The positions (ascending) of `keys` that hold one of `wanted`.
    if not wanted:
        return np.empty(0, np.int64)
    return np.array([position for position, key in enumerate(keys) if key in wanted], np.int64)


class Pending:
    """The records of a search still to judge: those whose two sentences
    ``keep`` accepts (the pairs not found yet), read whole or by ranges of
    the search's positions. A range can be read, and filtered, in a forked
    process that inherits ``keep``'s state, so that the filtering is shared
    like the judging (a million records on the English bench corpus).

    Args:
        records: The search's records (arrays, or a list).
        keep: Whether a record's (first, second) sentences are to be judged;
            a pure function while the records are read.
    """

    def __init__(
        self,
        records: Union[KeyedMatches, Sequence[Record]],
        keep: Callable[[SentenceKey, SentenceKey], bool],
        drop: RowTest | None = None,
    ) -> None:
        self._records = records
        self._keep = keep
        self._drop = drop if isinstance(records, KeyedMatches) else None

    @classmethod
    def not_found(cls, records: Union[KeyedMatches, Sequence[Record]], found: FoundPairs) -> Pending:
        """The records whose pair ``found`` does not hold (yet): for the
        arrays, told by positions at once (a record made only when kept)."""
        drop = records.found_rows(found) if isinstance(records, KeyedMatches) else None
        if isinstance(records, KeyedMatches) and drop is not None:
            # Only the later records are asked: which are found, told at once
            # (the English bench corpus's word-set search adds 30,000).
            later = [(first, second) for first, second, _ in records.later_records(0, len(records))]
            held = {pair for pair, known in zip(later, found.has_many(later)) if known}
            return cls(records, lambda first, second: (first, second) not in held, drop)
        return cls(records, lambda first, second: not found.has(first, second), drop)

    def __len__(self) -> int:
        """Positions in the search (records kept or not)."""
        return len(self._records)

    def __iter__(self) -> Iterator[Record]:
        return iter(self.part(0, len(self)))

    def part(self, low: int, high: int) -> Iterable[Record]:
        """The records kept among positions ``low`` to ``high`` (excluded),
        in order; those of the arrays, when they are filtered by positions,
        can also be read as arrays (:class:`RowPart`)."""
        records, keep = self._records, self._keep
        if isinstance(records, KeyedMatches) and self._drop is not None:
            return RowPart(records, low, high, self._drop, keep)
        found = records.records(low, high) if isinstance(records, KeyedMatches) else iter(records[low:high])
        return (record for record in found if keep(record[0], record[1]))


class RowPart:
    """Records of :meth:`Pending.part` read from the arrays: iterated, the
    records in order; or, for a check that can judge many at once on their
    positions, :meth:`rows` (the arrays' records, a chunk at a time), then
    :meth:`later` (the few records added after the arrays')."""

    def __init__(self, records: KeyedMatches, low: int, high: int, drop: RowTest, keep: Callable[[SentenceKey, SentenceKey], bool]) -> None:
        self.records, self._low, self._high, self._drop, self._keep = records, low, high, drop, keep

    def __iter__(self) -> Iterator[Record]:
        return chain(self.records.array_records(self._low, self._high, self._drop), self.later())

    def rows(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The arrays' records kept, as (first positions, second positions,
        scores) chunks, positions in the records' ``first_keys`` and ``second_keys``."""
        return self.records.array_rows(self._low, self._high, self._drop)

    def later(self) -> list[Record]:
        """The later records kept, after the arrays'."""
        keep = self._keep
        return [record for record in self.records.later_records(self._low, self._high) if keep(record[0], record[1])]
