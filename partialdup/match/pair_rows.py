"""Copied sentence pairs held as arrays, for :class:`~partialdup.match.pairs.FoundPairs`.

A ``detect`` run's whole matches and near misses accepted on their
characters are hundreds of thousands of pairs (the English bench corpus:
115,783 and 86,612), nine in ten of them boilerplate that no span is built
for. Recorded one by one as Python tuples, sets and dictionaries, then read
by the boilerplate rule and split, they cost the calling process 0.84 s
while the other core waited. Held here as columns, the rule reads them as
arrays and sets them apart by masks, and only the pairs kept are made into
records: 0.19 s (docs/benchmark.md, session 28).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import chain
from typing import TYPE_CHECKING, Iterable, Iterator, Protocol, Sequence, Union

import numpy as np

from partialdup.core.arrays import sorted_isin, sorted_unique
from partialdup.index.inverted import SentenceKeys

if TYPE_CHECKING:
    from partialdup.match.pairs import SentenceKey

__all__ = [
    "KeyPositions", "PairRows", "PairSource", "PairsByDocuments", "RowsLookup", "codes_of", "key_code", "key_codes",
    "pair_codes", "pair_key_rows", "pair_rows_of",
]

#: The sentence numbers' room in a sentence's code (documents and sentences
#: are numbered below 2**31, as in :mod:`partialdup.match.boilerplate`).
_SENTENCES = 1 << 31


def key_codes(documents: np.ndarray, sentences: np.ndarray) -> np.ndarray:
    """One int64 per (document, sentence) key, ordered as the keys are."""
    return np.asarray(documents, np.int64) * _SENTENCES + np.asarray(sentences, np.int64)


def key_code(document: int, sentence: int) -> int:
    """:func:`key_codes` of one key (one look-up: no arrays to make)."""
    return document * _SENTENCES + sentence


def codes_of(keys: Iterable[SentenceKey]) -> np.ndarray:
    """:func:`key_codes` of (document, sentence) keys given one by one (or
    held as arrays)."""
    if isinstance(keys, SentenceKeys):
        return key_codes(keys.documents, keys.positions)
    flat = np.fromiter(chain.from_iterable(keys), np.int64).reshape(-1, 2)
    return key_codes(flat[:, 0], flat[:, 1])


@dataclass(frozen=True)
class PairRows:
    """Sentence pairs (first, second, score, weak) as columns.

    Attributes:
        first_doc: Document of each pair's first sentence (int64).
        first_sentence: Its sentence in that document (int64).
        second_doc: Document of the second sentence (int64).
        second_sentence: Its sentence (int64).
        score: Each pair's score (float64).
        weak: Whether each pair was found on little evidence (bool).
        rank: For each pair, the place of its document pair, in order of
            first appearance, among the document pairs of these rows and of
            those ranked before them (:meth:`ranked_after`; int64). Rows
            taken out (:meth:`take`) keep it: the order of the whole, as a
            dictionary filled with all of them would give it.
    """

    first_doc: np.ndarray
    first_sentence: np.ndarray
    second_doc: np.ndarray
    second_sentence: np.ndarray
    score: np.ndarray
    weak: np.ndarray
    rank: np.ndarray

    @classmethod
    def of(cls, first_doc: np.ndarray, first_sentence: np.ndarray, second_doc: np.ndarray, second_sentence: np.ndarray,
           score: np.ndarray, weak: np.ndarray | None = None) -> PairRows:
        """Rows in the order given (``weak``: none when None)."""
        columns = [np.asarray(column, np.int64) for column in (first_doc, first_sentence, second_doc, second_sentence)]
        score = np.asarray(score, np.float64)
        weak = np.zeros(len(score), bool) if weak is None else np.asarray(weak, bool)
        first_doc, first_sentence, second_doc, second_sentence = columns
        rank = _first_appearance(key_codes(first_doc, second_doc))
        return cls(first_doc, first_sentence, second_doc, second_sentence, score, weak, rank)

    @classmethod
    def of_records(cls, records: Sequence[tuple[SentenceKey, SentenceKey, float, bool]]) -> PairRows:
        """Rows of (first, second, score, weak) records, in order."""
        keys = np.array([(*first, *second) for first, second, _, _ in records], np.int64).reshape(-1, 4)
        score = np.array([record[2] for record in records], np.float64)
        weak = np.array([record[3] for record in records], bool)
        return cls.of(keys[:, 0], keys[:, 1], keys[:, 2], keys[:, 3], score, weak)

    @classmethod
    def at_positions(cls, documents: np.ndarray, sentences: np.ndarray, first: np.ndarray, second: np.ndarray,
                     score: np.ndarray, weak: np.ndarray | None = None) -> PairRows:
        """Rows of pairs given as positions in one list of sentences, whose
        documents and sentences are ``documents`` and ``sentences``."""
        return cls.of(documents[first], sentences[first], documents[second], sentences[second], score, weak)

    def __len__(self) -> int:
        return len(self.score)

    def __iter__(self) -> Iterator[tuple[SentenceKey, SentenceKey]]:
        """The (first, second) sentence keys of each pair, in order."""
        return zip(self._keys(self.first_doc, self.first_sentence), self._keys(self.second_doc, self.second_sentence))

    def records(self) -> Iterator[tuple[SentenceKey, SentenceKey, float]]:
        """(first, second, score) of each pair, in order."""
        return zip(self._keys(self.first_doc, self.first_sentence), self._keys(self.second_doc, self.second_sentence),
                   self.score.tolist())

    @staticmethod
    def _keys(documents: np.ndarray, sentences: np.ndarray) -> Iterator[SentenceKey]:
        return zip(documents.tolist(), sentences.tolist())

    def ranked_after(self, before: Sequence[PairRows]) -> PairRows:
        """These rows with their document pairs ranked after those of
        ``before`` (rows added earlier): by first appearance over all of
        them, those rows first."""
        codes = [key_codes(block.first_doc, block.second_doc) for block in (*before, self)]
        rank = _first_appearance(np.concatenate(codes))[sum(map(len, codes[:-1])) :]
        return replace(self, rank=rank)

    def without_weak(self) -> PairRows:
        """These rows, none weak."""
        return replace(self, weak=np.zeros(len(self), bool))

    @classmethod
    def joined(cls, blocks: Sequence[PairRows]) -> PairRows:
        """The rows of ``blocks``, one after the other."""
        empty = cls.of(*(np.empty(0, np.int64),) * 4, np.empty(0, np.float64))
        joined = [np.concatenate(columns) for columns in zip(*(block._columns() for block in (empty, *blocks)))]
        return cls(*joined)

    def take(self, rows: np.ndarray) -> PairRows:
        """The rows ``rows`` selects (a mask or positions), their ranks kept."""
        return PairRows(*(column[rows] for column in self._columns()))

    def oriented(self, order: Sequence[int] | None) -> PairRows:
        """The rows with each pair's sentences swapped where the first
        document's place in ``order`` (by document number) is after the
        second's (None: as they are), as
        :meth:`~partialdup.match.pairs.FoundPairs.oriented` stores them."""
        if order is None or not len(self):
            return self
        place = np.asarray(order, np.int64)
        swap = place[self.first_doc] > place[self.second_doc]
        if not swap.any():
            return self
        first_doc, second_doc = np.where(swap, self.second_doc, self.first_doc), np.where(swap, self.first_doc, self.second_doc)
        first_sentence = np.where(swap, self.second_sentence, self.first_sentence)
        second_sentence = np.where(swap, self.first_sentence, self.second_sentence)
        return PairRows.of(first_doc, first_sentence, second_doc, second_sentence, self.score, self.weak)

    def touching(self, firsts: Iterable[SentenceKey], seconds: Iterable[SentenceKey]) -> PairRows:
        """The rows whose first sentence is one of ``firsts`` or whose second
        is one of ``seconds``, in order."""
        kept = sorted_isin(self.first_codes(), codes_of(firsts)) | sorted_isin(self.second_codes(), codes_of(seconds))
        return self.take(kept)

    def first_codes(self) -> np.ndarray:
        """:func:`key_codes` of the first sentences."""
        return key_codes(self.first_doc, self.first_sentence)

    def second_codes(self) -> np.ndarray:
        """:func:`key_codes` of the second sentences."""
        return key_codes(self.second_doc, self.second_sentence)

    def key_rows(self) -> np.ndarray:
        """The keys as an (2n, 2) int32 array: first, second, first, ...
        (the rows :mod:`partialdup.match.boilerplate` reads)."""
        rows = np.empty((2 * len(self), 2), np.int32)
        rows[0::2, 0], rows[0::2, 1] = self.first_doc, self.first_sentence
        rows[1::2, 0], rows[1::2, 1] = self.second_doc, self.second_sentence
        return rows

    def grouped(self) -> Iterator[tuple[tuple[int, int], list[tuple[int, int, float]]]]:
        """((first document, second document), [(first sentence, second
        sentence, score), ...]) of each document pair, the pairs by rank,
        each pair's rows in order."""
        if not len(self):
            return
        order = np.lexsort((np.arange(len(self)), self.rank))
        ranks = self.rank[order]
        cuts = np.flatnonzero(np.diff(ranks)) + 1
        starts, ends = np.concatenate(([0], cuts)).tolist(), np.concatenate((cuts, [len(order)])).tolist()
        first_doc, second_doc = self.first_doc[order].tolist(), self.second_doc[order].tolist()
        rows = list(zip(self.first_sentence[order].tolist(), self.second_sentence[order].tolist(), self.score[order].tolist()))
        for start, end in zip(starts, ends):
            yield (first_doc[start], second_doc[start]), rows[start:end]

    def _columns(self) -> tuple[np.ndarray, ...]:
        return (self.first_doc, self.first_sentence, self.second_doc, self.second_sentence, self.score, self.weak, self.rank)


def _first_appearance(codes: np.ndarray) -> np.ndarray:
    # Each value's rank among the distinct values in order of first appearance.
    if not len(codes):
        return np.empty(0, np.int64)
    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    rank = np.empty(len(first), np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[np.ravel(inverse)]


class RowsLookup:
    """The best score of pairs among some rows, looked up by pair or for
    many pairs at once (the pairs numbered on their sentences' distinct
    codes, a sorted array of the pairs' numbers: no Python object per pair).

    Args:
        blocks: The rows (their pairs as stored: oriented).
    """

    def __init__(self, blocks: Sequence[PairRows]) -> None:
        first = np.concatenate([np.empty(0, np.int64), *(block.first_codes() for block in blocks)])
        second = np.concatenate([np.empty(0, np.int64), *(block.second_codes() for block in blocks)])
        score = np.concatenate([np.empty(0, np.float64), *(block.score for block in blocks)])
        self._firsts, self._seconds = sorted_unique(first), sorted_unique(second)
        codes = np.searchsorted(self._firsts, first) * len(self._seconds) + np.searchsorted(self._seconds, second)
        order = np.lexsort((score, codes))  # each pair's best score last
        codes, score = codes[order], score[order]
        last = np.flatnonzero(np.concatenate((codes[1:] != codes[:-1], [True]))) if len(codes) else np.empty(0, np.int64)
        self._codes, self._best = codes[last], score[last]

    def best(self, first: SentenceKey, second: SentenceKey) -> float | None:
        """The best score of the pair (first, second) among the rows; None when absent."""
        at = self._at(np.array([key_code(*first)]), np.array([key_code(*second)]))[0]
        return None if at < 0 else float(self._best[at])

    def best_many(self, pairs: Sequence[tuple[SentenceKey, SentenceKey]]) -> np.ndarray:
        """:meth:`best` of each (first, second) pair, NaN where absent (float64)."""
        at = self._at(*pair_codes(pairs))
        return np.where(at >= 0, self._best[np.maximum(at, 0)] if len(self._best) else np.nan, np.nan)

    def contains(self, first: SentenceKey, second: SentenceKey) -> bool:
        """Whether the pair (first, second) is among the rows."""
        return self.best(first, second) is not None

    def contains_many(self, pairs: Sequence[tuple[SentenceKey, SentenceKey]]) -> np.ndarray:
        """Whether each (first, second) pair is among the rows (a mask)."""
        return self._at(*pair_codes(pairs)) >= 0

    def _at(self, first: np.ndarray, second: np.ndarray) -> np.ndarray:
        # Each pair's place in the arrays, -1 when absent.
        if not len(self._codes):
            return np.full(len(first), -1, np.int64)
        i = np.minimum(np.searchsorted(self._firsts, first), len(self._firsts) - 1)
        j = np.minimum(np.searchsorted(self._seconds, second), len(self._seconds) - 1)
        codes = i * len(self._seconds) + j
        at = np.minimum(np.searchsorted(self._codes, codes), len(self._codes) - 1)
        hit = (self._firsts[i] == first) & (self._seconds[j] == second) & (self._codes[at] == codes)
        return np.where(hit, at, -1)


class PairsByDocuments:
    """The rows of each document pair, as (first, second, weak) in order,
    made when a pair is asked for (:meth:`get`): the document pairs are
    those of the rows oriented by ``order`` (as
    :class:`~partialdup.match.pairs.FoundPairs` stores them), the rows as
    they are. Where a dictionary of every pair's records took a tuple per
    row: 115,783 on the English bench corpus, nine in ten never asked for
    (boilerplate).

    Args:
        rows: The rows.
        order: Each document's place (by document number), or None: as they are.
    """

    def __init__(self, rows: PairRows, order: Sequence[int] | None) -> None:
        oriented = rows.oriented(order)
        codes = key_codes(oriented.first_doc, oriented.second_doc)
        self._rows = rows
        self._order = np.argsort(codes, kind="stable")  # each pair's rows in order
        self._codes = codes[self._order]

    def get(
        self, documents: tuple[int, int], default: Sequence[tuple[SentenceKey, SentenceKey, bool]] = ()
    ) -> Sequence[tuple[SentenceKey, SentenceKey, bool]]:
        """(first, second, weak) of the rows of the document pair ``documents``
        (as oriented), in order; ``default`` when it has none."""
        code = key_code(*documents)  # coded as the rows' document pairs are (key_codes)
        low, high = np.searchsorted(self._codes, code, side="left"), np.searchsorted(self._codes, code, side="right")
        if low == high:
            return default
        at, rows = self._order[low:high], self._rows
        firsts = PairRows._keys(rows.first_doc[at], rows.first_sentence[at])
        return list(zip(firsts, PairRows._keys(rows.second_doc[at], rows.second_sentence[at]), rows.weak[at].tolist()))


class KeyPositions:
    """The position of sentence keys in a list of them, found for many at
    once (the arrays' answer to ``{key: position}``; the list's keys are
    distinct).

    Args:
        keys: The list of (document, sentence) keys.
    """

    def __init__(self, keys: Sequence[SentenceKey]) -> None:
        codes = codes_of(keys)
        self._order = np.argsort(codes, kind="stable")
        self._codes = codes[self._order]

    def of(self, codes: np.ndarray) -> np.ndarray:
        """The position of each key given by its :func:`key_codes` (int64), -1 where absent."""
        if not len(self._codes):
            return np.full(len(codes), -1, np.int64)
        at = np.minimum(np.searchsorted(self._codes, codes), len(self._codes) - 1)
        return np.where(self._codes[at] == codes, self._order[at], -1)


class HasKeyRows(Protocol):
    """Pairs that give themselves as key rows (:meth:`PairRows.key_rows`)."""

    def key_rows(self) -> np.ndarray: ...


#: Pairs as :mod:`partialdup.match.boilerplate` reads them: an (2n, 2)
#: int32 array of (document, sentence) rows (first, second, first, ...),
#: pairs that give such rows, or the (first, second) pairs themselves.
PairSource = Union[np.ndarray, HasKeyRows, Iterable[tuple["SentenceKey", "SentenceKey"]]]


def pair_rows_of(pairs: PairSource) -> np.ndarray:
    """The pairs as an (2n, 2) int32 array of (document, sentence) rows:
    first, second, first, ..."""
    if isinstance(pairs, np.ndarray):
        return pairs
    key_rows = getattr(pairs, "key_rows", None)
    if key_rows is not None:
        return key_rows()  # type: ignore[no-any-return]
    flat = list(chain.from_iterable(chain.from_iterable(pairs)))  # type: ignore[arg-type]
    return np.fromiter(flat, np.int32, len(flat)).reshape(-1, 2)


def pair_codes(pairs: PairSource) -> tuple[np.ndarray, np.ndarray]:
    """:func:`key_codes` of the first and of the second sentences of pairs."""
    rows = pair_rows_of(pairs)
    return key_codes(rows[0::2, 0], rows[0::2, 1]), key_codes(rows[1::2, 0], rows[1::2, 1])


def pair_key_rows(*parts: PairSource) -> np.ndarray:
    """:func:`pair_rows_of` of every part, one after the other."""
    return np.concatenate([np.empty((0, 2), np.int32), *map(pair_rows_of, parts)])
