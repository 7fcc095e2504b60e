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
from typing import Callable, Collection, Iterable, Iterator, Sequence, Union

import numpy as np

from partialdup.core.arrays import sorted_isin
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
        more: Records read after the arrays' (a second search's few).
    """

    def __init__(
        self,
        first: np.ndarray,
        second: np.ndarray,
        score: np.ndarray,
        first_keys: Sequence[SentenceKey],
        second_keys: Sequence[SentenceKey] | None = None,
        more: Sequence[Record] = (),
    ) -> None:
        self._first = np.asarray(first, np.int64)
        self._second = np.asarray(second, np.int64)
        self._score = np.asarray(score, np.float64)
        self._first_keys = first_keys
        self._second_keys = first_keys if second_keys is None else second_keys
        self._more = list(more)

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
            first, second, score = self._first[start:end], self._second[start:end], self._score[start:end]
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
            first, second, score = (column[start : start + _CHUNK] for column in (self._first, self._second, self._score))
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
        return records + [self._more[p - arrays] for p in positions[positions >= arrays].tolist()]

    def later_records(self, low: int, high: int) -> list[Record]:
        """The later records (:meth:`with_more`'s) at positions ``low`` to ``high``."""
        arrays = len(self._first)
        return self._more[max(low - arrays, 0) : max(high - arrays, 0)]

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

    def with_more(self, more: Sequence[Record]) -> KeyedMatches:
        """These records, then ``more``."""
        joined = KeyedMatches(self._first, self._second, self._score, self._first_keys, self._second_keys, self._more)
        joined._more.extend(more)
        return joined


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
