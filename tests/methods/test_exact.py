"""Tests of partialdup.methods.exact: the Bloom filter's measured false-positive rate, the Trie."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.methods.exact import BloomFilter, DigitTrie, bloom_size, false_positive_rate, sentence_key

from tests.methods.realtext import real_keys

INSERTED = 100_000


def test_the_size_follows_the_formulas():
    bits, positions = bloom_size(100_000, 0.01)
    assert bits == math.ceil(-100_000 * math.log(0.01) / math.log(2) ** 2) == 958_506
    assert positions == 7


@settings(max_examples=50, deadline=None)
@given(st.lists(st.text(max_size=12), max_size=40), st.lists(st.text(max_size=12), max_size=40))
def test_the_vectorised_filter_equals_the_plain_one(added, probed):
    fast, plain = BloomFilter(50, 0.05), BloomFilter(50, 0.05)
    fast.add_many(added)
    for key in added:
        plain.add(key)
    assert (fast._array == plain._array).all()
    assert fast.contains_many(probed).tolist() == [key in plain for key in probed]
    assert all(key in fast for key in added)  # no false negatives


def test_the_measured_false_positive_rate_on_real_sentences_is_within_twice_the_design():
    keys = real_keys()
    assert len(keys) > INSERTED + 40_000  # 70,410 distinct sentences + distinct neighbouring pairs
    inserted, probes = list(keys[:INSERTED]), list(keys[INSERTED:])
    for rate in (0.01, 0.001):
        bloom = BloomFilter(INSERTED, rate)
        bloom.add_many(inserted)
        assert bloom.contains_many(inserted).all()
        measured = false_positive_rate(bloom.contains_many(probes))
        design = bloom.design_rate()
        assert design / 2 <= measured <= design * 2, (rate, measured, design)


def test_the_trie_is_exact_on_real_sentences():
    keys = real_keys()
    trie = DigitTrie()
    assert all(trie.add(key) for key in keys[:20_000])
    assert not trie.add(keys[0])
    assert all(key in trie for key in keys[:20_000])
    assert not any(key in trie for key in keys[20_000:40_000])
    assert trie.count == 20_000 and trie.nodes < 20_000 * DigitTrie.DIGITS


def test_the_key_is_the_normalised_tokens(tokenizer):
    a = sentence_key(tokenizer.words("複製檔案和目錄。"))
    b = sentence_key(tokenizer.words("复制文件和目录"))
    assert a == b
    assert false_positive_rate([]) == 0.0 and false_positive_rate(np.array([True, False])) == 0.5
