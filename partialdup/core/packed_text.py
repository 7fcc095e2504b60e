"""A document's text held compressed while a run holds it.

``detect`` holds every document's text from the reading to the end of the
run (the near misses' letters, the spans' edges and scores read it), yet
reads only a few sentences of most documents, after the look-ups. As Python
strings the English bench corpus's texts take 18.4 MB (a text with one
character past Latin-1 takes two bytes a character, one past the Basic
Multilingual Plane four), the Chinese one's 12.2 MB. Their UTF-8 compressed
with Zstandard (its default level, 3), the texts of 200 characters or more
take 4.7 MB (en) and 4.3 MB (zh), about what zlib's fastest level gave (4.8
and 4.2 MB), compressed in a third of zlib's time (0.05-0.08 s for either
corpus, not 0.16 s). The tail inflates documents again and again
(``detect --jobs 1`` of the Chinese bench corpus: 15,683 inflations, seven
times its compressed bytes): 0.17 s of CPU, where zlib took 0.39 s (en:
0.24 s, not 0.55 s; docs/benchmark.md, session 65).

A :class:`PackedText` stands in for the string inside the documents
(:func:`partialdup.core.types.hold_text_packed`); their ``text`` attribute
still reads the string, inflated when read. The last texts read are kept
(:data:`INFLATED_KEPT`): the tail reads a pair's two texts a few times each,
the near misses a document's sentences one after another.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from partialdup.core.chars import SURROGATES
from partialdup.core.zstd_contexts import ZstdContexts

__all__ = ["PackedText", "PACK_FROM", "INFLATED_KEPT", "load_packing", "packed"]

#: Texts shorter than this (characters) are held as they are: a frame's header
#: and a short text's poor ratio save little, and their inflating costs.
PACK_FROM = 200

#: Inflated texts kept, the last read (a bound on memory: a few documents').
INFLATED_KEPT = 16

#: Zstandard's level (its default).
_LEVEL = 3

#: This process's contexts, per thread.
_contexts = ZstdContexts(_LEVEL)


class PackedText:
    """A text as Zstandard-compressed UTF-8; ``str()`` gives it back.

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
        return cls(_contexts.compress(text.encode("utf-8", SURROGATES)), len(text))

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


def load_packing() -> None:
    """Load now what packing and inflating texts need, for a process about
    to fork helpers that will (see :meth:`ZstdContexts.load`)."""
    _contexts.load()


@lru_cache(maxsize=INFLATED_KEPT)
def _inflated(data: bytes) -> str:
    # Keyed by the bytes (their hash is computed once and kept by the bytes
    # object); the same text packed twice inflates to the same string.
    return _contexts.decompress(data).decode("utf-8", SURROGATES)
