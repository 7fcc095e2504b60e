"""Headlines copied into running text: a short line found inside a longer sentence.

A heading (a man page's section title, a document's section heading, a news
headline) is a line of its own without a terminator. Copied into running
text ("See <headline> for …", "如 <headline> 所述，…") it has no sentence
boundary of its own, so it becomes the start or the middle of a longer
sentence. Whole-sentence matching cannot pair the two: the long sentence
holds far more features than the heading (bag-Jaccard is low), and the
heading's few Low-IDF-Sig features rarely survive the move at all, since its
first feature exists only at a sentence start and a chain near its end runs on
into the host's words (on real headings planted in real sentences, two
in five shared no feature with their host: docs/design.md, *Headlines in
running text*).

So headlines are found on their words, not their features:

1. *Headline*: a sentence that is a whole line (only white space between it
   and the line breaks around it), does not end with a terminator or a
   continuing mark, starts (after a section number such as ``2.4.3.`` or
   ``第 5 章``, the document's own numbering) with a letter, digit or
   ideograph (not a shell prompt, an option, a list bullet or a bracket), is
   no link, and whose title holds :data:`MIN_TOKENS` to :data:`MAX_TOKENS`
   tokens and fills :data:`MIN_WIDTH` columns (:func:`is_headline`,
   :func:`title_words`).
2. *Candidates* (:func:`partialdup.match.headline_search.candidate_pairs`): a sentence of another document holding more tokens
   than the title and the title's two rarest words, in
   whose units the title's units are one contiguous run. Only the sentences
   holding a title's rarest word are looked at for it, and a title whose
   rarest word is common finds none: the search costs
   a set look-up per sentence.
3. *Confirmation* (:func:`embedded_span`): the long sentence is running text
   (not itself a lone line: a heading inside a heading, a list item, a line
   of code), the title's tokens are a contiguous run of its tokens, Han
   words read character by character (jieba may cut a heading's first or
   last word otherwise inside a longer run of text), written the same
   (width and script aside, case kept: "backup and recovery policy" is not
   the heading "Backup and recovery policy"), and the run is not enclosed in
   quote marks: a quoted title is a cross-reference (``see Section 2.4.3,
   “Safeguarding for package problems”``), which the quotation rule of
   :mod:`partialdup.pipeline.detector` does not count as a copy either.

The look-ups (:mod:`partialdup.pipeline.lookups`) pass over a long sentence
already paired with another sentence of the headline's document (a
section's first sentence often repeats its title), and the span of a pair
found so gets the title's exact characters on both sides
(:func:`headline_edges`; character alignment would keep a heading's section
number and misplace the window on the longer side).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, Sequence

from partialdup.core.chars import is_han
from partialdup.core.types import Sentence, Span, Token

__all__ = [
    "MAX_TOKENS",
    "MIN_WIDTH",
    "MIN_TOKENS",
    "EmbeddedSpan",
    "Tokenize",
    "embedded_span",
    "headline_edges",
    "is_headline",
    "line_shaped",
    "line_shaped_at",
    "line_shaped_rows",
    "may_open_number",
    "run_at",
    "run_starts",
    "title_words",
    "word_units",
    "is_han_word",
]

#: A title holds at least this many tokens (fewer is a common phrase: "See
#: also", "Bug reports") ...
MIN_TOKENS = 4

#: ... and at most this many (a longer line is a sentence that lost its
#: terminator, which the whole-sentence rules judge).
MAX_TOKENS = 15

#: A title's letters and digits fill at least this many columns (a Han
#: character two, any other one): ten Chinese characters or twenty Latin
#: letters. A shorter title is a term that its own section's running text
#: uses (邮件传输代理 (MTA), 15 columns, in "…邮件传输代理 (MTA) 的主流选择…"),
#: not a copy of the heading.
MIN_WIDTH = 20

# A line that ends with one of these goes on, or ends as a sentence does.
_LAST = frozenset("。｡！？；.!?;:：，,、…⋯-—–/\\|([{（【《「『“‘")
# A closer after a terminator (…。」, ….)) ends a sentence too.
_TERMINATORS = frozenset("。｡！？；.!?;")
_CLOSERS = frozenset("”’」』）)》】]\"'")
# White space that does not end a line.
_SPACES = " \t\u3000\xa0"
# Quote marks that make a title a cross-reference: opener -> closer.
_QUOTES = {"“": "”", "‘": "’", "「": "」", "『": "』", "《": "》", '"': '"', "'": "'"}
# A section number: 2.4.3 or 6.1 (the tokenizer keeps it one token; a lone
# 2 or 30 may be a table's number), 第 5 章, 第 3.1.2 节.
_SECTION = re.compile(r"\d+(?:\.\d+)+\Z")
_NUMBER = re.compile(r"\d+(?:\.\d+)*\Z")
# A link or an address is no title.
_LINK = re.compile(r"://|@")
_CHAPTER = frozenset("章节節部篇")
_NOT_LETTERS = re.compile(r"[\W_]+")

#: The tokenizer's ``tokenize(text, start, end)``: tokens with offsets into ``text``.
Tokenize = Callable[[str, int, int], list[Token]]


def may_open_number(word: str) -> bool:
    """Whether a section number (:func:`title_words`) may start with the word."""
    return word == "第" or word[:1].isdigit()


def title_words(words: Sequence[str]) -> int:
    """How many leading tokens are a section number (``2.4.3``, ``第 5 章``),
    which a headline copied elsewhere does not carry."""
    if not words or not may_open_number(words[0]):
        return 0
    if len(words) >= 3 and words[0] == "第" and _NUMBER.match(words[1]) and words[2] in _CHAPTER:
        return 3
    return 1 if _SECTION.match(words[0]) else 0


def is_headline(text: str, sentence: Sentence, tokens: Sequence[Token]) -> bool:
    """Whether a sentence is a headline: a whole line, no terminator at its
    end, a title of :data:`MIN_TOKENS` to :data:`MAX_TOKENS` tokens that
    starts with a letter, digit or ideograph (see the module notes).

    Args:
        text: The document's text.
        sentence: The sentence.
        tokens: The sentence's tokens (with offsets into ``text``).
    """
    if not line_shaped(text, sentence):
        return False
    number = title_words([t.text for t in tokens])
    title = tokens[number:]
    if not MIN_TOKENS <= len(title) <= MAX_TOKENS:
        return False
    # The title's first character, punctuation included (tokens leave out
    # the "$ " of a command line, the "* " of a list item).
    first = tokens[number - 1].end if number else sentence.start
    while text[first].isspace() or (number and text[first] == "."):  # 2.4.3.\xa0Title
        first += 1
    if first != title[0].start or not text[first].isalnum() or _LINK.search(text, first, sentence.end):
        return False
    letters = _NOT_LETTERS.sub("", "".join(t.text for t in title))
    return len(letters) + sum(1 for char in letters if is_han(char)) >= MIN_WIDTH


def line_shaped(text: str, sentence: Sentence) -> bool:
    """Whether a sentence is a line of its own (white space aside, no line break inside)
    that ends with neither a terminator nor a continuing mark: the part of
    :func:`is_headline` that needs no tokens."""
    return line_shaped_at(text, sentence.start, sentence.end)


def line_shaped_rows(text: str, starts: Sequence[int], ends: Sequence[int], rows: Iterable[tuple[int, bool]]) -> list[bool]:
    """:func:`line_shaped_at` of sentences of one document, given as
    ``(sentence, wanted)``: False for those not wanted. Most end with a
    terminator, told here without a call (a run's tens of thousands of
    candidate titles)."""
    ending = _LAST.__contains__
    return [
        wanted and starts[s] < ends[s] and not ending(text[ends[s] - 1]) and line_shaped_at(text, starts[s], ends[s])
        for s, wanted in rows
    ]


def line_shaped_at(text: str, start: int, end: int) -> bool:
    """:func:`line_shaped` of the sentence from ``start`` to ``end`` (no
    sentence made: a run's tens of thousands of title candidates are read
    from their offsets)."""
    if end <= start:
        return False
    # Its last character first: most short sentences end with a terminator.
    last = text[end - 1]
    if last in _LAST or (last in _CLOSERS and end - start > 1 and text[end - 2] in _TERMINATORS):
        return False
    return text.find("\n", start, end) < 0 and _whole_line(text, start, end)


def _whole_line(text: str, start: int, end: int) -> bool:
    # Only white space between the sentence and the line breaks around it.
    before = start
    while before > 0 and text[before - 1] in _SPACES:
        before -= 1
    after = end
    while after < len(text) and text[after] in _SPACES:
        after += 1
    return (before == 0 or text[before - 1] in "\r\n") and (after == len(text) or text[after] in "\r\n")


def word_units(words: Sequence[str]) -> list[str]:
    """The units a title is matched on: each word, Han words cut into their
    characters (jieba cuts a run of text by its context, so a heading's
    edge words may be cut otherwise inside a longer sentence)."""
    units: list[str] = []
    for word in words:
        if is_han_word(word):
            units.extend(word)
        else:
            units.append(word)
    return units


def run_at(short: Sequence[str], long: Sequence[str]) -> int | None:
    """Where ``short`` first occurs as a contiguous run of ``long`` (None: nowhere)."""
    return next(run_starts(short, long), None)


def run_starts(short: Sequence[str], long: Sequence[str]) -> Iterator[int]:
    """Every position where ``short`` occurs as a contiguous run of ``long``, in order."""
    size = len(short)
    if not size:
        return
    whole, within = list(short), list(long)
    last = len(within) - size  # the last position a run can start at
    at = -1
    while True:
        try:
            at = within.index(whole[0], at + 1, last + 1)
        except ValueError:
            return
        if within[at : at + size] == whole:
            yield at


@dataclass(frozen=True, slots=True)
class EmbeddedSpan:
    """Where a headline's title lies in its own text and in a longer sentence.

    Attributes:
        short_start: Offset of the title's first character in the headline's document.
        short_end: Offset one past its last character there.
        long_start: Offset of the copy's first character in the long sentence's document.
        long_end: Offset one past its last character there.
    """

    short_start: int
    short_end: int
    long_start: int
    long_end: int


@dataclass(frozen=True, slots=True)
class _Units:
    """A sentence's units (see :func:`word_units`) with their offsets: a Han
    token that kept one character per original character is cut into its
    characters; any other token stays whole."""

    texts: list[str]
    starts: list[int]
    ends: list[int]
    han: list[bool]

    @classmethod
    def of(cls, tokens: Sequence[Token]) -> _Units:
        units = cls([], [], [], [])
        for token in tokens:
            word = token.text
            if word and is_han(word[0]) and len(word) == token.end - token.start:
                units.texts.extend(word)
                units.starts.extend(range(token.start, token.end))
                units.ends.extend(range(token.start + 1, token.end + 1))
                units.han.extend([True] * len(word))
            else:
                units.texts.append(word)
                units.starts.append(token.start)
                units.ends.append(token.end)
                units.han.append(bool(word) and is_han(word[0]))
        return units


def embedded_span(
    short_text: str,
    short_sentence: Sentence,
    short_tokens: Sequence[Token],
    long_text: str,
    long_sentence: Sentence,
    long_tokens: Sequence[Token],
) -> EmbeddedSpan | None:
    """The title of a headline found inside a longer sentence, or None.

    Args:
        short_text: The headline's document text.
        short_sentence: The headline.
        short_tokens: Its tokens (section number included).
        long_text: The longer sentence's document text.
        long_sentence: The longer sentence.
        long_tokens: Its tokens.

    Returns:
        The title's characters on both sides when the longer sentence is
        running text (not a line of its own without a terminator, see
        :func:`line_shaped`: a heading, a list item, a table row, a line of
        code), its own title (its section number aside) holds more tokens,
        the title's units are a contiguous run of its units, written the
        same (width and script aside), that goes on with the headline's
        last characters ("(MTA)" keeps its bracket), and the run is not
        enclosed in quote marks. When the longer sentence holds the section
        number too, the whole heading is the copy.
    """
    number = title_words([t.text for t in short_tokens])
    title = short_tokens[number:]
    long_title = len(long_tokens) - title_words([t.text for t in long_tokens])
    if not title or long_title <= len(title) or line_shaped(long_text, long_sentence):
        return None
    long_units = _Units.of(long_tokens)
    # The heading with its section number when the longer sentence holds
    # that too (a copy of the whole line), else its title.
    for copied in (short_tokens, title) if number else (title,):
        found = _copy_of(short_text, short_sentence, _Units.of(copied), long_text, long_units)
        if found is not None:
            return found
    return None


def _copy_of(short_text: str, short_sentence: Sentence, short_units: _Units, long_text: str, long_units: _Units) -> EmbeddedSpan | None:
    # The first run of the units inside the longer sentence's that is
    # written the same, goes on with the headline's last characters and is
    # not quoted.
    size = len(short_units.texts)
    tail = short_text[short_units.ends[-1] : short_sentence.end]
    for at in run_starts(short_units.texts, long_units.texts):
        if not _verbatim(short_text, short_units, 0, long_text, long_units, at, size):
            continue
        tail_end = _same_tail(tail, long_text, long_units.ends[at + size - 1])
        if tail_end is not None and not _quoted(long_text, long_units.starts[at], tail_end):
            return EmbeddedSpan(short_units.starts[0], short_sentence.end, long_units.starts[at], tail_end)
    return None


def headline_edges(
    spans: Sequence[Span],
    a_text: str,
    a_sentences: Sequence[Sentence],
    b_text: str,
    b_sentences: Sequence[Sentence],
    tokenize: Tokenize,
) -> list[Span]:
    """The spans of one document pair, each span of one sentence pair whose
    one sentence is a headline found inside the other (:func:`is_headline`,
    :func:`embedded_span`) with its edges on the title's characters on both
    sides: character alignment (:mod:`partialdup.match.refine`) keeps a
    heading's section number, and then misplaces the window on the longer side.

    Args:
        spans: The spans, refined.
        a_text: The A document's text.
        a_sentences: Its sentences.
        b_text: The B document's text.
        b_sentences: Its sentences.
        tokenize: The tokenizer's ``tokenize(text, start, end)``.
    """
    return [_headline_edged(span, (a_text, a_sentences), (b_text, b_sentences), tokenize) for span in spans]


def _headline_edged(span: Span, a: tuple[str, Sequence[Sentence]], b: tuple[str, Sequence[Sentence]], tokenize: Tokenize) -> Span:
    if len(span.pairs) != 1:
        return span
    (pair,) = span.pairs
    sentences = (a[1][pair.a], b[1][pair.b])
    # A span that refinement grew beyond its sentences (a sentence cut in
    # two by a line break, its other half joined) is left as it is.
    if not (sentences[0].start <= span.a_start and span.a_end <= sentences[0].end):
        return span
    if not (sentences[1].start <= span.b_start and span.b_end <= sentences[1].end):
        return span
    for short, long, short_is_a in ((a, b, True), (b, a, False)):
        short_sentence, long_sentence = sentences if short_is_a else sentences[::-1]
        if not line_shaped(short[0], short_sentence):
            continue
        short_tokens = tokenize(short[0], short_sentence.start, short_sentence.end)
        if not is_headline(short[0], short_sentence, short_tokens):
            continue
        long_tokens = tokenize(long[0], long_sentence.start, long_sentence.end)
        found = embedded_span(short[0], short_sentence, short_tokens, long[0], long_sentence, long_tokens)
        if found is None:
            continue
        if short_is_a:
            return replace(span, a_start=found.short_start, a_end=found.short_end, b_start=found.long_start, b_end=found.long_end)
        return replace(span, a_start=found.long_start, a_end=found.long_end, b_start=found.short_start, b_end=found.short_end)
    return span


def _verbatim(short_text: str, short: _Units, i: int, long_text: str, long: _Units, at: int, size: int) -> bool:
    # The units' own characters agree as written, width aside (Latin case
    # counts: "BACKUP POLICY" is not "backup policy"; a Han character may be
    # in the other script, which the units already equate), and so do the
    # characters between the units, white space aside ("[ ( column [, ...]"
    # is not "(column, ...)").
    for k in range(size):
        s, m = i + k, at + k
        if not short.han[s] and _folded(short_text[short.starts[s] : short.ends[s]]) != _folded(long_text[long.starts[m] : long.ends[m]]):
            return False
        if k + 1 < size:
            between = _folded(short_text[short.ends[s] : short.starts[s + 1]])
            if between != _folded(long_text[long.ends[m] : long.starts[m + 1]]):
                return False
    return True


def _same_tail(tail: str, text: str, at: int) -> int | None:
    # Where `text` from `at` ends once it has matched every character of
    # `tail` (white space aside; width folded), or None.
    for char in tail:
        if char.isspace():
            continue
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text) or _folded(text[at]) != _folded(char):
            return None
        at += 1
    return at


def _folded(text: str) -> str:
    # Width folded (NFKC), white space left out; case kept.
    return "".join(unicodedata.normalize("NFKC", text).split())


def _quoted(text: str, start: int, end: int) -> bool:
    # The run sits between an opening quote mark and its closer (white space aside).
    while start > 0 and text[start - 1] in _SPACES:
        start -= 1
    while end < len(text) and text[end] in _SPACES:
        end += 1
    if start == 0 or end == len(text):
        return False
    return _QUOTES.get(text[start - 1]) == text[end]


def is_han_word(word: str) -> bool:
    """Whether a token is a Han word (matched character by character)."""
    return bool(word) and not word.isascii() and is_han(word[0])
