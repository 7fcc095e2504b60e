"""Features: turn a sentence's tokens into a bag of stable 64-bit hashes.

Every method (Low-IDF-Sig here; k-Shingle, I-Match, SpotSig in their own
modules) implements :class:`FeatureExtractor`, so the index, the bag-Jaccard
verification and sequence matching are shared by all of them.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from typing import Collection, Protocol, Sequence

__all__ = [
    "FeatureExtractor",
    "LowIdfSig",
    "stable_hash",
    "low_idf_sig_features",
    "DEFAULT_SKIP_WORDS",
]

# Only articles: prepositions carry meaning in a chain ("from"/"to"), and the
# Chinese structural particles are themselves low-IDF antecedents. On the gold
# set no skip set (none, articles, + prepositions, + 的/了) changed F1 by more
# than 0.001 (see README, "Parameters"), so the smallest useful one is kept.
DEFAULT_SKIP_WORDS: frozenset[str] = frozenset({"a", "an", "the"})

_SEPARATOR = "\x1f"  # cannot occur inside a token: tokens never hold control chars


def stable_hash(parts: Sequence[str]) -> int:
    """Hash a feature's tokens to an unsigned 64-bit integer.

    Stable across processes and machines (BLAKE2b), unlike the salted ``hash()``.

    Args:
        parts: The feature's tokens in order.

    Returns:
        An integer in ``[0, 2**64)``.
    """
    digest = hashlib.blake2b(_SEPARATOR.join(parts).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class FeatureExtractor(Protocol):
    """Turns one sentence's normalised tokens into its bag of features."""

    @property
    def name(self) -> str:
        """The method's name (``"low-idf-sig"``, ``"3-shingle"``, ...)."""
        ...

    def bag(self, tokens: Sequence[str]) -> Counter[int]:
        """Return the sentence's bag: feature hash -> multiplicity."""
        ...


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
class LowIdfSig:
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
