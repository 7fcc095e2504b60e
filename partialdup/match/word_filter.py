"""A sentence's word filter: a 64-bit Bloom filter of its distinct words.

A store keeps one per sentence (:mod:`partialdup.store.blooms`), so that a
check can bound, without reading a stored sentence's words, how many of a
query sentence's words it holds. A word sets one bit: the low six bits of its
stable 64-bit hash (its key in the store's word table). A sentence holds a
word only if that word's bit is set in its filter: the filter never says no
to a word the sentence holds, so every bound made from it is safe.

The edited-copy stage uses it to rule out pairs whose words cannot reach the
least ratio it accepts (:func:`ratio_may_reach`): rapidfuzz's ``ratio`` of
two token sequences is ``200 * LCS / (len(first) + len(second))``, and their
longest common subsequence holds no more of the first's words than the
second's filter admits, nor more words than either has.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from partialdup.core.hashing import stable_hashes

__all__ = ["BITS", "WordBits", "word_bit", "word_bits", "shared_at_most", "ratio_may_reach"]

#: Bits of a filter: one unsigned 64-bit integer per sentence.
BITS = 64

#: Ratios within this of the least accepted are never ruled out (rapidfuzz
#: computes in floating point; the bound in exact integers).
_SLACK = 1e-6


#: A sentence's words as :func:`shared_at_most` takes them (:func:`word_bits`).
WordBits = tuple[int, tuple[tuple[int, int], ...]]


def word_bit(key: int) -> int:
    """The bit a word sets, from its 64-bit key (signed or not: the low bits are the same)."""
    return key & (BITS - 1)


def word_bits(words: Sequence[str]) -> WordBits:
    """A sentence's words as :func:`shared_at_most` takes them: the mask of
    the bits they set, and (bit, how many more words set it) for each bit
    set by more than one word (a word met twice counts twice)."""
    counts = Counter(word_bit(key) for key in stable_hashes(words))
    mask = sum(1 << bit for bit in counts)
    return mask, tuple((bit, count - 1) for bit, count in sorted(counts.items()) if count > 1)


def shared_at_most(word_filter: int, bits: WordBits) -> int:
    """At most how many of a sentence's words (:func:`word_bits`) the
    sentence of ``word_filter`` holds: those whose bit it sets."""
    mask, repeated = bits
    shared = (word_filter & mask).bit_count()
    for bit, more in repeated:
        shared += more * (word_filter >> bit & 1)
    return shared


def ratio_may_reach(shared: int, first_length: int, second_length: int, least: float) -> bool:
    """Whether two token sequences of these lengths, of which at most
    ``shared`` words of the first lie in the second, may reach a rapidfuzz
    ``ratio`` of ``least`` (False: they cannot)."""
    common = min(shared, first_length, second_length)
    return 200.0 * common >= (least - _SLACK) * (first_length + second_length)
