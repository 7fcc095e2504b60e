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

__all__ = ["NONE", "SCORED_PAIRS", "Accepted", "GroupMatches", "SharedProduct", "joined"]

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


@dataclass(frozen=True)
class Accepted:
    """The (query row, group) pairs a rule accepted and their shared counts,
    narrow (12 bytes a pair: a shared product holds those of every rule
    until its search); scored when read (:meth:`scored`)."""

    query: np.ndarray  # int32
    group: np.ndarray  # int32
    shared: np.ndarray  # int32
    candidates: int

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
        query, group, shared = (column[rows].astype(np.int64) for column in (self.query, self.group, self.shared))
        score = accept(shared, query_sizes[query], group_sizes[group], rule)[1]
        return GroupMatches(query, group, score, shared, self.candidates)


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
