"""An exact first stage before any method's search: ``--exact bloom|trie``.

The short-text de-duplication seed removes exact duplicates with a cheap
membership structure before the near-duplicate search. Here, two sentences
are exact duplicates when their fingerprints are equal (their normalised
tokens gave the same bag: case, width, script and punctuation already do
not count); every method scores such a pair 1.0.

:class:`ExactFirstIndex` wraps any sentence index (see
:mod:`partialdup.index.dispatch`):

* **Building**: the indexed sentences are read in key order; each one's
  fingerprint digest is looked up in the filter (a Bloom filter sized for the
  distinct digests at ``--exact-rate``, or a Trie over hashed digits,
  :mod:`partialdup.methods.exact`). A positive whose digest was seen is an
  exact duplicate: it joins the group of its first occurrence and is *not*
  indexed. A positive for a digest never seen is a false positive of the
  filter: counted, and the sentence is indexed like any new one. The
  near-duplicate index holds one sentence per group.
* **Searching**: exact duplicates among the indexed sentences are paired at
  score 1.0 without a search; query fingerprints are looked up in the filter
  the same way (exact pairs at once, false positives counted); the distinct
  query fingerprints are searched in the near-duplicate index, and each of
  its matches stands for every member of the group. Since a group's members
  have one fingerprint, this loses no pair the plain search finds (the
  tests prove the two equal).

The filter's *measured* false-positive rate (positives among the look-ups
of digests it never held) is reported beside its *design* rate (the mean of
``(1 - e^(-k n / m))^k`` over the fill each look-up met) in the run's
statistics.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from partialdup.core.arrays import ranges
from partialdup.core.types import Bag
from partialdup.index.fingerprints import pair_matches, pairs_kept
from partialdup.index.inverted import FeatureIndex
from partialdup.index.sparse import PairFilter, PairMatches
from partialdup.methods.exact import BloomFilter, DigitTrie
from partialdup.methods.similarity import CopyRule

__all__ = ["EXACT_CHOICES", "ExactFirstIndex", "ExactStats", "bag_key", "exact_run_stats"]

#: ``--exact`` values.
EXACT_CHOICES = ("off", "bloom", "trie")


def bag_key(bag: Bag) -> str:
    """The exact-stage key of a fingerprint: a BLAKE2b digest of its sorted items (hex)."""
    items = np.array(sorted(bag.items()), dtype=np.uint64).reshape(-1, 2)
    return hashlib.blake2b(items.astype("<u8").tobytes(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class ExactStats:
    """What the exact stage did.

    Attributes:
        kind: ``bloom`` or ``trie``.
        exact_pairs: Sentence pairs paired by the exact stage (score 1.0).
        removed: Sentences not indexed because an equal one was.
        probes: Look-ups of digests the filter never held.
        false_positives: Those the filter answered "seen".
        design_rate: The filter's design false-positive rate over those
            look-ups (0 for the Trie: exact up to 64-bit collisions).
        filter_bytes: The filter's size (bit array, or 8 bytes per Trie node).
    """

    kind: str
    exact_pairs: int
    removed: int
    probes: int
    false_positives: int
    design_rate: float
    filter_bytes: int

    @property
    def measured_rate(self) -> float:
        """False positives over probes (0 without probes)."""
        return self.false_positives / self.probes if self.probes else 0.0


class _Filter:
    """A Bloom filter or a Trie, with the look-ups of unseen keys counted."""

    def __init__(self, kind: str, expected: int, rate: float) -> None:
        self.kind = kind
        self._bloom = BloomFilter(max(expected, 1), rate) if kind == "bloom" else None
        self._trie = DigitTrie() if kind == "trie" else None
        self.probes = 0
        self.false_positives = 0
        self._design_sum = 0.0

    def seen(self, key: str, known: bool) -> bool:
        """The filter's answer for a key; ``known``: whether it truly was added."""
        answer = key in (self._bloom if self._bloom is not None else self._trie)  # type: ignore[operator]
        if not known:
            self.probes += 1
            self.false_positives += answer
            self._design_sum += self._bloom.design_rate() if self._bloom is not None else 0.0
        return answer

    def add(self, key: str) -> None:
        if self._bloom is not None:
            self._bloom.add(key)
        else:
            assert self._trie is not None
            self._trie.add(key)

    def stats(self, exact_pairs: int, removed: int) -> ExactStats:
        size = self._bloom.nbytes if self._bloom is not None else 8 * (self._trie.nodes if self._trie else 0)
        design = self._design_sum / self.probes if self.probes else 0.0
        return ExactStats(self.kind, exact_pairs, removed, self.probes, self.false_positives, design, size)


class ExactFirstIndex:
    """An exact stage (Bloom filter or Trie) in front of a sentence index.

    Args:
        index: Every indexed sentence (keys as the pipeline knows them).
        near: Builds the near-duplicate index of the sentences left (one per
            group of equal fingerprints).
        kind: ``bloom`` or ``trie``.
        rate: The Bloom filter's design false-positive rate.
        shared_of: The ``shared`` count the method gives a sentence paired
            with an equal one (its bag size; 64 bits for a SimHash).
    """

    def __init__(
        self,
        index: FeatureIndex,
        near: Callable[[FeatureIndex], Any],
        kind: str,
        rate: float,
        shared_of: Callable[[Bag], int] = lambda bag: sum(bag.values()),
    ) -> None:
        if kind not in ("bloom", "trie"):
            raise ValueError(f"kind must be bloom or trie, got {kind!r}")
        self.index = index
        entries = index.sentences
        keys = [bag_key(e.bag) for e in entries]
        self._filter = _Filter(kind, len(set(keys)), rate)
        self._group_of: dict[str, int] = {}
        self._members: list[list[int]] = []
        for key, digest in enumerate(keys):
            group = self._group_of.get(digest)
            if self._filter.seen(digest, group is not None) and group is not None:
                self._members[group].append(key)
                continue
            self._group_of[digest] = len(self._members)
            self._members.append([key])
            self._filter.add(digest)
        # The near index numbers each group's first member as its own document,
        # so that it excludes nothing: the real documents are checked after
        # expansion (two members of one group may lie in different documents).
        self._near_entries = FeatureIndex(max_postings=index.max_postings)
        for group, members in enumerate(self._members):
            self._near_entries.add(group, 0, entries[members[0]].bag)
        self._near = near(self._near_entries)
        self._docs = np.fromiter((e.doc for e in entries), np.int64, len(entries))
        self._exact_pairs = 0
        self._shared_of = shared_of

    @property
    def stats(self) -> ExactStats:
        """The exact stage's counts so far (building and every search)."""
        return self._filter.stats(self._exact_pairs, len(self.index.sentences) - len(self._members))

    def _expand(self, rows: np.ndarray, groups: np.ndarray, score: np.ndarray, shared: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Each (row, group) match as (row, member) for every member of the group."""
        sizes = np.fromiter((len(self._members[g]) for g in groups.tolist()), np.int64, len(groups))
        members = np.fromiter((k for g in groups.tolist() for k in self._members[g]), np.int64, int(sizes.sum()))
        return np.repeat(rows, sizes), members, np.repeat(score, sizes), np.repeat(shared, sizes)

    def search(self, bags: Sequence[Bag], rule: CopyRule, *, docs: Sequence[int] | None = None) -> PairMatches:
        """As the wrapped index's ``search``: exact matches first, then the
        distinct query fingerprints against one sentence per group."""
        digests = [bag_key(bag) for bag in bags]
        for digest in digests:  # the exact stage: filter first, then the groups
            group = self._group_of.get(digest)
            if self._filter.seen(digest, group is not None) and group is not None:
                self._exact_pairs += len(self._members[group])
        first_row: dict[str, int] = {}
        distinct = [first_row.setdefault(d, row) == row for row, d in enumerate(digests)]
        rows_of = np.fromiter((first_row[d] for d in digests), np.int64, len(digests))
        searched = np.flatnonzero(np.array(distinct, dtype=bool)) if digests else np.zeros(0, np.int64)
        found = self._near.search([bags[i] for i in searched.tolist()], rule)
        # every query row with the fingerprint of a searched row
        order = np.argsort(rows_of, kind="stable")
        lo = np.searchsorted(rows_of[order], searched[found.query], side="left")
        counts = np.searchsorted(rows_of[order], searched[found.query], side="right") - lo
        item, offsets = ranges(counts)
        rows = order[lo[item] + offsets].astype(np.int64)
        query, key, score, shared = self._expand(
            rows, np.repeat(found.key, counts), np.repeat(found.score, counts), np.repeat(found.shared, counts)
        )
        if docs is not None:
            keep = np.asarray(docs, np.int64)[query] != self._docs[key]
            query, key, score, shared = query[keep], key[keep], score[keep], shared[keep]
        return pair_matches(query, key, score, shared, found.candidates, None, found.skipped_postings)

    def search_all(
        self, rule: CopyRule, *, boilerplate: int = 0, crowded: Sequence[int] | np.ndarray = (), keep: PairFilter | None = None
    ) -> PairMatches:
        """As the wrapped index's ``search_all``: the exact pairs of each group
        without a search, the near pairs of the groups expanded to their members."""
        entries = self.index.sentences
        first: list[int] = []
        second: list[int] = []
        scores: list[float] = []
        shares: list[int] = []
        for members in self._members:  # exact duplicates: every pair of a group, no search
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    first.append(b)
                    second.append(a)
                    scores.append(1.0)
                    shares.append(self._shared_of(entries[a].bag))
        exact = len(first)
        found = self._near.search_all(rule)
        for gq, gk, score, shared in zip(found.query.tolist(), found.key.tolist(), found.score.tolist(), found.shared.tolist()):
            for a in self._members[gq]:
                for b in self._members[gk]:
                    first.append(a)
                    second.append(b)
                    scores.append(score)
                    shares.append(shared)
        a_keys, b_keys = np.array(first, np.int64), np.array(second, np.int64)
        query, key = np.maximum(a_keys, b_keys), np.minimum(a_keys, b_keys)
        score_array, shared_array = np.array(scores, np.float64), np.array(shares, np.int64)
        self._exact_pairs += int(np.sum(self._docs[query[:exact]] != self._docs[key[:exact]]))
        query, key, score_array, shared_array, common, links = pairs_kept(
            query, key, score_array, shared_array, self._docs, crowded, boilerplate, keep
        )
        return pair_matches(query, key, score_array, shared_array, found.candidates, common, found.skipped_postings, links)

    def frequent_features(self) -> int:
        """As the wrapped index."""
        return int(self._near.frequent_features())

    def frequent_sentences(self) -> int:
        """As the wrapped index."""
        return int(self._near.frequent_sentences())

    def feature_count(self) -> int:
        """As the wrapped index."""
        return int(self._near.feature_count())

    def posting_count(self) -> int:
        """As the wrapped index."""
        return int(self._near.posting_count())


def exact_run_stats(index: Any) -> dict[str, Any]:
    """The :class:`~partialdup.core.types.RunStats` fields of an index's exact
    stage (its sentence index's), none when it has no such stage."""
    stage = getattr(index, "sentences", index)
    if not isinstance(stage, ExactFirstIndex):
        return {}
    stats = stage.stats
    return {
        "exact_pairs": stats.exact_pairs,
        "exact_probes": stats.probes,
        "exact_false_positives": stats.false_positives,
        "exact_design_rate": stats.design_rate,
    }
