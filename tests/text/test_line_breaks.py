"""Stage 1 of sentence splitting: the fast line cuts against the plain reference."""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.text.line_breaks import line_cuts, line_cuts_py
from tests.methods.realtext import real_slices, real_texts


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n\n",
        "one line",
        "short line with to‐\nken at the end",  # hyphen after a letter continues
        "version 1-\nnext line",  # after a digit it does not
        "a,\nb\n-\nc",
        "Introduction\nThis is the text of the introduction, which is considerably longer than\n"
        "the heading and wraps onto a second line.\n",
        "床前明月光\n%\n疑是地上霜",
        "x\r\ny\rz\u2028w\x0cv\x85u",
        "       如果 bash 发现它是由 rshd 启动的，它将读取并执行 ~/.bashrc 文件中的\n"
        "       命令，只要这个文件存在并且可读。如果以 sh 命令启动，它不会这样做，\n"
        "       也不会从环境中继承函数\n",
        "\tindented\twith tabs that make the line wide enough to look like wrapped prose\nnext\n",
    ],
)
def test_fast_cuts_equal_the_reference(text):
    assert line_cuts(text) == line_cuts_py(text)


@settings(max_examples=300, deadline=None)
@given(real_slices())
def test_fast_cuts_equal_the_reference_on_real_text(text):
    assert line_cuts(text) == line_cuts_py(text)


_LINES = st.sampled_from(
    ["", " ", "a,", "to‐", "1-", "- item", "----", "%", "中文的一行，", "中文的一行", "Genesis 1:1 In",
     "x" * 30, "y" * 50, "z " * 45, "宽" * 30, "\t" + "w" * 45, "1. one", "# head", "| a |"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=12), st.sampled_from(["\n", "\r\n", "\r", "\u2028"]))
def test_fast_cuts_equal_the_reference_on_line_mixes(lines, newline):
    text = newline.join(lines)
    assert line_cuts(text) == line_cuts_py(text)


def test_every_real_document_gives_the_reference_cuts():
    for text in real_texts():
        assert line_cuts(text) == line_cuts_py(text)
