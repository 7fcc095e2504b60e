"""Tests of partialdup.methods.base: the registry and the method protocol."""

from __future__ import annotations

from collections import Counter

import pytest

from partialdup.core.config import Config, ShingleParams
from partialdup.core.errors import ConfigError
from partialdup.methods import build_method, method_names, method_params, method_spec, register, resolved_threshold
from partialdup.methods.base import MethodSpec
from partialdup.methods.similarity import bag_jaccard


def test_the_registered_methods_in_command_line_order():
    assert method_names() == ("low-idf-sig", "3-shingle", "4-shingle", "5-shingle", "i-match", "spotsig", "spotsig-small", "jaccard")


def test_a_preset_overrides_the_configs_parameters():
    config = Config(shingle=ShingleParams(k=7, threshold=0.5))
    assert method_params(config, "4-shingle") == ShingleParams(k=4, threshold=0.5)


def test_the_threshold_resolves_from_the_config_or_the_method():
    assert resolved_threshold(Config(method="i-match")) == 1.0
    assert resolved_threshold(Config(method="i-match", threshold=0.8)) == 0.8
    assert resolved_threshold(Config(), "spotsig") == 0.7


def test_an_unknown_method_names_the_choices():
    with pytest.raises(ConfigError, match=r"unknown method 'minhash'; choose from low-idf-sig, .*spotsig-small, jaccard$"):
        method_spec("minhash")


def test_a_name_cannot_be_registered_twice():
    with pytest.raises(ValueError, match="registered twice"):
        register(method_spec("3-shingle"))
    with pytest.raises(ValueError, match="Config has no parameters 'no_such_method'"):
        register(MethodSpec("no-such-method", "no_such_method", lambda params, idf: None))  # type: ignore[arg-type,return-value]


@pytest.mark.parametrize("name", method_names())
def test_every_method_keeps_the_protocol(name, idf):
    method = build_method(Config(), idf, name)
    tokens = ["the", "licenses", "for", "most", "software", "are", "designed", "to", "take", "away", "your", "freedom"]
    bag = method.bag(tokens)
    assert isinstance(bag, Counter) and bag
    assert all(isinstance(feature, int) and 0 <= feature < 2**64 for feature in bag)
    assert method.search_kind == "bag"
    other = method.bag(tokens[:6])
    assert method.similarity(bag, other) == bag_jaccard(bag, other)
    assert method.bag(tokens) == bag  # deterministic
