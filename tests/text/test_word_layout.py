"""The layout of Han runs into the blocks a segmenter cuts: the fast path against its reference."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.text.word_layout import assembled, assembled_runs, layouts, layouts_py, uneven_layouts

#: Characters of the blocks (jieba's range, both ends) and outside it: a
#: Han character beyond the BMP, a CJK extension after U+9FD5, the ideographic zero.
_INSIDE = "\u4e00\u4e2d\u6587\u9fd5"
_OUTSIDE = "\U000247a4\u9fd6\u3007\U0002b88b"


@pytest.mark.parametrize(
    "runs",
    [
        [],
        [""],
        ["", ""],
        ["中文"],
        ["中文", "", "文"],
        ["〇"],
        ["中〇文", "中文", "𤞤"],
        ["中文", "中〇", "", "〇中", "𤞤𫏋中文"],
    ],
)
def test_layouts_equal_the_reference(runs: list[str]) -> None:
    assert layouts(runs) == layouts_py(runs)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=_INSIDE + _OUTSIDE, max_size=6), max_size=12))
def test_layouts_equal_the_reference_on_any_runs(runs: list[str]) -> None:
    blocks, laid = layouts(runs)
    assert (blocks, laid) == layouts_py(runs)
    # Each run is put back together from its layout, every block cut into its characters.
    words = [tuple(block) for block in blocks]
    rebuilt = [assembled(layout, words) for layout in laid] if laid is not None else words
    assert ["".join(run_words) for run_words in rebuilt] == runs
    # The uneven runs' layouts alone give the same blocks and the same words.
    uneven_blocks, uneven = uneven_layouts(runs)
    assert uneven_blocks == blocks
    assert assembled_runs(len(runs), uneven, words) == rebuilt
