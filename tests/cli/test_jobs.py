"""End-to-end tests of the job subcommands on real text (samples/)."""

from __future__ import annotations

import json

import pytest

from partialdup.cli.main import main
from tests.paths import SAMPLES


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_plagiarism_summary_and_json(capsys, tmp_path):
    query, source = SAMPLES / "installation-guide.appendix-F.en.txt", SAMPLES / "GPL-2.txt"
    code, out, _ = run(capsys, "plagiarism", query, "--against", source, SAMPLES / "man_ls.1.zh_CN.txt")
    assert code == 0
    first, second = out.splitlines()[:2]
    assert first.startswith(f"{query}\t") and "% copied" in first and second.startswith(f"  <- {source}\t")
    target = tmp_path / "report.jsonl"
    assert run(capsys, "plagiarism", query, "--against", source, "--json", "-o", target)[0] == 0
    [record] = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert record["query"] == str(query) and record["share"] > 0.95 and record["sources"][0]["source"] == str(source)


def test_merge_writes_text_log_and_map(capsys, tmp_path):
    text = (SAMPLES / "man_ls.1.zh_TW.txt").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    half = len(lines) // 2
    first, second = tmp_path / "page1.txt", tmp_path / "page2.txt"
    first.write_text("".join(lines[: half + 4]), encoding="utf-8")
    second.write_text("".join(lines[half:]), encoding="utf-8")  # four lines of overlap
    merged = tmp_path / "thread.txt"
    code, _, err = run(capsys, "merge", first, second, "-o", merged)
    assert code == 0 and "1 repeated passage(s) dropped" in err
    assert merged.read_text(encoding="utf-8") == text
    [drop] = [json.loads(line) for line in (tmp_path / "thread.txt.dropped.jsonl").read_text(encoding="utf-8").splitlines()]
    assert drop["page"] == str(second) and drop["start"] == 0 and drop["source_page"] == str(first)
    pieces = [json.loads(line) for line in (tmp_path / "thread.txt.map.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [p["page"] for p in pieces] == [str(first), str(second)] and pieces[-1]["merged_end"] == len(text)


def test_quotes_reads_a_jsonl_stream_and_keeps_its_fields(capsys, tmp_path):
    reference = (SAMPLES / "debian-reference.debref_zhcn_ch01_s02_p0.txt").read_text(encoding="utf-8")
    fortunes = (SAMPLES / "fortunes-zh.fortuneszh_chinese_debref_ch01.txt").read_text(encoding="utf-8")
    stream = tmp_path / "news.jsonl"
    records = [
        {"id": "later", "time": "2021-06-01", "text": fortunes, "url": "https://example.org/b"},
        {"id": "earlier", "time": "2020-01-01", "text": reference, "outlet": "A"},
    ]
    stream.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    code, out, err = run(capsys, "quotes", stream)
    assert code == 0 and "2 articles" in err
    lines = [json.loads(line) for line in out.splitlines()]
    quoting = [r for r in lines if r["direction"] == "quoting"]
    assert quoting and all(r["id"] == "later" and r["source"]["id"] == "earlier" for r in quoting)
    assert quoting[0]["fields"] == {"url": "https://example.org/b"} and quoting[0]["source"]["fields"] == {"outlet": "A"}
    assert quoting[0]["earliest"]["time"] == "2020-01-01"


def test_quotes_without_a_time_is_a_one_line_error(capsys, tmp_path):
    stream = tmp_path / "news.jsonl"
    stream.write_text(json.dumps({"id": "x", "text": "no time here"}) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "quotes", stream)
    assert code == 2 and err.strip().splitlines() == ["partialdup: error: x: expected a 'time' field (ISO 8601 or seconds), got None"]


def test_plagiarism_writes_the_html_report_too(capsys, tmp_path):
    query, source = SAMPLES / "installation-guide.appendix-F.en.txt", SAMPLES / "GPL-2.txt"
    report = tmp_path / "report.html"
    assert run(capsys, "plagiarism", query, "--against", source, "--report", report)[0] == 0
    html = report.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") or html.lstrip().lower().startswith("<!doctype html>")
    assert "GPL-2.txt" in html and "installation-guide.appendix-F.en.txt" in html


def test_plagiarism_against_a_store_gives_the_report_of_against(capsys, tmp_path):
    sources = [SAMPLES / name for name in ("GPL-2.txt", "man_ls.1.zh_CN.txt", "man_cp.1.zh_CN.txt", "man_chmod.1.zh_CN.txt")]
    queries = [SAMPLES / "installation-guide.appendix-F.en.txt", SAMPLES / "man_ls.1.zh_TW.txt", SAMPLES / "man_cp.1.zh_TW.txt"]
    db = tmp_path / "sources.db"
    assert run(capsys, "index", "add", *sources, "--db", db, "-q")[0] == 0
    code, from_store, _ = run(capsys, "plagiarism", *queries, "--db", db, "--json")
    assert code == 0
    code, from_files, _ = run(capsys, "plagiarism", *queries, "--against", *sources, "--json")
    assert code == 0 and from_store == from_files
    records = [json.loads(line) for line in from_files.splitlines()]
    # Template text among the man pages (lines they all share) is listed apart, not counted.
    assert any(region["common"] for record in records for region in record["regions"])
    assert all(0 < record["share"] <= 1 for record in records)
    code, summary_store, _ = run(capsys, "plagiarism", *queries, "--db", db)
    assert code == 0 and summary_store == run(capsys, "plagiarism", *queries, "--against", *sources)[1]
    assert "template text at " in summary_store


def test_plagiarism_needs_one_kind_of_sources(capsys, tmp_path):
    query = SAMPLES / "GPL-2.txt"
    with pytest.raises(SystemExit):
        main(["plagiarism", str(query)])
    assert "--against" in capsys.readouterr().err
    code, _, err = run(capsys, "plagiarism", query, "--db", tmp_path / "missing.db")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "missing.db" in err
