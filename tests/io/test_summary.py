import json

from partialdup.core.types import SentencePair, Span
from partialdup.io.jsonl import escape_surrogates, printable, span_line
from partialdup.io.progress import Progress
from partialdup.io.summary import summarise, summary_lines


def span(a, b, a_start, a_end, b_start, b_end, score=0.9):
    return Span(a, b, a_start, a_end, b_start, b_end, (0, 1), (0, 1), score, (SentencePair(0, 0, score),))


def test_one_line_per_pair_most_copied_first():
    texts = {"a": "x" * 100, "b": "y" * 50, "c": "中文句子被复制了。" * 10}
    spans = [span("a", "b", 0, 10, 0, 10), span("a", "b", 5, 30, 20, 45), span("a", "c", 0, 5, 0, 90)]
    first, second = summarise(spans, texts)
    assert (first.a, first.b, first.passages, first.a_share, first.b_share) == ("a", "c", 1, 0.05, 1.0)
    assert (second.passages, second.a_share, second.b_share) == (2, 0.3, 0.7)  # overlaps counted once
    assert second.excerpt == "x" * 25
    lines = summary_lines([first, second], documents=3, width=60)
    assert lines[0].startswith("a ↔ c  1 passage, 5% / 100% copied: \"xxxxx") and len(lines) == 3
    assert lines[1].startswith("a ↔ b  2 passages, 30% / 70% copied: \"xxx") and lines[1].endswith("…\"")
    assert all(len(line) <= 60 for line in lines[:2])
    assert lines[2].startswith("2 document pair(s) share 3 copied passage(s) among 3 documents")


def test_wide_characters_count_two_columns_and_unknown_texts_show_a_question_mark():
    texts = {"q": "前言。" + "中文句子被复制了。" * 10}
    [summary] = summarise([span("q", "ref", 3, 93, 0, 90)], texts)
    assert summary.b_share is None
    [line, _] = summary_lines([summary], documents=2, width=50, arrow="←")
    assert line.startswith("q ← ref  1 passage, 97% / ? copied: \"中文") and line.endswith("…\"")
    assert sum(2 if "\u4e00" <= c <= "\u9fff" or c in "。" else 1 for c in line) <= 50


def test_no_copies():
    assert summary_lines([], documents=4) == ["no copied passages among 4 documents"]


def test_ids_that_are_not_utf8_are_escaped():
    line = span_line(span("caf\udce9.txt", "b.txt", 0, 1, 0, 1))
    assert line.encode("utf-8")  # valid UTF-8: no lone surrogate is written
    assert '"a": "caf\\udce9.txt"' in line and json.loads(line)["a"] == "caf\udce9.txt"
    assert escape_surrogates('"\ud800"') == '"\\ud800"'
    assert printable("caf\udce9.txt") == "caf\\xe9.txt" and printable("plain 中文") == "plain 中文"


def test_progress_shows_only_when_enabled(tmp_path):
    import io

    quiet = io.StringIO()
    assert list(Progress(False, stream=quiet).each(range(3), "reading")) == [0, 1, 2] and quiet.getvalue() == ""
    shown = io.StringIO()
    assert list(Progress(True, stream=shown, delay=0).each(range(3), "reading")) == [0, 1, 2]
    assert "reading" in shown.getvalue()
    staged = io.StringIO()
    import time

    with Progress(True, stream=staged, delay=0).stage("matching"):
        time.sleep(0.7)
    assert "matching" in staged.getvalue()
    later = io.StringIO()
    with Progress(True, stream=later, delay=5).stage("matching"):
        pass  # shorter than the delay: nothing shown
    assert later.getvalue() == ""


def test_the_note_on_very_common_features_counts_features_and_sentences_in_words():
    from partialdup.io.summary import frequent_features_line

    assert frequent_features_line(12, 3400, 2000) == (
        "partialdup: 12 very common feature(s) (each in more than 2,000 different sentences) were not used to find "
        "copies; the 3,400 sentence(s) holding them were matched only through their other features and to identical "
        "sentences (--max-postings N raises the bound, at more work)"
    )
    assert "sentences holding them were matched" in frequent_features_line(1, 0, 5)
