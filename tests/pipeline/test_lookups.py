"""The look-ups' pair codes and narrowed keys (pipeline/lookups.py)."""

import numpy as np

from partialdup.index.sparse import PairMatches
from partialdup.pipeline.lookups import _narrow_keys, _pair_codes


def _matches(query, key):
    query, key = np.array(query, np.int64), np.array(key, np.int64)
    return PairMatches(query, key, np.full(len(query), 0.5), np.ones(len(query), np.int64), len(query), 0)


def test_int32_keys_make_the_int64_codes_of_their_wide_selves():
    # query x width passes 2**31 on a corpus of 170,000 sentences: int32
    # arithmetic would wrap.
    width = 170_000
    wide = _matches([169_999, 120_000, 5], [3, 169_998, 0])
    narrow = _narrow_keys(wide)
    assert narrow.query.dtype == np.int32 and narrow.key.dtype == np.int32
    assert _pair_codes(narrow.query, narrow.key, width).tolist() == [q * width + k for q, k in zip(wide.query.tolist(), wide.key.tolist())]
    assert _pair_codes(narrow.query, narrow.key, width, ordered=True).tolist() == sorted(_pair_codes(wide.query, wide.key, width).tolist())
    assert narrow.score is wide.score and narrow.shared is wide.shared


def test_keys_past_int32_stay_wide():
    wide = _matches([2**31, 1], [0, 0])
    assert _narrow_keys(wide) is wide
    empty = _matches([], [])
    assert len(_narrow_keys(empty).query) == 0
