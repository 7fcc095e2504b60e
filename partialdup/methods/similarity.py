"""Bag-Jaccard similarity of two sentence bags, and when a pair is a copy.

RapidFuzz-style scorers: ``bag_jaccard(a, b, *, score_cutoff=None)`` and
``bag_containment(a, b, *, score_cutoff=None)``. The inverted index (plain and
vectorised) computes the same values from shared counts; the property tests
check they agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from partialdup.core.arrays import ranges
from partialdup.core.bags import FlatBags
from partialdup.core.types import Bag

__all__ = [
    "BagMethod",
    "CopyRule",
    "bag_containment",
    "bag_jaccard",
    "flat_bag_jaccard",
    "bag_size",
    "jaccard_upper_bound",
    "shared_count",
]


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
    return _cut(shared / union if union else 0.0, score_cutoff)


def flat_bag_jaccard(first: FlatBags, second: FlatBags) -> np.ndarray:
    """:func:`bag_jaccard` of ``first[i]`` and ``second[i]`` for every i
    (float64; the same values), from the arrays: no dict per bag.

    A feature shared by the two bags of a pair is one entry of each; sorted
    by (pair, feature), the two are neighbours.
    """
    owner = np.concatenate((ranges(first.sizes)[0], ranges(second.sizes)[0]))
    features = np.concatenate((first.features, second.features))
    counts = np.concatenate((first.counts, second.counts))
    order = np.lexsort((features, owner))
    owner, features, counts = owner[order], features[order], counts[order]
    both = np.flatnonzero((owner[1:] == owner[:-1]) & (features[1:] == features[:-1]))
    shared = np.bincount(owner[both], np.minimum(counts[both], counts[both + 1]), len(first)).astype(np.int64)
    union = first.totals + second.totals - shared
    return np.where(union > 0, shared / np.maximum(union, 1), 0.0)  # type: ignore[no-any-return]


def jaccard_upper_bound(size_a: int, size_b: int) -> float:
    """The best Jaccard two bags of these sizes can reach: min/max."""
    if size_a == 0 or size_b == 0:
        return 0.0
    return min(size_a, size_b) / max(size_a, size_b)


def bag_containment(a: Bag, b: Bag, *, score_cutoff: float | None = None) -> float:
    """Share of the smaller bag found in the larger: Σmin / min(|a|, |b|).

    Args:
        a: First bag (feature -> multiplicity).
        b: Second bag.
        score_cutoff: When given, a score below it is returned as 0.0.

    Returns:
        A value in [0, 1]; 0.0 when either bag is empty.
    """
    smaller = min(bag_size(a), bag_size(b))
    return _cut(shared_count(a, b) / smaller if smaller else 0.0, score_cutoff)


def _cut(score: float, score_cutoff: float | None) -> float:
    # RapidFuzz convention: a score below the cutoff is reported as 0.
    return 0.0 if score_cutoff is not None and score < score_cutoff else score


@dataclass(frozen=True, slots=True)
class CopyRule:
    """When two sentences count as copies, from their shared feature count.

    A pair is a copy when its bag-Jaccard reaches ``threshold`` (the paper's
    rule), or, with containment on, when nearly all of the smaller bag lies in
    the larger one. The second rule finds copies whose sentence boundaries
    differ on the two sides: a verse copied alone from a sentence that runs
    over two lines, a heading pasted inline in front of the host's next
    sentence, a sentence split in two by an inserted line break. Their
    Jaccard is about the length ratio, far below tau, but the shorter side is
    all there.

    Attributes:
        threshold: tau, minimum bag-Jaccard, in (0, 1].
        containment: Minimum Σmin / min(|a|, |b|) for the second rule, in
            (0, 1]; 0 turns the rule off.
        min_contained: The smaller bag must hold at least this many features
            (counting multiplicities) for the second rule: one or two shared
            features are chance, not evidence.
    """

    threshold: float
    containment: float = 0.0
    min_contained: int = 3

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError("threshold must lie in (0, 1]")
        if not 0.0 <= self.containment <= 1.0:
            raise ValueError("containment must lie in [0, 1] (0 turns it off)")
        if self.min_contained < 1:
            raise ValueError("min_contained must be >= 1")

    def accepts(self, shared: int, size_a: int, size_b: int) -> bool:
        """Whether bags of these sizes sharing ``shared`` features are copies."""
        union = size_a + size_b - shared
        if union and shared / union >= self.threshold:
            return True
        smaller = min(size_a, size_b)
        return (
            self.containment > 0.0
            and smaller >= self.min_contained
            and shared / smaller >= self.containment
        )


class BagMethod:
    """Mixin of the methods whose fingerprint is a bag of features.

    They are compared by bag-Jaccard and searched through the inverted
    feature index (see :class:`partialdup.methods.base.Method`).
    """

    __slots__ = ()
    search_kind: ClassVar[str] = "bag"

    def similarity(self, first: Bag, second: Bag) -> float:
        """Bag-Jaccard of two bags (Σmin / Σmax)."""
        return bag_jaccard(first, second)
