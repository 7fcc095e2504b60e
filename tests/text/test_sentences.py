"""Tests of the sentence splitter stage."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partialdup.text.sentences import (
    _FINISHED,
    DEFAULT_PUNKT_PARAMS,
    SentenceSplitter,
    _terminator_cuts,
    _terminator_cuts_py,
    rejoinable,
)
from tests.methods.realtext import real_documents, real_slices
from partialdup.core.types import Sentence


@pytest.fixture(scope="module")
def splitter() -> SentenceSplitter:
    return SentenceSplitter()


def texts(splitter: SentenceSplitter, text: str) -> list[str]:
    return [text[s.start : s.end] for s in splitter.split(text)]


def check_invariants(text: str, sentences: tuple[Sentence, ...], max_chars: int) -> None:
    """Exact slices, trimmed, ordered, non-overlapping, full coverage, capped."""
    prev_end = 0
    covered = []
    for i, s in enumerate(sentences):
        assert s.index == i
        assert prev_end <= s.start < s.end <= len(text)
        piece = text[s.start : s.end]
        assert piece == piece.strip() and piece
        assert len(piece) <= max_chars
        assert text[prev_end : s.start].strip() == ""  # only whitespace skipped
        covered.append(piece)
        prev_end = s.end
    assert text[prev_end:].strip() == ""
    # Every non-space character is in exactly one sentence.
    assert "".join("".join(p.split()) for p in covered) == "".join(text.split())


# --- Chinese -------------------------------------------------------------


def test_chinese_quote_stays_in_sentence(splitter):
    assert texts(splitter, "他说：“好。”") == ["他说：“好。”"]
    assert texts(splitter, "他说：“好。”然后走了。") == ["他说：“好。”", "然后走了。"]


def test_brackets_after_terminator(splitter):
    assert texts(splitter, "（见下文。）下一句！") == ["（见下文。）", "下一句！"]
    assert texts(splitter, "「你好嗎？」『很好！』《完。》") == ["「你好嗎？」", "『很好！』", "《完。》"]


def test_terminator_runs_and_ellipsis(splitter):
    assert texts(splitter, "真的吗？！是的……好吧…再见。") == ["真的吗？！", "是的……", "好吧…", "再见。"]
    assert texts(splitter, "第一句；第二句。") == ["第一句；", "第二句。"]


def test_ascii_punctuation_after_chinese(splitter):
    assert texts(splitter, "你好吗?我很好!谢谢.") == ["你好吗?", "我很好!", "谢谢."]


# --- English -------------------------------------------------------------


def test_english_abbreviations(splitter):
    text = (
        "Mr. Smith met Dr. Jones, e.g. at home, i.e. in town, etc. and compared A vs. B. "
        "See Fig. 3 and No. 5 for details. It was fine."
    )
    assert texts(splitter, text) == [
        "Mr. Smith met Dr. Jones, e.g. at home, i.e. in town, etc. and compared A vs. B.",
        "See Fig. 3 and No. 5 for details.",
        "It was fine.",
    ]


def test_etc_can_end_a_sentence(splitter):
    assert texts(splitter, "Apples, pears, etc. They are good.") == [
        "Apples, pears, etc.",
        "They are good.",
    ]


def test_decimals_not_split(splitter):
    assert texts(splitter, "Pi is about 3.14 and e is 2.718. Next.") == [
        "Pi is about 3.14 and e is 2.718.",
        "Next.",
    ]


def test_question_and_exclamation(splitter):
    assert texts(splitter, "Really? Yes! Fine.") == ["Really?", "Yes!", "Fine."]


# --- mixed -----------------------------------------------------------------


def test_mixed_chinese_with_english_abbreviation(splitter):
    text = "我们使用缩写，例如 e.g. 和 i.e. 来说明。This is English. 然后是中文！"
    assert texts(splitter, text) == [
        "我们使用缩写，例如 e.g. 和 i.e. 来说明。",
        "This is English.",
        "然后是中文！",
    ]


def test_english_sentence_then_chinese(splitter):
    assert texts(splitter, "It works. 然后呢？") == ["It works.", "然后呢？"]
    assert texts(splitter, "我用 Python 3.14 版本。") == ["我用 Python 3.14 版本。"]


# --- line structure ------------------------------------------------------------


def test_blank_line_ends_sentence(splitter):
    assert texts(splitter, "First part\n\nsecond part") == ["First part", "second part"]
    assert texts(splitter, "第一段\r\n \t\r\n第二段") == ["第一段", "第二段"]


def test_list_items(splitter):
    text = "Shopping:\n- eggs\n* milk\n• bread\n1. one\n2) two\n(a) three\n一、四\n（二）五"
    assert texts(splitter, text) == [
        "Shopping:", "- eggs", "* milk", "• bread", "1. one", "2) two", "(a) three", "一、四", "（二）五",
    ]


def test_heading_then_paragraph(splitter):
    text = (
        "Introduction\n"
        "This is the text of the introduction, which is considerably longer than\n"
        "the heading and wraps onto a second line.\n"
    )
    assert texts(splitter, text) == [
        "Introduction",
        "This is the text of the introduction, which is considerably longer than\n"
        "the heading and wraps onto a second line.",
    ]


def test_hard_wrapped_english_prose(splitter):
    text = (
        "       This is a long hard-wrapped paragraph of English prose that goes on\n"
        "       and on for more than one line because the author wrapped it at\n"
        "       seventy-two columns, as people do in e-mail and in manual pages\n"
        "       for programs\n"
    )
    assert len(splitter.split(text)) == 1


def test_hard_wrapped_chinese_prose(splitter):
    text = (
        "       如果 bash 发现它是由 rshd 启动的，它将读取并执行 ~/.bashrc 文件中的\n"
        "       命令，只要这个文件存在并且可读。如果以 sh 命令启动，它不会这样做，\n"
        "       也不会从环境中继承函数\n"
    )
    assert [t.replace(" ", "") for t in texts(splitter, text)] == [
        "如果bash发现它是由rshd启动的，它将读取并执行~/.bashrc文件中的\n命令，只要这个文件存在并且可读。",
        "如果以sh命令启动，它不会这样做，\n也不会从环境中继承函数",
    ]


def test_hyphenated_line_end_continues(splitter):
    text = "short line with to‐\nken at the end"
    assert len(splitter.split(text)) == 1


def test_kjv_verse_lines(splitter):
    text = (
        "Genesis 1:1 In the beginning God created the heaven and the earth\n"
        "Genesis 1:2 And the earth was without form, and void\n"
        "Ge1:3 And God said, Let there be light: and there was light\n"
        "1 John 1:1 That which was from the beginning\n"
    )
    assert [t.split()[0] for t in texts(splitter, text)] == ["Genesis", "Genesis", "Ge1:3", "1"]


def test_section_numbers_stay_with_heading(splitter):
    text = "1.11. The key bindings of MC\n1.12. The reaction to the enter key"
    assert texts(splitter, text) == ["1.11. The key bindings of MC", "1.12. The reaction to the enter key"]


def test_symbol_lines_separate(splitter):
    assert texts(splitter, "床前明月光\n%\n疑是地上霜") == ["床前明月光", "%", "疑是地上霜"]


# --- edge cases and length cap ----------------------------------------------------


def test_empty_and_whitespace(splitter):
    assert splitter.split("") == ()
    assert splitter.split("  \n\t\r\n \u3000 ") == ()


def test_max_chars_validation():
    with pytest.raises(ValueError):
        SentenceSplitter(max_chars=0)


def test_long_line_without_terminator_is_capped(splitter):
    text = ("没有终止符的文字，" * 30 + "words without any end ") * (2_000_000 // 292)
    sentences = splitter.split(text)
    assert all(s.end - s.start <= 1000 for s in sentences)
    assert len(sentences) >= len(text) // 1000
    # Cuts prefer commas and spaces: no piece ends in the middle of a word.
    assert all(text[s.end - 1] in "，sd" or text[s.end:s.end + 1] in (" ", "") for s in sentences)


def test_hard_cut_when_no_break_opportunity():
    splitter = SentenceSplitter(max_chars=10)
    text = "x" * 35
    assert [(s.start, s.end) for s in splitter.split(text)] == [(0, 10), (10, 20), (20, 30), (30, 35)]


def test_long_english_paragraph_uses_punkt_windows(splitter):
    text = "This is sentence number one. " * 2000
    sentences = splitter.split(text)
    assert len(sentences) == 2000
    check_invariants(text, sentences, 1000)


def test_punkt_params_file_is_sorted():
    data = json.loads(DEFAULT_PUNKT_PARAMS.read_text(encoding="utf-8"))
    for key in ("abbrev_types", "collocations", "sent_starters", "ortho_context"):
        assert data[key] == sorted(data[key])
    for abbrev in ("e.g", "i.e", "mr", "dr", "etc", "vs", "fig", "no"):
        assert abbrev in data["abbrev_types"]


def test_custom_params_path(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(
        json.dumps({"abbrev_types": [], "collocations": [], "sent_starters": [], "ortho_context": []}),
        encoding="utf-8",
    )
    assert len(SentenceSplitter(punkt_params_path=path).split("See Fig. 3 now. Ok.")) == 3


# --- properties ---------------------------------------------------------------------

_ALPHABET = st.sampled_from(
    list("ab Z.,!?;:…。！？；，、“”「」（）()\"'\n\r\t\u3000-*12")
    + ["\r\n", "中", "文", "e.g.", "Mr.", "3.14", "  ", "\n\n", "1. ", "- ", "Ge1:1 "]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ALPHABET, max_size=80).map("".join), st.integers(min_value=1, max_value=40))
def test_invariants_property(text, max_chars):
    splitter = _cached_splitter(max_chars)
    check_invariants(text, splitter.split(text), max_chars)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_invariants_arbitrary_unicode(text):
    check_invariants(text, _cached_splitter(1000).split(text), 1000)


_SPLITTERS: dict[int, SentenceSplitter] = {}


def _cached_splitter(max_chars: int) -> SentenceSplitter:
    if max_chars not in _SPLITTERS:
        _SPLITTERS[max_chars] = SentenceSplitter(max_chars=max_chars)
    return _SPLITTERS[max_chars]


def test_english_sentence_pasted_against_chinese_text_is_cut():
    splitter = SentenceSplitter()
    text = "先复制原文件。Debian has had so much success that, today, it has reached a tremendous size.第二，多费心。"
    assert [text[s.start : s.end] for s in splitter.split(text)] == [
        "先复制原文件。",
        "Debian has had so much success that, today, it has reached a tremendous size.",
        "第二，多费心。",
    ]


# --- line breaks that may have cut a sentence --------------------------------


def test_rejoinable_marks_a_break_inside_an_unfinished_sentence(splitter):
    # A two-line block looks line-structured, so the splitter cuts at the
    # break; matching may read the two pieces as one sentence.
    text = "Intro.\n\nAnd God said, Let there\nbe light: and there was light.\n\nEnd."
    sentences = splitter.split(text)
    assert texts(splitter, text)[1:3] == ["And God said, Let there", "be light: and there was light."]
    assert rejoinable(text, sentences) == (1,)


@pytest.mark.parametrize(
    "text",
    [
        "First line ends here.\nSecond line.",  # finished sentence
        "如下所示：\n$ ls -l",  # a colon announces the next line
        "Paragraph one\n\nParagraph two",  # a blank line always ends a sentence
        "第一行。\n第二行",
    ],
)
def test_rejoinable_leaves_real_sentence_ends(splitter, text):
    assert rejoinable(text, splitter.split(text)) == ()


@settings(max_examples=200, deadline=None)
@given(st.lists(_ALPHABET, max_size=60).map("".join))
def test_rejoinable_breaks_are_single_line_breaks(text):
    sentences = _cached_splitter(1000).split(text)
    for i in rejoinable(text, sentences):
        between = text[sentences[i].end : sentences[i + 1].start]
        assert between.count("\n") == 1 and between.strip() == ""


# --- fast paths against the plain reference ------------------------------------


_REFERENCES: dict[int, SentenceSplitter] = {}


def _reference(max_chars: int) -> SentenceSplitter:
    if max_chars not in _REFERENCES:
        _REFERENCES[max_chars] = SentenceSplitter(max_chars=max_chars, reference=True)
    return _REFERENCES[max_chars]


@pytest.mark.parametrize("max_chars", [1000, 60])
def test_every_real_document_gives_the_reference_sentences(max_chars):
    fast, reference = _cached_splitter(max_chars), _reference(max_chars)
    for name, text in real_documents():
        assert fast.split(text) == reference.split(text), name


@settings(max_examples=200, deadline=None)
@given(real_slices(), st.sampled_from([1000, 200, 40, 7]))
def test_fast_paths_give_the_reference_sentences_on_real_text(text, max_chars):
    assert _cached_splitter(max_chars).split(text) == _reference(max_chars).split(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=80).map("".join))
def test_fast_paths_give_the_reference_sentences_on_made_up_mixes(text):
    assert _cached_splitter(1000).split(text) == _reference(1000).split(text)


_TERMINATOR_ALPHABET = st.sampled_from(list("中文ab1２ .!?;…⋯。．！？；\"”」）)\n\t") + ["..", "．5", "．５", "\u3000"])


@settings(max_examples=500, deadline=None)
@given(st.one_of(real_slices(), st.lists(_TERMINATOR_ALPHABET, max_size=40).map("".join)))
def test_terminator_cuts_equal_the_reference(text):
    assert _terminator_cuts(text) == _terminator_cuts_py(text)


def test_terminator_cuts_examples():
    text = "好。”然后…… 对吗?是的!a. 中文.x 中文. 中文..b 版本．5 好．好"
    assert _terminator_cuts(text) == _terminator_cuts_py(text) != []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["Let there", "be light", "中文", "。", ".", ":", "\n", "\n\n", " ", "a"]), max_size=30).map("".join))
def test_rejoinable_from_offsets_is_rejoinable_from_sentence_objects(text):
    # The splitter's sentences are held as offsets; a tuple of Sentence objects is the plain reference.
    sentences = _cached_splitter(400).split(text)
    assert rejoinable(text, sentences) == rejoinable(text, tuple(sentences))
    assert rejoinable(text, sentences) == tuple(
        a.index for a, b in zip(sentences, tuple(sentences)[1:])
        if text[a.end:b.start].count("\n") == 1 and not text[a.end:b.start].strip()
        and not _FINISHED.search(text, a.start, a.end)
    )
