"""The k-Shingle rival method: word k-grams of a sentence as its features."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from partialdup.core.config import ShingleParams
from partialdup.core.hashing import stable_hash
from partialdup.methods.base import MethodSpec, register
from partialdup.methods.similarity import BagMethod

__all__ = ["KShingle", "shingles"]


def shingles(tokens: Sequence[str], k: int) -> list[tuple[str, ...]]:
    """The word k-shingles of a token list, in order, duplicates kept.

    A list shorter than ``k`` gives one shingle holding all its tokens, so that
    short sentences still have a feature (and can still be matched exactly).

    Args:
        tokens: A sentence's normalised tokens.
        k: Shingle length, in tokens (>= 1).

    Returns:
        ``max(1, len(tokens) - k + 1)`` tuples, or none for an empty list.
    """
    if not tokens:
        return []
    if len(tokens) < k:
        return [tuple(tokens)]
    return [tuple(tokens[i : i + k]) for i in range(len(tokens) - k + 1)]


@dataclass(frozen=True, slots=True)
class KShingle(BagMethod):
    """Feature extractor: hashed word k-shingles.

    Attributes:
        k: Shingle length, in tokens (>= 1).
        name: Method name used in reports.
    """

    k: int = 3
    name: str = "k-shingle"

    def __post_init__(self) -> None:
        if self.k < 1:
            raise ValueError(f"k must be >= 1, got {self.k}")

    def bag(self, tokens: Sequence[str]) -> Counter[int]:
        """Bag of the sentence's shingle hashes (feature hash -> multiplicity).

        Args:
            tokens: The sentence's normalised tokens.
        """
        return Counter(stable_hash(shingle) for shingle in shingles(tokens, self.k))


def _build(params: ShingleParams, idf: object) -> KShingle:
    return KShingle(params.k)


for _k in (3, 4, 5):
    register(MethodSpec(f"{_k}-shingle", "shingle", _build, preset={"k": _k}, summary=f"word {_k}-grams"))
