"""Headlines found inside longer sentences (partialdup.match.embedded), on real text.

The headings and sentences are real lines of goldenset/src and samples/ (Debian
packages, licences in goldenset/LICENSES and samples/LICENSE.md); a copy is a
real heading put inside a real sentence of another document.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partialdup.core.types import Sentence, Span, SentencePair
from partialdup.match.embedded import (
    EmbeddedSpan, embedded_span, headline_edges, is_headline, line_shaped, line_shaped_rows, run_at, title_words, word_units,
)
from partialdup.match.headline_search import candidate_pairs
from partialdup.text.sentences import SentenceSplitter

from tests.paths import REPO, SAMPLES

SRC = REPO / "goldenset" / "src"
DEBREF_EN_CH02 = (SRC / "debref_en_ch02_s04_p0.txt").read_text(encoding="utf-8")
DEBREF_EN_CH10 = (SRC / "debref_en_ch10_s02_p0.txt").read_text(encoding="utf-8")
DEBREF_EN_XREF = (SRC / "debref_en_ch02_s03_p0.txt").read_text(encoding="utf-8")
DEBREF_ZH_CH02 = (SRC / "debref_zhcn_ch02_s00_p0.txt").read_text(encoding="utf-8")
GPL = (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8")
CHMOD = (SAMPLES / "man_chmod.1.zh_CN.txt").read_text(encoding="utf-8")
LS = (SAMPLES / "man_ls.1.zh_CN.txt").read_text(encoding="utf-8")
INSTGUIDE = (SAMPLES / "installation-guide.appendix-F.en.txt").read_text(encoding="utf-8")
DEBREF_ZH_CH06 = (SRC / "debref_zhcn_ch06_s00_p0.txt").read_text(encoding="utf-8")

# Real headings: (document, heading line, its title).
SAFEGUARDING = (DEBREF_EN_CH02, "2.4.3.\xa0Safeguarding for package problems", "Safeguarding for package problems")
CHMOD_NAME = (CHMOD, "chmod - 改变文件模式比特位", "chmod - 改变文件模式比特位")
DEBIAN_PREMISES = (DEBREF_ZH_CH02, "2.1.\xa0Debian 软件包管理的前提", "Debian 软件包管理的前提")

# Real running sentences to put them in, and where (after this prefix).
GPL_SENTENCE = (
    "This General Public License applies to most of the Free Software Foundation's software and to any other "
    "program whose authors commit to using it.",
    "This General Public License applies to ",
)
LS_SENTENCE = ("如果既没有指定 -cftuvSUX 中任何一个，也没有指定 --sort，则按字母排序项目。", "如果既没有指定 -cftuvSUX 中任何一个，")


def _sentence_of(splitter, text, line):
    start = text.index(line)
    (sentence,) = [s for s in splitter.split(text) if s.start == start]
    return sentence


@pytest.fixture(scope="module")
def splitter():
    return SentenceSplitter()


def _planted(tokenizer, splitter, heading, host):
    """The heading's title put into a real sentence, both sides' sentences and tokens."""
    text, line, title = heading
    sentence, prefix = host
    assert sentence in (GPL if sentence.isascii() else LS)
    short = _sentence_of(splitter, text, line)
    joiner = " " if title.isascii() else ""
    long_text = prefix + title + joiner + sentence[len(prefix) :]
    (long,) = splitter.split(long_text)
    return (
        (text, short, tokenizer.tokenize(text, short.start, short.end)),
        (long_text, long, tokenizer.tokenize(long_text, long.start, long.end)),
        long_text.index(title),
    )


@pytest.mark.parametrize(
    "heading, host",
    [(SAFEGUARDING, GPL_SENTENCE), (CHMOD_NAME, LS_SENTENCE), (DEBIAN_PREMISES, LS_SENTENCE)],
    ids=["en numbered", "zh man page name", "zh numbered"],
)
def test_a_headline_inside_a_sentence_is_found_with_exact_offsets(tokenizer, splitter, heading, host):
    (text, short, short_tokens), (long_text, long, long_tokens), at = _planted(tokenizer, splitter, heading, host)
    title = heading[2]
    assert is_headline(text, short, short_tokens)
    found = embedded_span(text, short, short_tokens, long_text, long, long_tokens)
    assert found == EmbeddedSpan(text.index(heading[1]) + heading[1].index(title), short.end, at, at + len(title))
    assert text[found.short_start : found.short_end] == title == long_text[found.long_start : found.long_end]


def test_words_of_a_heading_scattered_in_a_sentence_are_no_copy(tokenizer, splitter):
    text, line, title = SAFEGUARDING
    short = _sentence_of(splitter, text, line)
    # The real sentence with the title's words put in other places, each once.
    sentence = GPL_SENTENCE[0]
    words = title.split()
    scattered = f"{words[0]} {sentence[:40]} {' '.join(words[1:3])} {sentence[40:]} {words[3]}"
    long = Sentence(0, 0, len(scattered))
    long_tokens = tokenizer.tokenize(scattered, long.start, long.end)
    assert embedded_span(text, short, tokenizer.tokenize(text, short.start, short.end), scattered, long, long_tokens) is None
    short_words = tokenizer.words(text, short.start, short.end)
    assert candidate_pairs([short_words], [tokenizer.words(scattered)]) == []


def test_a_quoted_title_is_a_cross_reference_not_a_copy(tokenizer, splitter):
    # Real: "For daily upgrade in unstable, see Section 2.4.3, “Safeguarding for package problems”."
    text, line, _ = SAFEGUARDING
    short = _sentence_of(splitter, text, line)
    reference = next(s for s in splitter.split(DEBREF_EN_XREF) if "“Safeguarding for package problems”" in DEBREF_EN_XREF[s.start : s.end])
    found = embedded_span(
        text, short, tokenizer.tokenize(text, short.start, short.end),
        DEBREF_EN_XREF, reference, tokenizer.tokenize(DEBREF_EN_XREF, reference.start, reference.end),
    )
    assert found is None


def test_a_title_written_otherwise_is_no_copy(tokenizer, splitter):
    # Real: the heading "10.2.1. Backup and recovery policy" and the sentence
    # below it, "... determine actual backup and recovery policy.": the same
    # words once case is folded, but the sentence does not copy the heading.
    short = _sentence_of(splitter, DEBREF_EN_CH10, "10.2.1.\xa0Backup and recovery policy")
    long = _sentence_of(splitter, DEBREF_EN_CH10, "There are 3 key factors which determine actual backup and recovery policy.")
    short_tokens = tokenizer.tokenize(DEBREF_EN_CH10, short.start, short.end)
    long_tokens = tokenizer.tokenize(DEBREF_EN_CH10, long.start, long.end)
    assert is_headline(DEBREF_EN_CH10, short, short_tokens)
    assert run_at(word_units([t.text for t in short_tokens][1:]), word_units([t.text for t in long_tokens])) is not None
    assert embedded_span(DEBREF_EN_CH10, short, short_tokens, DEBREF_EN_CH10, long, long_tokens) is None


@pytest.mark.parametrize(
    "text, line, expected",
    [
        (DEBREF_EN_CH02, "2.4.3.\xa0Safeguarding for package problems", True),
        (CHMOD, "chmod - 改变文件模式比特位", True),
        (GPL, "END OF TERMS AND CONDITIONS", True),
        (INSTGUIDE, "GNU GENERAL PUBLIC LICENSE", True),
        # Four words in fifteen columns: a term its section's running text uses.
        (DEBREF_ZH_CH06, "6.2.4.\xa0邮件传输代理 (MTA)", False),
        # A sentence with its terminator.
        (DEBREF_EN_CH10, "There are 3 key factors which determine actual backup and recovery policy.", False),
    ],
)
def test_headlines_are_whole_lines_without_terminator_and_with_a_title(tokenizer, splitter, text, line, expected):
    sentence = _sentence_of(splitter, text, line)
    assert is_headline(text, sentence, tokenizer.tokenize(text, sentence.start, sentence.end)) is expected


def test_a_command_line_is_no_headline(tokenizer, splitter):
    line = next(line for line in (SRC / "debref_en_ch01_s05_p0.txt").read_text(encoding="utf-8").splitlines() if line.startswith("$ cat /etc/motd"))
    (sentence,) = splitter.split(line)
    assert not is_headline(line, sentence, tokenizer.tokenize(line))


@pytest.mark.parametrize(
    "words, number",
    [(("2.4.3", "safeguarding", "for"), 1), (("第", "5", "章", "网络", "设置"), 3), (("30", "years"), 0), (("apt", "get"), 0), ((), 0)],
)
def test_section_numbers_are_left_out_of_the_title(words, number):
    assert title_words(words) == number


def test_han_words_are_matched_character_by_character():
    # jieba cuts 软件包管理 inside a longer run otherwise than alone.
    assert word_units(["debian", "软件包", "管理"]) == ["debian", "软", "件", "包", "管", "理"]
    assert run_at(word_units(["软件包", "管理"]), word_units(["的", "软件", "包管理", "器"])) == 1
    assert run_at(["a", "b"], ["b", "a", "a", "b"]) == 2
    assert run_at(["a", "b"], ["a"]) is None


def test_headline_edges_move_a_single_pair_span_onto_the_title(tokenizer, splitter):
    (text, short, _), (long_text, long, _), at = _planted(tokenizer, splitter, SAFEGUARDING, GPL_SENTENCE)
    title = SAFEGUARDING[2]
    span = Span("a", "b", short.start, short.end, long.start, long.end, (short.index,) * 2, (0, 0), 0.5, (SentencePair(short.index, 0, 0.5),))
    sentences = splitter.split(text)
    (edged,) = headline_edges([span], text, sentences, long_text, [long], tokenizer.tokenize)
    assert text[edged.a_start : edged.a_end] == title == long_text[edged.b_start : edged.b_end]
    assert (edged.pairs, edged.score) == (span.pairs, span.score)


def _line_shaped_plain(text: str, sentence: Sentence) -> bool:
    # line_shaped's definition as its docstring states it, one test after another.
    start, end = sentence.start, sentence.end
    if end <= start or "\n" in text[start:end]:
        return False
    before, after = text[:start].rstrip(" \t\u3000\xa0"), text[end:].lstrip(" \t\u3000\xa0")
    if before and before[-1] not in "\r\n" or after and after[0] not in "\r\n":
        return False
    last = text[end - 1]
    closed = last in "”’」』）)》】]\"'" and end - start > 1 and text[end - 2] in "。｡！？；.!?;"
    return not (last in "。｡！？；.!?;:：，,、…⋯-—–/\\|([{（【《「『“‘" or closed)


@given(st.text(alphabet=" \t\n\r\u3000\xa0。！？.;:，,)」”a中1-", max_size=24), st.data())
def test_line_shaped_is_its_definition(text, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    sentence = Sentence(0, start, end)
    assert line_shaped(text, sentence) == _line_shaped_plain(text, sentence)


@given(st.lists(st.text(alphabet=" \t\u3000\xa0。！？.;:，,()」”a中1-", max_size=6), min_size=1, max_size=5), st.data())
def test_line_shaped_rows_are_each_sentences_line_shaped_where_wanted(lines, data):
    # Lines as sentences (many of them line-shaped), and sentences anywhere.
    text = "\n".join(lines)
    starts, ends, at = [], [], 0
    for line in lines:
        starts.append(at)
        ends.append(at + len(line))
        at += len(line) + 1
    for _ in range(data.draw(st.integers(0, 3))):
        starts.append(data.draw(st.integers(0, len(text))))
        ends.append(data.draw(st.integers(starts[-1], len(text))))
    rows = data.draw(st.lists(st.tuples(st.integers(0, len(starts) - 1), st.booleans()), max_size=8))
    expected = [wanted and _line_shaped_plain(text, Sentence(s, starts[s], ends[s])) for s, wanted in rows]
    assert line_shaped_rows(text, starts, ends, rows) == expected
