"""Integer arrays: sorted distinct values and membership, set bits, mixing.

NumPy 2.4's ``np.unique`` (without ``return_*``) finds distinct values by
hashing, and ``np.isin`` calls it on both arrays: on 1.2 million int64
pair codes spread over a wide range that took 1.1 s here, where sorting
them takes 0.07 s. The look-ups make such codes (``row * width + column``)
in every search. These functions give exactly what ``np.unique`` and
``np.isin`` give, by sorting; ``np.unique`` and ``np.isin`` stay their plain
references in the tests.
"""

from __future__ import annotations

from array import array
from typing import Iterable, Sequence

import numpy as np

__all__ = ["dense_numbers", "dense_unique", "equal_rows", "fits_int32", "mix64", "offsets_array", "overlap_bound", "popcount", "ranges", "sorted_unique", "sorted_isin", "weighted_slices",
           "weighted_slices_of"]


def fits_int32(values: np.ndarray) -> bool:
    """Whether ``values``, integers wider than 4 bytes, would keep every
    value as int32 (a narrower copy to hold); False for any other array."""
    if values.dtype.kind != "i" or values.dtype.itemsize <= 4:
        return False
    limits = np.iinfo(np.int32)
    return not len(values) or (limits.min <= int(values.min()) and int(values.max()) <= limits.max)


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` of a one-dimensional array: its distinct values, sorted."""
    ordered = np.sort(np.asarray(values).ravel())
    if len(ordered) < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def dense_unique(values: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` of integers in ``[0,
    bound)``: the distinct values, sorted, and each value's place among them
    (int64 both), by marking them in an array of ``bound`` flags. Sentence
    numbers are that: 4 million of them (the English bench corpus's near
    misses) took 0.24 s to sort, and take a tenth of that marked."""
    distinct, (place,) = dense_numbers((values,), bound, np.int64)
    return distinct, place


def dense_numbers(
    columns: Sequence[np.ndarray], bound: int, dtype: type[np.signedinteger] = np.int32,
) -> tuple[np.ndarray, list[np.ndarray]]:
    """:func:`dense_unique` of several arrays of integers in ``[0, bound)``
    read as one: their distinct values (int64, sorted) and each array's
    values as their places among them, array by array, as ``dtype`` (int32
    by default: fewer than 2**31 distinct values, ``bound`` at most that),
    without the arrays joined into one."""
    if bound > np.iinfo(dtype).max:
        raise ValueError(f"bound {bound} does not fit {np.dtype(dtype).name} places")
    marked = np.zeros(max(bound, 0), bool)
    for values in columns:
        marked[np.asarray(values).ravel()] = True
    distinct = np.flatnonzero(marked)
    place = np.cumsum(marked, dtype=dtype)
    place -= 1
    return distinct, [place[np.asarray(values).ravel()] for values in columns]


#: Values :func:`sorted_isin` looks up at once.
_ISIN_AT_ONCE = 1 << 16


def sorted_isin(values: np.ndarray, among: np.ndarray, *, among_sorted: bool = False) -> np.ndarray:
    """``np.isin(values, among)`` of integer arrays: whether each value is
    one of ``among``, by a binary search in ``among`` sorted
    (``among_sorted``: it is already, ascending)."""
    values = np.asarray(values)
    ordered = np.asarray(among).ravel() if among_sorted else np.sort(np.asarray(among).ravel())
    if not len(ordered):
        return np.zeros(values.shape, bool)
    # A slice of the values at a time: the search's places are 8 bytes a
    # value, and looking them up as many again (millions of near misses).
    flat = values.ravel()
    found = np.empty(len(flat), bool)
    for low in range(0, len(flat), _ISIN_AT_ONCE):
        part = flat[low : low + _ISIN_AT_ONCE]
        at = np.searchsorted(ordered, part)
        np.minimum(at, len(ordered) - 1, out=at)
        found[low : low + _ISIN_AT_ONCE] = ordered[at] == part
    return found.reshape(values.shape)


def popcount(values: np.ndarray) -> np.ndarray:
    """The set bits of each unsigned 64-bit value (int64, the same shape)."""
    values = np.asarray(values, np.uint64)
    if hasattr(np, "bitwise_count"):  # NumPy 2
        return np.bitwise_count(values).astype(np.int64)
    # SWAR: bits summed in pairs, nibbles, then bytes.
    v = values - ((values >> np.uint64(1)) & np.uint64(0x5555555555555555))
    v = (v & np.uint64(0x3333333333333333)) + ((v >> np.uint64(2)) & np.uint64(0x3333333333333333))
    v = (v + (v >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    with np.errstate(over="ignore"):
        return ((v * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


def overlap_bound(first: np.ndarray, first_spare: np.ndarray, second: np.ndarray, second_spare: np.ndarray) -> np.ndarray:
    """Per pair, the most elements two sets can share, from their 64-bit
    filters (each element sets one bit) and their *spare* elements (size less
    the filter's set bits): an element of one set that the other holds sets
    a bit both filters set, and those bits take at most their own number of
    elements plus the fewer spare ones."""
    return popcount(np.asarray(first, np.uint64) & np.asarray(second, np.uint64)) + np.minimum(first_spare, second_spare)


def mix64(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a bijection of uint64 that spreads every bit."""
    with np.errstate(over="ignore"):
        values = (values ^ (values >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        values = (values ^ (values >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return values ^ (values >> np.uint64(31))


def ranges(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(item, offset) for every unit of ``counts``: item i repeated
    ``counts[i]`` times, with offsets 0 .. counts[i] - 1 (int64 both): the
    positions of many ranges laid end to end, without a loop."""
    counts = np.asarray(counts, np.int64)
    item = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    offset = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    return item, offset


def weighted_slices(weights: np.ndarray, bound: int) -> list[tuple[int, int]]:
    """Consecutive ``(low, high)`` slices covering ``weights``, each weighing
    about ``bound``: a slice ends before the item its weights would pass a
    multiple of ``bound`` with, so that each slice but the first weighs less
    than ``bound`` besides its first item, and the first ``bound`` at most
    unless its first item alone weighs more.
    None for no items; one for a total of ``bound`` or less. (Vectorised:
    millions of items, the group pairs of a search.)"""
    return weighted_slices_of([weights], bound)


def weighted_slices_of(parts: Iterable[np.ndarray], bound: int) -> list[tuple[int, int]]:
    """:func:`weighted_slices` of the weights given part after part (each
    part made when it is read, and let go before the next: an array of a
    weight per item was 8 bytes an item, 12 million bytes for the English
    bench corpus's loose search, at once with the arrays they were made from)."""
    cuts: list[np.ndarray] = []
    count = carry = 0
    for part in parts:
        cumulative = np.cumsum(np.asarray(part, np.int64))
        if not len(cumulative):
            continue
        cumulative += carry
        # The multiples of bound the items of this part reach: each cut where
        # the global cumulative sums would (items up to the multiple).
        first = -(-carry // bound) * bound if carry else bound
        multiples = np.arange(max(first, bound), int(cumulative[-1]), bound, dtype=np.int64)
        cuts.append(np.searchsorted(cumulative, multiples, side="right") + count)
        count += len(cumulative)
        carry = int(cumulative[-1])
    if carry <= bound:
        return [(0, count)] if count else []
    edges = sorted_unique(np.concatenate([np.zeros(1, np.int64), *cuts, np.full(1, count, np.int64)]))
    return list(zip(edges[:-1].tolist(), edges[1:].tolist()))


def equal_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of the rows of a two-column integer array (a bag's 128-bit digest, a
    pair of numbers): the first row of each distinct row, and the distinct
    row of each row, numbered in the rows' sorted order.
    ``np.unique(axis=0)``'s index and inverse, by one stable sort of both
    columns (``np.unique`` with an axis compares rows as bytes, seven times
    slower on the 12,000 digests of a store's check)."""
    if not len(rows):
        return np.empty(0, np.int64), np.empty(0, np.int64)
    order = np.lexsort((rows[:, 1], rows[:, 0]))  # stable: equal rows keep their order
    ranked = rows[order]
    starts = np.concatenate(([True], (ranked[1:] != ranked[:-1]).any(axis=1)))
    inverse = np.empty(len(rows), np.int64)
    inverse[order] = np.cumsum(starts) - 1
    return order[starts].astype(np.int64), inverse


def offsets_array(values: Iterable[int]) -> array:
    """``values`` (offsets, counts: never negative, as a rule far below 2**31)
    as an array of 4-byte ints, or of 8-byte ones where one does not fit: a
    run holds two a sentence from its reading to its end (1.3 MB less on
    the Chinese bench corpus's 160,000 sentences than 8 bytes each)."""
    listed = values if isinstance(values, (list, tuple, array)) else list(values)
    try:
        return array("i", listed)
    except OverflowError:
        return array("q", listed)
