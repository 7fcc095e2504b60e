"""jieba's three modes (``--jieba-mode``): full and search give the accurate
words' text and more, every token keeps its exact offsets though tokens
overlap, the positions found are jieba's own, and accurate is unchanged."""

from __future__ import annotations

import functools
from typing import Iterator

import pytest
from hypothesis import given, settings, strategies as st

from partialdup.cli.main import main
from partialdup.core.config import Config
from partialdup.core.errors import ConfigError
from partialdup.core.types import Token
from partialdup.io.reader import read_documents
from partialdup.text.segmenters import JiebaSegmenter, Segmenter, make_segmenter
from partialdup.text.word_layout import word_starts
from partialdup.text.sentences import SentenceSplitter
from partialdup.text.tokens import Tokenizer
from tests.paths import REPO

BACKENDS = ("jieba", "rjieba")
MODES = ("accurate", "full", "search")


@functools.cache
def tokenizer(segmenter: str, mode: str) -> Tokenizer:
    return Tokenizer(segmenter=segmenter, jieba_mode=mode)


@functools.cache
def default_tokenizer(segmenter: str) -> Tokenizer:
    # The tokenizer a run makes when no mode is asked for: made once (each
    # Tokenizer loads its dictionary, 0.3 s a time).
    return Tokenizer(segmenter=segmenter)


@functools.cache
def jieba_in(mode: str) -> JiebaSegmenter:
    return JiebaSegmenter(mode=mode)


@functools.cache
def rjieba_in(mode: str) -> Segmenter:
    return make_segmenter("rjieba", mode=mode)


@functools.cache
def man_sentences() -> tuple[str, ...]:
    """Every sentence of the gold set's Simplified Chinese manual pages (real text)."""
    splitter = SentenceSplitter()
    paths = sorted((REPO / "goldenset" / "src").glob("man_zhcn_*.txt"))
    out = []
    for document in read_documents(paths).documents:
        out.extend(document.text[s.start : s.end] for s in splitter.split(document.text))
    return tuple(sentence for sentence in out if any("\u4e00" <= char <= "\u9fd5" for char in sentence))


sentences = st.integers(min_value=0).map(lambda i: man_sentences()[i % len(man_sentences())])


def spans(tokens: list[Token]) -> list[tuple[str, int, int]]:
    return [(token.text, token.start, token.end) for token in tokens]


def covered(tokens: list[Token]) -> set[int]:
    return {i for token in tokens for i in range(token.start, token.end)}


def test_the_gold_sentences_are_there() -> None:
    assert len(man_sentences()) > 500


@pytest.mark.parametrize("segmenter", BACKENDS)
@settings(max_examples=60, deadline=None)
@given(sentence=sentences)
def test_every_token_is_its_own_text(segmenter: str, sentence: str) -> None:
    for mode in MODES:
        chosen = tokenizer(segmenter, mode)
        tokens = chosen.tokenize(sentence)
        assert chosen.words(sentence) == [token.text for token in tokens]
        for token in tokens:
            original = "".join(sentence[token.start : token.end].split())  # a word wrapped across a line break
            # Compared without white space: a compatibility character may hold
            # some (´ U+00B4 is a space and U+0301 in NFKC), which no token keeps.
            assert "".join(chosen.match_form(original).split()) == token.text, (mode, token)


@pytest.mark.parametrize("segmenter", BACKENDS)
@settings(max_examples=60, deadline=None)
@given(sentence=sentences)
def test_full_and_search_give_the_accurate_words_and_more(segmenter: str, sentence: str) -> None:
    accurate = tokenizer(segmenter, "accurate").tokenize(sentence)
    search = tokenizer(segmenter, "search").tokenize(sentence)
    full = tokenizer(segmenter, "full").tokenize(sentence)
    # search: every accurate token, at its place, and the shorter words inside.
    assert set(spans(accurate)) <= set(spans(search))
    assert len(search) >= len(accurate)
    # full: every dictionary word over the same characters (so a sentence
    # may have fewer: 目/地 cut apart by accurate mode is the word 目地 here).
    assert covered(full) == covered(accurate)
    if segmenter == "jieba":  # every accurate word in jieba's dictionary is a full-mode word, at its place
        words = jieba_in("full")._jieba.FREQ
        for token in accurate:
            word, _ = tokenizer(segmenter, "full").normalise("".join(sentence[token.start : token.end].split()))
            if len(word) > 1 and words.get(word):
                assert (token.text, token.start, token.end) in set(spans(full)), token


@pytest.mark.parametrize("segmenter", BACKENDS)
def test_full_and_search_give_more_words_over_the_man_pages(segmenter: str) -> None:
    sample = man_sentences()[::10]
    counts = {mode: sum(len(tokenizer(segmenter, mode).tokenize(s)) for s in sample) for mode in MODES}
    assert counts["full"] > counts["accurate"] and counts["search"] > counts["accurate"], counts


@settings(max_examples=40, deadline=None)
@given(sentence=sentences)
def test_accurate_is_todays_tokenizer(sentence: str) -> None:
    assert Config().jieba_mode == "accurate"
    for segmenter in BACKENDS:
        assert tokenizer(segmenter, "accurate").tokenize(sentence) == default_tokenizer(segmenter).tokenize(sentence)


def han_blocks(sentence: str) -> list[str]:
    blocks, block = [], ""
    for char in sentence + " ":
        if "\u4e00" <= char <= "\u9fd5":
            block += char
        elif block:
            blocks.append(block)
            block = ""
    return blocks


def jieba_full_reference(segmenter: JiebaSegmenter, block: str) -> Iterator[tuple[str, int]]:
    """jieba's ``cut_all`` on Han text, each word with its start (its loop,
    ``Tokenizer.__cut_all``, keeping the position it has at hand)."""
    old_j = -1
    for k, ends in segmenter._jieba.get_DAG(block).items():
        if len(ends) == 1 and k > old_j:
            yield block[k : ends[0] + 1], k
            old_j = ends[0]
        else:
            for j in ends:
                if j > k:
                    yield block[k : j + 1], k
                    old_j = j


def jieba_search_reference(segmenter: JiebaSegmenter, block: str) -> Iterator[tuple[str, int]]:
    """jieba's ``cut_for_search``, each word with its start."""
    position = 0
    for word in segmenter._jieba.cut(block, HMM=True):
        for size in (2, 3):
            if len(word) > size:
                for i in range(len(word) - size + 1):
                    if segmenter._jieba.FREQ.get(word[i : i + size]):
                        yield word[i : i + size], position + i
        yield word, position
        position += len(word)


@settings(max_examples=60, deadline=None)
@given(sentence=sentences)
def test_the_starts_found_are_jiebas_own(sentence: str) -> None:
    references = {"full": jieba_full_reference, "search": jieba_search_reference}
    for mode, reference in references.items():
        segmenter = jieba_in(mode)
        blocks = han_blocks(sentence)
        located = segmenter.segment_located(blocks)
        for block, (words, starts) in zip(blocks, located):
            assert list(zip(words, starts)) == list(reference(segmenter, block)), (mode, block)


def test_repeated_words_get_each_their_own_place() -> None:
    # 学 twice, 计算 twice: a word found again is looked for after its last place.
    block = "科学计算与数学计算"
    for segmenter in ("jieba", "rjieba"):
        for mode in ("full", "search"):
            [(words, starts)] = make_segmenter(segmenter, mode=mode).segment_located([block])
            assert [block[s : s + len(w)] for w, s in zip(words, starts)] == list(words)
            assert len(set(zip(words, starts))) == len(words), (segmenter, mode)
    assert word_starts("计算计算", ["计算", "计算"], "accurate") == (0, 2)


def test_a_lone_character_in_full_mode_is_where_no_word_reaches() -> None:
    # jieba: 文件 at 0, then 件 at 1 is inside it (not given), 件 at 2 is;
    # jieba-rs gives every character: 文, 文件, 件 (1), 件 (2).
    [(words, starts)] = jieba_in("full").segment_located(["文件件"])
    assert list(zip(words, starts)) == [("文件", 0), ("件", 2)] == list(jieba_full_reference(jieba_in("full"), "文件件"))
    [(words, starts)] = rjieba_in("full").segment_located(["文件件"])
    assert list(zip(words, starts)) == [("文", 0), ("文件", 0), ("件", 1), ("件", 2)]


def test_an_unknown_mode_is_one_clear_error() -> None:
    with pytest.raises(ConfigError, match="--jieba-mode must be one of accurate, full, search"):
        make_segmenter("jieba", mode="fast")
    with pytest.raises(ConfigError, match="--jieba-mode"):
        Config(jieba_mode="fast")


@pytest.mark.parametrize("mode", ["search", "full"])
def test_detect_runs_on_the_slice_in_each_mode(mode: str, tmp_path, capsys) -> None:
    out = tmp_path / "spans.jsonl"
    slice_ = REPO / "goldenset" / "slice"
    code = main(["detect", str(slice_ / "src"), str(slice_ / "susp"), "--jieba-mode", mode, "--jobs", "1", "-o", str(out)])
    assert code == 0
    assert out.read_text(encoding="utf-8").count("\n") > 50


@settings(max_examples=60, deadline=None)
@given(sentence=sentences)
def test_rjieba_places_its_words_as_jieba_does(sentence: str) -> None:
    """jieba-rs (the same algorithm and dictionary) gives the same search-mode
    words at the same places, and the same longer full-mode words; its lone
    characters in full mode (every one) come in order of start."""
    blocks = han_blocks(sentence)
    for mode in ("full", "search"):
        ours = rjieba_in(mode).segment_located(blocks)
        theirs = jieba_in(mode).segment_located(blocks)
        for (words, starts), (jieba_words, jieba_starts) in zip(ours, theirs):
            placed, jieba_placed = list(zip(words, starts)), list(zip(jieba_words, jieba_starts))
            if mode == "search":
                assert placed == jieba_placed
            else:
                assert [p for p in placed if len(p[0]) > 1] == [p for p in jieba_placed if len(p[0]) > 1]
                assert list(starts) == sorted(starts) and len(set(placed)) == len(placed)
