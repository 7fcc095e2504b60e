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

As ``--method`` (``simhash``, ``simhash-cosine``) each sentence's
fingerprint travels through the pipeline as a bag: SimHash's is
``{fingerprint: 1}`` (empty when no word is left after the stop words);
SimHash-Cosine's is V, one entry per bit, ``2 i + [bit i set]`` ->
``max(1, round(|V[i]| · 1000))`` (:data:`V_SCALE`), so the sign bits, hence
the fingerprint, are exact and V is kept to a thousandth of a weight. The
sentence index is :class:`~partialdup.index.fingerprints.HammingSentenceIndex`
(permuted tables). SimHash reads τ as the Hamming bound ``floor((1 - τ) ·
64)`` (``--hamming K`` sets τ = 1 - K/64); SimHash-Cosine finds its
candidates within ``--hamming`` + :data:`COSINE_SLACK` bits and keeps those
whose V cosine reaches τ.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar, Collection, Iterable, Mapping, Sequence

import numpy as np

from partialdup.core.config import SimHashParams
from partialdup.core.hashing import stable_hash
from partialdup.methods.base import MethodSpec, register
from partialdup.methods.spotsig import SPOTSIG_FULL
from partialdup.text.idf import IdfTable

__all__ = [
    "BITS",
    "COSINE_SLACK",
    "SimHash",
    "SimHashCosine",
    "V_SCALE",
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
    from scipy import sparse  # lazily: `partialdup --help` lists the methods without it

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

    def similarity(self, first: Any, second: Any) -> float:
        """``1 - hamming / 64`` of two fingerprints, or of the bags :meth:`bag` makes."""
        if isinstance(first, Mapping):
            if not first or not second:
                return 0.0
            first, second = self.fingerprint_of(first), self.fingerprint_of(second)
        return 1.0 - hamming(first, second) / BITS

    def bag(self, tokens: Sequence[str]) -> dict[int, int]:
        """The fingerprint as the pipeline carries it: ``{fingerprint: 1}``, empty without words."""
        weights = self.weights(tokens)
        return {simhash(weights): 1} if weights else {}

    def fingerprint_of(self, bag: Mapping[int, int]) -> int:
        """The fingerprint a bag of :meth:`bag` holds."""
        return next(iter(bag))

    def candidate_bound(self, threshold: float) -> int:
        """k = ``floor((1 - τ) · 64)``: a threshold is a Hamming bound."""
        return hamming_bound(threshold)

    def pair_scores(self, distance: np.ndarray, first: Sequence[Any], second: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """(1 - d/64, agreeing bits 64 - d) of pairs at Hamming distance d."""
        return 1.0 - distance / BITS, BITS - distance.astype(np.int64)

    def is_duplicate(self, first: int, second: int) -> bool:
        """Whether two fingerprints lie within :attr:`hamming_bound` bits."""
        return hamming(first, second) <= self.hamming_bound


#: SimHash-Cosine keeps V to 1/V_SCALE of a weight in its bag.
V_SCALE = 1000

#: SimHash-Cosine searches this many bits beyond ``--hamming`` for candidates:
#: near-duplicates whose V cosine reaches τ may differ in a few more sign bits.
COSINE_SLACK = 1

#: SimHash-Cosine's default τ on the cosine of V.
COSINE_THRESHOLD = 0.95


@dataclass(frozen=True)
class SimHashCosine(SimHash):
    """SimHash-Cosine: V (before the sign step) compared with the cosine.

    Candidates come from the permuted tables within ``hamming_bound`` +
    :data:`COSINE_SLACK` bits; a pair is a copy when its cosine reaches τ.
    """

    name: str = "simhash-cosine"

    def bag(self, tokens: Sequence[str]) -> dict[int, int]:
        """V as a bag: ``2 i + [bit i set] -> max(1, round(|V[i]| · V_SCALE))``, empty without words."""
        weights = self.weights(tokens)
        if not weights:
            return {}
        vector = simhash_vector(weights)
        tie = _TIE * _total(weights)
        return {2 * i + int(v > tie): max(1, round(abs(v) * V_SCALE)) for i, v in enumerate(vector.tolist())}

    def fingerprint_of(self, bag: Mapping[int, int]) -> int:
        """The sign bits of the V a bag holds."""
        return sum(1 << (key >> 1) for key in bag if key & 1)

    def vector_of(self, bag: Mapping[int, int]) -> np.ndarray:
        """The V a bag holds (to 1/V_SCALE)."""
        vector = np.zeros(BITS)
        for key, count in bag.items():
            vector[key >> 1] = count / V_SCALE if key & 1 else -count / V_SCALE
        return vector

    def similarity(self, first: Any, second: Any) -> float:
        """Cosine of two V vectors, or of the bags :meth:`bag` makes."""
        if isinstance(first, Mapping):
            first, second = self.vector_of(first), self.vector_of(second)
        return simhash_cosine(np.asarray(first), np.asarray(second))

    def candidate_bound(self, threshold: float) -> int:
        """``--hamming`` + :data:`COSINE_SLACK` bits, whatever τ."""
        return min(self.hamming_bound + COSINE_SLACK, BITS - 1)

    def pair_scores(self, distance: np.ndarray, first: Sequence[Any], second: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """(V cosine, agreeing bits) of candidate pairs."""
        if not len(first):
            return np.zeros(0), np.zeros(0, np.int64)
        a = np.array([self.vector_of(bag) for bag in first])
        b = np.array([self.vector_of(bag) for bag in second])
        norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
        score = np.divide(np.einsum("ij,ij->i", a, b), norms, out=np.zeros(len(a)), where=norms > 0)
        return score, BITS - distance.astype(np.int64)


def _weights_idf(params: SimHashParams, idf: IdfTable) -> IdfTable | None:
    return idf.whole() if params.weights == "tf-idf" else None


def _build(params: SimHashParams, idf: IdfTable) -> SimHash:
    return SimHash(_weights_idf(params, idf), params.hamming)


def _build_cosine(params: SimHashParams, idf: IdfTable) -> SimHashCosine:
    return SimHashCosine(_weights_idf(params, idf), params.hamming)


def _threshold_from_hamming(params: SimHashParams) -> SimHashParams:
    # τ follows --hamming: k bits of 64 is similarity 1 - k/64
    return dataclasses.replace(params, threshold=1.0 - params.hamming / BITS)


register(MethodSpec(
    "simhash", "simhash", _build, resolve=_threshold_from_hamming,
    summary="64-bit SimHash of the weighted words, Hamming distance <= --hamming, permuted tables",
))
register(MethodSpec(
    "simhash-cosine", "simhash", _build_cosine, preset={"threshold": COSINE_THRESHOLD},
    summary="cosine of the SimHash vectors before the sign step; candidates from the permuted tables",
))
