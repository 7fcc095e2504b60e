"""Chaining copied sentence pairs into passages (see :mod:`partialdup.match.spans`).

Within one document pair, a pair (i, m) continues a chain whose last pair is
(i', m') when both documents advance by at most ``gap + 1`` sentences (one
side may stay put, so a sentence split in two still chains). Steps are
counted in *matchable* sentences (:func:`matchable_ranks`). Chains that
overlap in both documents are one passage (:func:`merge_overlapping`).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from itertools import accumulate
from operator import attrgetter
from typing import Sequence

from sortedcontainers import SortedList

from partialdup.core.types import SentencePair

__all__ = ["ORDER", "chain_pairs", "matchable_ranks", "merge_overlapping"]

# SentencePair's own order, (a, b, score), compared in C: the dataclass's
# generated __lt__ is a Python call per comparison (4 % of detect on the
# long documents of scripts/make_long_docs.py).
ORDER = attrgetter("a", "b", "score")


@dataclass
class _Chain:
    number: int  # creation order: of two equally close chains, the older one continues
    pairs: list[SentencePair] = field(default_factory=list)
    last_a: int = 0
    last_b: int = 0


def chain_pairs(
    pairs: Sequence[SentencePair],
    *,
    gap: int = 3,
    a_ranks: Sequence[int] | None = None,
    b_ranks: Sequence[int] | None = None,
) -> list[list[SentencePair]]:
    """Group the copied sentence pairs of one document pair into chains.

    Pairs are taken in order of (a, b); each continues the open chain whose
    last pair is closest (fewest steps in A plus B, the older chain on a tie)
    among those within ``gap + 1`` steps in both documents, or starts a chain.
    The open chains are kept sorted by their last sentence in B, so a pair
    looks only at the chains ending in its window: a line repeated hundreds
    of times keeps hundreds of chains open without every pair visiting them.

    Args:
        pairs: Sentence pairs between document A and document B.
        gap: Unmatched matchable sentences tolerated between two chained
            pairs, on either side.
        a_ranks: For each sentence of A, the number of matchable sentences
            before it (see :func:`matchable_ranks`); every sentence counts
            when None.
        b_ranks: The same for B.

    Returns:
        Chains of pairs, each sorted by (a, b), ordered by their first pair.
    """
    if len(pairs) < 2:  # one chain or none (most document pairs)
        return [[pair] for pair in pairs]
    reach = gap + 1
    chains: list[_Chain] = []
    open_by_b = SortedList(key=lambda c: (c.last_b, c.number))
    ends: list[tuple[int, int]] = []  # (last_a, number) of every update; stale ones are skipped
    for pair in sorted(pairs, key=ORDER):
        rank_a = a_ranks[pair.a] if a_ranks is not None else pair.a
        rank_b = b_ranks[pair.b] if b_ranks is not None else pair.b
        while ends and ends[0][0] < rank_a - reach:  # ranks only grow in A: closed for good
            last_a, number = heapq.heappop(ends)
            if chains[number].last_a == last_a:
                open_by_b.discard(chains[number])
        best = _closest_chain(open_by_b, rank_a, rank_b, reach)
        if best is None:
            best = _Chain(len(chains))
            chains.append(best)
        else:
            open_by_b.remove(best)
        best.pairs.append(pair)
        best.last_a, best.last_b = rank_a, rank_b
        open_by_b.add(best)
        heapq.heappush(ends, (rank_a, best.number))
    found = [chain.pairs for chain in chains]
    found.sort(key=lambda c: (c[0].a, c[0].b))
    return found


def _closest_chain(open_by_b: SortedList, rank_a: int, rank_b: int, reach: int) -> _Chain | None:
    # Open chains end within reach in A; those ending in B's window are candidates.
    best: _Chain | None = None
    best_key = (2 * reach + 1, 0)
    for chain in open_by_b.irange_key((rank_b - reach, -1), (rank_b, math.inf)):
        distance = rank_a - chain.last_a + rank_b - chain.last_b
        if distance > 0 and (distance, chain.number) < best_key:
            best, best_key = chain, (distance, chain.number)
    return best


def matchable_ranks(matchable: Sequence[bool]) -> list[int]:
    """For each sentence, how many matchable sentences come before it (a
    running count made in C: the tail makes one per document of a pair)."""
    return list(accumulate(matchable[:-1], initial=0)) if matchable else []


def merge_overlapping(chains: list[list[SentencePair]]) -> list[list[SentencePair]]:
    """Merge chains whose sentence ranges overlap (or touch) in both documents.

    A sentence repeated inside a copied passage ("see below", a lone "}")
    also pairs with its other occurrences, and those stray pairs start chains
    of their own that cross the passage's chain. They are the same passage,
    not further copies, and must not become fragments of it. Chains that
    overlap in one document only (a passage copied twice) stay apart.

    The result is the finest grouping in which no two groups' ranges overlap
    in both documents (merging only grows ranges, so it is unique whatever
    the order of merging). Each pass sweeps the groups in order of their
    start in A, keeping the groups still open in A sorted by their start in
    B; passes repeat while a merge grew a range. A long document's thousands
    of chains, and a line repeated hundreds of times (hundreds of one-pair
    chains open at once), cost about n log n per pass, not n squared.
    """
    if len(chains) < 2:  # nothing to merge (most document pairs)
        return [sorted(chain, key=ORDER) for chain in chains]
    groups = [_Group(list(chain)) for chain in chains]
    merged = True
    while merged:
        groups.sort(key=lambda g: (g.a0, g.b0))
        groups, merged = _merge_pass(groups)
    return [sorted(g.pairs, key=ORDER) for g in groups]


def _merge_pass(groups: list["_Group"]) -> tuple[list["_Group"], bool]:
    """One sweep of :func:`merge_overlapping` over groups sorted by start in A.

    The open groups' B ranges neither overlap nor touch as long as no merge
    happened in the pass, so a new group can only meet the open group that
    starts last in B at or before its end (+1): that one is the only test.
    After a merge that invariant may fail until the next pass, which then
    runs, since the pass reports the merge.
    """
    kept: list[_Group] = []
    by_b = SortedList(key=lambda g: (g.b0, g.number))
    ends: list[tuple[int, int]] = []  # (a1, number) of every change; stale ones are skipped
    merged = False
    for number, group in enumerate(groups):
        group.number = number
        while ends and ends[0][0] + 1 < group.a0:
            a1, done = heapq.heappop(ends)
            if groups[done].a1 == a1:
                by_b.discard(groups[done])
        slot = by_b.bisect_key_right((group.b1 + 1, len(groups))) - 1
        home = by_b[slot] if slot >= 0 else None
        if home is not None and group.b0 <= home.b1 + 1:
            by_b.remove(home)
            home.absorb(group)
            by_b.add(home)
            merged = True
        else:
            home = group
            kept.append(group)
            by_b.add(group)
        heapq.heappush(ends, (home.a1, home.number))
    return kept, merged


class _Group:
    """Chains merged so far, with their ranges in A and in B."""

    __slots__ = ("pairs", "a0", "a1", "b0", "b1", "number")

    def __init__(self, pairs: list[SentencePair]) -> None:
        self.pairs = pairs
        self.number = 0  # position in the current pass, a tie-breaker
        self.a0, self.a1 = min(p.a for p in pairs), max(p.a for p in pairs)
        self.b0, self.b1 = min(p.b for p in pairs), max(p.b for p in pairs)

    def absorb(self, other: "_Group") -> None:
        self.pairs.extend(other.pairs)
        self.a0, self.a1 = min(self.a0, other.a0), max(self.a1, other.a1)
        self.b0, self.b1 = min(self.b0, other.b0), max(self.b1, other.b1)
