"""Tests of partialdup.cli.options: every parameter of Config is an option, parsed back to it."""

from __future__ import annotations

import argparse

import pytest

from partialdup.cli.options import add_config_options, config_from_args, sweeps_from_args
from partialdup.core.config import Config, flag_of, params_of
from partialdup.core.errors import ConfigError
from partialdup.eval.goldset import settings_grid


def parser(sweep: bool = False) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_config_options(parser, sweep=sweep)
    return parser


def declared_flags() -> set[str]:
    flags = set()
    for owner in (Config(), *(getattr(Config(), group) for group in Config.METHOD_FIELDS)):
        flags.update(flag_of(f, info) for f, info in params_of(owner) if info.cli)
    return flags


def test_every_declared_parameter_is_an_option():
    offered = {option for action in parser()._actions for option in action.option_strings}
    assert declared_flags() <= offered


def test_no_option_gives_the_default_config():
    assert config_from_args(parser().parse_args([])) == Config()


def test_options_reach_the_config_top_level_and_nested():
    args = parser().parse_args(["--gap", "2", "--no-refine", "--all-origins", "--antecedents", "50", "--threshold", "0.7", "--imatch-low", "0.1"])
    config = config_from_args(args, "i-match")
    assert config == Config(
        method="i-match", gap=2, refine=False, single_origin=False, threshold=0.7,
        low_idf_sig=Config().low_idf_sig.__class__(antecedents=50), i_match=Config().i_match.__class__(low=0.1),
    )


def test_a_bad_value_is_a_config_error_naming_the_option():
    with pytest.raises(ConfigError, match="^--gap must be >= 0, got -1$"):
        config_from_args(parser().parse_args(["--gap", "-1"]))


def test_eval_sweeps_every_combination_per_method():
    args = parser(sweep=True).parse_args(["--threshold", "0.5", "0.6", "--antecedents", "10", "50", "--gap", "2"])
    base, sweeps = sweeps_from_args(args)
    assert base == Config(gap=2) and sweeps == {"threshold": [0.5, 0.6], "low_idf_sig.antecedents": [10, 50]}
    settings = settings_grid(["low-idf-sig", "3-shingle"], sweeps, base)
    assert [(s.method, s.config.threshold, s.params) for s in settings] == [
        ("low-idf-sig", 0.5, "n=10"),
        ("low-idf-sig", 0.5, "n=50"),
        ("low-idf-sig", 0.6, "n=10"),
        ("low-idf-sig", 0.6, "n=50"),
        ("3-shingle", 0.5, ""),  # Low-IDF-Sig's n does not multiply the others' rows
        ("3-shingle", 0.6, ""),
    ]
    assert all(s.config.gap == 2 for s in settings)


def test_eval_checks_every_swept_value_before_any_work():
    args = parser(sweep=True).parse_args(["--near-ratio", "90", "120"])
    with pytest.raises(ConfigError, match="--near-ratio must be <= 100"):
        sweeps_from_args(args)
