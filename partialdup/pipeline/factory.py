"""Detectors by method name: the one place a configuration becomes a detector."""

from __future__ import annotations

import dataclasses

from partialdup.core.config import Config
from partialdup.methods.base import build_method, method_spec, searches_below_threshold
from partialdup.pipeline.detector import Detector
from partialdup.text.idf import IdfTable
from partialdup.text.sentences import SentenceSplitter
from partialdup.text.tokens import Tokenizer

__all__ = ["make_detector"]


def make_detector(
    method: str | None,
    idf: IdfTable,
    config: Config = Config(),
    *,
    tokenizer: Tokenizer | None = None,
    splitter: SentenceSplitter | None = None,
) -> Detector:
    """A detector for a registered method, honouring every field of ``config``.

    Args:
        method: A registered method name (see
            :func:`partialdup.methods.method_names`); None means
            ``config.method``. It becomes the config's ``method``, so its
            default threshold applies when ``config.threshold`` is None.
        idf: The IDF table (antecedents of Low-IDF-Sig, I-Match's filter).
        config: Every other parameter.
        tokenizer: A tokenizer to share (jieba loads once per process); one
            of ``config.segmenter`` is made when None or when it uses
            another segmenter.
        splitter: A sentence splitter to share.

    Raises:
        ConfigError: The method is not registered.
    """
    name = method_spec(method or config.method).name
    config = dataclasses.replace(config, method=name)
    if tokenizer is None or tokenizer.segmenter != config.segmenter or tokenizer.jieba_mode != config.jieba_mode:
        # A shared tokenizer of another segmenter or mode cannot serve: stores
        # record config.segmenter and config.jieba_mode as what made the features.
        tokenizer = Tokenizer(segmenter=config.segmenter, jieba_mode=config.jieba_mode)
    built = build_method(config, idf)
    return Detector(built, _stages_for(built, config), tokenizer=tokenizer, splitter=splitter)


def _stages_for(method: object, config: Config) -> Config:
    """The config with the stages the method cannot serve turned off.

    Near misses, embedded sentences and edited copies look pairs up below τ;
    a SimHash or LSH index would have to look at nearly every pair to do so
    (see :data:`partialdup.methods.base.LOOSE_SEARCH_KINDS`), so for those
    methods the stages are off, as ``--near-ratio 0 --embedded-ratio 0
    --edited-ratio 0`` would set them; for the word-set methods (``word_sets``:
    jaccard, short-jaccard, cosine) the edited-copy stage is off.
    """
    if not searches_below_threshold(method):  # type: ignore[arg-type]
        return dataclasses.replace(config, near_ratio=0.0, embedded_ratio=0.0, edited_ratio=0.0)
    if getattr(method, "word_sets", False):
        # The edited stage's look-up (Jaccard >= 0.1) over word sets makes
        # every pair sharing a few common words a candidate: 3.3 million on
        # the gold set's slice (Low-IDF-Sig: 4,200), and it did not end in
        # 35 minutes on the gold set (docs/methods.md).
        return dataclasses.replace(config, edited_ratio=0.0)
    return config
