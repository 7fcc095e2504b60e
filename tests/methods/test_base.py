"""Tests of partialdup.methods.base: the registry and the method protocol."""

from __future__ import annotations

from typing import Mapping

import pytest

from partialdup.core.config import Config, ShingleParams
from partialdup.core.errors import ConfigError
from partialdup.methods import build_method, method_names, method_params, method_spec, register, resolved_threshold
from partialdup.methods.base import MethodSpec
from partialdup.methods.similarity import bag_jaccard


def test_the_registered_methods_in_command_line_order():
    assert method_names() == (
        "low-idf-sig", "3-shingle", "4-shingle", "5-shingle", "i-match", "spotsig", "spotsig-small", "jaccard",
        "short-jaccard", "cosine", "simhash", "simhash-cosine", "minhash", "minhash-one", "pinyin",
    )


def test_a_preset_overrides_the_configs_parameters():
    config = Config(shingle=ShingleParams(k=7, threshold=0.5))
    assert method_params(config, "4-shingle") == ShingleParams(k=4, threshold=0.5)


def test_the_threshold_resolves_from_the_config_or_the_method():
    assert resolved_threshold(Config(method="i-match")) == 1.0
    assert resolved_threshold(Config(method="i-match", threshold=0.8)) == 0.8
    assert resolved_threshold(Config(), "spotsig") == 0.7


def test_an_unknown_method_names_the_choices():
    with pytest.raises(ConfigError, match=r"unknown method 'no-such-method'; choose from low-idf-sig, .*jaccard, .*pinyin$"):
        method_spec("no-such-method")


def test_a_name_cannot_be_registered_twice():
    with pytest.raises(ValueError, match="registered twice"):
        register(method_spec("3-shingle"))
    with pytest.raises(ValueError, match="Config has no parameters 'no_such_method'"):
        register(MethodSpec("no-such-method", "no_such_method", lambda params, idf: None))  # type: ignore[arg-type,return-value]


@pytest.mark.parametrize("name", method_names())
def test_every_method_keeps_the_protocol(name, idf):
    method = build_method(Config(), idf, name)
    tokens = ["the", "licenses", "for", "most", "software", "are", "designed", "to", "take", "away", "your", "freedom"]
    if name == "pinyin":  # Han characters only
        tokens = ["银行", "工作", "人员", "在", "这里", "做", "事情", "和", "休息", "一下", "好", "的"]
    bag = method.bag(tokens)
    assert isinstance(bag, Mapping) and bag
    assert all(isinstance(feature, int) and 0 <= feature < 2**64 for feature in bag)
    assert all(isinstance(count, int) and count >= 1 for count in bag.values())  # a store can hold it
    assert method.search_kind in ("bag", "set", "simhash", "lsh")
    other = method.bag(tokens[:6])
    if method.search_kind == "bag":
        # A dict (Low-IDF-Sig's is a plain one: untracked by the collector, see low_idf_sig_bag).
        assert isinstance(bag, dict) and method.similarity(bag, other) == bag_jaccard(bag, other)
    assert 0.0 <= method.similarity(bag, other) <= 1.0 and method.similarity(bag, bag) == pytest.approx(1.0)
    assert method.bag(tokens) == bag  # deterministic
