"""The group pairs a search's rules accepted, before they become sentence pairs.

:class:`~partialdup.index.sparse.SparseIndex` scores the candidates of its
blocked product once for each rule it expects (:class:`SharedProduct`),
keeps each rule's accepted (query row, group) pairs narrow
(:class:`Accepted`), and scores them again when the rule's search reads
them (:meth:`Accepted.scored`, a slice at a time, or
:meth:`Accepted.scored_at`, the slice a search expands).
"""

from __future__ import annotations

import collections
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from partialdup.index.matrix import accept
from partialdup.methods.similarity import CopyRule

__all__ = ["NONE", "SCORED_PAIRS", "Accepted", "AcceptedParts", "GroupMatches", "SharedProduct", "joined", "narrowest"]

#: Group pairs scored at once by :meth:`Accepted.scored`: the score's
#: arrays are several times the pairs (the English bench corpus's loose
#: search accepts 1.3 million: 94 MB at once, traced, scored in one go).
SCORED_PAIRS = 1 << 18

#: No pairs (int32, as :class:`Accepted` holds them).
NONE = np.empty(0, np.int32)


def joined(parts: Sequence[np.ndarray]) -> np.ndarray:
    """The arrays of ``parts`` end to end (the one part itself, uncopied)."""
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


@dataclass(frozen=True)
class GroupMatches:
    """Accepted (query row, group) pairs, before expansion to members."""

    query: np.ndarray
    group: np.ndarray
    score: np.ndarray
    shared: np.ndarray
    candidates: int


class Accepted:
    """The (query row, group) pairs a rule accepted and their shared counts,
    narrow: a shared product holds those of every rule until its search
    (the English bench corpus's loose rule: 1.3 million pairs, waiting
    through the near misses' search, the calling process's peak); scored
    when read (:meth:`scored`).

    The query rows come sorted from the blocked product: they are held as
    where each row's pairs start (4 bytes a row, not a pair); the shared
    counts in the narrowest unsigned type that holds them. Pairs whose
    query rows are not sorted keep them as a column.

    Made by :meth:`of` (from the columns) or :class:`AcceptedParts` (a
    block at a time); ``starts`` or ``query`` is None.
    """

    __slots__ = ("_starts", "_query", "group", "shared", "candidates")

    def __init__(
        self, starts: np.ndarray | None, query: np.ndarray | None, group: np.ndarray, shared: np.ndarray, candidates: int,
    ) -> None:
        self._starts, self._query = starts, query
        self.group, self.shared, self.candidates = group, shared, candidates

    @classmethod
    def of(cls, query: np.ndarray, group: np.ndarray, shared: np.ndarray, candidates: int) -> Accepted:
        """The pairs of the three columns (:class:`AcceptedParts` given
        them as one block)."""
        query = np.asarray(query)
        parts = AcceptedParts(int(query.max()) + 1 if len(query) else 0)
        parts.add(query, np.asarray(group), np.asarray(shared))
        return parts.accepted(candidates)

    def __len__(self) -> int:
        return len(self.group)

    @property
    def query(self) -> np.ndarray:
        """Each pair's query row (int32), made when read."""
        if self._query is not None:
            return self._query
        assert self._starts is not None
        return np.repeat(np.arange(len(self._starts) - 1, dtype=np.int32), np.diff(self._starts))

    def query_at(self, positions: np.ndarray) -> np.ndarray:
        """The query rows (int64) of the pairs at ``positions``."""
        if self._query is not None:
            return self._query[positions].astype(np.int64)
        assert self._starts is not None
        return np.searchsorted(self._starts, positions, side="right").astype(np.int64) - 1

    def of_query(self, values: np.ndarray) -> np.ndarray:
        """``values[query]``: each pair's query row's value (``values``
        indexed by query row), without the query column made."""
        if self._query is not None:
            return values[self._query]
        assert self._starts is not None
        rows = len(self._starts) - 1
        return np.repeat(values[:rows], np.diff(self._starts))

    def scored(self, query_sizes: np.ndarray, group_sizes: np.ndarray, rule: CopyRule) -> GroupMatches:
        """The pairs with their scores under ``rule`` (computed as when they
        were accepted: the same floats), :data:`SCORED_PAIRS` at a time.

        Args:
            query_sizes: The size of each query row's bag.
            group_sizes: The size of each group's bag.
            rule: The rule that accepted them.
        """
        query, group, shared = (column.astype(np.int64) for column in (self.query, self.group, self.shared))
        score = np.empty(len(query), np.float64)
        for low in range(0, len(query), SCORED_PAIRS):
            part = slice(low, low + SCORED_PAIRS)
            score[part] = accept(shared[part], query_sizes[query[part]], group_sizes[group[part]], rule)[1]
        return GroupMatches(query, group, score, shared, self.candidates)

    def scored_at(self, rows: np.ndarray, query_sizes: np.ndarray, group_sizes: np.ndarray, rule: CopyRule) -> GroupMatches:
        """:meth:`scored` of the pairs at ``rows`` only (the same columns and
        floats as its rows there): a search that expands its pairs a slice
        at a time scores each slice as it comes, never holding every pair
        wide and scored (the English bench corpus's loose search: 40 MB of
        its calling process's peak, traced)."""
        query = self.query_at(rows)
        group, shared = (column[rows].astype(np.int64) for column in (self.group, self.shared))
        score = accept(shared, query_sizes[query], group_sizes[group], rule)[1]
        return GroupMatches(query, group, score, shared, self.candidates)


class AcceptedParts:
    """One rule's accepted pairs gathered a block of the product at a time,
    held as :class:`Accepted` holds them: each query row's count of pairs
    while the blocks' rows come in order (the blocked product's), the
    shared counts narrow; the query column only once a block comes out of
    order.

    Args:
        rows: The query rows (each pair's is below it).
    """

    def __init__(self, rows: int) -> None:
        self._counts = np.zeros(max(rows, 0), np.int64)
        self._last = 0
        self._query: list[np.ndarray] | None = None
        self._group: list[np.ndarray] = []
        self._shared: list[np.ndarray] = []

    def add(self, query: np.ndarray, group: np.ndarray, shared: np.ndarray) -> None:
        """The next block's accepted pairs (in the product's order)."""
        if not len(query):
            return
        if self._query is None and (int(query[0]) < self._last or bool(np.any(query[1:] < query[:-1]))):
            # Out of order: the rows so far, sorted, made a column again.
            self._query = [np.repeat(np.arange(len(self._counts), dtype=np.int32), self._counts)]
        if self._query is None:
            low = int(query[0])
            counts = np.bincount(query - low)
            self._counts[low : low + len(counts)] += counts
            self._last = int(query[-1])
        else:
            self._query.append(query.astype(np.int32))
        self._group.append(group.astype(np.int32))
        self._shared.append(narrowest(shared))

    def accepted(self, candidates: int) -> Accepted:
        """The pairs gathered, ``candidates`` the product's."""
        # The parts go as they are joined (a shared product joins every
        # rule's in turn: the end of the product was the English bench
        # corpus's peak).
        group = _joined_away(self._group, NONE)
        shared = _joined_away(self._shared, NONE.astype(np.uint8))
        if self._query is not None:
            return Accepted(None, _joined_away(self._query, NONE), group, shared, candidates)
        return Accepted(_starts_of(self._counts), None, group, shared, candidates)


def _joined_away(parts: list[np.ndarray], empty: np.ndarray) -> np.ndarray:
    # The parts end to end, the list emptied.
    whole = joined(parts) if parts else empty
    parts.clear()
    return whole


def narrowest(counts: np.ndarray) -> np.ndarray:
    """Counts (not negative) in the narrowest unsigned type that holds
    them (uint8 for the usual bags' shared counts: a quarter of int32)."""
    top = int(counts.max()) if len(counts) else 0
    return counts.astype(np.min_scalar_type(top))


def _starts_of(counts: np.ndarray) -> np.ndarray:
    # Where each row's pairs start, and the end: int32 while they fit.
    starts = np.zeros(len(counts) + 1, np.int64)
    np.cumsum(counts, out=starts[1:])
    return starts.astype(np.int32) if starts[-1] <= np.iinfo(np.int32).max else starts


@dataclass
class SharedProduct:
    """The searches :meth:`~partialdup.index.sparse.SparseIndex.sharing_candidates`
    expects (a rule each time it is expected) and, once the product is made,
    what each rule accepted."""

    waiting: collections.Counter[CopyRule]
    found: dict[CopyRule, Accepted] | None = None

    def expects(self, rule: CopyRule) -> bool:
        """Whether a search of ``rule`` is still to come."""
        return self.waiting[rule] > 0

    def take(self, rule: CopyRule) -> Accepted:
        """What ``rule`` accepted, for one of its searches."""
        assert self.found is not None
        self.waiting[rule] -= 1
        # Let a rule's pairs go with its last search (two rules may be one).
        return self.found[rule] if self.waiting[rule] else self.found.pop(rule)
