from collections import Counter

import numpy as np
from hypothesis import given, settings, strategies as st

from partialdup.index.flatbags import FlatBags
from partialdup.index.groups import bag_digests, flat_digests

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


_M = (1 << 64) - 1


def _mix_py(value: int) -> int:
    """splitmix64's finaliser, in plain integers."""
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & _M
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & _M
    return value ^ (value >> 31)


def _digest_py(bag: dict[int, int]) -> list[int]:
    """The plain reference of a bag's digest: one (feature, count) at a time."""
    return [
        sum(_mix_py((_mix_py(f ^ seed) + c * seed) & _M) for f, c in bag.items()) & _M
        for seed in (0x9E3779B97F4A7C15, 0xD1B54A32D192ED03)
    ]


@settings(max_examples=200, deadline=None)
@given(bags)
def test_digests_of_flat_bags_equal_the_plain_reference(chosen) -> None:
    expected = [_digest_py(b) for b in chosen]
    assert flat_digests(FlatBags.of(chosen)).tolist() == expected
    assert bag_digests([Counter(b) for b in chosen]).tolist() == expected


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
