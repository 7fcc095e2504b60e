"""The I-Match rival method (Chowdhury et al. 2002), per sentence.

I-Match keeps the tokens of mid-to-high IDF, sorts the distinct ones and hashes
the list with SHA-1: two sentences are duplicates when the digests are equal.
The digest is returned as a one-feature bag, so I-Match runs in the shared
index: equal digests <=> bag-Jaccard 1.0, hence threshold 1.0.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from partialdup.core.config import IMatchParams
from partialdup.core.hashing import SEPARATOR
from partialdup.methods.base import MethodSpec, register
from partialdup.methods.similarity import BagMethod
from partialdup.text.idf import IdfTable

__all__ = ["IMatch"]



@dataclass(frozen=True, slots=True)
class IMatch(BagMethod):
    """Feature extractor: one SHA-1 digest of a sentence's filtered tokens.

    A token is kept when its normalised IDF ``nidf = (idf - min_idf) /
    (max_idf - min_idf)`` lies in ``[low, high]``, where ``min_idf`` and
    ``max_idf`` are over the whole table and an unknown token has the table's
    ``default`` IDF (its nidf may then lie outside 0..1). When no token of a
    sentence is kept, all its distinct tokens are used instead, so every
    non-empty sentence has a feature. When the table has a single IDF value the
    filter cannot tell tokens apart and every token is kept.

    Attributes:
        idf: The IDF table.
        low: Lowest normalised IDF kept (drops the most frequent words).
        high: Highest normalised IDF kept (1.0 keeps the rarest words).
        name: Method name used in reports.
    """

    idf: IdfTable
    low: float = 0.3
    high: float = 1.0
    name: str = "i-match"
    # min_idf/max_idf scan the whole table, so they are computed once here
    _min_idf: float = field(init=False, repr=False, compare=False)
    _idf_range: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0.0 <= self.low <= self.high:
            raise ValueError(f"need 0 <= low <= high, got low={self.low}, high={self.high}")
        min_idf = self.idf.min_idf
        object.__setattr__(self, "_min_idf", min_idf)
        object.__setattr__(self, "_idf_range", self.idf.max_idf - min_idf)

    def kept_tokens(self, tokens: Sequence[str]) -> list[str]:
        """The sorted distinct tokens that enter the digest.

        Args:
            tokens: The sentence's normalised tokens.
        """
        distinct = sorted(set(tokens))
        if self._idf_range <= 0:
            return distinct
        kept = [tok for tok in distinct if self.low <= self._nidf(tok) <= self.high]
        return kept or distinct

    def _nidf(self, token: str) -> float:
        return (self.idf.idf(token) - self._min_idf) / self._idf_range

    def bag(self, tokens: Sequence[str]) -> Counter[int]:
        """One-feature bag: the first 8 bytes of the SHA-1 digest, big-endian.

        Args:
            tokens: The sentence's normalised tokens; an empty list gives an
                empty bag.
        """
        kept = self.kept_tokens(tokens)
        if not kept:
            return Counter()
        digest = hashlib.sha1(SEPARATOR.join(kept).encode("utf-8")).digest()
        return Counter({int.from_bytes(digest[:8], "big"): 1})


def _build(params: IMatchParams, idf: IdfTable) -> IMatch:
    return IMatch(idf.whole(), params.low, params.high)


register(MethodSpec("i-match", "i_match", _build, summary="one SHA-1 digest of the mid-IDF tokens; equal digests only"))
