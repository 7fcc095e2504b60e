"""A document's text held compressed while a run holds it.

``detect`` holds every document's text from the reading to the end of the
run (the near misses' letters, the spans' edges and scores read it), yet
reads only a few sentences of most documents, after the look-ups. As Python
strings the English bench corpus's texts take 18.4 MB (a text with one
character past Latin-1 takes two bytes a character, one past the Basic
Multilingual Plane four), the Chinese one's 12.2 MB; compressed (zlib, level
1, of their UTF-8) 5.2 and 5.3 MB, in about 0.25 s of CPU for either
corpus, and read back in 0.1 s (docs/benchmark.md, session 63).

A :class:`PackedText` stands in for the string inside the documents
(:func:`partialdup.core.types.hold_text_packed`); their ``text`` attribute
still reads the string, inflated when read. The last texts read are kept
(:data:`INFLATED_KEPT`): the tail reads a pair's two texts a few times each,
the near misses a document's sentences one after another.
"""

from __future__ import annotations

import zlib
from functools import lru_cache
from typing import Any

from partialdup.core.chars import SURROGATES

__all__ = ["PackedText", "PACK_FROM", "INFLATED_KEPT", "packed"]

#: Texts shorter than this (characters) are held as they are: zlib's header
#: and a short text's poor ratio save little, and their inflating costs.
PACK_FROM = 200

#: Inflated texts kept, the last read (a bound on memory: a few documents').
INFLATED_KEPT = 16

#: zlib's level: the fastest, which compresses prose about 3.5 to 1 (level 6
#: saves 6 % more bytes for 1.3 to 2 times the time).
_LEVEL = 1

class PackedText:
    """A text as zlib-compressed UTF-8; ``str()`` gives it back.

    Args:
        data: The compressed bytes.
        length: The text's length in characters.
    """

    __slots__ = ("data", "length")

    def __init__(self, data: bytes, length: int) -> None:
        self.data, self.length = data, length

    @classmethod
    def of(cls, text: str) -> PackedText:
        """``text`` compressed."""
        return cls(zlib.compress(text.encode("utf-8", SURROGATES), _LEVEL), len(text))

    def __str__(self) -> str:
        return _inflated(self.data)

    def __len__(self) -> int:
        return self.length

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PackedText):
            return NotImplemented
        return self.length == other.length and self.data == other.data

    def __hash__(self) -> int:
        return hash(self.data)

    def __repr__(self) -> str:
        return f"PackedText({self.length} characters in {len(self.data)} bytes)"

    def __reduce__(self) -> tuple[Any, ...]:
        return PackedText, (self.data, self.length)


def packed(text: str) -> str | PackedText:
    """``text`` as a document holds it through a run: compressed unless
    shorter than :data:`PACK_FROM` characters."""
    return PackedText.of(text) if len(text) >= PACK_FROM else text


@lru_cache(maxsize=INFLATED_KEPT)
def _inflated(data: bytes) -> str:
    # Keyed by the bytes (their hash is computed once and kept by the bytes
    # object); the same text packed twice inflates to the same string.
    return zlib.decompress(data).decode("utf-8", SURROGATES)
