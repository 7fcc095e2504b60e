"""Low-IDF-Sig: a sentence's bag of chains started at its lowest-IDF tokens.

The method of the paper this project implements; the default. Like every
bag method it implements :class:`partialdup.methods.base.Method`, so the
index, the bag-Jaccard verification and sequence matching are shared.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from typing import Collection, Sequence

from partialdup.core.config import DEFAULT_SKIP_WORDS, LowIdfSigParams
from partialdup.core.hashing import stable_hash
from partialdup.methods.base import MethodSpec, register
from partialdup.methods.similarity import BagMethod
from partialdup.text.idf import IdfTable

__all__ = ["LowIdfSig", "low_idf_sig_features"]


def low_idf_sig_features(
    tokens: Sequence[str],
    antecedents: Collection[str],
    *,
    chain: int,
    spacing: int,
    skip_words: Collection[str] = DEFAULT_SKIP_WORDS,
) -> list[tuple[str, ...]]:
    """Low-IDF-Sig features of one sentence, as token tuples (before hashing).

    A feature starts at every antecedent and at the sentence's first token, and
    continues with the next ``chain`` tokens taken every ``spacing`` tokens,
    counted over the tokens that are not skip words. An antecedent too near the
    end of the sentence for a whole chain starts no feature: such a chain says
    where the sentence ends, which is what a copy whose boundaries moved does
    not share with its source (a verse copied out of a longer sentence). The
    first token's feature is kept however short, so every sentence has one.

    Args:
        tokens: The sentence's normalised tokens.
        antecedents: Tokens that start a feature (the lowest-IDF ones).
        chain: Number of tokens following the antecedent (the paper's c).
        spacing: Distance between chained tokens (the paper's d), >= 1.
        skip_words: Tokens passed over inside a chain (articles).

    Returns:
        One tuple per feature, in sentence order; duplicates are kept.
    """
    if not tokens:
        return []
    kept = [i for i, tok in enumerate(tokens) if tok not in skip_words]
    starts = [0, *(i for i in range(1, len(tokens)) if tokens[i] in antecedents)]
    features: list[tuple[str, ...]] = []
    for i in starts:
        after = bisect_right(kept, i)  # first kept token after the antecedent
        follow = kept[after + spacing - 1 : after + spacing * chain : spacing]
        if len(follow) < chain and i:
            continue  # an unfinished chain only says where the sentence ends
        features.append((tokens[i], *(tokens[j] for j in follow)))
    return features


@dataclass(frozen=True, slots=True)
class LowIdfSig(BagMethod):
    """The Low-IDF-Sig feature extractor.

    Attributes:
        antecedents: Tokens that start features (the n lowest-IDF tokens).
        chain: Tokens chained after the antecedent (c).
        spacing: Spacing of chained tokens (d).
        skip_words: Tokens skipped inside chains.
    """

    antecedents: frozenset[str]
    chain: int = 2
    spacing: int = 1
    skip_words: frozenset[str] = DEFAULT_SKIP_WORDS
    name: str = "low-idf-sig"

    def bag(self, tokens: Sequence[str]) -> Counter[int]:
        feats = low_idf_sig_features(
            tokens, self.antecedents, chain=self.chain, spacing=self.spacing, skip_words=self.skip_words
        )
        return Counter(stable_hash(f) for f in feats)


def _build(params: LowIdfSigParams, idf: IdfTable) -> LowIdfSig:
    return LowIdfSig(idf.lowest(params.antecedents), params.chain, params.spacing, params.skip_words)


register(MethodSpec("low-idf-sig", "low_idf_sig", _build, summary="chains of c tokens after the n lowest-IDF tokens (the default)"))
