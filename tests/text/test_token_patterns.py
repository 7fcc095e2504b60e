"""Tests of partialdup.text.token_patterns: the ``re`` patterns match what the
``regex`` reference matches, on every BMP character and on any BMP text."""

import functools
import re

import regex
from hypothesis import given, settings, strategies as st

from partialdup.text.token_patterns import (
    BMP_LAST, GROUPED_PATTERN, TOKEN_FLAGS, WORD_PATTERN, _BLANK, _HAN, _LETTER, beyond_bmp, bmp_classes, bmp_patterns,
)


def test_each_written_out_class_holds_every_bmp_character_its_reference_matches():
    # Exhaustive: the fast patterns are the reference's with these classes.
    everything = "".join(map(chr, range(ord(BMP_LAST) + 1)))
    for reference, written in zip((_HAN, _BLANK, _LETTER), bmp_classes()):
        assert re.findall(written, everything) == regex.findall(reference, everything, TOKEN_FLAGS)
    assert re.findall(bmp_classes()[2], "aé9_中\u3000 ") == ["a", "é", "9"]


@functools.cache
def _reference():
    return regex.compile(GROUPED_PATTERN, TOKEN_FLAGS), regex.compile(WORD_PATTERN, TOKEN_FLAGS)


# Letters, marks, digits, punctuation, blanks, Han and the inner word joiners.
_bmp_text = st.text(
    st.one_of(
        st.sampled_from(list("ab Z9'’-._\n\t\r\x0b\x1c\x85，。中文字乙 éß\u0301\u3000\u2028Ａ１_")),
        st.characters(max_codepoint=0xFFFF),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(_bmp_text, st.data())
def test_the_re_patterns_match_as_the_reference_on_bmp_text(text, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    grouped, word = bmp_patterns()
    reference_grouped, reference_word = _reference()
    assert [(m.span(), m[1], m[2]) for m in grouped.finditer(text, start, end)] == [
        (m.span(), m[1], m[2]) for m in reference_grouped.finditer(text, start, end)
    ]
    assert word.findall(text, start, end) == reference_word.findall(text, start, end)


def test_text_beyond_the_bmp_is_told_apart():
    assert beyond_bmp("中𠀀文") and beyond_bmp("🔎") and not beyond_bmp("中文\uffff é")
