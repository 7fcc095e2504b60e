"""Tests of partialdup.pipeline.factory: make_detector honours every field of the config."""

from __future__ import annotations

import dataclasses

import pytest

from partialdup.core.config import Config, LowIdfSigParams, params_of
from partialdup.core.errors import ConfigError
from partialdup.core.types import Document
from partialdup.pipeline.factory import make_detector

# A real sentence of the GPL (samples/GPL-2.txt), and the same sentence with
# two words replaced: a copy at a middling bag-Jaccard.
SOURCE = "The licenses for most software are designed to take away your freedom to share and change it."
EDITED = "The licenses for most programs are designed to take away your right to share and change it."


def test_the_threshold_is_honoured(idf, tokenizer):
    """The bug this module exists for: Config(threshold=0.9) once built a detector with τ = 0.6."""
    detector = make_detector("low-idf-sig", idf, Config(threshold=0.9), tokenizer=tokenizer)
    assert detector.threshold == 0.9 and detector.rule.threshold == 0.9


def test_none_means_the_methods_own_threshold(idf, tokenizer):
    assert make_detector("i-match", idf, tokenizer=tokenizer).threshold == 1.0
    assert make_detector("spotsig-small", idf, tokenizer=tokenizer).threshold == 0.7
    assert make_detector("low-idf-sig", idf, tokenizer=tokenizer).threshold == 0.6


def test_a_method_parameter_is_honoured(idf, tokenizer):
    config = Config(low_idf_sig=LowIdfSigParams(antecedents=50, chain=3, spacing=2))
    method = make_detector("low-idf-sig", idf, config, tokenizer=tokenizer).method
    assert method.antecedents == idf.lowest(50) and (method.chain, method.spacing) == (3, 2)


def test_a_preset_fixes_its_parameter(idf, tokenizer):
    assert make_detector("4-shingle", idf, tokenizer=tokenizer).method.k == 4
    assert make_detector("spotsig-small", idf, tokenizer=tokenizer).method.stopwords != make_detector("spotsig", idf, tokenizer=tokenizer).method.stopwords


def test_every_pipeline_field_reaches_the_detector(idf, tokenizer):
    for f, info in params_of(Config()):
        if f.name in ("method", "threshold"):
            continue
        default = getattr(Config(), f.name)
        if isinstance(default, str):
            if not info.choices:
                continue
            other = next(choice for choice in info.choices if choice != default)
        else:
            other = (not default) if isinstance(default, bool) else default / 2 if isinstance(default, float) else default + 1
        config = dataclasses.replace(Config(), **{f.name: other})
        if f.name == "segmenter":
            continue  # a tokenizer of another segmenter is refused (its own test)
        detector = make_detector("low-idf-sig", idf, config, tokenizer=tokenizer)
        assert getattr(detector.config, f.name) == other, f.name
    detector = make_detector("low-idf-sig", idf, Config(max_sentence_chars=77), tokenizer=tokenizer)
    assert detector.splitter.max_chars == 77


def test_the_threshold_changes_what_is_found(idf, tokenizer):
    documents = [Document("a", SOURCE), Document("b", EDITED)]
    loose = make_detector("low-idf-sig", idf, Config(threshold=0.3, containment=0, near_ratio=0, embedded_ratio=0), tokenizer=tokenizer)
    strict = make_detector("low-idf-sig", idf, Config(threshold=1.0, containment=0, near_ratio=0, embedded_ratio=0, edited_ratio=0), tokenizer=tokenizer)
    assert len(loose.detect(documents).spans) == 1
    assert strict.detect(documents).spans == ()


def test_an_unknown_method_is_a_config_error(idf):
    with pytest.raises(ConfigError, match="unknown method 'no-such-method'; choose from low-idf-sig, 3-shingle"):
        make_detector("no-such-method", idf)


@pytest.mark.parametrize("method", ["simhash", "simhash-cosine", "minhash"])
def test_the_stages_that_look_below_tau_are_off_for_tables_and_bands(method, idf, tokenizer):
    detector = make_detector(method, idf, Config(near_ratio=90, embedded_ratio=95, edited_ratio=80), tokenizer=tokenizer)
    assert (detector.config.near_ratio, detector.config.embedded_ratio, detector.config.edited_ratio) == (0, 0, 0)
    words = make_detector("short-jaccard", idf, tokenizer=tokenizer).config
    assert words.near_ratio and words.embedded_ratio and not words.edited_ratio  # word sets: no edited stage
    assert make_detector("pinyin", idf, tokenizer=tokenizer).config.edited_ratio


def test_simhash_s_threshold_follows_hamming(idf, tokenizer):
    from partialdup.core.config import SimHashParams

    assert make_detector("simhash", idf, tokenizer=tokenizer).threshold == 1 - 3 / 64
    assert make_detector("simhash", idf, Config(simhash=SimHashParams(hamming=5)), tokenizer=tokenizer).threshold == 1 - 5 / 64
    assert make_detector("simhash", idf, Config(threshold=0.9), tokenizer=tokenizer).threshold == 0.9
