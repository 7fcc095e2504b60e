"""Per stored sentence, a 64-bit Bloom filter of its distinct words: a safe
bound on the words it shares with a query sentence, read without its words.

The word sets of edited copies (:mod:`partialdup.store.wordsearch`) know
from the word table exactly which *rare* words of a query sentence a stored
sentence holds, but not which of its *common* words (the table keeps no
places for those). Their bound took every common word of the query sentence
for shared, and nine in ten stored sentences that passed it failed when
their words were read (1M sentences, ``scripts/bench_store.py``). A word
sets one bit (the low six bits of its key in the word table, a stable
hash); a stored sentence holds a common word only if that bit is set in its
filter, so the common words shared are at most those whose bit is set.
A filter never says no to a word the sentence holds (no false negative):
the searches find exactly what they found without it, reading the words of
about one stored sentence in eight.

A sentence whose words are not stored has every bit set (it may hold anything).
Which bit a word sets is defined in :mod:`partialdup.match.word_filter`,
where the checks read the filters too.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from partialdup.match.word_filter import BITS, WordFilters, word_bit

__all__ = ["BITS", "EVERY_WORD", "word_bit", "sentence_blooms", "shared_bound", "holds_all"]

#: The filter of a sentence whose words are not known.
EVERY_WORD = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


def sentence_blooms(words: Sequence[Sequence[str]]) -> np.ndarray:
    """The filter of each sentence's words (uint64, little endian), as the
    checks make them (:class:`~partialdup.match.word_filter.WordFilters`)."""
    return WordFilters().of_sentences(words).astype("<u8", copy=False)


def _bit_matrix(blooms: np.ndarray) -> np.ndarray:
    """One row of 64 zeros and ones per filter, column j for bit j."""
    as_bytes = np.ascontiguousarray(blooms, "<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(as_bytes, axis=1, bitorder="little")


def shared_bound(blooms: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per filter, the sum of ``weights`` (one row of 64 per filter: the
    words of a query sentence setting each bit) over its set bits: at least
    the number of those words the sentence holds."""
    return (_bit_matrix(blooms).astype(np.int64) * weights).sum(axis=1)


def holds_all(blooms: np.ndarray, keys: Sequence[int]) -> np.ndarray:
    """Per filter, whether every word of these keys may be in its sentence."""
    wanted = np.uint64(sum(1 << bit for bit in {word_bit(key) for key in keys}))
    return (np.asarray(blooms, "<u8") & wanted) == wanted
