"""LSH banding of MinHash signatures: candidates that share a whole band.

A signature of m values is cut into b bands of r rows (b · r ≤ m; the rest
is unused). Two sets of Jaccard s agree on one row with probability s, on a
whole band with probability s^r, and share at least one of the b bands with
probability the S-curve::

    P(s) = 1 - (1 - s^r)^b

:func:`choose_bands` picks b and r for a threshold τ, as datasketch does:
the (b, r) with b · r ≤ m minimising the weighted sum of the false-positive
area ``∫_0^τ P(s) ds`` (pairs below τ made candidates) and the
false-negative area ``∫_τ^1 (1 - P(s)) ds`` (pairs above τ missed).
Candidates are then scored by the signatures' agreement and kept at ≥ τ.

* :func:`lsh_join`: every pair of one signature matrix sharing a band, or
  every (query, key) pair of two, vectorised (each band's rows grouped with
  ``np.unique``), scored and filtered.
* :class:`LshIndex`: incremental (add one signature, query one; one dict
  of band values per band), as Single-Pass clustering needs it
  (``partialdup dedup --method minhash``).
* :func:`band_join`: the candidates alone, (query, key) rows sharing a
  band, of queries against keys or of one matrix with itself (the
  sentence index of :mod:`partialdup.index.fingerprints`).
* :func:`lsh_join_reference`: brute force, every pair scored: what LSH
  approximates. Its recall (the share of the reference's pairs LSH finds)
  is measured, not assumed (tests, ``scripts/bench_methods.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from partialdup.core.arrays import ranges, sorted_unique

__all__ = [
    "LshIndex",
    "LshPairs",
    "band_join",
    "choose_bands",
    "lsh_join",
    "lsh_join_reference",
    "s_curve",
]


def s_curve(similarity: np.ndarray | float, bands: int, rows: int) -> np.ndarray:
    """Probability that two sets of this Jaccard share a band: ``1 - (1 - s^r)^b`` (an array, 0-d for a float)."""
    return 1.0 - (1.0 - np.asarray(similarity, dtype=np.float64) ** rows) ** bands


def _area(lo: float, hi: float, bands: int, rows: int, missed: bool) -> float:
    grid = np.linspace(lo, hi, 201)
    values = s_curve(grid, bands, rows)
    values = 1.0 - values if missed else values
    return float(np.sum((values[1:] + values[:-1]) * np.diff(grid)) / 2.0)  # trapezoids


def choose_bands(threshold: float, permutations: int, *, fp_weight: float = 0.5, fn_weight: float = 0.5) -> tuple[int, int]:
    """(b, r) with b · r ≤ m minimising weighted false-positive + false-negative areas around τ."""
    if not 0.0 < threshold < 1.0:
        raise ValueError(f"threshold must lie in (0, 1), got {threshold}")
    best: tuple[float, int, int] | None = None
    for bands in range(1, permutations + 1):
        for rows in range(1, permutations // bands + 1):
            error = fp_weight * _area(0.0, threshold, bands, rows, False) + fn_weight * _area(threshold, 1.0, bands, rows, True)
            if best is None or error < best[0] - 1e-15:
                best = (error, bands, rows)
    assert best is not None
    return best[1], best[2]


@dataclass(frozen=True)
class LshPairs:
    """Accepted pairs, sorted, with their estimated Jaccard.

    Attributes:
        first: Row of the first signature (int64); the query row in a join of two matrices.
        second: Row of the second (int64; greater than ``first`` in a self-join); the key row.
        score: Share of equal signature positions (float64).
        candidates: Distinct pairs that shared a band and were scored.
    """

    first: np.ndarray
    second: np.ndarray
    score: np.ndarray
    candidates: int


def _band_pairs(band: np.ndarray) -> np.ndarray:
    """(i, j), i < j, of the rows whose band values are all equal."""
    _, groups = np.unique(band, axis=0, return_inverse=True)
    groups = groups.ravel()
    order = np.argsort(groups, kind="stable")
    bounds = np.flatnonzero(np.diff(groups[order])) + 1
    out = []
    for members in np.split(order, bounds):
        if members.size > 1:
            i, j = np.triu_indices(members.size, k=1)
            out.append(np.stack([members[i], members[j]], axis=1))
    return np.concatenate(out) if out else np.zeros((0, 2), dtype=np.int64)


def lsh_join(signatures: np.ndarray, threshold: float, bands: int, rows: int, keys: np.ndarray | None = None) -> LshPairs:
    """Pairs of rows sharing a band whose signature agreement reaches τ.

    Args:
        signatures: One MinHash signature per row (n × m, uint64), m ≥ b · r.
        threshold: τ on the estimated Jaccard.
        bands: b.
        rows: r.
        keys: Signatures searched among (k × m); None joins ``signatures``
            with itself (each pair once, first < second).
    """
    if bands * rows > signatures.shape[1]:
        raise ValueError(f"{bands} bands of {rows} rows need {bands * rows} values, signatures have {signatures.shape[1]}")
    queries = signatures.shape[0]
    stacked = signatures if keys is None else np.concatenate([signatures, keys])
    found = [_band_pairs(stacked[:, b * rows : (b + 1) * rows]) for b in range(bands)]
    pairs = np.unique(np.concatenate(found), axis=0) if found else np.zeros((0, 2), np.int64)
    if keys is not None:  # only query-key pairs, keys numbered from 0
        pairs = pairs[(pairs[:, 0] < queries) & (pairs[:, 1] >= queries)] - np.array([0, queries])
    if pairs.size == 0:
        empty = np.zeros(0, np.int64)
        return LshPairs(empty, empty, np.zeros(0), 0)
    other = stacked if keys is None else keys
    score = (signatures[pairs[:, 0]] == other[pairs[:, 1]]).mean(axis=1)
    keep = score >= threshold
    return LshPairs(pairs[keep, 0].astype(np.int64), pairs[keep, 1].astype(np.int64), score[keep], int(pairs.shape[0]))


def _band_ids(band: np.ndarray) -> np.ndarray:
    """A number per row, equal for rows whose band values are all equal (int64)."""
    _, ids = np.unique(band, axis=0, return_inverse=True)
    return ids.ravel().astype(np.int64)


def band_join(queries: np.ndarray, keys: np.ndarray | None, bands: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """(query, key) rows that agree on at least one whole band, each pair once, sorted.

    Args:
        queries: Signatures searched for (n × m, uint64).
        keys: Signatures searched among (k × m); None joins ``queries`` with
            itself and keeps each pair once, first < second.
        bands: b.
        rows: r (b · r ≤ m).
    """
    if bands * rows > queries.shape[1]:
        raise ValueError(f"{bands} bands of {rows} rows need {bands * rows} values, signatures have {queries.shape[1]}")
    self_join = keys is None
    pool = queries if keys is None else keys
    found_q, found_k = [], []
    for b in range(bands):
        columns = slice(b * rows, (b + 1) * rows)
        ids = _band_ids(np.concatenate([queries[:, columns], pool[:, columns]]))
        query_ids, key_ids = ids[: len(queries)], ids[len(queries) :]
        order = np.argsort(key_ids, kind="stable")
        lo = np.searchsorted(key_ids[order], query_ids, side="left")
        counts = np.searchsorted(key_ids[order], query_ids, side="right") - lo
        q, offsets = ranges(counts)
        k = order[lo[q] + offsets].astype(np.int64)
        keep = q < k if self_join else slice(None)
        found_q.append(q[keep])
        found_k.append(k[keep])
    if not found_q:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    codes = sorted_unique(np.concatenate(found_q) * len(pool) + np.concatenate(found_k))  # sorted by (query, key)
    return codes // len(pool), codes % len(pool)


def lsh_join_reference(signatures: np.ndarray, threshold: float) -> list[tuple[int, int, float]]:
    """Brute force: every pair's signature agreement, ``(i, j, score)`` at ≥ τ, i < j."""
    out = []
    rows = [list(map(int, row)) for row in signatures]
    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            score = sum(x == y for x, y in zip(rows[i], rows[j])) / len(rows[i])
            if score >= threshold:
                out.append((i, j, score))
    return out


class LshIndex:
    """Incremental LSH bands: add signatures one by one, find those agreeing at ≥ τ.

    Args:
        bands: b.
        rows: r (signatures need b · r values or more).
        threshold: τ on the share of equal positions.
    """

    def __init__(self, bands: int, rows: int, threshold: float) -> None:
        self.bands, self.rows, self.threshold = bands, rows, threshold
        self._tables: list[dict[bytes, list[int]]] = [{} for _ in range(bands)]
        self.signatures: list[np.ndarray] = []

    def __len__(self) -> int:
        return len(self.signatures)

    def _band_keys(self, signature: np.ndarray) -> list[bytes]:
        if signature.size < self.bands * self.rows:
            raise ValueError(f"{self.bands} bands of {self.rows} rows need {self.bands * self.rows} values, got {signature.size}")
        values = np.ascontiguousarray(signature, dtype="<u8")
        return [values[b * self.rows : (b + 1) * self.rows].tobytes() for b in range(self.bands)]

    def add(self, signature: np.ndarray) -> int:
        """Index a signature; returns its key (keys increase from 0)."""
        key = len(self.signatures)
        self.signatures.append(np.asarray(signature, dtype=np.uint64))
        for table, band in zip(self._tables, self._band_keys(signature)):
            table.setdefault(band, []).append(key)
        return key

    def search(self, signature: np.ndarray) -> list[tuple[float, int]]:
        """``(agreement, key)`` of the indexed signatures sharing a band at ≥ τ, best first, ties by key."""
        seen: set[int] = set()
        for table, band in zip(self._tables, self._band_keys(signature)):
            seen.update(table.get(band, ()))
        found = []
        for key in seen:
            score = float(np.count_nonzero(self.signatures[key] == signature)) / signature.size
            if score >= self.threshold:
                found.append((score, key))
        return sorted(found, key=lambda item: (-item[0], item[1]))
