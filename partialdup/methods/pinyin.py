"""Pinyin first-letter fingerprints: robust to homophone substitution.

The fingerprint tracking system's fourth method: a Chinese text becomes the
first letters of its characters' pinyin (pypinyin, ``Style.FIRST_LETTER``:
银行工作 → ``yhgz``), the letters are read through overlapping windows of
``window`` letters every ``step`` letters, and each window becomes the
frequencies of its letters (order inside the window dropped), hashed to one
64-bit code. A text whose characters were replaced by homophones (在/再,
的/得, 做/作) keeps its letters and so its codes; a text shorter than one
window gives one code of all its letters.

Only Han characters get pinyin: Latin words, digits and punctuation are
dropped (``errors="ignore"``), so an English text has no code at all, and a
mixed text is fingerprinted by its Chinese characters only. Pinyin is read
with pypinyin's phrase dictionary on the tokenizer's words, so a polyphonic
character (行: xíng / háng) takes its reading in context; a homophone that
changes a neighbouring word's segmentation may change such a reading.

The fingerprint is a bag (code -> multiplicity), compared by bag-Jaccard.
:func:`window_counts` has a plain ``*_reference`` beside its NumPy fast path.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar, Mapping, Sequence

import numpy as np

from partialdup.core.config import PinyinParams
from partialdup.methods.base import MethodSpec, register
from partialdup.methods.similarity import bag_jaccard

__all__ = [
    "Pinyin",
    "pinyin_code",
    "pinyin_letters",
    "window_counts",
    "window_counts_reference",
]

_ALPHABET = 26


def pinyin_letters(tokens: Sequence[str]) -> str:
    """The first letters of the pinyin of the tokens' Han characters (a-z only)."""
    from pypinyin import Style, lazy_pinyin  # loads its dictionaries on first use

    letters = lazy_pinyin(list(tokens), style=Style.FIRST_LETTER, errors="ignore")
    return "".join(ch for piece in letters for ch in piece if "a" <= ch <= "z")


def _starts(length: int, window: int, step: int) -> range:
    if length <= window:
        return range(1 if length else 0)
    return range(0, length - window + 1, step)


def window_counts_reference(letters: str, window: int, step: int) -> list[list[int]]:
    """Letter counts of every window, one Counter per window (the reference)."""
    rows = []
    for start in _starts(len(letters), window, step):
        counts = Counter(letters[start : start + window])
        rows.append([counts.get(chr(ord("a") + i), 0) for i in range(_ALPHABET)])
    return rows


def window_counts(letters: str, window: int, step: int) -> np.ndarray:
    """Letter counts of every window (uint8 matrix, one row of 26 per window).

    One-hot rows, a cumulative sum, and each window's counts as the
    difference of two prefix sums.
    """
    starts = np.fromiter(_starts(len(letters), window, step), dtype=np.int64)
    if starts.size == 0:
        return np.zeros((0, _ALPHABET), dtype=np.uint8)
    codes = np.frombuffer(letters.encode("ascii"), dtype=np.uint8) - ord("a")
    prefix = np.zeros((len(letters) + 1, _ALPHABET), dtype=np.int64)
    prefix[np.arange(1, len(letters) + 1), codes] = 1
    np.cumsum(prefix, axis=0, out=prefix)
    ends = np.minimum(starts + window, len(letters))
    return (prefix[ends] - prefix[starts]).astype(np.uint8)


def _code(row: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(row, digest_size=8).digest(), "big")


def pinyin_code(letters: str, window: int = 8, step: int = 4) -> tuple[int, ...]:
    """The window codes of a letter string, in order (one 64-bit code per window)."""
    counts = window_counts(letters, window, step)
    return tuple(_code(row.tobytes()) for row in counts)


@dataclass(frozen=True, slots=True)
class Pinyin:
    """Pinyin first-letter fingerprint of a sentence's or document's tokens.

    Attributes:
        window: Letters per window (1..255: counts are stored in a byte).
        step: Letters between the starts of two windows.
        name: Method name used in reports.
    """

    window: int = 8
    step: int = 4
    name: str = "pinyin"
    search_kind: ClassVar[str] = "bag"

    def __post_init__(self) -> None:
        if not 1 <= self.window <= 255 or self.step < 1:
            raise ValueError(f"need 1 <= window <= 255 and step >= 1, got {self.window}, {self.step}")

    def bag(self, tokens: Sequence[str]) -> Counter[int]:
        """The window codes of the tokens' pinyin letters, code -> multiplicity."""
        return Counter(pinyin_code(pinyin_letters(tokens), self.window, self.step))

    def similarity(self, first: Mapping[int, int], second: Mapping[int, int]) -> float:
        """Bag-Jaccard of two code bags."""
        return bag_jaccard(first, second)


def _build(params: PinyinParams, idf: object) -> Pinyin:
    return Pinyin(params.window, params.step)


register(MethodSpec(
    "pinyin", "pinyin", _build,
    summary="pinyin first-letter codes over overlapping windows (homophones keep them; Chinese only)",
))
