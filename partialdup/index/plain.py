"""The plain reference search: one query at a time, in plain Python.

:class:`partialdup.index.sparse.SparseIndex` finds the same matches for a
whole block of queries at once with a sparse matrix product; this is the
loop it must agree with, pair for pair and score for score (the property
tests check it), and the loop ``scripts/search_time.py`` times beside it.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Iterator

from partialdup.core.types import Bag
from partialdup.index.inverted import FeatureIndex, rarest_prefix
from partialdup.methods.similarity import CopyRule, shared_count

__all__ = ["plain_query", "Match", "QueryStats"]


@dataclass(frozen=True, slots=True)
class Match:
    """A candidate that passed the threshold: indexed sentence ``key`` scores ``score``."""

    key: int
    score: float


@dataclass(slots=True)
class QueryStats:
    """Counters of the work done and skipped, summed over queries."""

    candidate_pairs: int = 0
    skipped_postings: int = 0


def plain_query(
    index: FeatureIndex,
    bag: Bag,
    rule: CopyRule | float,
    *,
    doc: int = -1,
    below_key: int | None = None,
    stats: QueryStats | None = None,
) -> Iterator[Match]:
    """Indexed sentences that ``rule`` accepts as copies of ``bag``.

    The search runs over groups of identical bags (see
    :attr:`FeatureIndex.members`): the groups sharing a usual feature with
    the query, and the group equal to it, are scored on their bag, and an
    accepted group gives all its members.

    Args:
        index: The index to search.
        bag: The query sentence's features.
        rule: When a pair is a copy; a float is a bag-Jaccard threshold
            (the paper's tau) with containment off.
        doc: Document of the query; its own sentences are never returned.
        below_key: Only consider keys smaller than this (all-pairs search
            over one index reports each pair once).
        stats: Counters to add this query's work to.

    Yields:
        Matches in increasing key order; ``score`` is the bag-Jaccard.
    """
    rule = rule if isinstance(rule, CopyRule) else CopyRule(rule)
    size = sum(bag.values())
    if size == 0:
        return
    # The length bound (Jaccard <= min/max) prunes before counting; the
    # slack keeps float rounding from pruning a pair exactly at tau.
    # Containment has no length bound.
    tau = rule.threshold * (1 - 1e-9)
    low, high = (size * tau, size / tau) if not rule.containment else (0, float("inf"))
    probe, skipped = _probe(index, bag, size, rule, below_key)
    sentences, members = index.sentences, index.members

    def eligible(group: int) -> list[int]:
        return [key for key in members[group] if sentences[key].doc != doc and (below_key is None or key < below_key)]

    candidates: set[int] = set()
    for feature in probe:
        for group in index.group_postings[feature]:
            if low <= sentences[members[group][0]].size <= high and eligible(group):
                candidates.add(group)
    same = index.group_of_bag(bag)
    if same is not None and eligible(same):
        candidates.add(same)
    if stats is not None:
        stats.candidate_pairs += len(candidates)
        stats.skipped_postings += skipped
    found: list[Match] = []
    for group in candidates:
        other = sentences[members[group][0]]
        common = shared_count(bag, other.bag)
        if rule.accepts(common, size, other.size):
            found.extend(Match(key, common / (size + other.size - common)) for key in eligible(group))
    yield from sorted(found, key=lambda match: match.key)


def _probe(index: FeatureIndex, bag: Bag, size: int, rule: CopyRule, below_key: int | None) -> tuple[list[int], int]:
    """The features worth looking up, and the postings skipped as too frequent.

    Prefix filtering: a match shares at least ceil(tau * |bag|) features
    (counting multiplicities) with the query, so it must hold one of the
    query's ``|bag| - ceil(tau * |bag|) + 1`` rarest features; the
    frequent ones, whose posting lists are long, need not be read. When a
    feature of that prefix is over ``max_postings`` (and so cannot be
    read), every other indexed feature is looked up instead, and so it is
    when containment is on (a contained bag may share none of the prefix).
    A feature's frequency is the number of distinct bags holding it; the
    postings skipped are counted in sentences.
    """
    groups, postings = index.group_postings, index.postings
    held = lambda feature: len(groups.get(feature, ()))  # noqa: E731
    prefix = rarest_prefix(bag, held, None if rule.containment else rule.threshold)
    indexed = prefix if all(held(f) <= index.max_postings for f in prefix) else list(bag)
    probe, skipped = [], 0
    for feature in indexed:
        if not held(feature):
            continue
        if held(feature) > index.max_postings:
            keys = postings[feature]
            skipped += len(keys) if below_key is None else bisect_left(keys, below_key)
        else:
            probe.append(feature)
    return probe, skipped
