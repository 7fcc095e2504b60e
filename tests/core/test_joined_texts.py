"""JoinedTexts (core/joined_texts.py) against the list of texts it stands for."""

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.joined_texts import JoinedTexts

texts = st.lists(st.one_of(st.none(), st.text(max_size=12), st.sampled_from(["漢字", "“quotes”", "😀", "\ud800 lone"])), max_size=20)


@settings(max_examples=300, deadline=None)
@given(texts, st.integers(-25, 25), st.integers(-25, 25))
def test_the_joined_texts_are_the_texts(listed, low, high):
    joined = JoinedTexts.of(listed)
    assert len(joined) == len(listed) and list(joined) == listed and joined == listed
    assert JoinedTexts.of(iter(listed)) == listed  # laid down as they come, never listed
    assert joined[low:high] == listed[low:high]
    for k in range(-len(listed), len(listed)):
        assert joined[k] == listed[k]
    for protocol in (2, 4, 5):
        assert pickle.loads(pickle.dumps(joined, protocol=protocol)) == listed
    assert copy.deepcopy(joined) == listed


def test_out_of_band_bytes_read_as_the_texts():
    listed = ["GNU", None, "", "自由软件"]
    buffers = []
    sent = pickle.dumps(JoinedTexts.of(listed), protocol=5, buffer_callback=buffers.append)
    assert len(buffers) == 3  # the bytes, the ends and the marks
    assert list(pickle.loads(sent, buffers=[bytearray(b.raw()) for b in buffers])) == listed


def test_a_text_beyond_the_end_and_ends_that_do_not_fit():
    joined = JoinedTexts.of(["a", "b"])
    with pytest.raises(IndexError):
        joined[2]
    with pytest.raises(ValueError):
        JoinedTexts(b"abc", np.array([1, 2]), np.array([False, False]))
    with pytest.raises(ValueError):
        JoinedTexts(b"ab", np.array([1, 2]), np.array([False]))
