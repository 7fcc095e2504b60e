"""A sentence's compact form: its normalised text without white space, each
character with the document offset of the original character it comes from.

Refinement (:mod:`partialdup.match.refine`) aligns the compact forms of a
span's edge sentences and maps the aligned window back to the documents.
:func:`compact` is the fast path, :func:`compact_py` its plain reference (a
property test checks they agree): the reference reads the text a character
at a time in four Python loops and makes an int per character, 9 µs a
sentence of the English bench corpus, whose refinement makes 53,646 of
them, though it reads a few of each one's offsets; the fast path finds the
runs of other characters than white space by one regular expression and
tells the offsets run by run (:class:`RunOffsets`), when first read.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate, chain
from operator import add, eq, sub
from typing import Callable, Iterator, Sequence

from partialdup.core.types import Sentence

__all__ = ["Compact", "Normaliser", "RunOffsets", "compact", "compact_py"]

#: ``Tokenizer.normalise``: text -> (normalised text, offset of each normalised
#: character's original character, or None when offsets are the identity).
Normaliser = Callable[[str], tuple[str, Sequence[int] | None]]

#: Runs of characters that are not white space (``\s`` of a str pattern is
#: ``str.isspace``: the same characters, all of Unicode checked).
_RUNS = re.compile(r"\S+")
_SPACES = re.compile(r"\s+")
_span = re.Match.span


@dataclass(frozen=True, slots=True)
class Compact:
    """A sentence's normalised text without white space, with original offsets.

    Attributes:
        text: The normalised characters, white space removed.
        origin: For each character of ``text``, the document offset of the
            original character it comes from (non-decreasing).
    """

    text: str
    origin: Sequence[int]


class RunOffsets(Sequence[int]):
    """The offsets of a compact text whose characters come one for one from
    runs of the original (a sentence whose normalisation kept its length:
    nearly all), told run by run: refinement reads a few of a sentence's
    offsets, and an int per character was most of the cost of making them.

    Args:
        starts: Where each run starts in the compact text (ascending, from 0).
        origins: The document offset of each run's first character.
        length: The compact text's length.
    """

    __slots__ = ("_starts", "_origins", "_length", "_text", "_start")

    def __init__(self, starts: list[int], origins: list[int], length: int) -> None:
        self._starts: list[int] | None = starts
        self._origins: list[int] = origins
        self._length = length
        self._text: str | None = None
        self._start = 0

    @classmethod
    def of_text(cls, normalised: str, start: int, length: int) -> RunOffsets:
        """The offsets of the runs of ``normalised`` (a sentence's normalised
        text, of the same length as the original, which starts at document
        offset ``start``; ``length`` characters not white space, at least
        one), found when first read: most compact forms are only compared,
        their offsets never read (a regular expression's match per word was
        14 % of the work of the English bench corpus's spans, py-spy)."""
        made = cls.__new__(cls)
        made._starts, made._origins, made._length = None, [], length
        made._text, made._start = normalised, start
        return made

    def _runs(self) -> tuple[list[int], list[int]]:
        # Each step a C loop over the runs (a sentence has a run per word).
        if self._starts is None:
            assert self._text is not None
            lows, highs = zip(*map(_span, _RUNS.finditer(self._text)))
            starts = list(accumulate(map(sub, highs, lows), initial=0))
            self._starts, self._origins = starts[:-1], list(map(self._start.__add__, lows))
            self._text = None
        return self._starts, self._origins

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("compact offset out of range")
        starts, origins = self._runs()
        run = bisect_right(starts, index) - 1
        return origins[run] + index - starts[run]

    def __iter__(self) -> Iterator[int]:
        starts, origins = self._runs()
        ends = [*starts[1:], self._length]
        return chain.from_iterable(map(range, origins, map(add, origins, map(sub, ends, starts))))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(other) == self._length and all(map(eq, self, other))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"RunOffsets({list(self)!r})"


def compact(text: str, sentence: Sentence, normalise: Normaliser) -> Compact:
    """The compact form of ``sentence`` of ``text`` (see the module notes)."""
    normalised, origin = normalise(text[sentence.start : sentence.end])
    joined = _SPACES.sub("", normalised)
    if not joined:
        return Compact("", ())
    if origin is not None:  # the normalisation changed lengths: an offset per character
        spans = list(map(_span, _RUNS.finditer(normalised)))
        return Compact(joined, tuple(sentence.start + origin[k] for low, high in spans for k in range(low, high)))
    return Compact(joined, RunOffsets.of_text(normalised, sentence.start, len(joined)))


def compact_py(text: str, sentence: Sentence, normalise: Normaliser) -> Compact:
    """:func:`compact`, plainly: character by character."""
    normalised, origin = normalise(text[sentence.start : sentence.end])
    keep = [k for k, char in enumerate(normalised) if not char.isspace()]
    offsets = keep if origin is None else [origin[k] for k in keep]
    return Compact("".join(normalised[k] for k in keep), tuple(sentence.start + k for k in offsets))
