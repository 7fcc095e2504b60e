"""Distinct words held as one string (core/packed_words.py), against the plain list of the same words."""

import pickle
from array import array

import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.packed_words import PackedWords

from tests.paths import SAMPLES

# Words of one character past the Basic Multilingual Plane and lone surrogates too (a text's may hold them).
word = st.text(st.characters(blacklist_categories=("Cs",)) | st.sampled_from(["\ud800", "𠀀", "的"]), max_size=4)


@settings(max_examples=300, deadline=None)
@given(st.lists(word, max_size=12), st.data())
def test_packed_words_are_the_list_of_the_same_words(plain, data):
    held = PackedWords.of(plain)
    assert len(held) == len(plain) and list(held) == plain and held == plain and plain == held
    assert [held[i] for i in range(-len(plain), len(plain))] == [plain[i] for i in range(-len(plain), len(plain))]
    for wrong in (len(plain), -len(plain) - 1):
        with pytest.raises(IndexError):
            held[wrong]
    cut = slice(*data.draw(st.tuples(*[st.none() | st.integers(-13, 13)] * 2)))
    assert held[cut] == plain[cut]
    numbers = data.draw(st.lists(st.integers(0, len(plain) - 1), max_size=10)) if plain else []
    assert held.words_at(numbers) == tuple(plain[n] for n in numbers)
    again = pickle.loads(pickle.dumps(held, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(again) is PackedWords and again == held and list(again) == plain
    assert PackedWords.of(iter(plain)) == held
    # A word past the Basic Multilingual Plane is held apart: the text stays 2 bytes a character.
    assert all(ord(c) <= 0xFFFF for c in held._text)
    assert PackedWords.of(dict.fromkeys(plain)) == list(dict.fromkeys(plain))  # a dict's keys, read twice


def test_a_word_read_again_is_the_string_made_before():
    words = (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8").split()
    distinct = list(dict.fromkeys(words))
    held = PackedWords.of(distinct)
    first, second = held.words_at(range(50)), held.words_at(reversed(range(50)))
    assert list(first) == distinct[:50] and all(a is b for a, b in zip(first, reversed(second)))
    with pytest.raises(IndexError):
        held.words_at([len(distinct)])
    with pytest.raises(IndexError):
        held.words_at([-1])


def test_ends_that_do_not_cover_the_text_are_refused():
    for ends in (array("i"), array("i", [1, 3]), array("i", [0, 2])):
        with pytest.raises(ValueError, match="ends must start at 0"):
            PackedWords("abc", ends)
    assert PackedWords("", array("i", [0])) == []
    with pytest.raises(ValueError, match="held apart must have an empty place"):
        PackedWords("ab", array("i", [0, 1, 2]), {1: "𠀀"})
    assert PackedWords("a", array("i", [0, 1, 1]), {1: "𠀀"}) == ["a", "𠀀"]
