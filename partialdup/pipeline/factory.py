"""Detectors by method name: the one place a configuration becomes a detector."""

from __future__ import annotations

import dataclasses

from partialdup.core.config import Config
from partialdup.methods.base import build_method, method_spec
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
        tokenizer: A tokenizer to share (jieba loads once per process).
        splitter: A sentence splitter to share.

    Raises:
        ConfigError: The method is not registered.
    """
    name = method_spec(method or config.method).name
    config = dataclasses.replace(config, method=name)
    return Detector(build_method(config, idf), config, tokenizer=tokenizer, splitter=splitter)
