"""The sparse index's matrices and the scoring of their products.

A bag becomes a row of 0/1 entries over *(feature, occurrence)* columns (see
:mod:`partialdup.index.sparse`): :func:`expand_bags` lists those entries,
:func:`index_columns` numbers an index's columns, :func:`rows_matrix`
makes the rows (:func:`binary_matrix` is its plain reference). A product's
candidate pairs come with their shared counts; :func:`accept` scores them
and tells which a :class:`CopyRule` accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from partialdup.core.bags import FlatBags
from partialdup.core.types import Bag
from partialdup.methods.similarity import CopyRule

if TYPE_CHECKING:
    from scipy import sparse

__all__ = [
    "IndexColumns",
    "PairFilter",
    "accept",
    "binary_matrix",
    "expand_bags",
    "expand_flat",
    "index_columns",
    "kept_pairs",
    "numbered_features",
    "own_columns",
    "rows_matrix",
]

#: A filter of pairs: (query, key, score) arrays -> a mask of those to keep.
PairFilter = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class IndexColumns:
    """Sorted distinct features of the index, with where their columns start."""

    features: np.ndarray  # uint64, sorted, distinct
    width: np.ndarray  # int32 (int64 past its range): highest multiplicity of the feature in one bag
    start: np.ndarray  # int32 (int64 past its range): column of (feature, 0) in its matrix
    frequent: np.ndarray  # bool: over max_postings (distinct bags holding the feature)
    sentences: np.ndarray  # int32 (int64 past its range): sentences holding the feature


def expand_bags(bags: Sequence[Bag]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, feature, occurrence) of every feature occurrence, one entry per copy."""
    return expand_flat(FlatBags.of(bags))


def expand_flat(flat: FlatBags) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`expand_bags` of bags given as arrays: rows and occurrences as
    int32 (an index's build holds the three arrays of every feature
    occurrence at once, its peak)."""
    feature_array, count_array = flat.features, flat.counts
    rows = np.repeat(np.arange(len(flat), dtype=np.int32), flat.sizes)
    total = int(count_array.sum())
    occurrences = np.arange(total, dtype=np.int32)
    occurrences -= np.repeat((np.cumsum(count_array) - count_array).astype(np.int32), count_array)
    return np.repeat(rows, count_array), np.repeat(feature_array, count_array), occurrences


def numbered_features(features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(features, return_inverse=True)``: the distinct features,
    sorted, and where each of ``features`` is among them, as int32 where it
    fits. numpy's holds five arrays of every entry at once, four of 8 bytes;
    this one three, the sorted copy let go before the numbers are made.
    (A binary search of each feature instead of the argsort takes a third of
    the memory but five times the time: 0.6 s for a million.)"""
    order = np.argsort(features)
    ordered = features[order]
    new = np.empty(len(ordered), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    distinct = ordered[new]
    del ordered
    numbers: np.ndarray = np.cumsum(new, dtype=np.int32 if len(features) < np.iinfo(np.int32).max else np.int64)
    np.subtract(numbers, 1, out=numbers)
    inverse = np.empty_like(numbers)
    inverse[order] = numbers
    return distinct, inverse


def index_columns(
    distinct: np.ndarray, inverse: np.ndarray, occurrences: np.ndarray, rows: np.ndarray, max_postings: int, members: np.ndarray
) -> IndexColumns:
    """Columns of the groups' features (:func:`numbered_features` of the
    features of every occurrence: ``distinct`` and ``inverse``); ``members``:
    sentences in each group (row). Held as long as the index, one entry a
    distinct feature: its counts in int32 where every one fits, the postings
    count let go once it has told the frequent ones (en 8x: 232,000
    features, 20 bytes a feature less)."""
    width = np.zeros(len(distinct), np.int64)
    np.maximum.at(width, inverse, occurrences + 1)
    first = occurrences == 0
    postings = np.bincount(inverse[first], minlength=len(distinct))
    frequent = postings > max_postings
    del postings
    sentences = np.bincount(inverse[first], weights=members[rows[first]], minlength=len(distinct)).astype(np.int64)
    start = np.zeros(len(distinct), np.int64)
    for group in (~frequent, frequent):  # each matrix numbers its own columns from 0
        start[group] = np.cumsum(width[group]) - width[group]
    # Every start is below the columns' total, every count below the sentences'.
    dtype = np.int32 if max(int(width.sum()), int(members.sum())) < np.iinfo(np.int32).max else np.int64
    narrow = [column.astype(dtype, copy=False) for column in (width, start, sentences)]  # no copy when int64
    return IndexColumns(distinct, narrow[0], narrow[1], frequent, narrow[2])


def own_columns(columns: IndexColumns, where: np.ndarray, occurrences: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The column of each of an index's own feature occurrences (``where``:
    its feature among ``columns``, from :func:`numbered_features`), as int32
    when the columns allow, and whether it is a frequent feature's."""
    column = columns.start[where]  # int32 when every column's number fits (index_columns)
    column += occurrences
    return column, columns.frequent[where]


def kept_pairs(
    query: np.ndarray, key: np.ndarray, score: np.ndarray, shared: np.ndarray, keep: PairFilter | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pairs ``keep`` keeps (all without it)."""
    if keep is None:
        return query, key, score, shared
    mask = keep(query, key, score)
    return query[mask], key[mask], score[mask], shared[mask]


def rows_matrix(rows: np.ndarray, columns: np.ndarray, height: int, width: int) -> sparse.csr_matrix:
    """:func:`binary_matrix` of ``rows`` in ascending order, made as CSR
    straight away: its row starts from a binary search, its columns sorted
    in place, where SciPy's COO path copies both arrays twice."""
    from scipy import sparse

    width = max(width, 0)
    dtype = np.int32 if max(len(rows), height, width) < np.iinfo(np.int32).max else np.int64
    starts = np.searchsorted(rows, np.arange(height + 1)).astype(dtype)
    matrix = sparse.csr_matrix(
        (np.ones(len(rows), dtype=np.int32), columns.astype(dtype), starts), shape=(height, width), dtype=np.int32
    )
    matrix.sort_indices()
    return matrix


def binary_matrix(rows: np.ndarray, columns: np.ndarray, height: int, width: int) -> sparse.csr_matrix:
    """A 0/1 matrix with ones at (``rows``, ``columns``): the plain
    reference of :func:`rows_matrix`."""
    from scipy import sparse  # lazily: imported once the index is built, not at every start

    data = np.ones(len(rows), dtype=np.int32)
    return sparse.csr_matrix((data, (rows, columns)), shape=(height, max(width, 0)), dtype=np.int32)


def accept(shared: np.ndarray, size_a: np.ndarray, size_b: np.ndarray, rule: CopyRule) -> tuple[np.ndarray, np.ndarray]:
    """Which pairs ``rule`` accepts, and their bag-Jaccard (as CopyRule.accepts)."""
    union = size_a + size_b - shared
    score = shared.astype(np.float64) / np.maximum(union, 1).astype(np.float64)
    keep = (union > 0) & (score >= rule.threshold)
    if rule.containment > 0.0:
        smaller = np.minimum(size_a, size_b)
        contained = shared.astype(np.float64) / np.maximum(smaller, 1).astype(np.float64)
        keep |= (smaller >= rule.min_contained) & (contained >= rule.containment)
    return keep, score
