"""Tests of partialdup.methods.spotsig."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partialdup.methods.low_idf_sig import stable_hash
from partialdup.methods.spotsig import (
    CHINESE_STOPWORDS,
    ENGLISH_STOPWORDS,
    SPOTSIG_FULL,
    SPOTSIG_SMALL,
    SpotSig,
    spotsig_chains,
)


def test_list_sizes():
    assert len(ENGLISH_STOPWORDS) == 365
    assert len(SPOTSIG_SMALL - CHINESE_STOPWORDS) == 24
    assert SPOTSIG_SMALL <= SPOTSIG_FULL
    assert {"的", "了", "是", "一个", "没有", "我们"} <= SPOTSIG_FULL


def test_chains_skip_stopwords_and_leave_out_the_antecedent():
    tokens = "this is a tour of the old city".split()
    # antecedents: this, is, a, the (small list); "of" and "old" are content here
    assert spotsig_chains(tokens, SPOTSIG_SMALL, chain=2, spacing=1) == [
        ("tour", "of"),
        ("tour", "of"),
        ("tour", "of"),
        ("old", "city"),
    ]


def test_spacing_takes_every_dth_content_token():
    tokens = "the a1 a2 a3 a4 a5".split()
    assert spotsig_chains(tokens, {"the"}, chain=2, spacing=2) == [("a2", "a4")]


def test_chain_is_shorter_at_sentence_end_and_empty_chains_are_dropped():
    assert spotsig_chains(["it", "rains", "there"], {"it", "there"}, chain=3, spacing=1) == [("rains",)]


def test_sentence_without_stopword_uses_first_token_as_antecedent():
    assert spotsig_chains(["big", "red", "dog"], SPOTSIG_FULL, chain=3, spacing=1) == [("red", "dog")]


def test_single_token_and_all_stopword_sentences_still_have_a_feature():
    assert spotsig_chains(["hello"], SPOTSIG_FULL, chain=3, spacing=1) == [("hello",)]
    assert spotsig_chains(["it", "is"], SPOTSIG_FULL, chain=3, spacing=1) == [("it", "is")]
    assert spotsig_chains([], SPOTSIG_FULL, chain=3, spacing=1) == []


def test_chinese_text():
    tokens = ["我们", "在", "北京", "看到", "了", "长城"]
    assert spotsig_chains(tokens, SPOTSIG_FULL, chain=2, spacing=1) == [
        ("北京", "看到"),
        ("北京", "看到"),
        ("长城",),
    ]


def test_bag_hashes_chains():
    bag = SpotSig(SPOTSIG_SMALL, chain=2).bag("is a tour of".split())
    assert bag == {stable_hash(("tour", "of")): 2}


def test_accepts_any_collection_and_validates():
    assert SpotSig({"the"}).stopwords == frozenset({"the"})
    with pytest.raises(ValueError):
        SpotSig(SPOTSIG_SMALL, chain=0)


@given(st.lists(st.sampled_from(["the", "is", "cat", "dog", "runs", "的", "猫"]), min_size=1, max_size=15))
def test_every_non_empty_sentence_has_a_feature(tokens):
    assert sum(SpotSig(SPOTSIG_FULL).bag(tokens).values()) >= 1
