"""Inverted feature index: candidate sentence pairs and their bag-Jaccard.

Only sentences that share a feature are ever compared, and prefix filtering
reads only the posting lists of a query's rarest features. The index is built
in full first, then queried, so the set of over-frequent features does not
depend on the order documents arrive in.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Iterator

from partialdup.methods.similarity import CopyRule, shared_count
from partialdup.core.types import Bag

__all__ = ["FeatureIndex", "IndexedSentence", "Match", "QueryStats", "rarest_prefix"]


@dataclass(frozen=True, slots=True)
class IndexedSentence:
    """A sentence as the index knows it.

    Attributes:
        doc: Number of its document (dense, from 0).
        sentence: Its index in the document.
        bag: Its features.
        size: Number of features, counting multiplicities.
    """

    doc: int
    sentence: int
    bag: Bag
    size: int


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


class FeatureIndex:
    """Feature -> sentences holding it, with bag-Jaccard verification.

    Args:
        max_postings: A feature held by more sentences than this is not used to
            find candidates (it would make the search quadratic); pairs sharing
            other features are still found and scored on their full bags.
    """

    def __init__(self, *, max_postings: int = 2000) -> None:
        self.max_postings = max_postings
        self.sentences: list[IndexedSentence] = []
        self._lists: dict[int, list[int]] = defaultdict(list)
        self._listed = 0  # sentences already in the posting lists

    def add(self, doc: int, sentence: int, bag: Bag) -> int:
        """Index a sentence; returns its key (keys increase from 0)."""
        key = len(self.sentences)
        self.sentences.append(IndexedSentence(doc, sentence, bag, sum(bag.values())))
        return key

    @property
    def _postings(self) -> dict[int, list[int]]:
        # Posting lists are made when first read: the vectorised search
        # (partialdup.index.sparse) builds its own matrices and never needs them.
        for key in range(self._listed, len(self.sentences)):
            for feature in self.sentences[key].bag:
                self._lists[feature].append(key)
        self._listed = len(self.sentences)
        return self._lists

    def frequent_features(self) -> int:
        """How many features exceed ``max_postings``."""
        return sum(1 for keys in self._postings.values() if len(keys) > self.max_postings)

    def feature_count(self) -> int:
        """Distinct features indexed."""
        return len(self._postings)

    def posting_count(self) -> int:
        """Postings stored (sentence-feature incidences)."""
        return sum(len(keys) for keys in self._postings.values())

    def query(
        self,
        bag: Bag,
        rule: CopyRule | float,
        *,
        doc: int = -1,
        below_key: int | None = None,
        stats: QueryStats | None = None,
    ) -> Iterator[Match]:
        """Indexed sentences that ``rule`` accepts as copies of ``bag``.

        This is the plain reference implementation, one query at a time;
        :class:`partialdup.index.sparse.SparseIndex` finds the same matches for many
        queries at once, and the property tests check the two agree.

        Args:
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
        probe, skipped = self._probe(bag, size, rule, below_key)
        sentences = self.sentences
        candidates: set[int] = set()
        for feature in probe:
            keys = self._postings[feature]
            end = len(keys) if below_key is None else bisect_left(keys, below_key)
            for position in range(end):
                key = keys[position]
                other = sentences[key]
                if other.doc != doc and low <= other.size <= high:
                    candidates.add(key)
        if stats is not None:
            stats.candidate_pairs += len(candidates)
            stats.skipped_postings += skipped
        for key in sorted(candidates):
            other = sentences[key]
            common = shared_count(bag, other.bag)
            if rule.accepts(common, size, other.size):
                yield Match(key, common / (size + other.size - common))

    def _probe(self, bag: Bag, size: int, rule: CopyRule, below_key: int | None) -> tuple[list[int], int]:
        """The features worth looking up, and the postings skipped as too frequent.

        Prefix filtering: a match shares at least ceil(tau * |bag|) features
        (counting multiplicities) with the query, so it must hold one of the
        query's ``|bag| - ceil(tau * |bag|) + 1`` rarest features; the
        frequent ones, whose posting lists are long, need not be read. When a
        feature of that prefix is over ``max_postings`` (and so cannot be
        read), every other indexed feature is looked up instead, and so it is
        when containment is on (a contained bag may share none of the prefix).
        """
        postings = self._postings
        prefix = rarest_prefix(bag, lambda feature: len(postings.get(feature, ())), None if rule.containment else rule.threshold)
        indexed = prefix if all(len(postings.get(f, ())) <= self.max_postings for f in prefix) else list(bag)
        probe, skipped = [], 0
        for feature in indexed:
            keys = postings.get(feature)
            if not keys:
                continue
            if len(keys) > self.max_postings:
                skipped += len(keys) if below_key is None else bisect_left(keys, below_key)
            else:
                probe.append(feature)
        return probe, skipped


def rarest_prefix(bag: Bag, held: Callable[[int], int], threshold: float | None) -> list[int]:
    """The features of ``bag`` of which a match must share one (prefix filtering).

    A match at bag-Jaccard ``threshold`` shares at least ceil(threshold *
    |bag|) features, multiplicities counted, so it holds one of the bag's
    ``|bag| - ceil(threshold * |bag|) + 1`` rarest ones.

    Args:
        bag: The query's features.
        held: How many indexed sentences hold a feature (its postings).
        threshold: τ; None when any feature may be the shared one
            (containment), and all of them are returned.

    Returns:
        The prefix, rarest first (ties by feature value).
    """
    size = sum(bag.values())
    budget = size + 1 if threshold is None else size - math.ceil(threshold * size - 1e-9) + 1
    prefix = []
    for feature, count in sorted(bag.items(), key=lambda item: (held(item[0]), item[0])):
        if budget <= 0:
            break
        prefix.append(feature)
        budget -= count
    return prefix
