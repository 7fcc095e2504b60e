"""The candidate product cut by feature: the shuffle by feature of a distributed search.

:class:`~partialdup.index.sparse.SparseIndex` finds the candidate pairs of a
block of query rows with one sparse product, ``queries[rows] @ index_t``:
each usual column, a *(feature, occurrence)*, that a query row and a group
of identical sentences both hold adds 1 to their shared count. Cut the
columns into P parts and the product is the sum of the P products each
restricted to its part's columns. Cut by feature (every occurrence column of
a feature in one part, the part chosen by a stable hash of the feature, not
Python's salted ``hash()``) and each part is the look-up of its features
alone, what a worker holding those features' postings can compute: the
partial shared counts (Σ min multiplicities over its features) of the pairs
its features make candidates. Summed by pair, the partial counts are the
full counts over the usual features, for exactly the pairs the whole product
makes (a pair is a candidate when it shares a usual feature, that is when
some part counts it); the index then adds the frequent features' counts and
accepts, as for its own product.

A task of an engine need not be one of the index's blocks: the index cuts
its rows into blocks of at most ``BLOCK_ROWS`` rows for its own product, and
an engine pays for every task it hands out. :func:`task_blocks` groups
consecutive blocks as long as a group reaches at most as many postings as one
block may (``BLOCK_POSTINGS``, the index's memory bound; a part reaches fewer
still), so a task's memory is bounded as the index's own product is.

The functions here are pure (arrays in, arrays out), so an engine can run
them anywhere; :class:`PartitionedProduct` runs them in this process, the
reference the tests hold the blocked product and the Dask engine to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Protocol, Sequence

import numpy as np

if TYPE_CHECKING:
    from scipy import sparse

__all__ = [
    "Candidates",
    "CandidateProduct",
    "block_candidates",
    "PartitionedProduct",
    "ProductRequest",
    "feature_parts",
    "partial_candidates",
    "part_columns",
    "index_part",
    "query_part",
    "reduce_candidates",
    "sum_by_pair",
    "task_blocks",
]

#: (query row, group, shared count) of candidate pairs (int64 arrays).
Candidates = tuple[np.ndarray, np.ndarray, np.ndarray]

# splitmix64 (its step and finaliser): every bit of a feature moves every bit of its part.
_STEP = np.uint64(0x9E3779B97F4A7C15)
_MIX = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))


@dataclass(frozen=True)
class ProductRequest:
    """A candidate product a search asks for.

    Attributes:
        queries: Query rows over the index's usual columns (CSR).
        index_t: The index's usual columns over its groups (CSR, the
            transpose of its own rows).
        column_features: The feature of each usual column (uint64).
        bounds: Row ranges (low, high) of the blocks, each bounding the
            postings one product reaches (``SparseIndex._block_bounds``).
        below_self: Keep only the pairs whose group is below the query row
            (a search of the index against itself: each pair once).
    """

    queries: sparse.csr_matrix
    index_t: sparse.csr_matrix
    column_features: np.ndarray
    bounds: Sequence[tuple[int, int]]
    below_self: bool


class CandidateProduct(Protocol):
    """Runs a search's candidate product somewhere (this process, a cluster)."""

    def __call__(self, request: ProductRequest) -> Iterator[Candidates]:
        """For each block of ``request.bounds``, in order: (query row, group,
        shared count over the usual columns) of every pair sharing a usual
        column (below the query when ``below_self``), sorted by (query, group)."""
        ...


def feature_parts(features: np.ndarray, parts: int) -> np.ndarray:
    """The part (0 .. parts - 1) of each feature: a stable hash, the same on every machine and run."""
    mixed = np.asarray(features, np.uint64).copy()
    with np.errstate(over="ignore"):
        mixed += _STEP
        mixed ^= mixed >> np.uint64(30)
        mixed *= _MIX[0]
        mixed ^= mixed >> np.uint64(27)
        mixed *= _MIX[1]
        mixed ^= mixed >> np.uint64(31)
    return (mixed % np.uint64(max(parts, 1))).astype(np.int64)


def part_columns(column_features: np.ndarray, parts: int) -> list[np.ndarray]:
    """The usual columns of each part (int64, ascending): all of a feature's in one."""
    part = feature_parts(column_features, parts)
    order = np.argsort(part, kind="stable")
    ends = np.searchsorted(part[order], np.arange(1, parts + 1))
    return [column.astype(np.int64) for column in np.split(order, ends[:-1])]


def query_part(queries: sparse.csr_matrix, columns: np.ndarray) -> sparse.csr_matrix:
    """The query rows restricted to one part's columns (numbered anew, as :func:`index_part` numbers them)."""
    return queries[:, columns].tocsr()


def index_part(index_t: sparse.csr_matrix, columns: np.ndarray) -> sparse.csr_matrix:
    """The index's rows of one part's columns (numbered anew, as :func:`query_part` numbers them)."""
    return index_t[columns].tocsr()


def task_blocks(request: ProductRequest, postings: int) -> list[list[tuple[int, int]]]:
    """The request's blocks in groups of consecutive ones, each group reaching
    at most ``postings`` postings over all parts (a block over it alone)."""
    held = np.diff(request.index_t.indptr).astype(np.int64)  # groups holding each column
    reach = request.queries @ held if request.queries.shape[1] else np.zeros(request.queries.shape[0], np.int64)
    groups: list[list[tuple[int, int]]] = []
    spent = 0
    for low, high in request.bounds:
        cost = int(reach[low:high].sum())
        if not groups or spent + cost > postings:
            groups.append([])
            spent = 0
        groups[-1].append((low, high))
        spent += cost
    return groups


def partial_candidates(
    queries: sparse.csr_matrix, index_t: sparse.csr_matrix, blocks: Sequence[tuple[int, int]], below_self: bool
) -> list[Candidates]:
    """(query row, group, partial shared count) of each block over one part's columns."""
    return [block_candidates(queries, index_t, low, high, below_self) for low, high in blocks]


def block_candidates(
    queries: sparse.csr_matrix, index_t: sparse.csr_matrix, low: int, high: int, below_self: bool
) -> Candidates:
    """(query row, group, shared count over ``index_t``'s columns) of the
    pairs that query rows ``low:high`` make; ``below_self``: only groups
    below the row (an index searched against itself, each pair once)."""
    product = (queries[low:high] @ index_t).tocoo()
    query = product.row.astype(np.int64) + low
    group = product.col.astype(np.int64)
    shared = product.data.astype(np.int64)
    if below_self:
        keep = group < query
        query, group, shared = query[keep], group[keep], shared[keep]
    return query, group, shared


def reduce_candidates(partials: Sequence[Sequence[Candidates]]) -> list[Candidates]:
    """Each block's partial counts (``partials[part][block]``) summed by pair over the parts."""
    return [sum_by_pair(block) for block in zip(*partials)]


def sum_by_pair(partials: Sequence[Candidates]) -> Candidates:
    """The partial counts of one block summed by pair, sorted by (query, group)."""
    query = np.concatenate([np.empty(0, np.int64), *(p[0] for p in partials)])
    group = np.concatenate([np.empty(0, np.int64), *(p[1] for p in partials)])
    shared = np.concatenate([np.empty(0, np.int64), *(p[2] for p in partials)])
    width = int(group.max()) + 1 if len(group) else 1
    code, inverse = np.unique(query * width + group, return_inverse=True)
    # (Counts are small integers: the float sum is exact.)
    total = np.bincount(inverse.reshape(-1), weights=shared, minlength=len(code)).astype(np.int64)
    return code // width, code % width, total


class PartitionedProduct:
    """The candidate product cut into ``parts`` parts by feature, run in this
    process: the plain form of what an engine runs on its workers.

    Args:
        parts: How many parts the features are cut into.
        postings: Postings a group of blocks may reach (see :func:`task_blocks`).
    """

    def __init__(self, parts: int, postings: int) -> None:
        self.parts = parts
        self.postings = postings

    def __call__(self, request: ProductRequest) -> Iterator[Candidates]:
        """Each block's candidates, summed over the parts (see :class:`CandidateProduct`)."""
        pieces = [
            (query_part(request.queries, columns), index_part(request.index_t, columns))
            for columns in part_columns(request.column_features, self.parts)
        ]
        for blocks in task_blocks(request, self.postings):
            yield from reduce_candidates([partial_candidates(q, i, blocks, request.below_self) for q, i in pieces])
