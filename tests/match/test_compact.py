"""The compact form of a sentence: the fast path against its plain reference."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.types import Sentence
from partialdup.match.compact import RunOffsets, compact, compact_py

# White space of every kind str.isspace knows (the ASCII separators
# \x1c-\x1f, no-break and ideographic spaces, line and paragraph separators),
# letters whose normalisation changes their length ("ﬁ", "……", full width),
# and Han characters.
_CHARACTERS = st.sampled_from(list(" \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2028\u3000aZ9.ﬁ……ＡＢ１文字檔案"))


@settings(max_examples=400, deadline=None)
@given(st.text(_CHARACTERS, max_size=40), st.data())
def test_compact_is_its_plain_reference(tokenizer, text, data):
    start, end = sorted(data.draw(st.lists(st.integers(0, len(text)), min_size=2, max_size=2)))
    sentence = Sentence(0, start, end)
    assert compact(text, sentence, tokenizer.normalise) == compact_py(text, sentence, tokenizer.normalise)


def test_compact_keeps_the_offsets_of_the_original_characters(tokenizer):
    text = "前言 Ａ ﬁle\u3000名"
    made = compact(text, Sentence(0, 3, len(text)), tokenizer.normalise)
    assert made.text == "afile名"
    # Each character points at the original it comes from ("ﬁ" gives two).
    assert made.origin == (3, 5, 5, 6, 7, 9)


def test_run_offsets_of_a_text_are_found_when_first_read_whatever_reads_them():
    # "ab" at 10, "cd" at 14: a sentence "ab  cd" starting at offset 10.
    assert RunOffsets.of_text("ab  cd", 10, 4)[2] == 14
    assert RunOffsets.of_text("ab  cd", 10, 4)[-1] == 15
    assert list(RunOffsets.of_text("ab  cd", 10, 4)) == [10, 11, 14, 15]
    assert RunOffsets.of_text(" ab\u3000cd ", 10, 4) == RunOffsets([0, 2], [11, 14], 4)


def test_run_offsets_read_as_the_tuple_of_their_offsets():
    offsets = RunOffsets([0, 3], [10, 20], 5)  # "abc" at 10, "de" at 20
    assert list(offsets) == [10, 11, 12, 20, 21] and offsets == (10, 11, 12, 20, 21)
    assert offsets[-1] == 21 and offsets[3] == 20
    with pytest.raises(IndexError):
        offsets[5]
    assert offsets != (10, 11, 12, 20)


def test_run_offsets_equal_a_sequence_of_other_integers():
    import numpy as np

    assert RunOffsets([0, 2], [4, 9], 3) == list(np.array([4, 5, 9]))
    assert RunOffsets([0, 2], [4, 9], 3) != list(np.array([4, 5, 8]))
