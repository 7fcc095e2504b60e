import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.bags import FlatBags, PackedBags, PlacedBags
from partialdup.core.types import DocumentFeatures

bags = st.lists(st.dictionaries(st.integers(0, 2**64 - 1) | st.integers(0, 6), st.integers(1, 4), max_size=6), max_size=8)


@settings(max_examples=200, deadline=None)
@given(bags, st.data())
def test_flat_bags_keep_every_bag_and_take_any_of_them(chosen, data) -> None:
    flat = FlatBags.of(chosen)
    assert flat.dicts() == chosen and [list(b) for b in flat.dicts()] == [list(b) for b in chosen]
    assert flat.totals.tolist() == [sum(b.values()) for b in chosen]
    rows = data.draw(st.lists(st.integers(0, max(len(chosen) - 1, 0)), max_size=10)) if chosen else []
    taken = flat.take(np.array(rows, np.int64))
    assert taken.dicts() == [chosen[r] for r in rows]
    assert taken.totals.tolist() == [sum(chosen[r].values()) for r in rows]


@settings(max_examples=200, deadline=None)
@given(bags, st.data())
def test_one_bag_and_same_entries_agree_with_the_dicts(chosen, data) -> None:
    flat = FlatBags.of(chosen)
    assert [flat.bag(row) for row in range(len(chosen))] == chosen
    if not chosen:
        return
    pick = st.lists(st.integers(0, len(chosen) - 1), max_size=12)
    rows, others = data.draw(pick), data.draw(pick)
    rows, others = rows[: len(others)], others[: len(rows)]
    same = flat.same_entries(np.array(rows, np.int64), np.array(others, np.int64))
    # The plain reference: the same entries listed in the same order.
    assert same.tolist() == [list(chosen[r].items()) == list(chosen[o].items()) for r, o in zip(rows, others)]


def test_equal_bags_listed_in_another_order_are_not_same_entries() -> None:
    flat = FlatBags.of([{1: 1, 2: 2}, {2: 2, 1: 1}, {1: 1, 2: 2}])
    assert flat.same_entries(np.array([1, 2]), np.array([0, 0])).tolist() == [False, True]


@settings(max_examples=200, deadline=None)
@given(bags, st.data())
def test_flat_bags_are_the_sequence_of_their_bags(chosen, data) -> None:
    # The plain reference: the tuple of dicts a document's bags once were.
    flat, plain = FlatBags.of(chosen), tuple(chosen)
    assert len(flat) == len(plain) and list(flat) == list(plain) and flat == plain
    assert [flat[i] for i in range(-len(plain), len(plain))] == [plain[i] for i in range(-len(plain), len(plain))]
    assert [list(flat[i]) for i in range(len(plain))] == [list(b) for b in plain]  # features in the order listed
    for wrong in (len(plain), -len(plain) - 1):
        with pytest.raises(IndexError):
            flat[wrong]
    cut = slice(*data.draw(st.tuples(*[st.none() | st.integers(-9, 9)] * 2)))
    assert isinstance(flat[cut], FlatBags) and flat[cut] == plain[cut]
    assert flat.filled == [bool(b) for b in plain]
    again = pickle.loads(pickle.dumps(flat))
    assert again == plain and again.sizes.dtype == flat.sizes.dtype and again.counts.dtype == flat.counts.dtype
    assert FlatBags.of(flat) is flat


@settings(max_examples=200, deadline=None)
@given(st.lists(bags, max_size=4))
def test_joined_bags_are_those_of_their_parts_in_order(parts) -> None:
    assert FlatBags.joined([FlatBags.of(part) for part in parts]) == [bag for part in parts for bag in part]


def test_document_features_hold_their_bags_as_arrays() -> None:
    features = DocumentFeatures("d", (), ({7: 2}, {}), (3, 0))
    assert isinstance(features.bags, FlatBags) and features.bags == ({7: 2}, {})
    assert features == DocumentFeatures("d", (), FlatBags.of([{7: 2}, {}]), (3, 0))
    assert features != DocumentFeatures("d", (), ({7: 1}, {}), (3, 0))


def test_a_bag_is_read_whatever_the_arrays_byte_order_and_never_from_before_the_first() -> None:
    # A memoryview reads native byte order only; a store's arrays are little-endian.
    flat = FlatBags(np.array([1, 2]), np.array([5, 6, 7], np.dtype(">u8")), np.array([1, 2, 3], np.dtype("<u4")))
    assert list(flat) == [flat[0], flat[1]] == [{5: 1}, {6: 2, 7: 3}]
    with pytest.raises(IndexError):
        flat.bag(-1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.dictionaries(st.integers(0, 2**64 - 1), st.integers(1, 4), max_size=5)), max_size=6))
def test_placed_bags_are_the_sequence_of_their_pairs(pairs) -> None:
    # The plain reference: the tuple of (position, dict) a document's joins once were.
    placed, plain = PlacedBags.of(pairs), tuple(pairs)
    assert placed == plain and list(placed) == list(plain) and len(placed) == len(plain)
    assert [placed[i] for i in range(len(plain))] == list(plain) and placed[1:] == plain[1:]
    assert placed.positions.dtype == np.int64 and placed.bags == [bag for _, bag in plain]
    assert pickle.loads(pickle.dumps(placed)) == plain and PlacedBags.of(placed) is placed
    assert DocumentFeatures("d", (), (), (), joins=pairs).joins == plain


def test_no_placed_bags_are_one_shared_object_even_unpickled() -> None:
    nothing = PlacedBags.of(())
    assert nothing is PlacedBags.of([]) is pickle.loads(pickle.dumps(nothing)) is DocumentFeatures("d", (), (), ()).joins
    with pytest.raises(ValueError):
        PlacedBags(np.array([1, 2]), FlatBags.of([{}]))


@settings(max_examples=200, deadline=None)
@given(bags)
def test_packed_bags_hold_the_arrays_of_the_plain_flat_bags(chosen) -> None:
    # The plain reference: the three arrays held as they are (FlatBags itself).
    sizes = np.array([len(b) for b in chosen], np.int64)
    features = np.array([f for b in chosen for f in b], np.uint64)
    counts = np.array([c for b in chosen for c in b.values()], np.int64)
    plain, packed = FlatBags(sizes, features, counts), FlatBags.of(chosen)
    assert isinstance(packed, PackedBags) and len(packed) == len(plain) == len(chosen)
    for name, kind in (("sizes", np.int64), ("features", np.uint64), ("counts", np.int64)):
        assert getattr(packed, name).tolist() == getattr(plain, name).tolist() and getattr(packed, name).dtype == kind
    assert packed == plain == tuple(chosen) and packed.dicts() == plain.dicts()
    assert packed.totals.tolist() == plain.totals.tolist() and packed.filled == plain.filled
    again = pickle.loads(pickle.dumps(packed, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(again) is PackedBags and again == packed
    assert PackedBags.of_arrays(sizes.astype(np.int32), features, counts.astype(np.uint8)) == packed  # any integer types


def test_packed_bags_refuse_arrays_or_a_buffer_that_do_not_agree() -> None:
    with pytest.raises(ValueError, match="2 bags of 3 entries, 2 features, 2 counts"):
        PackedBags.of_arrays(np.array([1, 2]), np.array([5, 6], np.uint64), np.array([1, 1]))
    with pytest.raises(ValueError, match="does not hold 1 bags"):
        PackedBags(b"\0" * 20, 1)
    with pytest.raises(AttributeError):
        FlatBags.of([{1: 1}]).sizes = np.array([2])
