"""Tests of partialdup.methods.shingle."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partialdup.methods.low_idf_sig import stable_hash
from partialdup.methods.shingle import KShingle, shingles


def test_shingles_by_hand():
    assert shingles(["a", "b", "c", "d"], 3) == [("a", "b", "c"), ("b", "c", "d")]
    assert shingles(["a", "b"], 3) == [("a", "b")]
    assert shingles([], 3) == []


def test_bag_hashes_and_counts_repeats():
    bag = KShingle(2).bag(["x", "y", "x", "y"])
    assert bag == {stable_hash(("x", "y")): 2, stable_hash(("y", "x")): 1}


def test_bag_is_deterministic_value():
    # stable_hash is BLAKE2b, so the value is the same in every process
    assert KShingle(1).bag(["a"]) == {stable_hash(["a"]): 1}


def test_k_must_be_positive():
    with pytest.raises(ValueError):
        KShingle(0)


@given(st.lists(st.sampled_from("abcdef"), max_size=20), st.integers(1, 6))
def test_bag_size_is_max_1_n_minus_k_plus_1(tokens, k):
    bag = KShingle(k).bag(tokens)
    expected = max(1, len(tokens) - k + 1) if tokens else 0
    assert sum(bag.values()) == expected
