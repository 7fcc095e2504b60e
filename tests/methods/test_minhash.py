"""Tests of partialdup.methods.minhash: fast paths equal the references; estimates within their error."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.methods.minhash import (
    MERSENNE,
    MinHash,
    bottom_k,
    bottom_k_reference,
    bottom_k_similarity,
    bottom_k_similarity_reference,
    hash_parameters,
    signature,
    signature_reference,
    signature_similarity,
    signature_similarity_reference,
    standard_error,
)

element_sets = st.lists(st.integers(0, 2**32 - 1), max_size=30, unique=True)


@settings(max_examples=100, deadline=None)
@given(element_sets, st.integers(0, 1000))
def test_the_signature_equals_the_reference(elements, seed):
    a, b = hash_parameters(16, seed)
    hashes = np.array(sorted(elements), dtype=np.uint64)
    assert signature(hashes, a, b).tolist() == signature_reference(elements, a.tolist(), b.tolist())


@settings(max_examples=100, deadline=None)
@given(element_sets, element_sets, st.integers(1, 20))
def test_bottom_k_and_its_estimate_equal_the_references(x, y, k):
    a, b = (int(v[0]) for v in hash_parameters(1, 7))
    sx, sy = bottom_k(np.array(x, dtype=np.uint64), k, a, b), bottom_k(np.array(y, dtype=np.uint64), k, a, b)
    assert sx.tolist() == bottom_k_reference(x, k, a, b)
    assert bottom_k_similarity(sx, sy, k) == bottom_k_similarity_reference(sx.tolist(), sy.tolist(), k)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=20))
def test_signature_similarity_equals_the_reference(values):
    first = np.array(values, dtype=np.uint64)
    second = first[::-1].copy()
    assert signature_similarity(first, second) == signature_similarity_reference(first.tolist(), second.tolist())


def sets_with_jaccard(shared: int, own: int) -> tuple[list[str], list[str]]:
    common = [f"w{i}" for i in range(shared)]
    return common + [f"a{i}" for i in range(own)], common + [f"b{i}" for i in range(own)]


def test_the_multi_hash_estimate_lies_within_its_standard_error():
    a, b = sets_with_jaccard(60, 20)  # J = 60 / 100
    truth = 0.6
    errors = []
    for seed in range(40):
        method = MinHash(permutations=128, shingle=1, seed=seed)
        errors.append(method.similarity(method.fingerprint(a), method.fingerprint(b)) - truth)
    se = standard_error(truth, 128)
    errors_ = np.array(errors)
    # a normal estimate: about 68 % of the seeds within one standard error, 95 % within two
    assert np.mean(np.abs(errors_) <= se) >= 0.55 and np.mean(np.abs(errors_) <= 2 * se) >= 0.9
    assert np.sqrt(np.mean(errors_**2)) <= 1.3 * se  # the spread is the standard error's
    assert abs(errors_.mean()) <= 3 * se / np.sqrt(len(errors_))  # unbiased


def test_the_one_hash_estimate_lies_within_its_standard_error():
    a, b = sets_with_jaccard(60, 20)
    truth, k = 0.6, 64
    errors = []
    for seed in range(40):
        method = MinHash(permutations=k, variant="one", shingle=1, seed=seed)
        errors.append(method.similarity(method.fingerprint(a), method.fingerprint(b)) - truth)
    se = standard_error(truth, k)
    errors_ = np.array(errors)
    # a normal estimate: about 68 % of the seeds within one standard error, 95 % within two
    assert np.mean(np.abs(errors_) <= se) >= 0.55 and np.mean(np.abs(errors_) <= 2 * se) >= 0.9
    assert np.sqrt(np.mean(errors_**2)) <= 1.3 * se
    assert abs(errors_.mean()) <= 3 * se / np.sqrt(len(errors_))


def test_identical_and_empty_texts():
    method = MinHash(shingle=2)
    tokens = "复制 文件 和 目录 到 目标".split()
    assert method.similarity(method.fingerprint(tokens), method.fingerprint(list(tokens))) == 1.0
    assert (method.fingerprint([]) == MERSENNE).all()
    one = MinHash(variant="one", permutations=8)
    assert one.similarity(one.fingerprint([]), one.fingerprint([])) == 0.0
