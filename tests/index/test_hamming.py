"""Tests of partialdup.index.hamming: the permuted tables find exactly what brute force finds."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.index.hamming import HammingIndex, block_masks, hamming_join, hamming_join_reference


def test_distance_3_is_found_through_the_tables_and_4_is_not():
    rng = np.random.default_rng(3)
    base = int(rng.integers(0, 2**63)) | (1 << 63)
    # the flipped bits spread over different blocks, so no shortcut of one block makes it
    near, far = base ^ (1 | 1 << 20 | 1 << 40), base ^ (1 | 1 << 20 | 1 << 40 | 1 << 60)
    noise = [int(x) for x in rng.integers(0, 2**63, size=500)]
    index = HammingIndex(3)
    keys = [index.add(fp) for fp in [*noise, near, far]]
    assert index.search(base) == [(3, keys[-2])]
    joined = hamming_join(np.array([base], dtype=np.uint64), np.array([*noise, near, far], dtype=np.uint64), 3)
    assert list(zip(joined.query.tolist(), joined.key.tolist(), joined.distance.tolist())) == [(0, 500, 3)]
    assert joined.candidates < 500 // 2  # never a full scan: only bucket mates were verified


def test_blocks_cover_the_64_bits_once():
    for k in range(0, 10):
        masks = block_masks(k)
        assert len(masks) == k + 1
        covered = 0
        for shift, mask in masks:
            assert covered & (mask << shift) == 0
            covered |= mask << shift
        assert covered == 2**64 - 1


def clustered(seed: int, size: int) -> list[int]:
    # fingerprints near a few centres, so that many pairs lie within small distances
    rng = np.random.default_rng(seed)
    centres = [int(x) for x in rng.integers(0, 2**63, size=4, dtype=np.int64)]
    out = []
    for i in range(size):
        fp = centres[i % 4]
        for bit in rng.choice(64, size=int(rng.integers(0, 7)), replace=False):
            fp ^= 1 << int(bit)
        out.append(fp)
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), st.integers(0, 6))
def test_the_join_finds_exactly_the_pairs_brute_force_finds(seed, size, k):
    fps = clustered(seed, size)
    fast = hamming_join(np.array(fps, dtype=np.uint64), None, k)
    assert list(zip(fast.query.tolist(), fast.key.tolist(), fast.distance.tolist())) == hamming_join_reference(fps, None, k)
    half = size // 2
    cross = hamming_join(np.array(fps[:half], dtype=np.uint64), np.array(fps[half:], dtype=np.uint64), k)
    assert list(zip(cross.query.tolist(), cross.key.tolist(), cross.distance.tolist())) == hamming_join_reference(fps[:half], fps[half:], k)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 40), st.integers(0, 6))
def test_the_incremental_index_equals_brute_force(seed, size, k):
    fps = clustered(seed, size)
    index = HammingIndex(k)
    for fp in fps[:-1]:
        index.add(fp)
    expected = sorted((d, j) for _, j, d in hamming_join_reference([fps[-1]], fps[:-1], k))
    assert index.search(fps[-1]) == expected
