"""Tests of partialdup.core.chars: one answer to "is this Han?" everywhere."""

from __future__ import annotations

import re

from hypothesis import given, strategies as st

from partialdup.core.chars import CJK_CLASS, HAN_CLASS, HAN_RANGES, is_han

HAN = re.compile(f"[{HAN_CLASS}]")
CJK = re.compile(f"[{CJK_CLASS}]")


@given(st.characters(blacklist_categories=("Cs",)))
def test_is_han_agrees_with_the_class_and_the_ranges(char):
    code = ord(char)
    expected = any(lo <= code <= hi for lo, hi in HAN_RANGES)
    assert is_han(char) == bool(HAN.fullmatch(char)) == expected


@given(st.characters(blacklist_categories=("Cs",)))
def test_every_han_character_is_cjk(char):
    if is_han(char):
        assert CJK.fullmatch(char)


def test_examples():
    assert is_han("字") and is_han("檔") and is_han("\U00020000")
    assert not is_han("a") and not is_han("。") and not is_han("カ")
    assert CJK.fullmatch("。") and CJK.fullmatch("カ") and not CJK.fullmatch("a")
