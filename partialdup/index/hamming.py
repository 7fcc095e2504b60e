"""Permuted tables: every pair of 64-bit fingerprints within Hamming distance k.

Manku, Jain and Das Sarma (WWW 2007): cut the 64 bits into k + 1 blocks.
Two fingerprints that differ in at most k bits differ in at most k blocks,
so by the pigeonhole principle they agree exactly on at least one block.
One table per block, keyed by that block's bits (a "permuted" table: the
paper permutes the bits so the block leads and sorts the table; a table
sorted by block value, searched with ``searchsorted``, is the same thing),
brings together every pair that could be within k; each candidate is then
verified by the popcount of the XOR. Never a full scan: a query only meets
the fingerprints of its own buckets. Pairs farther than k bits may share a
block too; verification drops them, so the answer is exact.

* :class:`HammingIndex`: incremental (add one, query one; dict buckets), as
  Single-Pass clustering needs it (:mod:`partialdup.jobs.dedup`).
* :func:`hamming_join`: all pairs of a query array against a key array, or
  of one array with itself, vectorised with NumPy (sorted block columns).
* :func:`hamming_join_reference`: the brute-force reference, every pair
  compared; the tests prove the two return the same pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

from partialdup.core.arrays import popcount, ranges

__all__ = [
    "HammingIndex",
    "HammingPairs",
    "block_masks",
    "hamming_join",
    "hamming_join_reference",
]

BITS = 64


def block_masks(k: int, bits: int = BITS) -> list[tuple[int, int]]:
    """(shift, mask) of the k + 1 blocks, as equal in width as the bits allow."""
    if not 0 <= k < bits:
        raise ValueError(f"k must lie in [0, {bits}), got {k}")
    count = k + 1
    widths = [bits // count + (1 if i < bits % count else 0) for i in range(count)]
    out, shift = [], 0
    for width in widths:
        out.append((shift, (1 << width) - 1))
        shift += width
    return out


@dataclass(frozen=True)
class HammingPairs:
    """Pairs within the bound, sorted by (query, key).

    Attributes:
        query: Position in the query array (int64).
        key: Position in the key array (int64).
        distance: Their Hamming distance (int64).
        candidates: Distinct pairs met in some bucket and verified.
    """

    query: np.ndarray
    key: np.ndarray
    distance: np.ndarray
    candidates: int


def _block_candidates(queries: np.ndarray, keys: np.ndarray, shift: int, mask: int) -> tuple[np.ndarray, np.ndarray]:
    """(query, key) positions whose block values are equal: one sorted table per block."""
    qb = (queries >> np.uint64(shift)) & np.uint64(mask)
    kb = (keys >> np.uint64(shift)) & np.uint64(mask)
    order = np.argsort(kb, kind="stable")
    sorted_blocks = kb[order]
    lo = np.searchsorted(sorted_blocks, qb, side="left")
    hi = np.searchsorted(sorted_blocks, qb, side="right")
    counts = hi - lo
    q, offsets = ranges(counts)  # positions lo..hi-1 of every query, flattened
    return q, order[lo[q] + offsets].astype(np.int64)


def hamming_join(queries: np.ndarray, keys: np.ndarray | None, k: int) -> HammingPairs:
    """Every (query, key) pair within Hamming distance k, through k + 1 block tables.

    Args:
        queries: Fingerprints searched for (uint64).
        keys: Fingerprints searched among (uint64); None joins ``queries``
            with itself and keeps each pair once, query < key.
        k: The largest distance kept.

    Returns:
        The pairs, sorted by (query, key), with their distances.
    """
    queries = np.asarray(queries, dtype=np.uint64)
    self_join = keys is None
    keys = queries if keys is None else np.asarray(keys, dtype=np.uint64)
    found_q, found_k = [], []
    for shift, mask in block_masks(k):
        q, key = _block_candidates(queries, keys, shift, mask)
        keep = q < key if self_join else slice(None)
        found_q.append(q[keep])
        found_k.append(key[keep])
    q = np.concatenate(found_q) if found_q else np.zeros(0, np.int64)
    key = np.concatenate(found_k) if found_k else np.zeros(0, np.int64)
    # one pair may share several blocks: keep it once
    pair = np.unique(np.stack([q, key], axis=1), axis=0) if q.size else np.zeros((0, 2), np.int64)
    distance = popcount(queries[pair[:, 0]] ^ keys[pair[:, 1]])
    ok = distance <= k
    return HammingPairs(pair[ok, 0], pair[ok, 1], distance[ok], int(pair.shape[0]))


def hamming_join_reference(queries: list[int], keys: list[int] | None, k: int) -> list[tuple[int, int, int]]:
    """Brute force: every pair compared, ``(query, key, distance)`` within k, sorted."""
    self_join = keys is None
    pool = queries if keys is None else keys
    out = []
    for i, a in enumerate(queries):
        for j, b in enumerate(pool):
            if self_join and j <= i:
                continue
            distance = (int(a) ^ int(b)).bit_count()
            if distance <= k:
                out.append((i, j, distance))
    return out


class HammingIndex:
    """Incremental permuted tables: add fingerprints one by one, find those within k.

    Args:
        k: The largest Hamming distance a query finds.
    """

    def __init__(self, k: int) -> None:
        self.k = k
        self._blocks = block_masks(k)
        self._tables: list[dict[int, list[int]]] = [{} for _ in self._blocks]
        self.fingerprints: list[int] = []

    def __len__(self) -> int:
        return len(self.fingerprints)

    def add(self, fingerprint: int) -> int:
        """Index a fingerprint; returns its key (keys increase from 0)."""
        key = len(self.fingerprints)
        self.fingerprints.append(fingerprint)
        for table, (shift, mask) in zip(self._tables, self._blocks):
            table.setdefault((fingerprint >> shift) & mask, []).append(key)
        return key

    def candidates(self, fingerprint: int) -> Iterator[int]:
        """Keys sharing at least one block with the fingerprint (each once)."""
        seen: set[int] = set()
        for table, (shift, mask) in zip(self._tables, self._blocks):
            for key in table.get((fingerprint >> shift) & mask, ()):
                if key not in seen:
                    seen.add(key)
                    yield key

    def search(self, fingerprint: int) -> list[tuple[int, int]]:
        """``(distance, key)`` of every indexed fingerprint within k, nearest first, ties by key."""
        found = []
        for key in self.candidates(fingerprint):
            distance = (fingerprint ^ self.fingerprints[key]).bit_count()
            if distance <= self.k:
                found.append((distance, key))
        return sorted(found)
