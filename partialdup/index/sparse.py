"""Vectorised sentence-pair search: the inverted index as a sparse matrix.

:func:`partialdup.index.plain.plain_query` is the plain reference, one
Python loop per query sentence; on a corpus it spends most of its time on
per-query overhead. :class:`SparseIndex` finds exactly the same matches for a
whole block of queries with one sparse matrix product (scipy's compiled
SpGEMM), then scores every candidate with NumPy. The property tests check
the two agree pair for pair and score for score.

A bag becomes a row of 0/1 entries over *(feature, occurrence)* columns: a
feature held twice fills columns (f, 0) and (f, 1). The dot product of two
such rows is then exactly the bag intersection, Σ min counts, and the
bag-Jaccard follows from the two sizes. Features held by more than
``max_postings`` sentences sit in a matrix of their own: they never make two
sentences candidates (that is what would make the search quadratic), but they
count in the score of a pair found through another feature, as in the
reference.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np
from scipy import sparse

from partialdup.index.inverted import FeatureIndex
from partialdup.methods.similarity import CopyRule
from partialdup.core.types import Bag

__all__ = ["SparseIndex", "PairMatches", "ReferenceIndex"]

#: Query sentences per matrix product, at most ...
BLOCK_ROWS = 4096

#: ... and postings a block may reach (each a candidate pair before the sum
#: per pair): bounds the memory of one product, about 12 bytes each, whatever
#: the corpus and however common its features.
BLOCK_POSTINGS = 20_000_000


@dataclass(frozen=True)
class PairMatches:
    """Accepted sentence pairs, sorted by (query, key).

    Attributes:
        query: Position of the query sentence in the list searched (int64).
        key: Index key of the matching indexed sentence (int64).
        score: Their bag-Jaccard (float64), computed as the reference does.
        shared: Features they share, Σmin of the two bags (int64).
        candidates: Pairs sharing a feature that were scored.
        skipped_postings: Postings of over-frequent features not used to find
            candidates (each query sentence counts the postings it skipped).
    """

    query: np.ndarray
    key: np.ndarray
    score: np.ndarray
    shared: np.ndarray
    candidates: int
    skipped_postings: int

    def sharing(self, least: int) -> PairMatches:
        """The pairs sharing at least ``least`` features (same counters)."""
        keep = self.shared >= least
        return replace(self, query=self.query[keep], key=self.key[keep], score=self.score[keep], shared=self.shared[keep])


@dataclass(frozen=True)
class _Columns:
    """Sorted distinct features of the index, with where their columns start."""

    features: np.ndarray  # uint64, sorted, distinct
    width: np.ndarray  # int64: highest multiplicity of the feature in one bag
    start: np.ndarray  # int64: column of (feature, 0) in its matrix
    frequent: np.ndarray  # bool: over max_postings
    postings: np.ndarray  # int64: sentences holding the feature


class SparseIndex:
    """A read-only matrix view of a built :class:`FeatureIndex`.

    Build it once the index holds every reference sentence; adding to the
    index afterwards is not seen.

    Args:
        index: The inverted index to search.
    """

    def __init__(self, index: FeatureIndex) -> None:
        self.index = index
        bags = [entry.bag for entry in index.sentences]
        self._docs = np.fromiter((e.doc for e in index.sentences), np.int64, len(bags))
        self._sizes = np.fromiter((e.size for e in index.sentences), np.int64, len(bags))
        rows, features, occurrences = _expand(bags)
        self._columns = _index_columns(features, occurrences, rows, index.max_postings)
        self._usual, self._frequent, _ = self._query_matrices(rows, features, occurrences, len(bags))
        self._usual_t = self._usual.T.tocsr()

    def feature_count(self) -> int:
        """Distinct features indexed (as :meth:`FeatureIndex.feature_count`)."""
        return len(self._columns.features)

    def posting_count(self) -> int:
        """Postings stored (as :meth:`FeatureIndex.posting_count`)."""
        return int(self._columns.postings.sum())

    def frequent_features(self) -> int:
        """How many features exceed ``max_postings`` (as :meth:`FeatureIndex.frequent_features`)."""
        return int(self._columns.frequent.sum())

    def search(
        self,
        bags: Sequence[Bag],
        rule: CopyRule,
        *,
        docs: Sequence[int] | None = None,
    ) -> PairMatches:
        """Indexed sentences that ``rule`` accepts as copies of each query bag.

        Args:
            bags: Query sentences' bags.
            rule: When a pair is a copy.
            docs: Document number of each query; an indexed sentence of the
                same document is never returned. None: no exclusion.
        """
        rows, features, occurrences = _expand(bags)
        usual, frequent, skipped = self._query_matrices(rows, features, occurrences, len(bags))
        sizes = np.fromiter((sum(b.values()) for b in bags), np.int64, len(bags))
        query_docs = np.full(len(bags), -1, np.int64) if docs is None else np.asarray(docs, np.int64)
        return self._blocks(usual, frequent, sizes, query_docs, rule, below_self=False, skipped=skipped)

    def search_all(self, rule: CopyRule) -> PairMatches:
        """Every pair of indexed sentences of different documents that ``rule``
        accepts, once: ``query`` is the larger key, ``key`` the smaller."""
        # The k-th sentence holding a frequent feature skips the k - 1 before it.
        held = self._columns.postings[self._columns.frequent]
        skipped = int(np.sum(held * (held - 1) // 2))
        return self._blocks(self._usual, self._frequent, self._sizes, self._docs, rule, below_self=True, skipped=skipped)

    def _blocks(
        self,
        usual: sparse.csr_matrix,
        frequent: sparse.csr_matrix,
        sizes: np.ndarray,
        query_docs: np.ndarray,
        rule: CopyRule,
        *,
        below_self: bool,
        skipped: int,
    ) -> PairMatches:
        queries, keys, scores = [np.empty(0, np.int64)], [np.empty(0, np.int64)], [np.empty(0, np.float64)]
        shares = [np.empty(0, np.int64)]
        candidates = 0
        for low, high in self._block_bounds(usual):
            query, key, shared = self._candidates(usual, frequent, low, high, query_docs, below_self)
            candidates += len(query)
            keep, score = _accept(shared, sizes[query], self._sizes[key], rule)
            queries.append(query[keep])
            keys.append(key[keep])
            scores.append(score[keep])
            shares.append(shared[keep])
        query, key, score, shared = (np.concatenate(parts) for parts in (queries, keys, scores, shares))
        order = np.lexsort((key, query))  # blocks are in query order; keys within a row may not be
        return PairMatches(query[order], key[order], score[order], shared[order], candidates, skipped)

    def _block_bounds(self, usual: sparse.csr_matrix) -> list[tuple[int, int]]:
        """Row ranges of at most BLOCK_ROWS rows and, but for a single row,
        at most BLOCK_POSTINGS postings reached."""
        held = np.diff(self._usual_t.indptr).astype(np.int64)  # sentences holding each column
        cost = usual @ held if usual.shape[1] else np.zeros(usual.shape[0], np.int64)
        bounds, low, spent = [], 0, 0
        for row, reach in enumerate(cost.tolist()):
            if row > low and (row - low >= BLOCK_ROWS or spent + reach > BLOCK_POSTINGS):
                bounds.append((low, row))
                low, spent = row, 0
            spent += reach
        if low < usual.shape[0]:
            bounds.append((low, usual.shape[0]))
        return bounds

    def _candidates(
        self,
        usual: sparse.csr_matrix,
        frequent: sparse.csr_matrix,
        low: int,
        high: int,
        query_docs: np.ndarray,
        below_self: bool,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Pairs sharing a usual feature, with their full shared count."""
        product = (usual[low:high] @ self._usual_t).tocoo()
        query = product.row.astype(np.int64) + low
        key = product.col.astype(np.int64)
        shared = product.data.astype(np.int64)
        keep = query_docs[query] != self._docs[key]
        if below_self:
            keep &= key < query
        query, key, shared = query[keep], key[keep], shared[keep]
        if frequent.nnz and len(query):
            # Frequent features count in the score of a pair found otherwise.
            both = frequent[query].multiply(self._frequent[key])
            shared = shared + np.asarray(both.sum(axis=1), np.int64).ravel()
        return query, key, shared

    def _query_matrices(
        self, rows: np.ndarray, features: np.ndarray, occurrences: np.ndarray, count: int
    ) -> tuple[sparse.csr_matrix, sparse.csr_matrix, int]:
        """Rows over the usual and over the frequent columns (features the index
        lacks drop out), and the postings the frequent ones hold."""
        c = self._columns
        if not len(c.features):
            empty = _binary(rows[:0], rows[:0], count, 0)
            return empty, empty, 0
        where = np.minimum(np.searchsorted(c.features, features), len(c.features) - 1)
        known = (c.features[where] == features) & (occurrences < c.width[where])
        column = c.start[where] + occurrences
        usual, frequent = known & ~c.frequent[where], known & c.frequent[where]
        skipped = int(c.postings[where[frequent & (occurrences == 0)]].sum())
        return (
            _binary(rows[usual], column[usual], count, int(c.width[~c.frequent].sum())),
            _binary(rows[frequent], column[frequent], count, int(c.width[c.frequent].sum())),
            skipped,
        )


def _expand(bags: Sequence[Bag]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, feature, occurrence) of every feature occurrence, one entry per copy."""
    features: list[int] = []
    counts: list[int] = []
    lengths: list[int] = []
    for bag in bags:
        features.extend(bag.keys())
        counts.extend(bag.values())
        lengths.append(len(bag))
    feature_array = np.array(features, dtype=np.uint64)
    count_array = np.array(counts, dtype=np.int64)
    rows = np.repeat(np.arange(len(bags), dtype=np.int64), np.array(lengths, dtype=np.int64))
    total = int(count_array.sum())
    first = np.repeat(np.cumsum(count_array) - count_array, count_array)
    occurrences = np.arange(total, dtype=np.int64) - first
    return np.repeat(rows, count_array), np.repeat(feature_array, count_array), occurrences


def _index_columns(features: np.ndarray, occurrences: np.ndarray, rows: np.ndarray, max_postings: int) -> _Columns:
    distinct, inverse = np.unique(features, return_inverse=True)
    width = np.zeros(len(distinct), np.int64)
    np.maximum.at(width, inverse, occurrences + 1)
    postings = np.bincount(inverse[occurrences == 0], minlength=len(distinct)).astype(np.int64)
    frequent = postings > max_postings
    start = np.zeros(len(distinct), np.int64)
    for group in (~frequent, frequent):  # each matrix numbers its own columns from 0
        start[group] = np.cumsum(width[group]) - width[group]
    return _Columns(distinct, width, start, frequent, postings)


def _binary(rows: np.ndarray, columns: np.ndarray, height: int, width: int) -> sparse.csr_matrix:
    data = np.ones(len(rows), dtype=np.int32)
    return sparse.csr_matrix((data, (rows, columns)), shape=(height, max(width, 0)), dtype=np.int32)


def _accept(shared: np.ndarray, size_a: np.ndarray, size_b: np.ndarray, rule: CopyRule) -> tuple[np.ndarray, np.ndarray]:
    """Which pairs ``rule`` accepts, and their bag-Jaccard (as CopyRule.accepts)."""
    union = size_a + size_b - shared
    score = shared.astype(np.float64) / np.maximum(union, 1).astype(np.float64)
    keep = (union > 0) & (score >= rule.threshold)
    if rule.containment > 0.0:
        smaller = np.minimum(size_a, size_b)
        contained = shared.astype(np.float64) / np.maximum(smaller, 1).astype(np.float64)
        keep |= (smaller >= rule.min_contained) & (contained >= rule.containment)
    return keep, score


@dataclass(frozen=True)
class ReferenceIndex:
    """Reference documents, indexed for :meth:`partialdup.pipeline.detector.Detector.check_against`.

    Attributes:
        sentences: One row per matchable sentence; its ``index`` is the plain
            :class:`partialdup.index.inverted.FeatureIndex` it was built from.
        joins: One row per rejoined pair of neighbouring sentences (see
            :attr:`partialdup.core.types.DocumentFeatures.joins`); an entry's ``sentence`` is the
            first of the two.
    """

    sentences: SparseIndex
    joins: SparseIndex

    def feature_count(self) -> int:
        """Distinct features stored, counted in each of the two indexes."""
        return self.sentences.feature_count() + self.joins.feature_count()

    def posting_count(self) -> int:
        """Postings stored in the two indexes."""
        return self.sentences.posting_count() + self.joins.posting_count()
