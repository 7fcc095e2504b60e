"""sorted_unique, sorted_isin and equal_rows give what np.unique and np.isin give."""

from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from partialdup.core import arrays as arrays_module
from partialdup.core.arrays import (
    dense_numbers, dense_unique, equal_rows, fits_int32, mix64, overlap_bound, popcount, ranges, sorted_isin, sorted_unique, weighted_slices,
    weighted_slices_of,
)

_WIDE = st.integers(-(2**62), 2**62)
_NARROW = st.integers(-5, 5)


@settings(max_examples=200, deadline=None)
@given(st.one_of(arrays(np.int64, st.integers(0, 60), elements=_WIDE), arrays(np.int64, st.integers(0, 60), elements=_NARROW)))
def test_sorted_unique_is_np_unique(values):
    got = sorted_unique(values)
    assert got.dtype == np.unique(values).dtype and np.array_equal(got, np.unique(values))


@settings(max_examples=200, deadline=None)
@given(
    arrays(np.int64, st.integers(0, 40), elements=_NARROW),
    arrays(np.int64, st.integers(0, 40), elements=_NARROW),
    arrays(np.int64, st.integers(0, 40), elements=_WIDE),
)
def test_sorted_isin_is_np_isin(values, among, wide):
    assert np.array_equal(sorted_isin(values, among), np.isin(values, among))
    assert np.array_equal(sorted_isin(wide, among), np.isin(wide, among))
    assert np.array_equal(sorted_isin(values, wide), np.isin(values, wide))
    assert np.array_equal(sorted_isin(wide, wide[::2]), np.isin(wide, wide[::2]))
    assert np.array_equal(sorted_isin(values, np.sort(wide), among_sorted=True), np.isin(values, wide))


@settings(max_examples=100, deadline=None)
@given(arrays(np.int64, st.integers(0, 40), elements=_NARROW), arrays(np.int64, st.integers(0, 40), elements=_NARROW),
       st.integers(1, 5))
def test_sorted_isin_a_few_values_at_a_time_is_np_isin(values, among, at_once):
    with mock.patch.object(arrays_module, "_ISIN_AT_ONCE", at_once):
        assert np.array_equal(sorted_isin(values, among), np.isin(values, among))
        assert np.array_equal(sorted_isin(values.reshape(-1, 1), among), np.isin(values.reshape(-1, 1), among))


def test_unsigned_codes_and_empty_arrays():
    codes = np.array([2**63 + 5, 3, 2**63 + 5, 0], np.uint64)
    assert np.array_equal(sorted_unique(codes), np.unique(codes))
    assert np.array_equal(sorted_isin(codes, codes[:2]), np.isin(codes, codes[:2]))
    assert sorted_isin(codes, np.array([], np.uint64)).tolist() == [False] * 4
    assert sorted_unique(np.array([], np.int64)).tolist() == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=20))
def test_popcount_equals_the_plain_count(values) -> None:
    array = np.array(values, np.uint64)
    assert popcount(array).tolist() == [bin(v).count("1") for v in values]


def test_popcount_without_numpy_2(monkeypatch) -> None:
    monkeypatch.delattr(np, "bitwise_count", raising=False)
    values = [0, 1, 2**64 - 1, 0x8000_0000_0000_0001, 12345678901234567]
    assert popcount(np.array(values, np.uint64)).tolist() == [bin(v).count("1") for v in values]
    assert popcount(np.array([values, values], np.uint64)).shape == (2, len(values))


def test_mix64_is_splitmix64s_finaliser() -> None:
    # Pinned against the plain integer formula: the bag digests and the
    # word bits built on it must never change.
    def plain(v: int) -> int:
        mask = 2**64 - 1
        v = ((v ^ (v >> 30)) * 0xBF58476D1CE4E5B9) & mask
        v = ((v ^ (v >> 27)) * 0x94D049BB133111EB) & mask
        return v ^ (v >> 31)

    values = [0, 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15]
    assert mix64(np.array(values, np.uint64)).tolist() == [plain(v) for v in values]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sets(st.integers(0, 200), max_size=40), st.sets(st.integers(0, 200), max_size=40)), min_size=1, max_size=6))
def test_overlap_bound_never_falls_below_the_shared_elements(pairs) -> None:
    # Elements on 64 bits (many share one): the bound holds for every pair.
    def filter_of(elements: set[int]) -> int:
        return sum({1 << (element * 7 % 64) for element in elements})

    first = np.array([filter_of(a) for a, _ in pairs], np.uint64)
    second = np.array([filter_of(b) for _, b in pairs], np.uint64)
    first_spare = np.array([len(a) for a, _ in pairs]) - popcount(first)
    second_spare = np.array([len(b) for _, b in pairs]) - popcount(second)
    bound = overlap_bound(first, first_spare, second, second_spare)
    assert all(most >= len(a & b) for most, (a, b) in zip(bound.tolist(), pairs))


@given(st.lists(st.integers(0, 5), max_size=12))
def test_ranges_lay_every_range_end_to_end(counts) -> None:
    item, offset = ranges(np.array(counts, np.int64))
    assert list(zip(item.tolist(), offset.tolist())) == [(i, k) for i, count in enumerate(counts) for k in range(count)]
    assert item.dtype == offset.dtype == np.int64


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 1, 2**63, 2**64 - 1]), st.sampled_from([0, 5, 2**63 + 1])), max_size=25))
def test_equal_rows_are_those_of_numpy_unique_by_rows(rows):
    # The one-sort grouping of digests against np.unique(axis=0), its plain
    # reference: the same first row per distinct digest, the same partition.
    digests = np.array(rows, np.uint64).reshape(-1, 2)
    first, inverse = equal_rows(digests)
    if not rows:
        assert len(first) == len(inverse) == 0
        return
    _, unique_first, unique_inverse = np.unique(digests, axis=0, return_index=True, return_inverse=True)
    assert sorted(first.tolist()) == sorted(unique_first.tolist())
    by_first = dict(zip(first.tolist(), range(len(first))))
    relabel = {g: by_first[int(f)] for g, f in enumerate(unique_first.tolist())}
    assert inverse.tolist() == [relabel[g] for g in unique_inverse.reshape(-1).tolist()]


@settings(max_examples=200, deadline=None)
@given(arrays(np.int64, st.integers(0, 60), elements=st.integers(0, 40)), st.integers(0, 20))
def test_dense_unique_is_np_unique_with_its_inverse(values, spare):
    distinct, place = dense_unique(values, 41 + spare)
    want, inverse = np.unique(values, return_inverse=True)
    assert distinct.tolist() == want.tolist() and place.tolist() == inverse.reshape(-1).tolist()
    assert distinct.dtype == np.int64 and place.dtype == np.int64


@settings(max_examples=200, deadline=None)
@given(st.lists(arrays(np.int64, st.integers(0, 30), elements=st.integers(0, 40)), max_size=3), st.integers(0, 5))
def test_dense_numbers_are_dense_unique_of_the_arrays_joined(columns, spare):
    distinct, places = dense_numbers(columns, 41 + spare)
    want, place = dense_unique(np.concatenate([np.empty(0, np.int64), *columns]), 41 + spare)
    assert distinct.tolist() == want.tolist() and distinct.dtype == np.int64
    assert np.concatenate([np.empty(0, np.int32), *places]).tolist() == place.tolist()
    assert all(p.dtype == np.int32 for p in places) and len(places) == len(columns)


@settings(max_examples=200, deadline=None)
@given(arrays(np.int64, st.integers(0, 40), elements=st.integers(0, 9)), st.integers(1, 20))
def test_weighted_slices_cover_the_items_in_order_each_about_the_bound(weights, bound):
    slices = weighted_slices(weights, bound)
    if not len(weights):
        assert slices == []
        return
    # Consecutive, none empty, covering every item.
    assert [low for low, _ in slices] == [0, *(high for _, high in slices[:-1])] and slices[-1][1] == len(weights)
    assert all(high > low for low, high in slices)
    # The first weighs the bound at most, the others less besides their first item.
    assert int(weights[: slices[0][1]].sum()) <= bound or weights[0] > bound
    assert all(int(weights[low + 1 : high].sum()) < bound for low, high in slices[1:])
    assert len(slices) == 1 or int(weights.sum()) > bound


def _plain_weighted_slices(weights, bound):
    # The plain reference: a cut before the item whose running total passes
    # the next multiple of the bound, as weighted_slices describes them.
    total = int(np.sum(weights))
    if not len(weights):
        return []
    if total <= bound:
        return [(0, len(weights))]
    running, cuts = np.cumsum(weights).tolist(), {0, len(weights)}
    for multiple in range(bound, total, bound):
        cuts.add(sum(1 for value in running if value <= multiple))
    edges = sorted(cuts)
    return list(zip(edges[:-1], edges[1:]))


@settings(max_examples=300, deadline=None)
@given(st.lists(arrays(np.int64, st.integers(0, 12), elements=st.integers(0, 9)), max_size=5), st.integers(1, 20))
def test_weighted_slices_of_parts_are_those_of_the_parts_joined(parts, bound):
    joined = np.concatenate([np.empty(0, np.int64), *parts])
    assert weighted_slices_of(iter(parts), bound) == weighted_slices(joined, bound) == _plain_weighted_slices(joined, bound)


def test_fits_int32_only_for_wide_integers_whose_values_all_fit():
    limits = np.iinfo(np.int32)
    assert fits_int32(np.array([limits.min, 0, limits.max], np.int64))
    assert fits_int32(np.empty(0, np.int64))
    assert not fits_int32(np.array([limits.max + 1], np.int64))
    assert not fits_int32(np.array([limits.min - 1], np.int64))
    assert not fits_int32(np.array([1], np.int32))  # already narrow
    assert not fits_int32(np.array([1.0]))


def test_offsets_arrays_are_4_bytes_a_value_unless_one_does_not_fit():
    from partialdup.core.arrays import offsets_array

    small = offsets_array(iter([0, 5, 2**31 - 1]))
    assert small.itemsize == 4 and list(small) == [0, 5, 2**31 - 1]
    large = offsets_array([0, 2**31])
    assert large.itemsize == 8 and list(large) == [0, 2**31]
