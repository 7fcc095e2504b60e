"""The look-ups' pair codes and narrowed keys (pipeline/pair_codes.py)."""

import numpy as np
from hypothesis import given, settings, strategies as st

from partialdup.index.sparse import PairMatches
from partialdup.pipeline.pair_codes import narrow_keys, not_among, pair_codes


def _matches(query, key):
    query, key = np.array(query, np.int64), np.array(key, np.int64)
    return PairMatches(query, key, np.full(len(query), 0.5), np.ones(len(query), np.int64), len(query), 0)


def test_int32_keys_make_the_int64_codes_of_their_wide_selves():
    # query x width passes 2**31 on a corpus of 170,000 sentences: int32
    # arithmetic would wrap.
    width = 170_000
    wide = _matches([169_999, 120_000, 5], [3, 169_998, 0])
    narrow = narrow_keys(wide)
    assert narrow.query.dtype == np.int32 and narrow.key.dtype == np.int32
    assert pair_codes(narrow.query, narrow.key, width).tolist() == [q * width + k for q, k in zip(wide.query.tolist(), wide.key.tolist())]
    assert pair_codes(narrow.query, narrow.key, width, ordered=True).tolist() == sorted(pair_codes(wide.query, wide.key, width).tolist())
    assert narrow.score is wide.score and narrow.shared is wide.shared


def test_keys_past_int32_stay_wide():
    wide = _matches([2**31, 1], [0, 0])
    assert narrow_keys(wide) is wide
    empty = _matches([], [])
    assert len(narrow_keys(empty).query) == 0


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=80),
       st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=40), st.integers(1, 7))
def test_not_among_is_a_plain_isin_whatever_the_slices(pairs, among, at_once):
    # The near misses that are not whole matches, a slice at a time: the
    # places np.isin of all the codes at once gives.
    width = 41
    query, key = (np.array([pair[k] for pair in pairs], np.int32).reshape(-1) for k in range(2))
    codes = np.sort(np.array([q * width + k for q, k in among], np.int64))
    expected = np.flatnonzero(~np.isin(query.astype(np.int64) * width + key, codes))
    found = not_among(query, key, codes, width, at_once)
    assert found.dtype == np.int32 and found.tolist() == expected.tolist()
