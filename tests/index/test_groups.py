from collections import Counter

import numpy as np
from hypothesis import given, settings, strategies as st

from partialdup.core.bags import FlatBags
from partialdup.index.groups import bag_digests, flat_digests, group_bags, group_flat

bags = st.dictionaries(st.integers(0, 2**64 - 1) | st.integers(0, 6), st.integers(1, 3), max_size=6).map(Counter)


@settings(max_examples=200, deadline=None)
@given(st.lists(bags, min_size=1, max_size=4), st.lists(st.integers(0, 3), max_size=20))
def test_groups_hold_exactly_the_equal_bags(pool, picks):
    chosen = [Counter(pool[p % len(pool)]) for p in picks]
    groups = group_bags(chosen)
    exact: dict = {}
    expected = [exact.setdefault(tuple(sorted(bag.items())), len(exact)) for bag in chosen]
    assert groups.group_of.tolist() == expected
    assert groups.first.tolist() == [expected.index(g) for g in range(len(exact))]
    assert sorted(groups.members.tolist()) == list(range(len(chosen)))
    for g in range(len(groups)):
        assert groups.members[groups.starts[g] : groups.starts[g + 1]].tolist() == [
            k for k, h in enumerate(expected) if h == g
        ]


@settings(max_examples=200, deadline=None)
@given(st.lists(bags, min_size=1, max_size=4), st.lists(st.tuples(st.integers(0, 3), st.booleans()), max_size=20))
def test_groups_made_with_the_arrays_are_those_made_with_the_dicts(pool, picks):
    # Equal bags listed in either order: the arrays tell the same-order
    # ones, the dicts the rest; only the bags the arrays cannot tell are made.
    chosen = [Counter(dict(reversed(pool[p % len(pool)].items())) if flip else pool[p % len(pool)]) for p, flip in picks]
    made: list[int] = []

    class Counted(FlatBags):
        def bag(self, row):
            made.append(row)
            return super().bag(row)

    plain_flat = FlatBags.of(chosen)
    flat = Counted(plain_flat.sizes, plain_flat.features, plain_flat.counts)
    plain, fast = group_bags(chosen), group_flat(flat)
    for name in ("group_of", "first", "members", "starts", "digests", "digest_groups"):
        assert getattr(fast, name).tolist() == getattr(plain, name).tolist()
    first_of = [int(fast.first[g]) for g in fast.group_of.tolist()]
    reordered = {k for k, f in enumerate(first_of) if k != f and list(chosen[k].items()) != list(chosen[f].items())}
    assert set(made) <= reordered | {first_of[k] for k in reordered}


@given(bags)
def test_the_digest_ignores_the_order_a_bag_lists_its_features_in(bag):
    reordered = Counter(dict(reversed(list(bag.items()))))
    assert bag_digests([bag]).tolist() == bag_digests([reordered]).tolist()


def test_the_digest_is_stable_across_runs():
    # Pinned: a digest that changed between versions or machines would change nothing visible,
    # but it must never depend on the process (no salted hash()).
    assert bag_digests([Counter({1: 1, 2: 2})]).tolist() == bag_digests([{2: 2, 1: 1}]).tolist()
    assert bag_digests([{1: 1}]).tolist() != bag_digests([{1: 2}]).tolist()
    assert bag_digests([{}]).tolist() == [[0, 0]]


def test_find_returns_the_group_of_each_equal_non_empty_bag():
    indexed = [Counter({1: 1}), Counter({2: 1}), Counter({1: 1}), Counter()]
    groups = group_bags(indexed)
    rows, found = groups.find([Counter({2: 1}), Counter({3: 1}), Counter({1: 1}), Counter()], indexed.__getitem__)
    assert rows.tolist() == [0, 2] and found.tolist() == [1, 0]
    assert np.array_equal(groups.sizes, [2, 1, 1])


def test_bags_sharing_a_digest_are_still_told_apart(monkeypatch):
    import partialdup.index.groups as module

    monkeypatch.setattr(module, "bag_digests", lambda bags: np.zeros((len(bags), 2), np.uint64))
    groups = module.group_bags([Counter({1: 1}), Counter({2: 1}), Counter({1: 1})])
    assert groups.group_of.tolist() == [0, 1, 0] and groups.first.tolist() == [0, 1]
    flat = FlatBags.of([{1: 1}, {2: 1}, {1: 1}, {2: 1, 3: 1}, {3: 1, 2: 1}])
    groups = module.group_flat(flat, np.zeros((len(flat), 2), np.uint64))
    assert groups.group_of.tolist() == [0, 1, 0, 2, 2] and groups.first.tolist() == [0, 1, 3]


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
@given(st.lists(bags, max_size=8))
def test_digests_of_flat_bags_equal_the_plain_reference(chosen) -> None:
    expected = [_digest_py(b) for b in chosen]
    assert flat_digests(FlatBags.of([dict(b) for b in chosen])).tolist() == expected
    assert bag_digests([Counter(b) for b in chosen]).tolist() == expected
