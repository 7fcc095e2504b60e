"""Reading spans back from JSONL: the round trip, and one-line errors naming file:line."""

import json

import pytest

from partialdup.core.errors import InputError
from partialdup.core.types import SentencePair, Span
from partialdup.io.jsonl import span_line
from partialdup.report.spans import read_span_lines, read_spans

SPAN = Span(
    a="zh_CN/ls.txt", b="zh_TW/ls.txt", a_start=120, a_end=480, b_start=118, b_end=477,
    a_sentences=(3, 9), b_sentences=(3, 9), score=0.93,
    pairs=(SentencePair(3, 3, 1.0), SentencePair(4, 4, 0.86)),
)
OTHER = Span(
    a="文档 a.txt", b="b.txt", a_start=0, a_end=5, b_start=7, b_end=12,
    a_sentences=(0, 0), b_sentences=(1, 1), score=1.0, pairs=(SentencePair(0, 1, 1.0),),
)


def write(tmp_path, *lines, name="m.jsonl"):
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_round_trip_through_the_writer_and_blank_lines(tmp_path):
    path = write(tmp_path, span_line(SPAN), "", "   ", span_line(OTHER))
    assert read_spans(path) == (SPAN, OTHER)
    assert [where for where, _ in read_span_lines(path)] == [f"{path}:1", f"{path}:4"]


def test_a_bom_and_unknown_keys_are_accepted(tmp_path):
    record = json.loads(span_line(OTHER)) | {"added_later": [1, 2]}
    path = tmp_path / "m.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(record).encode("utf-8") + b"\n")
    assert read_spans(path) == (OTHER,)


def record_with(**changes):
    record = json.loads(span_line(SPAN))
    for key, value in changes.items():
        if value is KeyError:
            del record[key]
        else:
            record[key] = value
    return json.dumps(record)


@pytest.mark.parametrize(
    "line, message",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        (record_with(a=KeyError), "'a' must be a string"),
        (record_with(b=7), "'b' must be a string"),
        (record_with(a_start=-1), "'a_start' must be a non-negative integer, got -1"),
        (record_with(b_end=True), "'b_end' must be a non-negative integer, got True"),
        (record_with(a_end=3.5), "'a_end' must be a non-negative integer"),
        (record_with(a_start=500), "a_start 500 is after a_end 480"),
        (record_with(a_sentences=[9, 3]), "'a_sentences' must be [first, last]"),
        (record_with(b_sentences=[1]), "'b_sentences' must be [first, last]"),
        (record_with(score="high"), "score must be a number"),
        (record_with(pairs=KeyError), "'pairs' must be a list"),
        (record_with(pairs=[[3, 3]]), "each pair must be [i, m, score]"),
        (record_with(pairs=[[3, -1, 1.0]]), "each pair must be [i, m, score]"),
        (record_with(pairs=[[3, 3, None]]), "a pair's score must be a number"),
    ],
)
def test_a_bad_line_is_one_error_naming_file_and_line(tmp_path, line, message):
    path = write(tmp_path, span_line(OTHER), line)
    with pytest.raises(InputError) as caught:
        read_spans(path)
    text = str(caught.value)
    assert text.startswith(f"{path}:2: ") and message in text
    assert "\n" not in text


def test_unreadable_files_name_the_file(tmp_path):
    with pytest.raises(InputError, match="missing.jsonl: cannot read"):
        read_spans(tmp_path / "missing.jsonl")
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"a": "\xe9"}\n')
    with pytest.raises(InputError, match="latin1.jsonl: not UTF-8"):
        read_spans(path)
