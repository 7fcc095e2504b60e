"""Sentence pairs as one int64 code each, and the look-ups' keys held narrow.

``detect``'s look-ups tell pairs apart on arrays: a (query, key) pair of
sentence numbers is the code ``query x width + key``
(:func:`pair_codes`; :func:`unordered_codes` whichever its order), and the
near misses that are not whole matches are the pairs whose codes are not
among the whole matches' (:func:`not_among`). The near misses are held with
their keys as int32 while they wait for the tail (:func:`narrow_keys`).
Split from :mod:`partialdup.pipeline.lookups`, which uses them.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from partialdup.core.arrays import fits_int32, sorted_isin
from partialdup.index.sparse import PairMatches

__all__ = ["CODES_AT_ONCE", "narrow_keys", "not_among", "pair_codes", "unordered_codes"]

#: Pairs whose codes :func:`not_among` makes at once.
CODES_AT_ONCE = 1 << 16


def unordered_codes(first: np.ndarray, second: np.ndarray, width: int, *, ordered: bool = False) -> np.ndarray:
    # Each pair as one int64 whichever its order (pair_codes of the smaller, the larger).
    return pair_codes(np.minimum(first, second), np.maximum(first, second), width, ordered=ordered)


def pair_codes(query: np.ndarray, key: np.ndarray, width: int, *, ordered: bool = False) -> np.ndarray:
    # Each (query, key) pair as one int64 (query x width + key), made in
    # place (int32 keys too); ``ordered``: sorted.
    codes = query.astype(np.int64)
    codes *= width
    codes += key
    if ordered:
        codes.sort()
    return codes


def not_among(query: np.ndarray, key: np.ndarray, among: np.ndarray, width: int, at_once: int = CODES_AT_ONCE) -> np.ndarray:
    """The places (int32) of the (query, key) pairs whose :func:`pair_codes`
    are not in ``among`` (sorted), a slice of the pairs at a time: their
    codes and places, 16 bytes a pair, are never made at once (the English
    bench corpus's 790,000 near misses: 12 MB at the calling process's
    peak, the near search's end)."""
    parts = [np.empty(0, np.int32)]
    for low in range(0, len(query), at_once):
        codes = pair_codes(query[low : low + at_once], key[low : low + at_once], width)
        parts.append((np.flatnonzero(~sorted_isin(codes, among, among_sorted=True)) + low).astype(np.int32))
    return np.concatenate(parts)


def narrow_keys(found: PairMatches) -> PairMatches:
    """``found`` with its query and key as int32 where they fit: ``detect``'s
    near misses, held as the tail's records and by their verdicts to the
    tail (a million on the English bench corpus: 8 MB less through the
    loose search, the calling process's peak with ``--jobs 1``). What reads
    them makes int64 codes (:func:`pair_codes`, :class:`~partialdup.match.keyed.KeyedMatches`)."""
    if not (fits_int32(found.query) and fits_int32(found.key)):
        return found
    return replace(found, query=found.query.astype(np.int32), key=found.key.astype(np.int32))
