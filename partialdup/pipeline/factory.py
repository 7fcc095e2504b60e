"""The selectable methods: one name -> one feature extractor and its threshold.

Every method runs through the same sentences, tokens, inverted index,
bag-Jaccard verification and sequence matching; only the features differ.
"""

from __future__ import annotations

from partialdup.pipeline.detector import Detector, DetectorConfig
from partialdup.methods.low_idf_sig import FeatureExtractor, LowIdfSig
from partialdup.text.idf import IdfTable
from partialdup.methods.imatch import IMatch
from partialdup.text.sentences import SentenceSplitter
from partialdup.methods.shingle import KShingle
from partialdup.methods.spotsig import SPOTSIG_FULL, SPOTSIG_SMALL, SpotSig

__all__ = ["METHOD_NAMES", "DEFAULT_THRESHOLDS", "make_extractor", "make_detector"]

#: Threshold used when the caller gives none: the paper's best per method.
DEFAULT_THRESHOLDS: dict[str, float] = {
    "low-idf-sig": 0.6,
    "3-shingle": 0.6,
    "4-shingle": 0.6,
    "5-shingle": 0.6,
    "i-match": 1.0,  # equal digests only
    "spotsig": 0.7,
    "spotsig-small": 0.7,
}
METHOD_NAMES: tuple[str, ...] = tuple(DEFAULT_THRESHOLDS)


def make_extractor(method: str, idf: IdfTable, config: DetectorConfig) -> FeatureExtractor:
    """The feature extractor of a named method.

    Args:
        method: One of :data:`METHOD_NAMES`.
        idf: IDF table (antecedents of Low-IDF-Sig, token filter of I-Match).
        config: Low-IDF-Sig's n, c, d and skip words.
    """
    if method == "low-idf-sig":
        return LowIdfSig(idf.lowest(config.antecedents), config.chain, config.spacing, config.skip_words)
    if method.endswith("-shingle"):
        return KShingle(int(method.split("-")[0]))
    if method == "i-match":
        return IMatch(idf)
    if method == "spotsig":
        return SpotSig(SPOTSIG_FULL)
    if method == "spotsig-small":
        return SpotSig(SPOTSIG_SMALL)
    raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHOD_NAMES)}")


def make_detector(
    method: str,
    idf: IdfTable,
    config: DetectorConfig = DetectorConfig(),
    *,
    threshold: float | None = None,
    **shared: object,
) -> Detector:
    """A detector for a named method; ``threshold`` None means the method's default."""
    if "splitter" not in shared:
        shared["splitter"] = SentenceSplitter(max_chars=config.max_sentence_chars)
    return Detector(
        make_extractor(method, idf, config),
        threshold=DEFAULT_THRESHOLDS[method] if threshold is None else threshold,
        containment=config.containment,
        min_contained=config.min_contained,
        gap=config.gap,
        max_postings=config.max_postings,
        min_tokens=config.min_tokens,
        boilerplate=config.boilerplate,
        refine=config.refine,
        near_ratio=config.near_ratio,
        embedded_ratio=config.embedded_ratio,
        min_shared=config.min_shared,
        rejoin=config.rejoin,
        single_origin=config.single_origin,
        **shared,  # type: ignore[arg-type]
    )
