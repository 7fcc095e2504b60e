"""Tests of partialdup.methods.pinyin: homophones keep the code; the fast path equals the reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.methods.pinyin import Pinyin, pinyin_code, pinyin_letters, window_counts, window_counts_reference


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdez", max_size=40), st.integers(1, 12), st.integers(1, 6))
def test_window_counts_equal_the_reference(letters, window, step):
    assert window_counts(letters, window, step).tolist() == window_counts_reference(letters, window, step)


def test_one_homophone_substituted_keeps_the_code(tokenizer):
    original = "我们在银行工作了很多年，现在再也不想做这件事情了"
    substituted = original.replace("在银行", "再银行")  # 在 / 再: both zai
    method = Pinyin()
    a, b = method.bag(tokenizer.words(original)), method.bag(tokenizer.words(substituted))
    assert a == b and a
    assert pinyin_letters(tokenizer.words(original)) == pinyin_letters(tokenizer.words(substituted))
    other = method.bag(tokenizer.words("显示帮助信息并退出，然后列出目录中的文件"))
    assert method.similarity(a, other) < 0.2


def test_only_han_characters_get_pinyin():
    assert pinyin_letters(["银行", "hello", "3.14", "工作"]) == "yhgz"
    assert pinyin_letters(["only", "english"]) == ""
    assert Pinyin().bag(["only", "english"]) == {}


def test_a_text_shorter_than_a_window_gives_one_code():
    assert len(pinyin_code("yhgz", window=8, step=4)) == 1
    assert len(pinyin_code("abcdefghijkl", window=8, step=4)) == 2
    assert pinyin_code("ab", window=8) == pinyin_code("ba", window=8)  # order inside a window dropped
