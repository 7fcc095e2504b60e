"""Set and vector similarities of word sets: Jaccard, short-text Jaccard, cosine.

The comparison of de-duplication methods for public-opinion text measures
three plain similarities beside SimHash and MinHash:

* **Jaccard** ``|A ∩ B| / |A ∪ B|`` of the two word sets;
* **short-text Jaccard** ``|A ∩ B| / min(|A|, |B|)``: the intersection over
  the smaller set, so a text wholly contained in another scores 1.0;
* **cosine** of the two term-weight vectors (tf or tf-idf).

Sets are sorted arrays of distinct 64-bit word hashes
(:func:`word_set`); the fast paths work on them with NumPy
(``np.intersect1d``), the ``*_reference`` functions with Python sets and
dicts, and the property tests prove they agree.

The ``jaccard`` method registered here is the word-set Jaccard run through
the shared pipeline: a sentence's bag holds each distinct word once, so the
pipeline's bag-Jaccard (Σmin / Σmax) is exactly the set Jaccard.
``short-jaccard`` and ``cosine`` have the same bag and ``search_kind``
``"set"``: the inverted index finds candidates with a rule that keeps every
pair whose score can reach τ, and :class:`WordSetScore` rescores them from
the shared count and the two sizes
(:class:`~partialdup.index.fingerprints.RescoredIndex`). As a method,
cosine is the cosine of the sentences' *binary* word vectors,
``|A ∩ B| / sqrt(|A| |B|)``: inside one sentence almost every word occurs
once, so tf weights change next to nothing (tf-idf weights are SimHash's,
``--simhash-weights``).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import AbstractSet, ClassVar, Iterable, Mapping, Sequence

import numpy as np

from partialdup.core.config import JaccardParams
from partialdup.core.hashing import stable_hash
from partialdup.core.types import Bag
from partialdup.methods.base import MethodSpec, register
from partialdup.methods.similarity import BagMethod, CopyRule, shared_count

__all__ = [
    "WordJaccard",
    "WordSetScore",
    "cosine",
    "cosine_reference",
    "jaccard",
    "jaccard_reference",
    "short_jaccard",
    "short_jaccard_reference",
    "word_set",
]


def word_set(tokens: Iterable[str]) -> np.ndarray:
    """The distinct words' stable 64-bit hashes, sorted (uint64)."""
    return np.unique(np.fromiter((stable_hash((tok,)) for tok in tokens), dtype=np.uint64))


def _shared(a: np.ndarray, b: np.ndarray) -> int:
    return int(np.intersect1d(a, b, assume_unique=True).size)


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Jaccard of two sorted distinct hash arrays (0.0 when both are empty)."""
    shared = _shared(a, b)
    union = a.size + b.size - shared
    return shared / union if union else 0.0


def jaccard_reference(a: AbstractSet[object], b: AbstractSet[object]) -> float:
    """Jaccard of two Python sets (the reference)."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def short_jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Short-text Jaccard ``|A ∩ B| / min(|A|, |B|)`` (0.0 when either is empty)."""
    smaller = min(a.size, b.size)
    return _shared(a, b) / smaller if smaller else 0.0


def short_jaccard_reference(a: AbstractSet[object], b: AbstractSet[object]) -> float:
    """Short-text Jaccard of two Python sets (the reference)."""
    smaller = min(len(a), len(b))
    return len(a & b) / smaller if smaller else 0.0


def cosine(a_keys: np.ndarray, a_weights: np.ndarray, b_keys: np.ndarray, b_weights: np.ndarray) -> float:
    """Cosine of two sparse vectors given as sorted distinct keys and their weights.

    Returns:
        The cosine, 0.0 when either vector is zero.
    """
    _, ia, ib = np.intersect1d(a_keys, b_keys, assume_unique=True, return_indices=True)
    norms = float(np.linalg.norm(a_weights) * np.linalg.norm(b_weights))
    return float(np.dot(a_weights[ia], b_weights[ib])) / norms if norms else 0.0


def cosine_reference(a: Mapping[object, float], b: Mapping[object, float]) -> float:
    """Cosine of two sparse vectors as dicts (the reference)."""
    dot = sum(w * b[k] for k, w in a.items() if k in b)
    norms = math.sqrt(sum(w * w for w in a.values())) * math.sqrt(sum(w * w for w in b.values()))
    return dot / norms if norms else 0.0


@dataclass(frozen=True, slots=True)
class WordJaccard(BagMethod):
    """Feature extractor: the sentence's distinct words, each once.

    Bag-Jaccard of two such bags is the Jaccard of the word sets, so the
    shared pipeline (inverted index, bag-Jaccard ≥ τ, containment) runs it
    unchanged.

    Attributes:
        name: Method name used in reports.
    """

    name: str = "jaccard"
    #: Word sets: the edited-copy stage's loose look-up is off for them (see
    #: :func:`partialdup.pipeline.factory.make_detector`).
    word_sets: ClassVar[bool] = True

    def bag(self, tokens: Sequence[str]) -> Counter[int]:
        """Each distinct word's hash with multiplicity 1.

        Args:
            tokens: The sentence's normalised tokens.
        """
        return Counter({stable_hash((tok,)): 1 for tok in set(tokens)})


@dataclass(frozen=True, slots=True)
class WordSetScore:
    """Short-text Jaccard or cosine of the sentences' word sets (``search_kind`` ``"set"``).

    Attributes:
        name: ``short-jaccard`` or ``cosine``.
    """

    name: str = "short-jaccard"
    search_kind: ClassVar[str] = "set"
    word_sets: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if self.name not in ("short-jaccard", "cosine"):
            raise ValueError(f"name must be short-jaccard or cosine, got {self.name!r}")

    def bag(self, tokens: Sequence[str]) -> Counter[int]:
        """Each distinct word's hash once (as :class:`WordJaccard`)."""
        return Counter({stable_hash((tok,)): 1 for tok in set(tokens)})

    def similarity(self, first: Bag, second: Bag) -> float:
        """The score of two word-set bags (the plain reference of :meth:`pair_scores`)."""
        shared, a, b = shared_count(first, second), len(first), len(second)
        if not a or not b:
            return 0.0
        return shared / min(a, b) if self.name == "short-jaccard" else shared / math.sqrt(a * b)

    def candidate_rule(self, rule: CopyRule) -> CopyRule:
        """Bag-Jaccard ≥ τ or containment ≥ τ: every pair whose score can reach τ.

        Short-text Jaccard is the containment. Cosine ≥ τ implies it too: with
        |A| ≤ |B|, ``|A ∩ B| / |A| ≥ |A ∩ B| / sqrt(|A| |B|)``.
        """
        return CopyRule(rule.threshold, rule.threshold, 1)

    def pair_scores(self, shared: np.ndarray, first_sizes: np.ndarray, second_sizes: np.ndarray,
                    first: Sequence[Bag], second: Sequence[Bag]) -> np.ndarray:
        """The scores from the shared counts and the set sizes (vectorised)."""
        shared = shared.astype(np.float64)
        if self.name == "short-jaccard":
            return shared / np.maximum(np.minimum(first_sizes, second_sizes), 1)
        return shared / np.sqrt(np.maximum(first_sizes * second_sizes, 1).astype(np.float64))


def _build(params: JaccardParams, idf: object) -> WordJaccard:
    return WordJaccard()


register(MethodSpec("jaccard", "jaccard", _build, summary="Jaccard of the sentences' word sets"))
register(MethodSpec(
    "short-jaccard", "jaccard", lambda params, idf: WordSetScore("short-jaccard"), preset={"threshold": 0.8},
    summary="short-text Jaccard |A∩B| / min(|A|, |B|) of the word sets (finds containment)",
))
register(MethodSpec(
    "cosine", "jaccard", lambda params, idf: WordSetScore("cosine"), preset={"threshold": 0.75},
    summary="cosine |A∩B| / sqrt(|A| |B|) of the word sets",
))
