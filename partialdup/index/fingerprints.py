"""Sentence indexes of the methods that are not searched by bag-Jaccard.

The pipeline reads an index of sentences through one contract, the one
:class:`~partialdup.index.sparse.SparseIndex` has: ``search(bags, rule,
docs=...)`` (query bags against the indexed sentences), ``search_all(rule)``
(every pair of indexed sentences of different documents, once, ``query`` the
larger key), ``index.sentences`` (document and sentence of each key),
``frequent_features()``, ``feature_count()`` and ``posting_count()``, and
answers in :class:`~partialdup.index.sparse.PairMatches` (query, key, score,
shared). The classes here honour it for the other search kinds of
:mod:`partialdup.methods.base`, so sequence matching sees the same pairs
whichever method found them:

* :class:`HammingSentenceIndex` (``search_kind == "simhash"``): 64-bit
  fingerprints in permuted tables (:func:`~partialdup.index.hamming.hamming_join`),
  never a full scan; ``rule.threshold`` is read as a Hamming bound by the
  method (``floor((1 - τ) · 64)`` for SimHash).
* :class:`LshSentenceIndex` (``"lsh"``): MinHash signatures searched by LSH
  bands (:func:`~partialdup.index.lsh.band_join`), b × r chosen from τ.
* :class:`RescoredIndex` (``"set"``): the inverted index finds the
  candidates (a rule that provably keeps every pair the method's score can
  accept), the method rescores them (short-text Jaccard, cosine, the
  bottom-k MinHash estimate).

A method's fingerprint travels through the pipeline (and its documents) as
a bag, hash -> count: each method encodes its fingerprint so (see its
module) and decodes it here. ``shared`` is the method's count of agreeing
parts (equal bits, equal signature positions, shared words), so the
pipeline's ``min_shared`` reads "enough evidence" for every method.
"""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any, Protocol, Sequence

import numpy as np

from partialdup.core.arrays import sorted_isin, sorted_unique
from partialdup.core.types import Bag
from partialdup.index.hamming import hamming_join
from partialdup.index.inverted import FeatureIndex
from partialdup.index.lsh import band_join, choose_bands
from partialdup.index.sparse import PairFilter, PairMatches, SparseIndex
from partialdup.methods.similarity import CopyRule

__all__ = [
    "HammingMethod",
    "HammingSentenceIndex",
    "LshMethod",
    "LshSentenceIndex",
    "RescoredIndex",
    "RescoredMethod",
    "crowded_keys",
    "lsh_bands",
    "pair_matches",
]

_EMPTY = np.zeros(0, np.int64)
#: Scores are compared with τ this much below it: τ = 1 - k/64 and a score
#: 1 - d/64 are computed the same way, but an explicit τ may not be.
_SLACK = 1e-9


def pair_matches(query: np.ndarray, key: np.ndarray, score: np.ndarray, shared: np.ndarray, candidates: int,
                 boilerplate: np.ndarray | None = None, skipped: int = 0, links: np.ndarray | None = None) -> PairMatches:
    """The pairs as :class:`PairMatches`, sorted by (query, key) (``boilerplate``
    and ``links`` kept when that class has the fields)."""
    order = np.lexsort((key, query))
    extra: dict[str, Any] = {}
    names = {f.name for f in fields(PairMatches)}
    if boilerplate is not None and "boilerplate" in names:
        extra["boilerplate"] = boilerplate
    if links is not None and "links" in names:
        extra["links"] = links
    return PairMatches(
        query[order].astype(np.int64), key[order].astype(np.int64), score[order].astype(np.float64),
        shared[order].astype(np.int64), candidates, skipped, **extra,
    )


class _FingerprintIndex:
    """What the indexes share: documents, exclusions, order, the contract's counters."""

    def __init__(self, index: FeatureIndex) -> None:
        self.index = index
        self._docs = np.fromiter((e.doc for e in index.sentences), np.int64, len(index.sentences))

    def _join(self, bags: Sequence[Bag], rule: CopyRule) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        raise NotImplementedError

    def _self_join(self, rule: CopyRule) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        raise NotImplementedError

    def search(self, bags: Sequence[Bag], rule: CopyRule, *, docs: Sequence[int] | None = None) -> PairMatches:
        """Indexed sentences the method accepts as copies of each query bag (see the module notes).

        Args:
            bags: Query sentences' fingerprints (as bags).
            rule: Its ``threshold`` is the method's τ.
            docs: Document number of each query; an indexed sentence of the
                same document is never returned. None: no exclusion.
        """
        if not len(self.index.sentences) or not len(bags):
            return pair_matches(_EMPTY, _EMPTY, np.zeros(0), _EMPTY, 0)
        query, key, score, shared, candidates = self._join(bags, rule)
        if docs is not None:
            keep = np.asarray(docs, np.int64)[query] != self._docs[key]
            query, key, score, shared = query[keep], key[keep], score[keep], shared[keep]
        return pair_matches(query, key, score, shared, candidates)

    def search_all(
        self, rule: CopyRule, *, boilerplate: int = 0, crowded: Sequence[int] | np.ndarray = (), keep: PairFilter | None = None
    ) -> PairMatches:
        """Every accepted pair of indexed sentences of different documents,
        once: ``query`` is the larger key, ``key`` the smaller.

        Args:
            rule: Its ``threshold`` is the method's τ.
            boilerplate, crowded, keep: As
                :meth:`partialdup.index.sparse.SparseIndex.search_all` (see
                :func:`pairs_kept`).
        """
        if len(self.index.sentences) < 2:
            return pair_matches(_EMPTY, _EMPTY, np.zeros(0), _EMPTY, 0, _EMPTY)
        first, second, score, shared, candidates = self._self_join(rule)
        query, key = np.maximum(first, second), np.minimum(first, second)
        query, key, score, shared, common, links = pairs_kept(query, key, score, shared, self._docs, crowded, boilerplate, keep)
        return pair_matches(query, key, score, shared, candidates, common, links=links)

    def frequent_features(self) -> int:
        """None: these indexes have no posting lists to bound."""
        return 0

    def frequent_sentences(self) -> int:
        """None (see :meth:`frequent_features`)."""
        return 0


def pairs_kept(
    query: np.ndarray,
    key: np.ndarray,
    score: np.ndarray,
    shared: np.ndarray,
    docs: np.ndarray,
    crowded: Sequence[int] | np.ndarray,
    boilerplate: int,
    keep: PairFilter | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of a self-join that ``search_all`` hands back, as
    :meth:`partialdup.index.sparse.SparseIndex.search_all` does: pairs of two
    sentences of one document dropped; the pairs between two ``crowded`` keys
    dropped, and between two keys matched in ``boilerplate`` or more other
    documents (a pair of one of them with any other sentence is kept); then
    those ``keep`` keeps.

    Returns:
        (query, key, score, shared) of the kept pairs, the keys found in
        ``boilerplate`` or more other documents (sorted; empty when 0), and
        the pairs dropped between two of those, (n, 2): the links of
        :attr:`~partialdup.index.sparse.PairMatches.links` (here every
        such pair, made anyway).
    """
    apart_documents = docs[query] != docs[key]
    if len(crowded):
        apart = np.asarray(crowded, np.int64)
        apart_documents &= ~(sorted_isin(query, apart) & sorted_isin(key, apart))
    query, key, score, shared = query[apart_documents], key[apart_documents], score[apart_documents], shared[apart_documents]
    common = crowded_keys(query, key, docs, boilerplate)
    links = np.empty((0, 2), np.int64)
    if common.size:
        kept = ~(sorted_isin(query, common) & sorted_isin(key, common))
        links = np.stack([query[~kept], key[~kept]], 1).astype(np.int64)
        query, key, score, shared = query[kept], key[kept], score[kept], shared[kept]
    if keep is not None:
        chosen = keep(query, key, score)
        query, key, score, shared = query[chosen], key[chosen], score[chosen], shared[chosen]
    return query, key, score, shared, common, links


def crowded_keys(query: np.ndarray, key: np.ndarray, docs: np.ndarray, boilerplate: int) -> np.ndarray:
    """Keys whose pairs reach ``boilerplate`` other documents (sorted), none when 0."""
    if boilerplate <= 0 or not query.size:
        return _EMPTY
    ends = np.concatenate([np.stack([query, docs[key]], 1), np.stack([key, docs[query]], 1)])
    distinct = np.unique(ends, axis=0)
    keys, counts = np.unique(distinct[:, 0], return_counts=True)
    return keys[counts >= boilerplate].astype(np.int64)


class HammingMethod(Protocol):
    """What :class:`HammingSentenceIndex` needs of a method (SimHash, SimHash-Cosine)."""

    def fingerprint_of(self, bag: Bag) -> int:
        """The 64-bit fingerprint a bag encodes."""
        ...

    def candidate_bound(self, threshold: float) -> int:
        """k: the permuted tables find every pair within k bits."""
        ...

    def pair_scores(self, distance: np.ndarray, first: Sequence[Bag], second: Sequence[Bag]) -> tuple[np.ndarray, np.ndarray]:
        """(score, shared) of candidate pairs at these Hamming distances."""
        ...


class HammingSentenceIndex(_FingerprintIndex):
    """Sentences' 64-bit fingerprints in permuted tables (``search_kind == "simhash"``).

    Args:
        index: The indexed sentences (their bags encode the fingerprints).
        method: Decodes fingerprints and scores pairs.
    """

    def __init__(self, index: FeatureIndex, method: HammingMethod) -> None:
        super().__init__(index)
        self.method = method
        entries = index.sentences
        self._fingerprints = np.fromiter((method.fingerprint_of(e.bag) for e in entries), np.uint64, len(entries))

    def _scored(self, query: np.ndarray, key: np.ndarray, distance: np.ndarray, first: Sequence[Bag], rule: CopyRule,
                candidates: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        entries = self.index.sentences
        score, shared = self.method.pair_scores(distance, [first[q] for q in query.tolist()], [entries[k].bag for k in key.tolist()])
        keep = score >= rule.threshold - _SLACK
        return query[keep], key[keep], score[keep], shared[keep], candidates

    def _join(self, bags: Sequence[Bag], rule: CopyRule) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        rows = np.fromiter((i for i, bag in enumerate(bags) if bag), np.int64)
        prints = np.fromiter((self.method.fingerprint_of(bags[i]) for i in rows.tolist()), np.uint64, len(rows))
        found = hamming_join(prints, self._fingerprints, self.method.candidate_bound(rule.threshold))
        return self._scored(rows[found.query], found.key, found.distance, bags, rule, found.candidates)

    def _self_join(self, rule: CopyRule) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        found = hamming_join(self._fingerprints, None, self.method.candidate_bound(rule.threshold))
        bags = [e.bag for e in self.index.sentences]
        return self._scored(found.query, found.key, found.distance, bags, rule, found.candidates)

    def feature_count(self) -> int:
        """Distinct fingerprints stored."""
        return int(sorted_unique(self._fingerprints).size)

    def posting_count(self) -> int:
        """Table entries: each sentence sits in the k + 1 tables of the default bound."""
        return len(self._fingerprints) * (self.method.candidate_bound(1.0) + 1)


class LshMethod(Protocol):
    """What :class:`LshSentenceIndex` needs of a method (MinHash, n hash functions)."""

    @property
    def permutations(self) -> int:
        """m, values per signature."""
        ...

    def signatures(self, bags: Sequence[Bag]) -> np.ndarray:
        """The signatures the bags encode (one row each, uint64)."""
        ...


#: LSH bands weigh a missed pair this many times a needless candidate (the
#: candidates are verified, so a miss costs more than a candidate).
FN_WEIGHT, FP_WEIGHT = 0.8, 0.2


@functools.lru_cache(maxsize=64)
def lsh_bands(threshold: float, permutations: int) -> tuple[int, int]:
    """(b, r) of the LSH bands for τ and m (:func:`~partialdup.index.lsh.choose_bands`, τ kept in [0.01, 0.99])."""
    return choose_bands(min(max(threshold, 0.01), 0.99), permutations, fp_weight=FP_WEIGHT, fn_weight=FN_WEIGHT)


class LshSentenceIndex(_FingerprintIndex):
    """MinHash signatures searched by LSH bands (``search_kind == "lsh"``).

    A pair is a candidate when its signatures agree on a whole band; its
    score is the share of agreeing positions (the Jaccard estimate) and
    ``shared`` their number.

    Args:
        index: The indexed sentences (their bags encode the signatures).
        method: Decodes signatures and chooses the bands.
    """

    def __init__(self, index: FeatureIndex, method: LshMethod) -> None:
        super().__init__(index)
        self.method = method
        self._signatures = method.signatures([e.bag for e in index.sentences])

    def _scored(self, queries: np.ndarray, query: np.ndarray, key: np.ndarray, rule: CopyRule
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        shared = np.count_nonzero(queries[query] == self._signatures[key], axis=1).astype(np.int64)
        score = shared / max(queries.shape[1], 1)
        keep = score >= rule.threshold - _SLACK
        return query[keep], key[keep], score[keep], shared[keep]

    def _join(self, bags: Sequence[Bag], rule: CopyRule) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        rows = np.fromiter((i for i, bag in enumerate(bags) if bag), np.int64)
        queries = self.method.signatures([bags[i] for i in rows.tolist()])
        bands, width = lsh_bands(rule.threshold, self.method.permutations)
        query, key = band_join(queries, self._signatures, bands, width)
        query, key, score, shared = self._scored(queries, query, key, rule)
        return rows[query], key, score, shared, len(query)

    def _self_join(self, rule: CopyRule) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        bands, width = lsh_bands(rule.threshold, self.method.permutations)
        first, second = band_join(self._signatures, None, bands, width)
        candidates = len(first)
        first, second, score, shared = self._scored(self._signatures, first, second, rule)
        return first, second, score, shared, candidates

    def feature_count(self) -> int:
        """Distinct (position, value) entries of the stored signatures."""
        return int(sum(sorted_unique(column).size for column in self._signatures.T)) if self._signatures.size else 0

    def posting_count(self) -> int:
        """Band entries: one per sentence and band of the default threshold."""
        return 0 if not self._signatures.size else self._signatures.shape[0] * lsh_bands(0.5, self.method.permutations)[0]


class RescoredMethod(Protocol):
    """What :class:`RescoredIndex` needs of a method (short-text Jaccard, cosine, bottom-k MinHash)."""

    def candidate_rule(self, rule: CopyRule) -> CopyRule:
        """A bag rule accepting every pair whose score may reach ``rule.threshold``."""
        ...

    def pair_scores(self, shared: np.ndarray, first_sizes: np.ndarray, second_sizes: np.ndarray,
                    first: Sequence[Bag], second: Sequence[Bag]) -> np.ndarray:
        """The method's score of each candidate pair (its bags given for exact rescoring)."""
        ...


class RescoredIndex(_FingerprintIndex):
    """The inverted index's candidates, rescored by the method (``search_kind == "set"``).

    Args:
        index: The indexed sentences.
        method: The candidate rule and the score.
    """

    def __init__(self, index: FeatureIndex, method: RescoredMethod) -> None:
        super().__init__(index)
        self.method = method
        self._inner = SparseIndex(index)
        self._sizes = np.fromiter((e.size for e in index.sentences), np.int64, len(index.sentences))

    def _rescored(self, found: PairMatches, query_bags: Sequence[Bag], query_sizes: np.ndarray, rule: CopyRule
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        entries = self.index.sentences
        score = self.method.pair_scores(
            found.shared, query_sizes[found.query], self._sizes[found.key],
            [query_bags[q] for q in found.query.tolist()], [entries[k].bag for k in found.key.tolist()],
        )
        keep = score >= rule.threshold - _SLACK
        return found.query[keep], found.key[keep], score[keep], found.shared[keep], found.candidates

    def _join(self, bags: Sequence[Bag], rule: CopyRule) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        found = self._inner.search(bags, self.method.candidate_rule(rule))
        sizes = np.fromiter((sum(b.values()) for b in bags), np.int64, len(bags))
        return self._rescored(found, bags, sizes, rule)

    def _self_join(self, rule: CopyRule) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        found = self._inner.search_all(self.method.candidate_rule(rule))
        return self._rescored(found, [e.bag for e in self.index.sentences], self._sizes, rule)

    def frequent_features(self) -> int:
        """As the inner :class:`SparseIndex`."""
        return self._inner.frequent_features()

    def frequent_sentences(self) -> int:
        """As the inner :class:`SparseIndex`."""
        return self._inner.frequent_sentences()

    def feature_count(self) -> int:
        """As the inner :class:`SparseIndex`."""
        return self._inner.feature_count()

    def posting_count(self) -> int:
        """As the inner :class:`SparseIndex`."""
        return self._inner.posting_count()
