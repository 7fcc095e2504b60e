"""A sentence's word filter: a 64-bit Bloom filter of its distinct words.

A store keeps one per sentence (:mod:`partialdup.store.blooms`), so that a
check can bound, without reading a stored sentence's words, how many of a
query sentence's words it holds. A word sets one bit: the low six bits of its
stable 64-bit hash (its key in the store's word table). A sentence holds a
word only if that word's bit is set in its filter: the filter never says no
to a word the sentence holds, so every bound made from it is safe.

The edited-copy stage uses the filters to pass over the candidate pairs whose
words cannot reach the least ratio it accepts (:func:`ratios_may_reach`):
rapidfuzz's ``ratio`` of two token sequences is ``200 * LCS / (|a| + |b|)``,
and their longest common subsequence holds no more words of ``a`` than lie
in ``b``. Those words are at most the words of ``a`` whose bit ``b``'s filter
sets: the bits both filters set, plus ``a``'s words beyond the distinct bits
of its own filter (a word met twice, two words on one bit), and the same the
other way round. On the bench corpora nine candidate pairs in ten are passed
over so, arrays at a time, before any is judged on its words.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Iterable, Sequence

import numpy as np

from partialdup.core.arrays import overlap_bound, popcount
from partialdup.core.hashing import stable_hashes

__all__ = ["BITS", "FilterRows", "WordFilters", "ratios_may_reach", "word_bit"]

#: Bits of a filter: one unsigned 64-bit integer per sentence.
BITS = 64

#: Ratios within this of the least accepted are never ruled out (rapidfuzz
#: computes in floating point; the bound is exact in integers).
_SLACK = 1e-6

#: Words whose bits a :class:`WordFilters` keeps; past it, it starts afresh
#: (a bound on its memory over a long run; the bits are the same either way).
WORD_MEMO = 1_000_000


def word_bit(key: int) -> int:
    """The bit a word sets, from its 64-bit key (signed or not: the low bits are the same)."""
    return key & (BITS - 1)


class WordFilters:
    """Makes the word filters of sentences, each distinct word hashed once
    (a run meets the same words in many sentences)."""

    def __init__(self) -> None:
        self._bits: dict[str, int] = {}

    def of_sentences(self, sentences: Iterable[Sequence[str]]) -> np.ndarray:
        """The filter of each sentence's words (uint64; 0 for a sentence without words)."""
        sentences = list(sentences)
        words = list(chain.from_iterable(sentences))
        bits = self._known_bits(dict.fromkeys(words))
        ones = np.left_shift(np.uint64(1), np.fromiter(map(bits.__getitem__, words), np.uint64, len(words)))
        return _filters(ones, np.fromiter(map(len, sentences), np.int64, len(sentences)))

    def of_columns(self, words: Sequence[str], lengths: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """:meth:`of_sentences` of sentences already numbered: ``lengths``
        words each, all their words in order as ``columns`` (positions in
        ``words``; see :class:`~partialdup.index.word_columns.WordColumns`).
        Each column's bit is found once, then every word's taken from it;
        not kept (the words are distinct, each hashed once here, and a run's
        words are held packed, :mod:`partialdup.core.packed_words`: kept,
        they would be a string each again)."""
        column_bits = np.fromiter(map(word_bit, stable_hashes(words)), np.uint64, len(words))
        column_ones = np.left_shift(np.uint64(1), column_bits)
        return _filters(column_ones[columns], np.asarray(lengths, np.int64))

    def _known_bits(self, distinct: Iterable[str]) -> dict[str, int]:
        # The memo of bits, holding every word of ``distinct`` (hashed once).
        bits = self._bits
        if len(bits) > WORD_MEMO:
            bits.clear()
        new = [word for word in distinct if word not in bits]
        bits.update(zip(new, (word_bit(key) for key in stable_hashes(new))))
        return bits


def _filters(ones: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    # Each sentence's filter: the OR of its words' bits (``ones``, all
    # sentences' in order; ``sizes`` words each); 0 for a sentence without words.
    filters = np.zeros(len(sizes), np.uint64)
    held = sizes > 0
    if held.any():
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))[held]
        filters[held] = np.bitwise_or.reduceat(ones, starts)
    return filters


@dataclass(frozen=True)
class FilterRows:
    """The sentences of one side of a search, as :func:`ratios_may_reach` reads them.

    Attributes:
        lengths: Each sentence's words.
        filters: Each sentence's word filter (uint64). Where it is not the
            exact filter of its words (a stored sentence whose words were
            not kept), the sentence must be one the edited-copy stage
            never accepts (it has no words to judge).
        spare: Each sentence's words beyond the distinct bits of its filter.
    """

    lengths: np.ndarray
    filters: np.ndarray
    spare: np.ndarray

    @classmethod
    def of(cls, lengths: np.ndarray, filters: np.ndarray) -> FilterRows:
        lengths = np.asarray(lengths, np.int64)
        return cls(lengths, np.asarray(filters, np.uint64), lengths - popcount(filters))


def ratios_may_reach(
    first: FilterRows, first_rows: np.ndarray, second: FilterRows, second_rows: np.ndarray, least: float
) -> np.ndarray:
    """Per pair (``first_rows[i]``, ``second_rows[i]``), whether the two
    sentences' words may reach a rapidfuzz ``ratio`` of ``least`` (False:
    they cannot)."""
    first_lengths, second_lengths = first.lengths[first_rows], second.lengths[second_rows]
    most = overlap_bound(first.filters[first_rows], first.spare[first_rows], second.filters[second_rows], second.spare[second_rows])
    common = np.minimum(most, np.minimum(first_lengths, second_lengths))
    return 200.0 * common >= (least - _SLACK) * (first_lengths + second_lengths)
