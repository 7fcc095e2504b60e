"""The filters of words: no false negative, the bound never below the words shared, a plain reference."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from partialdup.core.hashing import stable_hash
from partialdup.store.blooms import BITS, EVERY_WORD, holds_all, sentence_blooms, shared_bound, word_bit
from partialdup.store.wordtable import word_key
from tests.match.test_word_filter import plain_filter

WORDS = st.text(alphabet="abcdefg的是了中文件用户", min_size=1, max_size=4)
SENTENCES = st.lists(st.lists(WORDS, max_size=12), min_size=1, max_size=6)


@settings(max_examples=150, deadline=None)
@given(SENTENCES)
def test_blooms_equal_the_plain_reference_and_hold_every_word(sentences) -> None:
    blooms = sentence_blooms(sentences)
    assert blooms.dtype == np.dtype("<u8") and blooms.tolist() == [plain_filter(words) for words in sentences]
    for i, words in enumerate(sentences):
        assert holds_all(blooms[i:i + 1], [word_key(word) for word in words]).tolist() == [True]


@settings(max_examples=150, deadline=None)
@given(SENTENCES, st.lists(WORDS, max_size=10))
def test_the_bound_is_at_least_the_words_shared(sentences, query) -> None:
    weights = np.zeros(BITS, np.int64)
    for word in set(query):
        weights[word_bit(word_key(word))] += 1
    blooms = sentence_blooms(sentences)
    bound = shared_bound(blooms, np.tile(weights, (len(sentences), 1)))
    for words, most in zip(sentences, bound.tolist()):
        assert most >= len(set(query) & set(words))
    assert shared_bound(np.array([EVERY_WORD], "<u8"), weights[None, :]).tolist() == [len(set(query))]


def test_a_word_sets_the_low_bits_of_its_key() -> None:
    for word in ("copy", "文件", "使用者"):
        assert word_bit(word_key(word)) == stable_hash((word,)) % BITS
