"""A list of distinct words held as one string.

A ``detect`` run numbers its words (:mod:`partialdup.core.word_lines`,
:mod:`partialdup.index.word_columns`): each sentence's words are numbers
into a list of the distinct words. As a list of strings that list costs a
string object a word, about 80 bytes for a Chinese word of two characters:
the Chinese bench corpus's 75,766 distinct words at 8x took 6-7 MB, held by
the calling process to the end of the run, and unpickled again by each
helper process its word-set and headline searches are sent to. Yet a run
reads the words of few sentences as strings (the tail's checks, the
titles): about 18,000 distinct words on either bench corpus.

:class:`PackedWords` holds the words as one string and where each ends
(4 bytes a word): 1.2 MB of text and 0.3 MB of ends for those 75,766
words, pickled as two objects, and a word is made a string when read. The
words read through :meth:`PackedWords.words_at` (a sentence's) are kept, so
a word read again is the string made before (docs/benchmark.md, session 64).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate, islice
from typing import Any, Iterable, Iterator, overload

from partialdup.core.arrays import offsets_array

__all__ = ["PackedWords"]


#: A character past the Basic Multilingual Plane: one in a string makes
#: each of its characters take 4 bytes, not 2.
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class PackedWords(Sequence[str]):
    """Words as one string; a sequence of strings, each made when read,
    equal to the list of the same strings.

    Args:
        text: The words, one after the other.
        ends: Where each word ends in ``text``, after a 0 (one more than the words).
        apart: Words held apart, by position (their place in ``text`` is
            empty): those holding a character past the Basic Multilingual
            Plane, which would make the whole text take 4 bytes a character
            (a rare Han character or an emoji among a Chinese run's words:
            1.9 MB against 1.22 for the Chinese bench corpus's words).
    """

    __slots__ = ("_text", "_ends", "_apart", "_made")

    def __init__(self, text: str, ends: array, apart: dict[int, str] | None = None) -> None:
        if not ends or ends[0] != 0 or ends[-1] != len(text):
            raise ValueError("the words' ends must start at 0 and end at the text's end")
        if apart and any(not 0 <= at < len(ends) - 1 or ends[at] != ends[at + 1] for at in apart):
            raise ValueError("a word held apart must have an empty place in the text")
        self._text, self._ends, self._apart = text, ends, apart or None
        self._made: _MadeWords | None = None

    @classmethod
    def of(cls, words: Iterable[str]) -> PackedWords:
        """``words`` (any iterable of strings), packed."""
        listed = words if isinstance(words, Sequence) else list(words)
        text, ends = "".join(listed), _ends_of(listed)
        found = _ASTRAL.search(text)  # a C scan: no character made a string
        if found is None:
            return cls(text, ends)
        held = {bisect_right(ends, place.start()) - 1 for place in _ASTRAL.finditer(text, found.start())}
        apart = {at: listed[at] for at in sorted(held)}
        kept = list(listed)
        for at in apart:
            kept[at] = ""
        return cls("".join(kept), _ends_of(kept), apart)

    def __len__(self) -> int:
        return len(self._ends) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return list(map(self.__getitem__, range(len(self))[index]))
        position = range(len(self._ends) - 1)[index]  # negative indexes and IndexError as a list's
        return _word_at(self._text, self._ends, self._apart, position)

    def __iter__(self) -> Iterator[str]:
        # C loops only: a slice of the text per word (a word held apart in
        # place of its empty slice).
        ends = self._ends
        cut = map(self._text.__getitem__, map(slice, ends, islice(ends, 1, None)))
        return cut if self._apart is None else map(self._apart.get, range(len(self)), cut)

    def words_at(self, numbers: Iterable[int]) -> tuple[str, ...]:
        """The words numbered ``numbers`` (positions, from 0), each kept once
        made: a word read again is the same string, looked up, not cut."""
        made = self._made
        if made is None:
            made = self._made = _MadeWords(self._text, self._ends, self._apart)
        return tuple(map(made.__getitem__, numbers))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedWords):
            return self._text == other._text and self._ends == other._ends and self._apart == other._apart
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # equal to a list, which is unhashable

    def __repr__(self) -> str:
        return f"PackedWords({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return PackedWords, (self._text, self._ends, self._apart)  # the words made are not sent


class _MadeWords(dict):
    """The words made so far, by position; one missing is cut from the text
    (or is one held apart). Holds the text and ends, not the
    :class:`PackedWords` (no cycle: the memory goes with it, not at the
    next collection)."""

    __slots__ = ("_text", "_ends", "_apart")

    def __init__(self, text: str, ends: array, apart: dict[int, str] | None) -> None:
        super().__init__()
        self._text, self._ends, self._apart = text, ends, apart

    def __missing__(self, position: int) -> str:
        if position < 0:
            raise IndexError(position)  # the ends below would read another word
        word = self[position] = _word_at(self._text, self._ends, self._apart, position)
        return word


def _word_at(text: str, ends: array, apart: dict[int, str] | None, position: int) -> str:
    # Word ``position`` (from 0, in range): held apart, or cut from the text.
    if apart and position in apart:
        return apart[position]
    return text[ends[position] : ends[position + 1]]


def _ends_of(words: Sequence[str]) -> array:
    # Where each word ends in the words joined, after a 0.
    return offsets_array([0, *accumulate(map(len, words))])
