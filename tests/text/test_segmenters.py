"""The segmenters: one call per sentence gives the words of one call per run;
rjieba gives jieba's words on real Chinese; jieba's dictionary cache is the user's own."""

from __future__ import annotations

import functools
import os
import sys

import pytest
from hypothesis import example, given, settings, strategies as st

from partialdup.core.chars import is_han
from partialdup.core.config import Config
from partialdup.core.errors import ConfigError
from partialdup.io.reader import read_documents
from partialdup.text import diskcache, word_layout
from partialdup.text.segmenters import JiebaSegmenter, RjiebaSegmenter, Segmenter, jieba_cache_dir, make_segmenter
from partialdup.text.sentences import SentenceSplitter
from partialdup.text.tokens import Tokenizer
from tests.paths import REPO

# Common words and characters, and Han characters jieba does not segment
# (Extension A 㐀, U+9FD6-U+9FFF 鿖 鿿, a compatibility ideograph 﨎, Extension B 𠀀 𠀁).
HAN = list("我们中出了一个叛徒开始菜单入口的是可以使用命令文件位元组字节正規表示式") + ["㐀", "鿖", "鿿", "﨎", "𠀀", "𠀁"]
runs = st.lists(st.text(st.sampled_from(HAN), min_size=0, max_size=12), max_size=8)


@functools.cache
def jieba_segmenter() -> JiebaSegmenter:
    return JiebaSegmenter()


@functools.cache
def jieba_in_one_call() -> JiebaSegmenter:
    """jieba given all blocks in one call: jieba's own block rules are what
    make the join sound, so the joined path is proven on jieba itself."""
    segmenter = JiebaSegmenter()
    segmenter.one_call = True
    return segmenter


@functools.cache
def rjieba_segmenter() -> RjiebaSegmenter:
    return RjiebaSegmenter()


@functools.cache
def rjieba_tokenizer() -> Tokenizer:
    return Tokenizer(segmenter="rjieba")


@functools.cache
def jieba_tokenizer() -> Tokenizer:
    return Tokenizer(segmenter="jieba")


@functools.cache
def chinese_sentences() -> tuple[str, ...]:
    """Every sentence of the gold set's Chinese source documents (real text)."""
    splitter = SentenceSplitter()
    out = []
    for document in read_documents([REPO / "goldenset" / "src"]).documents:
        letters = [char for char in document.text if char.isalpha()]
        if letters and sum(map(is_han, letters)) > len(letters) / 2:
            out.extend(document.text[s.start : s.end] for s in splitter.split(document.text))
    return tuple(out)


@settings(max_examples=300, deadline=None)
@given(runs)
@example(["我们中出了", "一个叛徒"])
@example(["㐀我们𠀀𠀁", "鿖", ""])
def test_one_call_for_all_runs_gives_the_words_of_one_call_per_run(given_runs):
    reference = jieba_segmenter().segment_each(given_runs)
    assert jieba_in_one_call().segment(given_runs) == reference
    assert jieba_segmenter().segment(given_runs) == reference


@settings(max_examples=200, deadline=None)
@given(runs)
@example(["㐀我们𠀀𠀁中文"])
def test_rjieba_sees_the_blocks_jieba_sees(given_runs):
    # jieba-rs would give the characters jieba leaves alone (𠀀𠀁) to its HMM;
    # the segmenter sets them apart first, as jieba does.
    assert rjieba_segmenter().segment(given_runs) == jieba_segmenter().segment_each(given_runs)


def test_characters_jieba_does_not_segment_are_words_of_their_own():
    assert jieba_segmenter().segment(["𠀀𠀁中文"]) == [("𠀀", "𠀁", "中文")]
    assert rjieba_segmenter().segment(["𠀀𠀁中文"]) == [("𠀀", "𠀁", "中文")]
    assert rjieba_segmenter().segment_each(["𠀀𠀁中文"]) == [("𠀀𠀁", "中文")]  # what rjieba alone does


class _Greedy(Segmenter):
    """A backend that keeps its whole input as one word (line breaks too)."""

    name = "greedy"

    def __init__(self) -> None:
        self.calls = 0

    def _cut(self, text: str) -> list[str]:
        self.calls += 1
        return [text]


def test_a_word_across_the_join_falls_back_to_one_call_per_block():
    greedy = _Greedy()
    assert greedy.segment(["甲乙", "丙"]) == [("甲乙",), ("丙",)]
    assert greedy.calls == 3  # the joined call, then one per block
    assert word_layout.split_joined(["甲乙\n丙"], ["甲乙", "丙"], "甲乙\n丙") is None
    assert word_layout.split_joined(["甲", "乙", "\n", "丙"], ["甲乙", "丙"], "甲乙\n丙") == [("甲", "乙"), ("丙",)]
    assert word_layout.split_joined(["甲", "", "乙", "\n", "丙"], ["甲乙", "丙"], "甲乙\n丙") is None
    assert word_layout.split_joined(["甲", "乙\n", "丙"], ["甲乙", "丙"], "甲乙\n丙") is None


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_rjieba_gives_jiebas_words_on_real_chinese_sentences(data):
    sentence = data.draw(st.sampled_from(chinese_sentences()))
    jieba_words = jieba_tokenizer().words(sentence)
    assert rjieba_tokenizer().words(sentence) == jieba_words
    assert [t.text for t in rjieba_tokenizer().tokenize(sentence)] == jieba_words


def test_the_taiwan_words_reach_rjieba_too():
    tokenizer = jieba_tokenizer()
    assert tokenizer.segmenter == "jieba" and rjieba_tokenizer().segmenter == "rjieba"
    for text in ("限制要轉儲的輸入位元組", "Tcl 正規表示式的語法", "使用者可以呼叫預設的檔案"):
        assert rjieba_tokenizer().words(text) == tokenizer.words(text)
    assert rjieba_tokenizer().words("限制要轉儲的輸入位元組") == rjieba_tokenizer().words("限制要转储的输入字节")
    plain = Tokenizer(segmenter="rjieba", taiwan_words=None)
    assert plain.words("輸入位元組") != plain.words("输入字节")


alphabet = st.sampled_from(list("abcX 01.,'-\n\t，。「」！？漢字转換說话我们中出了叛徒开始菜单ＡＢ１ﬁé\u0301\u200b𠀀㐀"))


@functools.cache
def per_run_tokenizer() -> Tokenizer:
    """jieba called once per Han run: the tokenizer as it was before."""
    tokenizer = Tokenizer(segmenter="jieba")
    tokenizer._segmenter.segment = tokenizer._segmenter.segment_each  # type: ignore[method-assign]
    return tokenizer


@functools.cache
def one_call_tokenizer() -> Tokenizer:
    """jieba given all the runs of a stretch in one call."""
    tokenizer = Tokenizer(segmenter="jieba")
    tokenizer._segmenter.one_call = True
    return tokenizer


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet, max_size=80), st.data())
def test_one_call_per_stretch_gives_the_tokens_of_one_call_per_run(text, data):
    # The tests of test_tokens.py run on the default segmenter; here jieba
    # (the reference) with all runs of a stretch in one call, against one
    # call per run, and rjieba (one call): the same tokens at the same offsets.
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    batched, reference = one_call_tokenizer(), per_run_tokenizer()
    batched.clear_cache()  # remembered runs would hide the call
    tokens = batched.tokenize(text, start, end)
    assert tokens == reference.tokenize(text, start, end)
    assert batched.words(text, start, end) == [t.text for t in tokens]
    assert rjieba_tokenizer().tokenize(text, start, end) == tokens
    for token in tokens:
        assert start <= token.start < token.end <= end
        original, _ = batched.normalise(text[token.start : token.end])
        assert token.text in "".join(original.split())


def test_the_backend_is_named_with_its_version(tokenizer):
    assert tokenizer.segmenter == "rjieba"  # the default
    assert jieba_tokenizer().backend.startswith("jieba 0.") and rjieba_tokenizer().backend.startswith("rjieba 0.")


def test_unknown_or_missing_segmenters_are_one_line_errors(monkeypatch):
    with pytest.raises(ConfigError, match="--segmenter must be one of rjieba, jieba, got 'nope'"):
        Config(segmenter="nope")
    with pytest.raises(ConfigError, match="--segmenter must be one of rjieba, jieba, got 'nope'"):
        make_segmenter("nope")
    with pytest.raises(ConfigError, match="cannot be loaded"):
        make_segmenter("rjieba", dictionary="dict.txt")
    monkeypatch.setitem(sys.modules, "rjieba", None)  # as if not installed
    with pytest.raises(ConfigError, match=r"--segmenter rjieba needs the rjieba package \(pip install rjieba\)"):
        make_segmenter("rjieba")


# jieba's dictionary cache --------------------------------------------------


def test_a_cache_is_written_whole_read_back_and_rebuilt_when_broken(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = JiebaSegmenter()
    assert not list(tmp_path.rglob("jieba-*"))  # the dictionary is loaded when first needed
    first.load()
    [name] = os.listdir(tmp_path / "partialdup")  # no temporary file left
    cache = tmp_path / "partialdup" / name
    assert name.startswith("jieba-") and name.endswith(".cache")
    assert diskcache.read_cached(str(cache))[1] == first._jieba.total
    cache.write_bytes(cache.read_bytes()[:1000])  # cut short
    again = JiebaSegmenter()
    assert again.segment(["我们中出了一个叛徒"]) == first.segment(["我们中出了一个叛徒"])
    assert diskcache.read_cached(str(cache)) is not None and os.listdir(tmp_path / "partialdup") == [name]


def test_no_cache_folder_still_segments(tmp_path, monkeypatch):
    (tmp_path / "partialdup").write_text("a file, not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert jieba_cache_dir() is None
    assert JiebaSegmenter().segment(["中文分词"]) == [("中文", "分词")]


def test_rjiebas_compiled_module_is_loaded_once_and_shared():
    # Loaded without the package's default Jieba (start-up); importing the
    # package afterwards gives the same class, not a second module.
    segmenter = rjieba_segmenter()
    import rjieba

    assert type(segmenter._jieba) is rjieba.Jieba and rjieba.cut("中文分词") == ["中文", "分词"]


def test_the_han_range_is_jiebas_own():
    # segment() sets apart what jieba's block pattern leaves out; a jieba
    # with another range would make the two backends part ways.
    import jieba

    assert jieba.re_han_default.pattern.startswith("([\u4e00-\u9fd5a-zA-Z0-9")
    assert word_layout._FIRST == "\u4e00" and word_layout._LAST == "\u9fd5"
