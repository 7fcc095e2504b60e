"""SimHash (Charikar 2002): one 64-bit fingerprint of a text's weighted words.

Every word hashes to 64 bits (:func:`~partialdup.core.hashing.stable_hash`,
never the salted ``hash()``); each bit adds the word's weight when set and
subtracts it when clear; the fingerprint keeps bit i where the sum ``V[i]``
is positive. Near-duplicate texts get fingerprints a few bits apart: Hamming
distance ≤ 3 of 64 is the usual "duplicate" bound for documents (Manku,
Jain and Das Sarma 2007). The words' order does not enter, so a text whose
sentences were reordered keeps its fingerprint.

Weights are term frequency (``tf``) or term frequency times IDF
(``tf-idf``, from an :class:`~partialdup.text.idf.IdfTable`); stop words
(the SpotSig lists, 365 English + 151 Chinese) are removed first, as the
seed paper does, since they carry no topic and would outvote the content
words. SimHash-Cosine compares the weighted vectors ``V`` before the sign
step with the cosine, which keeps the magnitudes the sign step throws away.

Each core has a plain Python ``*_reference`` beside the NumPy fast path; the
property tests prove they agree.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar, Collection, Iterable, Mapping, Sequence

import numpy as np
from scipy import sparse

from partialdup.core.hashing import stable_hash
from partialdup.methods.spotsig import SPOTSIG_FULL
from partialdup.text.idf import IdfTable

__all__ = [
    "BITS",
    "SimHash",
    "hamming",
    "hamming_bound",
    "simhash",
    "simhash_many",
    "simhash_reference",
    "simhash_vector",
    "simhash_vector_reference",
    "simhash_cosine",
    "simhash_cosine_reference",
    "token_weights",
]

#: Bits of a fingerprint.
BITS = 64

_SHIFTS = np.arange(BITS, dtype=np.uint64)


def token_weights(
    tokens: Iterable[str],
    *,
    idf: IdfTable | None = None,
    stopwords: Collection[str] = SPOTSIG_FULL,
) -> dict[str, float]:
    """Each kept word's weight: its frequency, times its IDF when a table is given.

    Args:
        tokens: Normalised tokens (a sentence's or a whole document's).
        idf: The IDF table for ``tf-idf`` weights; None gives ``tf``.
        stopwords: Words left out.

    Returns:
        word -> weight, in first-seen order; words of IDF 0 (in every
        document) weigh nothing and are left out.
    """
    counts = Counter(tok for tok in tokens if tok not in stopwords)
    if idf is None:
        return {tok: float(n) for tok, n in counts.items()}
    weighted = {tok: n * idf.idf(tok) for tok, n in counts.items()}
    return {tok: w for tok, w in weighted.items() if w > 0.0}


class _HashCache(dict):
    """word -> stable 64-bit hash, remembered (words recur; BLAKE2b is the cost)."""

    def __missing__(self, word: str) -> int:
        value = self[word] = stable_hash((word,))
        return value


_HASHES = _HashCache()


def _word_hash(word: str) -> int:
    if len(_HASHES) > 1_000_000:  # bound the cache on huge vocabularies
        _HASHES.clear()
    return _HASHES[word]


def simhash_vector_reference(weights: Mapping[str, float]) -> list[float]:
    """The weighted vector V before the sign step, one Python loop per bit (the reference)."""
    vector = [0.0] * BITS
    for word, weight in weights.items():
        h = stable_hash((word,))
        for bit in range(BITS):
            vector[bit] += weight if (h >> bit) & 1 else -weight
    return vector


def simhash_vector(weights: Mapping[str, float]) -> np.ndarray:
    """The weighted vector V before the sign step (float64, bit i at index i)."""
    if not weights:
        return np.zeros(BITS)
    hashes = np.fromiter((_word_hash(w) for w in weights), dtype=np.uint64, count=len(weights))
    values = np.fromiter(weights.values(), dtype=np.float64, count=len(weights))
    signs = ((hashes[:, None] >> _SHIFTS) & np.uint64(1)).astype(np.float64) * 2.0 - 1.0
    return values @ signs


#: V[i] counts as 0 (a clear bit) within this share of the total weight: the
#: fast path and the reference add the same numbers in different orders, and a
#: sum that is 0 in exact arithmetic may round to either side of it.
_TIE = 1e-9


def _pack(vector: np.ndarray, total: float) -> int:
    bits = (np.asarray(vector) > _TIE * total).astype(np.uint64) << _SHIFTS
    return int(np.bitwise_or.reduce(bits))


def _total(weights: Mapping[str, float]) -> float:
    return sum(abs(w) for w in weights.values())


def simhash_reference(weights: Mapping[str, float]) -> int:
    """The 64-bit fingerprint, plain Python (the reference of :func:`simhash`)."""
    vector, tie = simhash_vector_reference(weights), _TIE * _total(weights)
    return sum(1 << bit for bit in range(BITS) if vector[bit] > tie)


def simhash(weights: Mapping[str, float]) -> int:
    """The 64-bit fingerprint of weighted words (0 for no words)."""
    return _pack(simhash_vector(weights), _total(weights))


def simhash_many(texts: Sequence[Mapping[str, float]]) -> np.ndarray:
    """Fingerprints of many weighted texts at once (uint64 array, one per text).

    Texts share most of their words, so the ±1 sign matrix is built once
    per distinct word (vocabulary × 64, from the hashes' bytes); every
    text's V is then one row of a sparse (texts × vocabulary) weight matrix
    times it: one SciPy sparse product for the whole batch.
    """
    columns: dict[str, int] = {}
    rows, cols, values = [], [], []
    for row, weights in enumerate(texts):
        for word, weight in weights.items():
            rows.append(row)
            cols.append(columns.setdefault(word, len(columns)))
            values.append(weight)
    if not columns:
        return np.zeros(len(texts), dtype=np.uint64)
    hashes = np.fromiter((_word_hash(w) for w in columns), dtype=np.uint64, count=len(columns))
    # bit i of every hash, i = 0..63 (little-endian bytes, little bit order)
    bits = np.unpackbits(hashes.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    signs = bits.astype(np.float64) * 2.0 - 1.0
    matrix = sparse.csr_matrix((values, (rows, cols)), shape=(len(texts), len(columns)))
    vectors = np.asarray(matrix @ signs)
    totals = np.asarray(abs(matrix).sum(axis=1)).ravel()
    return _pack_rows(vectors, totals)


def _pack_rows(vectors: np.ndarray, totals: np.ndarray) -> np.ndarray:
    bits = (vectors > _TIE * totals[:, None]).astype(np.uint64) << _SHIFTS
    return np.bitwise_or.reduce(bits, axis=1)


def hamming(a: int, b: int) -> int:
    """Number of bits in which two fingerprints differ."""
    return (a ^ b).bit_count()


def hamming_bound(threshold: float) -> int:
    """The Hamming bound k of a similarity threshold τ: ``floor((1 - τ) * 64)``.

    The similarity of two fingerprints is ``1 - hamming / 64``, so
    ``similarity >= τ`` holds exactly when ``hamming <= k``.
    """
    return math.floor((1.0 - threshold) * BITS + 1e-9)


def simhash_cosine_reference(first: Sequence[float], second: Sequence[float]) -> float:
    """Cosine of two weighted vectors V, plain Python (0.0 when either is zero)."""
    dot = sum(x * y for x, y in zip(first, second))
    norms = math.sqrt(sum(x * x for x in first)) * math.sqrt(sum(y * y for y in second))
    return dot / norms if norms else 0.0


def simhash_cosine(first: np.ndarray, second: np.ndarray) -> float:
    """SimHash-Cosine: cosine of two weighted vectors V (before the sign step)."""
    norms = float(np.linalg.norm(first) * np.linalg.norm(second))
    return float(np.dot(first, second)) / norms if norms else 0.0


@dataclass(frozen=True)
class SimHash:
    """SimHash of a sentence's or document's words.

    Not a bag method: its fingerprint is one integer, searched through
    permuted tables (:mod:`partialdup.index.hamming`), ``search_kind``
    ``"simhash"``.

    Attributes:
        idf: The IDF table, for ``tf-idf`` weights; None gives ``tf``.
        hamming_bound: k, the largest Hamming distance of a duplicate.
        stopwords: Words left out before weighting.
        name: Method name used in reports.
    """

    idf: IdfTable | None = None
    hamming_bound: int = 3
    stopwords: frozenset[str] = field(default=SPOTSIG_FULL, repr=False)
    name: str = "simhash"
    search_kind: ClassVar[str] = "simhash"

    def __post_init__(self) -> None:
        if not 0 <= self.hamming_bound < BITS:
            raise ValueError(f"hamming_bound must lie in [0, {BITS}), got {self.hamming_bound}")

    def weights(self, tokens: Iterable[str]) -> dict[str, float]:
        """The kept words' weights (see :func:`token_weights`)."""
        return token_weights(tokens, idf=self.idf, stopwords=self.stopwords)

    def fingerprint(self, tokens: Iterable[str]) -> int:
        """The 64-bit fingerprint of the tokens."""
        return simhash(self.weights(tokens))

    def fingerprints(self, texts: Iterable[Iterable[str]]) -> np.ndarray:
        """Fingerprints of many token lists (uint64 array)."""
        return simhash_many([self.weights(tokens) for tokens in texts])

    def vector(self, tokens: Iterable[str]) -> np.ndarray:
        """The weighted vector V (for SimHash-Cosine)."""
        return simhash_vector(self.weights(tokens))

    def similarity(self, first: int, second: int) -> float:
        """``1 - hamming / 64``."""
        return 1.0 - hamming(first, second) / BITS

    def is_duplicate(self, first: int, second: int) -> bool:
        """Whether two fingerprints lie within :attr:`hamming_bound` bits."""
        return hamming(first, second) <= self.hamming_bound
