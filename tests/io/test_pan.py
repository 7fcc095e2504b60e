"""Tests of partialdup.io.pan: pairs files, detection XML, truth XML."""

from __future__ import annotations

from pathlib import Path

import pytest

from partialdup.core.errors import PanFormatError
from partialdup.io.pan import (
    detection_filename,
    read_features,
    read_pairs,
    span_detection,
    write_detections,
)
from partialdup.core.types import Case, SentencePair, Span

SUSP = "suspicious-document00001.txt"
SRC = "source-document00002.txt"


def test_read_pairs(tmp_path: Path):
    path = tmp_path / "pairs"
    path.write_text(f"{SUSP} {SRC}\n\nsusp-2.txt\tsrc-3.txt\n", encoding="utf-8")
    assert read_pairs(path) == [(SUSP, SRC), ("susp-2.txt", "src-3.txt")]


def test_read_pairs_malformed_line_names_file_and_line(tmp_path: Path):
    path = tmp_path / "pairs"
    path.write_text(f"{SUSP} {SRC}\nonly-one-field.txt\n", encoding="utf-8")
    with pytest.raises(PanFormatError, match=rf"^{path}:2: expected 'SUSP SRC'"):
        read_pairs(path)


def test_detection_filename():
    assert detection_filename(SUSP, SRC) == "suspicious-document00001-source-document00002.xml"
    assert detection_filename("dir/a.txt", "b") == "a-b.xml"


def test_write_is_sorted_escaped_and_ends_with_newline(tmp_path: Path):
    path = tmp_path / "out.xml"
    write_detections(path, 'a&"b<.txt', SRC, [(50, 5, 0, 5), (10, 5, 20, 5)])
    text = path.read_text(encoding="utf-8")
    assert text.endswith("</document>\n")
    assert '<document reference="a&amp;&quot;b&lt;.txt">' in text
    assert text.index('this_offset="10"') < text.index('this_offset="50"')
    assert (
        '<feature name="detected-plagiarism" this_offset="10" this_length="5" '
        f'source_reference="{SRC}" source_offset="20" source_length="5"/>'
    ) in text


def test_write_then_read_round_trip(tmp_path: Path):
    path = tmp_path / detection_filename(SUSP, "源文档.txt")
    detections = [(7, 3, 100, 4), (0, 12, 5, 12)]
    write_detections(path, SUSP, "源文档.txt", detections)
    assert read_features(path) == [
        Case(SUSP, 0, 12, "源文档.txt", 5, 12),
        Case(SUSP, 7, 3, "源文档.txt", 100, 4),
    ]


def test_write_is_deterministic(tmp_path: Path):
    first, second = tmp_path / "1.xml", tmp_path / "2.xml"
    write_detections(first, SUSP, SRC, [(3, 1, 3, 1), (1, 1, 1, 1)])
    write_detections(second, SUSP, SRC, [(1, 1, 1, 1), (3, 1, 3, 1)])
    assert first.read_bytes() == second.read_bytes()


def test_write_without_detections(tmp_path: Path):
    path = tmp_path / "empty.xml"
    write_detections(path, SUSP, SRC, [])
    assert read_features(path) == []


def test_read_truth_keeps_obfuscation_and_skips_other_features(tmp_path: Path):
    path = tmp_path / "truth.xml"
    path.write_text(
        f'<document reference="{SUSP}">\n'
        '<feature name="about" authors="x"/>\n'
        '<feature name="plagiarism" obfuscation="random" type="artificial" this_language="en" '
        f'this_offset="10" this_length="20" source_reference="{SRC}" source_language="en" '
        'source_offset="30" source_length="25"/>\n'
        "</document>\n",
        encoding="utf-8",
    )
    assert read_features(path) == [Case(SUSP, 10, 20, SRC, 30, 25, obfuscation="random")]


def test_malformed_xml_is_one_line_naming_the_file(tmp_path: Path):
    path = tmp_path / "bad.xml"
    path.write_text('<document reference="x"><feature', encoding="utf-8")
    with pytest.raises(PanFormatError) as info:
        read_features(path)
    message = str(info.value)
    assert message.startswith(f"{path}: malformed XML")
    assert "\n" not in message


def test_incomplete_feature_is_reported(tmp_path: Path):
    path = tmp_path / "partial.xml"
    path.write_text(
        '<document reference="x"><feature this_offset="1" this_length="2"/></document>', encoding="utf-8"
    )
    with pytest.raises(PanFormatError, match=r"feature 1: missing attribute\(s\) source_offset"):
        read_features(path)


def test_non_integer_offset_is_reported(tmp_path: Path):
    path = tmp_path / "nan.xml"
    path.write_text(
        '<document reference="x"><feature this_offset="one" this_length="2" source_reference="y" '
        'source_offset="0" source_length="2"/></document>',
        encoding="utf-8",
    )
    with pytest.raises(PanFormatError, match="feature 1: bad offset"):
        read_features(path)


def test_missing_reference_is_reported(tmp_path: Path):
    path = tmp_path / "noref.xml"
    path.write_text("<document></document>", encoding="utf-8")
    with pytest.raises(PanFormatError, match="no 'reference'"):
        read_features(path)


def test_span_detection():
    span = Span("q", "r", 10, 25, 100, 130, (0, 1), (4, 5), 0.9, (SentencePair(0, 4, 0.9),))
    assert span_detection(span) == (10, 15, 100, 30)
