"""Tests of partialdup.core.hashing: the same value in every process."""

from __future__ import annotations

import os
import subprocess
import sys

from hypothesis import given, strategies as st

from partialdup.core.hashing import SEPARATOR, stable_hash, stable_hashes


def test_known_value_and_range():
    value = stable_hash(["the", "licenses", "for"])
    assert 0 <= value < 2**64
    assert stable_hash(["the", "licenses", "for"]) == value
    assert stable_hash(["the licenses", "for"]) != value  # the separator keeps token boundaries


def test_the_same_in_processes_with_other_hash_seeds():
    code = "from partialdup.core.hashing import stable_hash; print(stable_hash(['可读', '权限']))"
    values = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, timeout=60)
        values.add(out.stdout.strip())
    assert values == {str(stable_hash(["可读", "权限"]))}


@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1), max_size=5))
def test_distinct_token_lists_differ(tokens):
    assert stable_hash(tokens) == stable_hash(list(tokens))
    if tokens:
        assert stable_hash(tokens) != stable_hash(tokens + ["x"])  # 64 bits: a collision here would be a bug


@given(st.lists(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1), min_size=1, max_size=4), max_size=6))
def test_stable_hashes_of_joined_features_equal_stable_hash(features):
    joined = [SEPARATOR.join(parts) for parts in features]
    assert stable_hashes(joined) == [stable_hash(parts) for parts in features]
