"""Each method's own parameters, with its default threshold: one dataclass per
algorithm (as datatrove keeps one config per step), nested in
:class:`~partialdup.core.config.Config`."""

from __future__ import annotations

from dataclasses import dataclass

from partialdup.core.errors import ConfigError
from partialdup.core.params import check_ranges, param

__all__ = [
    "MethodParams",
    "LowIdfSigParams",
    "ShingleParams",
    "IMatchParams",
    "SpotSigParams",
    "JaccardParams",
    "SimHashParams",
    "MinHashParams",
    "PinyinParams",
    "DEFAULT_SKIP_WORDS",
]

# Only articles: prepositions carry meaning in a chain ("from"/"to"), and the
# Chinese structural particles are themselves low-IDF antecedents. On the gold
# set no skip set (none, articles, + prepositions, + 的/了) changed F1 by more
# than 0.001 (see docs/evaluation.md, "Parameters"), so the smallest useful
# one is kept.
DEFAULT_SKIP_WORDS: frozenset[str] = frozenset({"a", "an", "the"})

@dataclass(frozen=True)
class MethodParams:
    """Base of each method's parameters: its default threshold.

    Attributes:
        threshold: τ, the similarity at or above which two sentences are
            copies, for this method (overridden by :attr:`Config.threshold`).
    """

    threshold: float = param(0.6, "the method's default threshold", low=0.0, high=1.0, above=True, cli=False)

    def __post_init__(self) -> None:
        check_ranges(self)


@dataclass(frozen=True)
class LowIdfSigParams(MethodParams):
    """Low-IDF-Sig: chains started at the lowest-IDF tokens (the paper's n, c, d).

    Attributes:
        antecedents: n, the number of lowest-IDF tokens of each language's
            IDF table that start features.
        chain: c, tokens chained after an antecedent.
        spacing: d, distance between chained tokens.
        skip_words: Tokens passed over inside chains.
    """

    antecedents: int = param(10, "n lowest-IDF tokens per table", low=0)
    chain: int = param(2, "c, tokens chained after an antecedent", low=0)
    spacing: int = param(1, "d, spacing of chained tokens", low=1)
    skip_words: frozenset[str] = param(DEFAULT_SKIP_WORDS, "tokens passed over inside chains", cli=False)


@dataclass(frozen=True)
class ShingleParams(MethodParams):
    """k-Shingle: word k-grams.

    Attributes:
        k: Words per shingle (the method names ``3-shingle``, ``4-shingle``,
            ``5-shingle`` set it).
    """

    k: int = param(3, "words per shingle", low=1, cli=False)


@dataclass(frozen=True)
class IMatchParams(MethodParams):
    """I-Match: one digest of the tokens whose normalised IDF lies in [low, high].

    Attributes:
        low: Lowest normalised IDF kept (drops the most frequent words).
        high: Highest normalised IDF kept (1.0 keeps the rarest words).
    """

    threshold: float = param(1.0, "equal digests only", low=0.0, high=1.0, above=True, cli=False)
    low: float = param(0.3, "I-Match: lowest normalised IDF kept", flag="--imatch-low", low=0.0)
    high: float = param(1.0, "I-Match: highest normalised IDF kept", flag="--imatch-high", low=0.0)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.low > self.high:
            raise ConfigError(f"--imatch-low must be <= --imatch-high, got {self.low:g} > {self.high:g}")


@dataclass(frozen=True)
class SpotSigParams(MethodParams):
    """SpotSig: chains after stopwords (the antecedent itself not hashed).

    Attributes:
        stopwords: ``full`` (the ~365-word list) or ``small`` (the SpotSigs
            paper's short list); the method name ``spotsig-small`` sets it.
        chain: Tokens chained after a stopword.
        spacing: Distance between chained tokens.
    """

    threshold: float = param(0.7, "the method's default threshold", low=0.0, high=1.0, above=True, cli=False)
    stopwords: str = param("full", "SpotSig antecedents", choices=("full", "small"), cli=False)
    chain: int = param(3, "SpotSig: tokens chained after a stopword", flag="--spotsig-chain", low=1)
    spacing: int = param(1, "SpotSig: spacing of chained tokens", flag="--spotsig-spacing", low=1)


@dataclass(frozen=True)
class JaccardParams(MethodParams):
    """Jaccard of the sentences' word sets (no parameter of its own but τ)."""


# SimHash, MinHash and pinyin are --method choices (searched by their own
# indexes, see partialdup.methods.base); ``partialdup dedup`` offers SimHash's
# and MinHash's options from these same declarations.


@dataclass(frozen=True)
class SimHashParams(MethodParams):
    """SimHash: 64-bit fingerprints of weighted words, Hamming distance ≤ k.

    Attributes:
        threshold: τ = 1 - k / 64 (k = 3 gives 0.953); an explicit τ is read
            as the bound ``floor((1 - τ) * 64)``.
        hamming: k, the largest Hamming distance of a duplicate.
        weights: ``tf`` or ``tf-idf`` word weights.
    """

    threshold: float = param(1 - 3 / 64, "1 - k/64", low=0.0, high=1.0, above=True, cli=False)
    hamming: int = param(3, "SimHash: largest Hamming distance of a duplicate (sets tau = 1 - K/64)", low=0, high=63)
    weights: str = param("tf-idf", "SimHash: word weights (tf or tf-idf)", flag="--simhash-weights", choices=("tf", "tf-idf"))


@dataclass(frozen=True)
class MinHashParams(MethodParams):
    """MinHash: n hash functions (share of equal positions) or one (bottom-k).

    Attributes:
        permutations: m, hash functions (``multi``) or sketch size (``one``).
        variant: ``multi`` or ``one``.
        shingle: Words per element (1 = the word set).
        seed: Seed of the hash functions.
    """

    permutations: int = param(128, "MinHash: hash functions (multi, at most 256) or sketch size (one)", flag="--minhash-permutations", low=1)
    variant: str = param("multi", "MinHash: n hash functions (multi) or one (bottom-k)", flag="--minhash-variant", choices=("multi", "one"))
    shingle: int = param(3, "MinHash: words per shingle", flag="--minhash-shingle", low=1)
    seed: int = param(1, "MinHash: seed of the hash functions", flag="--minhash-seed", low=0)


@dataclass(frozen=True)
class PinyinParams(MethodParams):
    """Pinyin first-letter codes over overlapping windows.

    Attributes:
        window: Letters per window.
        step: Letters between window starts.
    """

    window: int = param(8, "pinyin: letters per window", flag="--pinyin-window", low=1, high=255)
    step: int = param(4, "pinyin: letters between window starts", flag="--pinyin-step", low=1)
