"""Tests of partialdup.methods.simhash: fast paths equal the references; hand-checked cases."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.core.hashing import stable_hash
from partialdup.methods.simhash import (
    SimHash,
    hamming,
    hamming_bound,
    simhash,
    simhash_cosine,
    simhash_cosine_reference,
    simhash_many,
    simhash_reference,
    simhash_vector,
    simhash_vector_reference,
    token_weights,
)

words = st.text(alphabet="abcdefgh的了中文", min_size=1, max_size=4)
weights = st.dictionaries(words, st.floats(min_value=0.01, max_value=50.0), max_size=12)


@settings(max_examples=200, deadline=None)
@given(weights)
def test_the_fast_fingerprint_equals_the_reference(w):
    assert simhash(w) == simhash_reference(w)
    assert np.allclose(simhash_vector(w), simhash_vector_reference(w))


@settings(max_examples=100, deadline=None)
@given(st.lists(weights, max_size=6))
def test_many_at_once_equals_one_by_one(texts):
    assert simhash_many(texts).tolist() == [simhash_reference(w) for w in texts]


@settings(max_examples=100, deadline=None)
@given(weights, weights)
def test_simhash_cosine_equals_the_reference(a, b):
    va, vb = simhash_vector(a), simhash_vector(b)
    assert math.isclose(simhash_cosine(va, vb), simhash_cosine_reference(list(va), list(vb)), abs_tol=1e-9)


def test_one_word_gives_its_own_hash():
    # every bit of V is +w or -w: the fingerprint is the word's hash itself
    assert simhash({"文件": 2.0}) == stable_hash(("文件",))
    assert simhash({}) == 0


def test_word_order_does_not_matter_and_stop_words_are_removed(idf):
    method = SimHash(idf)
    text = "复制 文件 和 目录 到 目标 位置".split()
    assert method.fingerprint(text) == method.fingerprint(text[::-1])
    assert token_weights(["的", "文件", "文件", "the", "file"]) == {"文件": 2.0, "file": 1.0}
    assert token_weights(["文件"], idf=idf) == {"文件": idf.idf("文件")}


def test_hamming_and_its_bound():
    assert hamming(0b1011, 0b0001) == 2
    assert hamming_bound(1 - 3 / 64) == 3 and hamming_bound(0.95) == 3 and hamming_bound(1.0) == 0
    method = SimHash(hamming_bound=3)
    assert method.is_duplicate(0, 0b111) and not method.is_duplicate(0, 0b1111)
    assert method.similarity(0, 0b11) == 1 - 2 / 64


def test_a_lightly_edited_document_stays_near(tokenizer, idf):
    from tests.paths import SAMPLES

    text = (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8")
    edited = text.replace("software", "programs", 3)
    method = SimHash(idf)
    a, b = method.fingerprint(tokenizer.words(text)), method.fingerprint(tokenizer.words(edited))
    other = method.fingerprint(tokenizer.words((SAMPLES / "man_ls.1.zh_CN.txt").read_text(encoding="utf-8")))
    assert hamming(a, b) <= 3 < hamming(a, other)
