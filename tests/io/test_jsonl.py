"""The JSONL lines of spans: the fast path held to json.dumps (span_line_py)."""

import io
import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.core.types import SentencePair, Span
from partialdup.io.jsonl import SpanLines, span_line, span_line_py, write_jsonl, write_jsonl_bytes

# Any text, lone surrogates (file names that are not UTF-8) and control characters included.
IDS = st.text(st.characters(blacklist_categories=()), max_size=12)
OFFSETS = st.integers(min_value=-(2**70), max_value=2**70)
SCORES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(min_value=0, max_value=1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-3, max_value=3),  # not a float: the plain path
    st.floats(min_value=-1e6, max_value=1e6).map(np.float64),  # NumPy floats (round() of huge ones warns)
)


@st.composite
def spans(draw: st.DrawFn) -> Span:
    pairs = draw(st.lists(st.builds(SentencePair, OFFSETS, OFFSETS, SCORES), max_size=6))
    return Span(
        draw(IDS), draw(IDS), draw(OFFSETS), draw(OFFSETS), draw(OFFSETS), draw(OFFSETS),
        (draw(OFFSETS), draw(OFFSETS)), (draw(OFFSETS), draw(OFFSETS)), draw(SCORES), tuple(pairs),
    )


@settings(max_examples=400, deadline=None)
@given(st.lists(spans(), max_size=5), st.data())
def test_the_lines_are_json_dumps_lines(many, data):
    # One SpanLines for many spans (its ids remembered), as write_jsonl uses it.
    lines = SpanLines()
    for span in many:
        assert lines.line(span) == span_line_py(span) == span_line(span)
    again = data.draw(st.sampled_from(many)) if many else None
    if again is not None:
        assert lines.line(again) == span_line_py(again)


def test_a_real_line_reads_back_as_its_record():
    span = Span("a/文档.txt", "b\udce9.txt", 0, 45, 49, 97, (0, 0), (1, 1), 0.97368421, (SentencePair(0, 1, 1 / 3),))
    line = span_line(span)
    assert line == (
        '{"a": "a/文档.txt", "b": "b\\udce9.txt", "a_start": 0, "a_end": 45, "b_start": 49, "b_end": 97, '
        '"a_sentences": [0, 0], "b_sentences": [1, 1], "score": 0.973684, "pairs": [[0, 1, 0.333333]]}'
    )
    assert json.loads(line)["b"] == "b\udce9.txt" and line.encode("utf-8")


def test_both_writers_write_the_same_lines():
    many = [
        Span("x", "y", 1, 2, 3, 4, (0, 1), (2, 3), 0.5, (SentencePair(0, 2, 1.0), SentencePair(1, 3, 0.25))),
        Span("x", "z\"q\\", 5, 6, 7, 8, (4, 4), (0, 0), 1.0, ()),
    ]
    text, raw = io.StringIO(), io.BytesIO()
    assert write_jsonl(many, text) == write_jsonl_bytes(many, raw) == 2
    expected = "".join(span_line_py(span) + "\n" for span in many)
    assert text.getvalue() == expected and raw.getvalue() == expected.encode("utf-8")
