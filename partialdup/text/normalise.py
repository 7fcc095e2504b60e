"""Normalisation for matching, with the offset of every normalised character.

Matching compares a normalised copy of the text: NFKC (full width to half
width, compatibility forms), case folding and Traditional to Simplified
Chinese (OpenCC ``t2s``). Two more rules keep a copy from being hidden by
characters a reader does not see:

* **Invisible characters are dropped**: every format character (Unicode
  category Cf: zero-width space, joiners, soft hyphen, a byte-order mark
  inside the text, bidirectional controls, tag characters) and the other
  default-ignorable code points (variation selectors, the combining grapheme
  joiner, Hangul fillers). ``co\\u200bpy`` matches ``copy``; ``中\\u200b文``
  is one Han run for jieba.
* **Composed and decomposed text agree**: a base character and the combining
  marks after it (``e`` + U+0301, and Hangul jamo) are normalised together
  (NFKC composes them), so NFD text matches NFC text.

Offsets stay exact: every normalised character knows the original character
it comes from (``origin``), so a token or an aligned stretch maps back to the
original text. A dropped character has no normalised character; a character
that normalises to several (the ligature U+FB01 gives ``fi``) gives each of
them its offset; a base character with its marks gives its normalised
characters the offset of the base, and they end after the last mark
(``ends``).

Most text needs none of this: ASCII is lower-cased, and other text goes
through one ``str.translate`` with a table that fills itself one character at
a time (C speed), its stretches of characters whose entry is their lower
case lower-cased instead (the same string, in 55 to 65 % of the time on the
bench corpora); only text holding
a character that does not normalise to exactly one character, or that may
compose with the one before it, takes the slower path that builds the offsets.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import repeat
from typing import Any, Sequence

__all__ = ["Normaliser", "normalise_char", "is_ignorable", "composes", "IGNORABLE_RANGES"]

#: Default-ignorable code points (Unicode DerivedCoreProperties) that are not
#: format characters (category Cf, dropped as a class): the combining grapheme
#: joiner, Hangul fillers, Khmer inherent vowels, Mongolian free variation
#: selectors, variation selectors and their supplement, and reserved ones.
IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0xE0000, 0xE0FFF),
)


def is_ignorable(char: str) -> bool:
    """Whether matching ignores the character: a format character or another
    default-ignorable code point (see :data:`IGNORABLE_RANGES`)."""
    if unicodedata.category(char) == "Cf":
        return True
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in IGNORABLE_RANGES)


def composes(char: str) -> bool:
    """Whether NFC may merge the character into the one before it.

    The second character of every canonical composition is a combining mark
    (category M), except in Hangul, where a vowel jamo joins a leading
    consonant and a trailing consonant joins a syllable.
    """
    code = ord(char)
    return unicodedata.category(char)[0] == "M" or 0x1161 <= code <= 0x1175 or 0x11A8 <= code <= 0x11C2


def normalise_char(char: str, converter: Any) -> str:
    """Normalise one character: NFKC, case folding, Traditional to Simplified.

    The result may be empty (an ignorable character, see :func:`is_ignorable`)
    or longer than one character (a ligature such as U+FB01).

    Args:
        char: One character.
        converter: An OpenCC converter (``t2s``).
    """
    if is_ignorable(char):
        return ""
    return _fold(unicodedata.normalize("NFKC", char), converter)


def _fold(text: str, converter: Any) -> str:
    folded = text.casefold()
    if folded and not folded.isascii():
        folded = converter.convert(folded)
    return folded


class Normaliser:
    """Normalises text for matching and maps it back to the original offsets.

    One instance per tokenizer: its table of characters fills itself as text
    arrives, and is not shared between threads that write to it at once.

    Args:
        converter: The OpenCC ``t2s`` converter.
    """

    def __init__(self, converter: Any) -> None:
        self._converter = converter
        self._table = _Table(converter)

    def __call__(self, text: str) -> tuple[str, Sequence[int] | None]:
        """Normalise text for matching.

        Returns:
            The normalised string and, when some character of the text does
            not normalise to exactly one character of its own, the offset of
            the original character of every normalised character (``None``
            means offsets are the identity).
        """
        if text.isascii():
            return text.lower(), None
        normalised = self._table.translated(text)  # C speed; the table fills itself
        if not self._table.irregular_in(text):
            return normalised, None
        normalised, origin, _ = self._mapped(text)
        return normalised, origin

    def in_place(self, text: str) -> str | None:
        """The normalised text when it keeps every offset (each character
        normalised to exactly one, on its own), else None.

        Then normalising any stretch of the text gives the same stretch of
        this string (the table maps characters one by one): a document is
        normalised once for all its sentences.
        """
        if text.isascii():
            return text.lower()
        normalised = self._table.translated(text)
        return None if self._table.irregular_in(text) else normalised

    def mapped(self, text: str) -> tuple[str, Sequence[int] | None, Sequence[int] | None]:
        """Like calling the normaliser, with the end of every normalised character too.

        Returns:
            ``(normalised, origin, ends)``: ``ends[k]`` is the offset one past
            the last original character that normalised character ``k`` comes
            from; ``None`` when it is ``origin[k] + 1`` (or both are the
            identity). A token from normalised ``lo`` to ``hi`` covers the
            original ``origin[lo]`` to ``ends[hi - 1]``.
        """
        if text.isascii():
            return text.lower(), None, None
        normalised = self._table.translated(text)
        if not self._table.irregular_in(text):
            return normalised, None, None
        return self._mapped(text)

    def _mapped(self, text: str) -> tuple[str, list[int], list[int] | None]:
        table = self._table
        if table.composing.isdisjoint(text):
            # Each character on its own: the offsets of the pieces it gives.
            pieces = [table[ord(char)] for char in text]
            return "".join(pieces), [i for i, piece in enumerate(pieces) for _ in piece], None
        return self._composed(text)

    def _composed(self, text: str) -> tuple[str, list[int], list[int]]:
        # A character and the marks after it (ignorable characters between
        # them included) are one cluster, normalised together.
        table, composing, ignorable = self._table, self._table.composing, self._table.ignorable
        out: list[str] = []
        origin: list[int] = []
        ends: list[int] = []
        i, n = 0, len(text)
        while i < n:
            j = i + 1
            while j < n and (text[j] in composing or text[j] in ignorable):
                j += 1
            while j > i + 1 and text[j - 1] in ignorable:
                j -= 1  # ignorable characters after the last mark stay on their own
            if j == i + 1:
                piece = table[ord(text[i])]
            else:
                kept = "".join(char for char in text[i:j] if char not in ignorable)
                piece = _fold(unicodedata.normalize("NFKC", kept), self._converter)
            out.append(piece)
            origin.extend([i] * len(piece))
            ends.extend([j] * len(piece))
            i = j
        return "".join(out), origin, ends


class _Table(dict):
    """``str.translate`` table: code point -> normalised string, computed on first use.

    ``irregular`` holds the characters after which offsets are no longer the
    identity or that may compose with the one before them; only text
    containing one of them needs an offset map. ``composing`` and
    ``ignorable`` are the subsets the cluster rule needs.
    """

    def __init__(self, converter: Any) -> None:
        super().__init__()
        self._converter = converter
        self.irregular: set[str] = set()
        self.composing: set[str] = set()
        self.ignorable: set[str] = set()
        self._searched = -1  # the size of `irregular` when _search was made
        self._search: Any = None
        # See translated: the plain characters of the table as it was when
        # they were last listed.
        self._plain: _Plain | None = None

    def irregular_in(self, text: str) -> bool:
        """Whether the text holds an irregular character (one regular
        expression search: a set's ``isdisjoint`` makes a string of every
        character of the text, five times as slow on Chinese documents)."""
        if self._searched != len(self.irregular):  # the set only grows
            self._searched = len(self.irregular)
            self._search = re.compile("[" + "".join(map(re.escape, sorted(self.irregular))) + "]" if self.irregular else "(?!)").search
        return self._search(text) is not None

    def translated(self, text: str) -> str:
        """``text.translate(self)``, the stretches of plain characters (see
        :class:`_Plain`) lower-cased instead: a translation looks the table up
        for every character, ``str.lower`` runs at C speed (on text of
        Traditional characters, where few stretches are plain, about the same
        time as a translation)."""
        if self._plain is None or len(self) >= self._plain.size + max(_RELIST, self._plain.size // 8):
            self._plain = _Plain(self)
        return self._plain.translated(text, self)

    def __missing__(self, code: int) -> str:
        char = chr(code)
        mapped = self[code] = normalise_char(char, self._converter)
        if composes(char):
            self.composing.add(char)
        if is_ignorable(char):
            self.ignorable.add(char)
        if len(mapped) != 1 or char in self.composing:
            self.irregular.add(char)
        return mapped


#: New characters in the table before its plain characters are listed again
#: (or an eighth of those listed, when more): a character not listed yet is
#: translated, which is right but slower, and a listing costs about as much
#: as translating a hundred characters per character listed.
_RELIST = 64

#: Lower-casing a capital sigma depends on the letters around it (final form).
_SIGMA = "\u03a3"


class _Plain:
    """The plain characters of a :class:`_Table` as it is, for
    :meth:`_Table.translated`: characters of the Basic Multilingual Plane in
    the table whose entry is their ``str.lower``, one character, that does not
    depend on its neighbours (all but the capital sigma). Lower-casing a
    stretch of them is translating it.
    """

    __slots__ = ("size", "_split")

    def __init__(self, table: _Table) -> None:
        self.size = len(table)
        plain = [
            code for code, mapped in table.items()
            if code <= 0xFFFF and chr(code) != _SIGMA and len(mapped) == 1 and mapped == chr(code).lower()
        ]
        # Stretches of other characters, kept by the split (a group).
        self._split = re.compile(f"([^{_class_of(plain)}]+)").split if plain else None

    def translated(self, text: str, table: _Table) -> str:
        """``text.translate(table)``: stretches of plain characters (even
        places of the split) lower-cased, the others (odd places) translated,
        each by one C call."""
        if self._split is None:
            return text.translate(table)
        parts = self._split(text)
        if len(parts) == 1:
            return text.lower()
        parts[0::2] = map(str.lower, parts[0::2])
        parts[1::2] = map(str.translate, parts[1::2], repeat(table))
        return "".join(parts)


def _class_of(codes: list[int]) -> str:
    """A regular expression class of the code points (ranges of consecutive ones)."""
    codes = sorted(codes)
    parts: list[str] = []
    first = last = codes[0]
    for code in [*codes[1:], -1]:
        if code == last + 1:
            last = code
            continue
        parts.append(re.escape(chr(first)) + (f"-{re.escape(chr(last))}" if last > first else ""))
        first = last = code
    return "".join(parts)
