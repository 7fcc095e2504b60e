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
* :func:`lsh_join_reference`: brute force, every pair scored: what LSH
  approximates. Its recall (the share of the reference's pairs LSH finds)
  is measured, not assumed (tests, ``scripts/bench_methods.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "LshPairs",
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
