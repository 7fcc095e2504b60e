"""Tests of partialdup.core.config: one declaration per parameter, validated."""

from __future__ import annotations

import dataclasses

import pytest

from partialdup.core.config import Config, IMatchParams, LowIdfSigParams, SpotSigParams, flag_of, params_of
from partialdup.core.errors import ConfigError


def test_the_config_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config().gap = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Config(threshold=0.0), "--threshold must be > 0, got 0"),
        (lambda: Config(threshold=1.5), "--threshold must be <= 1, got 1.5"),
        (lambda: Config(containment=1.2), "--containment must be <= 1 (0 turns it off), got 1.2"),
        (lambda: Config(gap=-1), "--gap must be >= 0, got -1"),
        (lambda: Config(near_ratio=101.0), "--near-ratio must be <= 100 (0 turns it off), got 101"),
        (lambda: Config(min_shared=0), "--min-shared must be >= 1 (1 turns it off), got 0"),
        (lambda: LowIdfSigParams(spacing=0), "--spacing must be >= 1, got 0"),
        (lambda: IMatchParams(low=0.8, high=0.2), "--imatch-low must be <= --imatch-high, got 0.8 > 0.2"),
        (lambda: SpotSigParams(stopwords="some"), "--stopwords must be one of full, small, got 'some'"),
    ],
)
def test_a_value_out_of_range_names_its_option(make, message):
    with pytest.raises(ConfigError) as error:
        make()
    assert str(error.value) == message


def test_changed_sets_top_level_and_nested_parameters():
    config = Config().changed({"gap": 2, "low_idf_sig.antecedents": 50, "i_match.low": 0.1})
    assert (config.gap, config.low_idf_sig.antecedents, config.i_match.low) == (2, 50, 0.1)
    assert config.low_idf_sig.chain == Config().low_idf_sig.chain  # the rest untouched
    assert Config().gap == 3  # a copy, not a change


@pytest.mark.parametrize("name", ["gapp", "low_idf_sig.gap", "nothing.antecedents"])
def test_changed_refuses_unknown_parameters(name):
    with pytest.raises(ConfigError, match=f"unknown parameter '{name}'"):
        Config().changed({name: 1})


def test_changed_validates():
    with pytest.raises(ConfigError, match="--chain must be >= 0"):
        Config().changed({"low_idf_sig.chain": -2})


def test_each_method_declares_its_default_threshold():
    config = Config()
    assert config.threshold is None  # None: the method's own
    assert (config.low_idf_sig.threshold, config.shingle.threshold, config.i_match.threshold, config.spotsig.threshold) == (
        0.6, 0.6, 1.0, 0.7,
    )


def test_every_parameter_has_help_and_a_distinct_flag():
    flags = []
    for owner in (Config(), *(getattr(Config(), group) for group in Config.METHOD_FIELDS)):
        for f, info in params_of(owner):
            assert info.help, f.name
            if info.cli:
                flags.append(flag_of(f, info))
    assert len(flags) == len(set(flags))
