"""Low-IDF-Sig: a sentence's bag of chains started at its lowest-IDF tokens.

The method of the paper this project implements; the default. Like every
bag method it implements :class:`partialdup.methods.base.Method`, so the
index, the bag-Jaccard verification and sequence matching are shared.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from itertools import compress, islice
from typing import Collection, Iterable, Sequence

from partialdup.core.config import DEFAULT_SKIP_WORDS, LowIdfSigParams
from partialdup.core.hashing import SEPARATOR, stable_hash, stable_hashes
from partialdup.methods.base import MethodSpec, register
from partialdup.methods.similarity import BagMethod
from partialdup.text.idf import IdfTable

__all__ = ["LowIdfSig", "low_idf_sig_features", "low_idf_sig_bag"]


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


def low_idf_sig_bag(
    tokens: Sequence[str],
    antecedents: Collection[str],
    *,
    chain: int,
    spacing: int,
    skip_words: Collection[str] = DEFAULT_SKIP_WORDS,
) -> dict[int, int]:
    """The bag of :func:`low_idf_sig_features`, each feature hashed by
    :func:`~partialdup.core.hashing.stable_hash`: feature -> multiplicity, in
    the order of first occurrence (``Counter`` of the hashes is the plain
    reference; a property test checks they agree).

    The fast path of every sentence: each feature is made as its joined
    string straight from a slice of the tokens, without its tuple, and the
    antecedents are found by C loops; the bag is a plain dict (which the
    collector does not track, unlike a ``Counter``) and is built at C speed
    when no feature repeats (most sentences).
    """
    count = len(tokens)
    if not count:
        return {}
    reach = spacing * chain
    heads = compress(range(1, count), map(antecedents.__contains__, islice(tokens, 1, None)))
    if skip_words and any(map(skip_words.__contains__, tokens)):
        joined = _joined_with_skips(tokens, heads, chain, spacing, skip_words)
    else:
        joined = [SEPARATOR.join(tokens[0 : reach + 1 : spacing])]
        last = count - 1 - reach  # the last start with a whole chain after it
        joined.extend([SEPARATOR.join(tokens[i : i + reach + 1 : spacing]) for i in heads if i <= last])
    hashes = stable_hashes(joined)
    bag = dict.fromkeys(hashes, 1)
    if len(bag) < len(hashes):  # a feature repeats: count them
        bag = {}
        for value in hashes:
            bag[value] = bag.get(value, 0) + 1
    return bag


def _joined_with_skips(
    tokens: Sequence[str], heads: Iterable[int], chain: int, spacing: int, skip_words: Collection[str]
) -> list[str]:
    """The joined features of a sentence holding skip words (see
    :func:`low_idf_sig_features`, whose steps this follows)."""
    kept = [i for i, token in enumerate(tokens) if token not in skip_words]
    kept_tokens = [tokens[i] for i in kept]
    joined = []
    for i in (0, *heads):
        after = bisect_right(kept, i)
        follow = kept_tokens[after + spacing - 1 : after + spacing * chain : spacing]
        if len(follow) < chain and i:
            continue
        joined.append(SEPARATOR.join((tokens[i], *follow)))
    return joined


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

    def bag(self, tokens: Sequence[str]) -> dict[int, int]:
        return low_idf_sig_bag(tokens, self.antecedents, chain=self.chain, spacing=self.spacing, skip_words=self.skip_words)

    def reference_bag(self, tokens: Sequence[str]) -> Counter[int]:
        """The plain reference of :meth:`bag`: the features as tuples, hashed, counted."""
        feats = low_idf_sig_features(
            tokens, self.antecedents, chain=self.chain, spacing=self.spacing, skip_words=self.skip_words
        )
        return Counter(stable_hash(f) for f in feats)


def _build(params: LowIdfSigParams, idf: IdfTable) -> LowIdfSig:
    return LowIdfSig(idf.lowest(params.antecedents), params.chain, params.spacing, params.skip_words)


register(MethodSpec("low-idf-sig", "low_idf_sig", _build, summary="chains of c tokens after the n lowest-IDF tokens (the default)"))
