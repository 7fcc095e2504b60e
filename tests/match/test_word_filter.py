"""The word filter's bounds: never below the words shared, nor below rapidfuzz's ratio."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings, strategies as st

from partialdup.match.edited import word_ratio
from partialdup.match.word_filter import ratio_may_reach, shared_at_most, word_bits
from partialdup.store.blooms import EVERY_WORD, sentence_blooms

WORDS = st.sampled_from(["a", "b", "c", "copy", "的", "是", "文件", "用户", "1", "9.2"])
SENTENCES = st.lists(WORDS, max_size=14)


@settings(max_examples=300, deadline=None)
@given(SENTENCES, SENTENCES)
def test_the_bound_holds_at_least_the_words_shared(first, second) -> None:
    second_filter = int(sentence_blooms([second])[0])
    shared = shared_at_most(second_filter, word_bits(first))
    assert shared >= sum((Counter(first) & Counter(second)).values())
    assert shared <= len(first)
    assert shared_at_most(int(EVERY_WORD), word_bits(first)) == len(first)


@settings(max_examples=300, deadline=None)
@given(SENTENCES, SENTENCES, st.floats(0.0, 100.0))
def test_a_pair_ruled_out_never_reaches_the_ratio(first, second, least) -> None:
    shared = shared_at_most(int(sentence_blooms([second])[0]), word_bits(first))
    if not ratio_may_reach(shared, len(first), len(second), least):
        assert word_ratio(first, second) < least


def test_identical_sentences_may_reach_any_ratio() -> None:
    words = ["使用", "文件", "的", "使用"]
    bits = word_bits(words)
    assert ratio_may_reach(shared_at_most(int(sentence_blooms([words])[0]), bits), 4, 4, 100.0)
    assert not ratio_may_reach(1, 10, 10, 70.0) and ratio_may_reach(7, 10, 10, 70.0)
