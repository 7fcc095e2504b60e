"""Bag-Jaccard similarity of two sentence bags.

RapidFuzz-style scorer: ``bag_jaccard(a, b, *, score_cutoff=None)``. The
inverted index computes the same value incrementally; the property tests check
the two agree.
"""

from __future__ import annotations

from .types import Bag

__all__ = ["bag_jaccard", "bag_size", "shared_count", "jaccard_upper_bound"]


def bag_size(bag: Bag) -> int:
    """Number of features in a bag, counting multiplicities."""
    return sum(bag.values())


def shared_count(a: Bag, b: Bag) -> int:
    """Sum over features of the smaller multiplicity (the bag intersection size)."""
    if len(a) > len(b):
        a, b = b, a
    return sum(min(count, b.get(feature, 0)) for feature, count in a.items())


def bag_jaccard(a: Bag, b: Bag, *, score_cutoff: float | None = None) -> float:
    """Bag-Jaccard: sum of min counts over sum of max counts.

    Args:
        a: First bag (feature -> multiplicity).
        b: Second bag.
        score_cutoff: When given, a score below it is returned as 0.0.

    Returns:
        A value in [0, 1]; two empty bags score 0.0 (nothing to compare).
    """
    shared = shared_count(a, b)
    union = bag_size(a) + bag_size(b) - shared
    score = shared / union if union else 0.0
    if score_cutoff is not None and score < score_cutoff:
        return 0.0
    return score


def jaccard_upper_bound(size_a: int, size_b: int) -> float:
    """The best Jaccard two bags of these sizes can reach: min/max."""
    if size_a == 0 or size_b == 0:
        return 0.0
    return min(size_a, size_b) / max(size_a, size_b)
