"""An exact first stage: "seen this sentence before?" with a Bloom filter or a Trie.

The short-text de-duplication seed removes exact duplicates cheaply before
the near-duplicate search. A key is a sentence's normalised tokens joined by
:data:`~partialdup.core.hashing.SEPARATOR` (:func:`sentence_key`), so
sentences that differ only in case, width, script or punctuation are the
same key.

**Bloom filter.** m bits and k bit positions per key, sized from the
expected number of keys n and the target false-positive rate p::

    m = ceil(-n ln p / (ln 2)^2)        k = max(1, round(m / n * ln 2))

The k positions come from two 64-bit hashes by double hashing (Kirsch and
Mitzenmacher 2006): ``g_i = (h1 + i * h2) mod 2^64 mod m``, with h1 and h2
the two halves of one 128-bit BLAKE2b digest (stable across processes,
unlike ``hash()``). The design rate after n insertions is
``(1 - exp(-k n / m))^k`` (about p). A positive may be false; a negative is
always right. The bits live in a NumPy array; :meth:`BloomFilter.add_many`
and :meth:`BloomFilter.contains_many` hash in Python and set or test all
positions at once, :meth:`BloomFilter.add` and :meth:`BloomFilter.__contains__`
are the plain reference.

**Trie over hashed digits.** The key's 64-bit hash written as 20 decimal
digits, stored digit by digit in nested dicts, so keys sharing leading
digits share nodes. It is exact up to 64-bit hash collisions (about
n^2 / 2^65: none in practice), at the cost of memory per key.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from partialdup.core.hashing import SEPARATOR, stable_hash

__all__ = [
    "BloomFilter",
    "DigitTrie",
    "bloom_size",
    "false_positive_rate",
    "sentence_key",
]

_MASK64 = (1 << 64) - 1


def sentence_key(tokens: Sequence[str]) -> str:
    """The exact-stage key of a sentence: its normalised tokens joined."""
    return SEPARATOR.join(tokens)


def bloom_size(expected: int, rate: float) -> tuple[int, int]:
    """(m bits, k hash positions) for ``expected`` keys at false-positive rate ``rate``."""
    if expected < 1 or not 0.0 < rate < 1.0:
        raise ValueError(f"need expected >= 1 and 0 < rate < 1, got {expected}, {rate}")
    bits = math.ceil(-expected * math.log(rate) / math.log(2) ** 2)
    return bits, max(1, round(bits / expected * math.log(2)))


def _hashes(key: str) -> tuple[int, int]:
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=16).digest()
    # h2 odd: its multiples then run through every residue of a power of two
    return int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:], "big") | 1


@dataclass
class BloomFilter:
    """A Bloom filter sized for ``expected`` keys at false-positive rate ``rate``.

    Attributes:
        expected: n, the number of keys it is sized for.
        rate: p, the target false-positive rate at n keys.
        bits: m, bits in the array.
        positions: k, bit positions per key.
        count: Keys added so far (repeats included).
    """

    expected: int
    rate: float
    bits: int = field(init=False)
    positions: int = field(init=False)
    count: int = field(init=False, default=0)
    _array: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.bits, self.positions = bloom_size(self.expected, self.rate)
        self._array = np.zeros((self.bits + 7) // 8, dtype=np.uint8)

    def _positions(self, key: str) -> list[int]:
        h1, h2 = _hashes(key)
        return [((h1 + i * h2) & _MASK64) % self.bits for i in range(self.positions)]

    def _positions_many(self, keys: Sequence[str]) -> np.ndarray:
        pairs = np.array([_hashes(k) for k in keys], dtype=np.uint64).reshape(-1, 2)
        steps = np.arange(self.positions, dtype=np.uint64)
        # uint64 arithmetic wraps mod 2^64, as the reference's mask does
        return (pairs[:, :1] + steps[None, :] * pairs[:, 1:]) % np.uint64(self.bits)

    def add(self, key: str) -> None:
        """Add one key (plain reference of :meth:`add_many`)."""
        for position in self._positions(key):
            self._array[position >> 3] |= 1 << (position & 7)
        self.count += 1

    def __contains__(self, key: object) -> bool:
        """Whether the key may have been added (plain reference of :meth:`contains_many`)."""
        if not isinstance(key, str):
            return False
        return all(self._array[p >> 3] >> (p & 7) & 1 for p in self._positions(key))

    def add_many(self, keys: Sequence[str]) -> None:
        """Add many keys at once."""
        if not keys:
            return
        where = self._positions_many(keys).ravel()
        np.bitwise_or.at(self._array, (where >> np.uint64(3)).astype(np.intp), (np.uint8(1) << (where & np.uint64(7)).astype(np.uint8)))
        self.count += len(keys)

    def contains_many(self, keys: Sequence[str]) -> np.ndarray:
        """For each key, whether it may have been added (bool array)."""
        if not keys:
            return np.zeros(0, dtype=bool)
        where = self._positions_many(keys)
        bit = (self._array[(where >> np.uint64(3)).astype(np.intp)] >> (where & np.uint64(7)).astype(np.uint8)) & 1
        return np.asarray(bit.all(axis=1), dtype=bool)

    def design_rate(self, count: int | None = None) -> float:
        """``(1 - exp(-k n / m))^k`` after ``count`` keys (default: those added)."""
        n = self.count if count is None else count
        return (1.0 - math.exp(-self.positions * n / self.bits)) ** self.positions

    @property
    def nbytes(self) -> int:
        """Bytes of the bit array."""
        return int(self._array.nbytes)


class DigitTrie:
    """A Trie over the 20 decimal digits of each key's stable 64-bit hash.

    Exact membership up to 64-bit hash collisions.
    """

    DIGITS = 20

    def __init__(self) -> None:
        self._root: dict[str, Any] = {}
        self.count = 0
        self.nodes = 1

    @classmethod
    def digits(cls, key: str) -> str:
        """The key's hash as a fixed-length string of decimal digits."""
        return f"{stable_hash((key,)):0{cls.DIGITS}d}"

    def add(self, key: str) -> bool:
        """Add a key; True when it was new."""
        node = self._root
        created = False
        for digit in self.digits(key):
            child = node.get(digit)
            if child is None:
                child = node[digit] = {}
                self.nodes += 1
                created = True
            node = child
        self.count += created
        return created

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        node: dict[str, Any] | None = self._root
        for digit in self.digits(key):
            node = node.get(digit) if node is not None else None
        return node is not None


def false_positive_rate(found: Iterable[bool]) -> float:
    """Share of positives among answers for keys known never to have been added."""
    answers = np.fromiter(found, dtype=bool)
    return float(answers.mean()) if answers.size else 0.0
