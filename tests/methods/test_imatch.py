"""Tests of partialdup.methods.imatch."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partialdup.text.idf import IdfTable
from partialdup.methods.imatch import IMatch

# min 0, max 10: nidf = idf / 10
TABLE = IdfTable({"the": 0.0, "of": 1.0, "cat": 5.0, "sat": 6.0, "mat": 10.0}, default=4.0)


def test_keeps_tokens_in_the_nidf_band():
    imatch = IMatch(TABLE, low=0.3, high=1.0)
    assert imatch.kept_tokens(["the", "cat", "sat", "of", "mat"]) == ["cat", "mat", "sat"]
    # unknown tokens take the default IDF 4.0 -> nidf 0.4, kept
    assert imatch.kept_tokens(["the", "dog"]) == ["dog"]
    assert IMatch(TABLE, low=0.3, high=0.55).kept_tokens(["cat", "sat", "mat"]) == ["cat"]


def test_falls_back_to_all_tokens_when_none_is_kept():
    assert IMatch(TABLE).kept_tokens(["the", "of", "the"]) == ["of", "the"]


def test_bag_is_first_8_bytes_of_sha1():
    digest = hashlib.sha1("cat\x1fmat".encode("utf-8")).digest()
    assert IMatch(TABLE).bag(["the", "mat", "cat", "cat"]) == {int.from_bytes(digest[:8], "big"): 1}


def test_frequent_words_do_not_change_the_digest():
    imatch = IMatch(TABLE)
    assert imatch.bag(["the", "cat", "sat"]) == imatch.bag(["cat", "of", "sat", "the"])
    assert imatch.bag(["cat", "sat"]) != imatch.bag(["cat", "mat"])


def test_empty_sentence_and_degenerate_table():
    assert IMatch(TABLE).bag([]) == {}
    flat = IMatch(IdfTable({"a": 1.0, "b": 1.0}))
    assert flat.kept_tokens(["b", "a"]) == ["a", "b"]


def test_band_must_be_ordered():
    with pytest.raises(ValueError):
        IMatch(TABLE, low=0.8, high=0.2)


@given(st.permutations(["the", "cat", "sat", "of", "mat", "dog", "猫"]))
def test_order_invariant_under_permutation(tokens):
    imatch = IMatch(TABLE)
    assert imatch.bag(tokens) == imatch.bag(["the", "cat", "sat", "of", "mat", "dog", "猫"])
