"""Tests of partialdup.methods.setsim: Jaccard, short-text Jaccard, cosine, and the jaccard method."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.core.config import Config
from partialdup.methods import build_method
from partialdup.methods.setsim import (
    cosine,
    cosine_reference,
    jaccard,
    jaccard_reference,
    short_jaccard,
    short_jaccard_reference,
    word_set,
)
from partialdup.methods.similarity import bag_jaccard

token_lists = st.lists(st.sampled_from("甲 乙 丙 丁 戊 a b c d".split()), max_size=10)


def hashes(tokens):
    return {int(h) for h in word_set(tokens)}


@settings(max_examples=200, deadline=None)
@given(token_lists, token_lists)
def test_the_fast_paths_equal_the_references(a, b):
    fa, fb = word_set(a), word_set(b)
    assert jaccard(fa, fb) == jaccard_reference(hashes(a), hashes(b))
    assert short_jaccard(fa, fb) == short_jaccard_reference(hashes(a), hashes(b))


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(0, 20), st.floats(0.1, 10.0), max_size=8), st.dictionaries(st.integers(0, 20), st.floats(0.1, 10.0), max_size=8))
def test_cosine_equals_the_reference(a, b):
    def arrays(d):
        keys = np.array(sorted(d), dtype=np.uint64)
        return keys, np.array([d[int(k)] for k in keys], dtype=np.float64)

    assert math.isclose(cosine(*arrays(a), *arrays(b)), cosine_reference(a, b), abs_tol=1e-12)


def test_short_jaccard_of_a_contained_text_is_one():
    host = "cp 复制 文件 和 目录 到 目标 位置".split()
    contained = "复制 文件 和 目录".split()
    assert short_jaccard(word_set(contained), word_set(host)) == 1.0
    assert jaccard(word_set(contained), word_set(host)) == 0.5
    assert short_jaccard(word_set([]), word_set(host)) == 0.0


def test_hand_checked_values():
    assert jaccard_reference({1, 2, 3}, {2, 3, 4}) == 0.5
    assert short_jaccard_reference({1, 2}, {1, 2, 3, 4}) == 1.0
    assert cosine_reference({"a": 1.0, "b": 1.0}, {"a": 1.0}) == 1 / math.sqrt(2)


def test_the_jaccard_method_is_the_word_set_jaccard(idf):
    method = build_method(Config(), idf, "jaccard")
    a, b = "复制 文件 文件 和 目录".split(), "复制 文件 到 目录".split()
    assert method.search_kind == "bag"
    assert bag_jaccard(method.bag(a), method.bag(b)) == jaccard(word_set(a), word_set(b)) == 3 / 5


def test_the_jaccard_method_runs_end_to_end(idf):
    from partialdup.core.types import Document
    from partialdup.pipeline.factory import make_detector
    from tests.paths import SAMPLES

    docs = [Document(name, (SAMPLES / name).read_text(encoding="utf-8")) for name in ("man_ls.1.zh_CN.txt", "man_ls.1.zh_TW.txt")]
    detection = make_detector("jaccard", idf, Config()).detect(docs)
    assert detection.spans and all(span.a == "man_ls.1.zh_CN.txt" for span in detection.spans)
