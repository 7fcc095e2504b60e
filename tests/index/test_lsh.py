"""Tests of partialdup.index.lsh: the S-curve, the choice of b × r, and measured recall."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.index.lsh import choose_bands, lsh_join, lsh_join_reference, s_curve
from partialdup.methods.minhash import MinHash


def test_the_s_curve():
    assert s_curve(1.0, 20, 5) == 1.0 and s_curve(0.0, 20, 5) == 0.0
    assert s_curve(0.5, 1, 1) == pytest.approx(0.5)
    assert s_curve(0.5, 2, 2) == pytest.approx(1 - 0.75**2)


@pytest.mark.parametrize("threshold", [0.5, 0.7, 0.9])
def test_the_bands_put_the_curve_s_steep_part_near_the_threshold(threshold):
    bands, rows = choose_bands(threshold, 128)
    assert bands * rows <= 128
    # the curve's midpoint (1/b)^(1/r) lies near τ
    assert abs((1 / bands) ** (1 / rows) - threshold) < 0.1
    assert s_curve(threshold + 0.15, bands, rows) > 0.8 and s_curve(threshold - 0.25, bands, rows) < 0.2


def texts(seed: int) -> list[list[str]]:
    # families of edited copies: many pairs near and around τ
    rng = np.random.default_rng(seed)
    out = []
    for family in range(80):
        base = [f"f{family}w{i}" for i in range(40)]
        for _ in range(5):
            copy = list(base)
            for i in rng.choice(40, size=int(rng.integers(0, 12)), replace=False):
                copy[int(i)] = f"edit{rng.integers(1_000_000)}"
            out.append(copy)
    return out


def jaccard(a: list[str], b: list[str]) -> float:
    return len(set(a) & set(b)) / len(set(a) | set(b))


@pytest.mark.parametrize("fn_weight, least", [(0.5, None), (0.8, 0.9)])
def test_lsh_finds_only_pairs_brute_force_finds_and_as_many_as_the_s_curve_says(fn_weight, least):
    method = MinHash(permutations=128, shingle=1)
    corpus = texts(5)
    signatures = np.stack([method.fingerprint(t) for t in corpus])
    threshold = 0.6
    bands, rows = choose_bands(threshold, 128, fp_weight=1 - fn_weight, fn_weight=fn_weight)
    found = lsh_join(signatures, threshold, bands, rows)
    reference = lsh_join_reference(signatures, threshold)
    fast = set(zip(found.first.tolist(), found.second.tolist()))
    assert fast <= {(i, j) for i, j, _ in reference}  # every pair it returns, the reference returns
    recall = len(fast) / len(reference)
    predicted = float(np.mean([s_curve(jaccard(corpus[i], corpus[j]), bands, rows) for i, j, _ in reference]))
    assert abs(recall - predicted) < 0.1, (recall, predicted)
    if least is not None:  # weighting misses more buys recall
        assert recall >= least, recall
    assert found.candidates < len(corpus) * (len(corpus) - 1) // 2 // 20  # far from all pairs


def test_a_join_of_queries_and_keys_is_the_self_join_across_them():
    method = MinHash(permutations=128, shingle=1)
    corpus = texts(9)
    order = np.random.default_rng(1).permutation(len(corpus))  # families on both sides of the split
    signatures = np.stack([method.fingerprint(corpus[i]) for i in order])
    bands, rows = choose_bands(0.6, 128)
    whole = lsh_join(signatures, 0.6, bands, rows)
    half = len(signatures) // 2
    cross = lsh_join(signatures[:half], 0.6, bands, rows, keys=signatures[half:])
    across = [(i, j - half, s) for i, j, s in zip(whole.first.tolist(), whole.second.tolist(), whole.score.tolist()) if i < half <= j]
    assert list(zip(cross.first.tolist(), cross.second.tolist(), cross.score.tolist())) == across and across


def test_too_few_values_for_the_bands():
    with pytest.raises(ValueError, match="need 130 values"):
        lsh_join(np.zeros((2, 128), dtype=np.uint64), 0.5, 13, 10)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.3, 0.9))
def test_the_incremental_index_and_the_band_join_find_what_the_bands_say(seed, threshold):
    """LshIndex (add one, query one) and band_join (all at once) find the
    same pairs: those sharing a whole band, kept at agreement >= tau."""
    from partialdup.index.lsh import LshIndex, band_join

    rng = np.random.default_rng(seed)
    signatures = rng.integers(0, 4, size=(40, 12), dtype=np.uint64)  # few values: many shared bands
    bands, rows = 4, 3
    first, second = band_join(signatures, None, bands, rows)
    expected = set()
    for i, j in zip(first.tolist(), second.tolist()):
        assert any((signatures[i, b * rows:(b + 1) * rows] == signatures[j, b * rows:(b + 1) * rows]).all() for b in range(bands))
        if (signatures[i] == signatures[j]).mean() >= threshold:
            expected.add((i, j))
    brute = {(i, j) for i in range(40) for j in range(i + 1, 40)
             if any((signatures[i, b * rows:(b + 1) * rows] == signatures[j, b * rows:(b + 1) * rows]).all() for b in range(bands))}
    assert set(zip(first.tolist(), second.tolist())) == brute
    index = LshIndex(bands, rows, threshold)
    found = set()
    for j, signature in enumerate(signatures):
        found |= {(key, j) for _, key in index.search(signature)}
        index.add(signature)
    assert found == expected
