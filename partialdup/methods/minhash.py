"""MinHash (Broder 1997): signatures whose agreement estimates Jaccard.

Two variants, as the comparison of de-duplication methods measures them:

* **n hash functions** (``multi``): the signature holds, for each of m
  hash functions, the smallest hash value over the set; the estimate of
  Jaccard is the share of positions where two signatures agree. Standard
  error ``sqrt(J (1 - J) / m)``.
* **one hash function** (``one``, bottom-k): the sketch holds the k
  smallest distinct hash values of the set under one function; the estimate
  is ``|S(A) ∩ S(B) ∩ X| / |X|`` with X the k smallest values of
  ``S(A) ∪ S(B)`` (Broder's estimator; X is a uniform sample of A ∪ B).
  Standard error about ``sqrt(J (1 - J) / k)``.

The hash functions are ``h_i(x) = (a_i x + b_i) mod p`` with p the Mersenne
prime 2^61 - 1, x the low 32 bits of the element's stable 64-bit hash, and
``a_i ∈ [1, p)``, ``b_i ∈ [0, p)`` (a universal family). The product
``a_i x`` needs 93 bits; the NumPy fast path splits ``a_i`` into 32-bit
halves and multiplies by 2^32 modulo p as a 61-bit rotation, so every step
fits uint64 and it equals the plain-integer reference exactly. (Smaller
``a_i`` would avoid the split but leave ``a_i x`` wrapping only a few times
round p, so the hash values would follow x's order and the m functions
would not be independent: estimates measured 3 standard errors off.) ``a``
and ``b`` come from a seeded generator: the same seed gives the same
signatures on every machine.

Elements are word k-shingles of a sentence or document
(:func:`partialdup.methods.shingle.shingles`).

As ``--method`` (``minhash``: n hash functions; ``minhash-one``: one hash
function, bottom-k) a sentence's fingerprint travels through the pipeline
as a bag. A signature is ``{i << 56 | (sig_i mod 2^56): 1}`` (m ≤ 256
positions; two different minima agree in their low 56 bits with
probability 2^-56), so the bag intersection of two signatures is their
number of equal positions; it is searched by LSH bands
(:class:`~partialdup.index.fingerprints.LshSentenceIndex`, b × r from τ). A bottom-k sketch is ``{value: 1}``; candidates share a
sketch value (the inverted index) and are rescored by Broder's estimate
(:class:`~partialdup.index.fingerprints.RescoredIndex`). A sentence with no
shingle has an empty bag and is not looked up.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from partialdup.core.config import MinHashParams
from partialdup.core.hashing import stable_hash
from partialdup.core.types import Bag
from partialdup.methods.base import MethodSpec, register
from partialdup.methods.shingle import shingles
from partialdup.methods.similarity import CopyRule

__all__ = [
    "MERSENNE",
    "MinHash",
    "bottom_k",
    "bottom_k_reference",
    "bottom_k_similarity",
    "bottom_k_similarity_reference",
    "element_hashes",
    "hash_parameters",
    "signature",
    "signature_reference",
    "signature_similarity",
    "signature_similarity_reference",
    "standard_error",
]

#: p = 2^61 - 1, the modulus of the hash functions.
MERSENNE = (1 << 61) - 1
_LOW32 = (1 << 32) - 1
_P = np.uint64(MERSENNE)
_LOW29 = np.uint64((1 << 29) - 1)

#: Bits of a signature value kept in its bag key (the top 8 hold the position).
_VALUE_BITS = 56
_VALUE_MASK = np.uint64((1 << _VALUE_BITS) - 1)
#: Most positions a signature bag can hold.
MAX_PERMUTATIONS = 1 << (64 - _VALUE_BITS)


def element_hashes(elements: Iterable[Sequence[str]]) -> np.ndarray:
    """Distinct low-32-bit stable hashes of the elements (uint64, sorted)."""
    return np.unique(np.fromiter((stable_hash(e) & _LOW32 for e in elements), dtype=np.uint64))


def hash_parameters(count: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``a`` and ``b`` of ``count`` hash functions, from a seeded generator (uint64 each)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(1, MERSENNE, size=count, dtype=np.uint64)
    b = rng.integers(0, MERSENNE, size=count, dtype=np.uint64)
    return a, b


def _hash_values(a: np.ndarray | np.uint64, b: np.ndarray | np.uint64, x: np.ndarray) -> np.ndarray:
    """``(a x + b) mod p`` for a, b < p and x < 2^32, broadcast, without overflow."""
    high = (a >> np.uint64(32)) * x % _P  # < 2^29 · 2^32: fits
    low = (a & np.uint64(_LOW32)) * x % _P  # < 2^64: fits
    # high · 2^32 mod p: rotate the 61-bit value left by 32 (2^61 ≡ 1 mod p)
    shifted = ((high & _LOW29) << np.uint64(32)) | (high >> np.uint64(29))
    return (shifted % _P + low + b) % _P  # three values < p: < 2^63


def signature(hashes: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The m minimum values, one per hash function (uint64; MERSENNE for an empty set)."""
    if hashes.size == 0:
        return np.full(a.size, MERSENNE, dtype=np.uint64)
    return _hash_values(a[:, None], b[:, None], hashes[None, :]).min(axis=1)


def signature_reference(hashes: Iterable[int], a: Sequence[int], b: Sequence[int]) -> list[int]:
    """:func:`signature` with Python integers (the reference)."""
    elements = [int(x) for x in hashes]
    return [min(((int(ai) * x + int(bi)) % MERSENNE for x in elements), default=MERSENNE) for ai, bi in zip(a, b)]


def signature_similarity(first: np.ndarray, second: np.ndarray) -> float:
    """Share of positions where two signatures agree (the Jaccard estimate)."""
    return float(np.count_nonzero(first == second)) / first.size if first.size else 0.0


def signature_similarity_reference(first: Sequence[int], second: Sequence[int]) -> float:
    """:func:`signature_similarity` in plain Python (the reference)."""
    return sum(x == y for x, y in zip(first, second)) / len(first) if first else 0.0


def bottom_k(hashes: np.ndarray, k: int, a: int, b: int) -> np.ndarray:
    """The k smallest distinct values of one hash function over the set (sorted uint64)."""
    return np.unique(_hash_values(np.uint64(a), np.uint64(b), hashes))[:k]


def bottom_k_reference(hashes: Iterable[int], k: int, a: int, b: int) -> list[int]:
    """:func:`bottom_k` with Python integers (the reference)."""
    return sorted({(a * int(x) + b) % MERSENNE for x in hashes})[:k]


def bottom_k_similarity(first: np.ndarray, second: np.ndarray, k: int) -> float:
    """Broder's bottom-k estimate of Jaccard from two sketches."""
    union = np.union1d(first, second)[:k]
    if union.size == 0:
        return 0.0
    both = np.intersect1d(first, second, assume_unique=True)
    return float(np.intersect1d(both, union, assume_unique=True).size) / union.size


def bottom_k_similarity_reference(first: Sequence[int], second: Sequence[int], k: int) -> float:
    """:func:`bottom_k_similarity` with Python sets (the reference)."""
    union = sorted(set(first) | set(second))[:k]
    both = set(first) & set(second)
    return sum(x in both for x in union) / len(union) if union else 0.0


def standard_error(jaccard: float, samples: int) -> float:
    """Standard error of a MinHash estimate of ``jaccard`` from ``samples`` values."""
    return math.sqrt(jaccard * (1.0 - jaccard) / samples)


@dataclass(frozen=True)
class MinHash:
    """MinHash of word k-shingles, with m hash functions or one (bottom-k).

    Not a bag method: its fingerprint is an array, searched by LSH banding
    (:mod:`partialdup.index.lsh`), ``search_kind`` ``"lsh"`` (multi-hash
    signatures only; bottom-k sketches are compared pairwise).

    Attributes:
        permutations: m, hash functions (``multi``) or sketch size k (``one``).
        variant: ``"multi"`` or ``"one"``.
        shingle: Words per element (1 = the word set).
        seed: Seed of the hash functions' parameters.
        name: Method name used in reports.
    """

    permutations: int = 128
    variant: str = "multi"
    shingle: int = 3
    seed: int = 1
    name: str = "minhash"
    _a: np.ndarray = field(init=False, repr=False, compare=False)
    _b: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.variant not in ("multi", "one"):
            raise ValueError(f"variant must be 'multi' or 'one', got {self.variant!r}")
        if self.permutations < 1 or self.shingle < 1:
            raise ValueError("permutations and shingle must be >= 1")
        if self.variant == "multi" and self.permutations > MAX_PERMUTATIONS:
            raise ValueError(f"at most {MAX_PERMUTATIONS} hash functions, got {self.permutations}")
        a, b = hash_parameters(self.permutations if self.variant == "multi" else 1, self.seed)
        object.__setattr__(self, "_a", a)
        object.__setattr__(self, "_b", b)

    def elements(self, tokens: Sequence[str]) -> np.ndarray:
        """The hashed distinct shingles of the tokens."""
        return element_hashes(shingles(tokens, self.shingle))

    def fingerprint(self, tokens: Sequence[str]) -> np.ndarray:
        """The signature (``multi``) or the bottom-k sketch (``one``)."""
        hashes = self.elements(tokens)
        if self.variant == "multi":
            return signature(hashes, self._a, self._b)
        return bottom_k(hashes, self.permutations, int(self._a[0]), int(self._b[0]))

    @property
    def search_kind(self) -> str:
        """``"lsh"`` for signatures, ``"set"`` for bottom-k sketches."""
        return "lsh" if self.variant == "multi" else "set"

    def similarity(self, first: Any, second: Any) -> float:
        """The Jaccard estimate of two fingerprints of this method, or of the bags :meth:`bag` makes."""
        if isinstance(first, Mapping):
            if not first or not second:
                return 0.0
            first, second = self._decoded(first), self._decoded(second)
        if self.variant == "multi":
            return signature_similarity(first, second)
        return bottom_k_similarity(first, second, self.permutations)

    def bag(self, tokens: Sequence[str]) -> dict[int, int]:
        """The fingerprint as the pipeline carries it (see the module notes); empty without shingles."""
        hashes = self.elements(tokens)
        if hashes.size == 0:
            return {}
        if self.variant == "one":
            return dict.fromkeys(bottom_k(hashes, self.permutations, int(self._a[0]), int(self._b[0])).tolist(), 1)
        values = signature(hashes, self._a, self._b) & _VALUE_MASK
        keys = (np.arange(values.size, dtype=np.uint64) << np.uint64(_VALUE_BITS)) | values
        return dict.fromkeys(keys.tolist(), 1)

    def _decoded(self, bag: Mapping[int, int]) -> np.ndarray:
        if self.variant == "one":
            return np.array(sorted(bag), dtype=np.uint64)
        return self.signatures([bag])[0]

    def signatures(self, bags: Sequence[Mapping[int, int]]) -> np.ndarray:
        """The (truncated) signatures a list of signature bags holds, one row each (uint64)."""
        keys = np.fromiter((key for bag in bags for key in bag), np.uint64, sum(len(bag) for bag in bags))
        rows = np.repeat(np.arange(len(bags)), [len(bag) for bag in bags])
        matrix = np.zeros((len(bags), self.permutations), dtype=np.uint64)
        matrix[rows, (keys >> np.uint64(_VALUE_BITS)).astype(np.intp)] = keys & _VALUE_MASK
        return matrix

    def candidate_rule(self, rule: CopyRule) -> CopyRule:
        """Bottom-k: every pair sharing a sketch value is a candidate."""
        return CopyRule(sys.float_info.min, 0.0, 1)

    def pair_scores(self, shared: np.ndarray, first_sizes: np.ndarray, second_sizes: np.ndarray,
                    first: Sequence[Bag], second: Sequence[Bag]) -> np.ndarray:
        """Broder's estimate of each candidate pair of bottom-k sketches.

        When the two sketches hold at most k values together, X is their
        whole union and the estimate is ``shared / union`` (vectorised);
        otherwise it is at most ``shared / k``, and the pairs that may reach
        a useful score are estimated one by one.
        """
        union = first_sizes + second_sizes - shared
        score = shared / np.maximum(union, 1)
        for i in np.flatnonzero(union > self.permutations).tolist():
            score[i] = self.similarity(first[i], second[i])
        return score


def _build(params: MinHashParams, idf: object) -> MinHash:
    return MinHash(params.permutations, params.variant, params.shingle, params.seed,
                   name="minhash" if params.variant == "multi" else "minhash-one")


register(MethodSpec(
    "minhash", "minhash", _build,
    summary="MinHash of word shingles, n hash functions (--minhash-variant one: bottom-k), LSH bands from tau",
))
register(MethodSpec(
    "minhash-one", "minhash", _build, preset={"variant": "one"},
    summary="MinHash with one hash function (the k smallest values, Broder's estimate)",
))
