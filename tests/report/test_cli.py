"""``partialdup report`` and ``--report FILE`` on detect and check (partialdup/cli/report.py).

Here rather than in tests/cli/ because the report's tests are kept together.
"""

import json

import pytest

from partialdup.cli.main import main
from tests.paths import SAMPLES

GPL, APPENDIX = SAMPLES / "GPL-2.txt", SAMPLES / "installation-guide.appendix-F.en.txt"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One detect run with --report (the detector is slow to make): its folder."""
    folder = tmp_path_factory.mktemp("run")
    docs = folder / "docs"
    docs.mkdir()
    for source in (GPL, APPENDIX):
        (docs / source.name).write_bytes(source.read_bytes())
    assert main(["detect", str(docs), "-o", str(folder / "m.jsonl"), "--report", str(folder / "detect.html")]) == 0
    return folder


def test_detect_report_and_report_from_the_jsonl_are_the_same_bytes(run, capsys):
    capsys.readouterr()
    code = main(["report", str(run / "m.jsonl"), "--docs", str(run / "docs"), "-o", str(run / "report.html")])
    assert code == 0
    assert (run / "report.html").read_bytes() == (run / "detect.html").read_bytes()
    html = (run / "report.html").read_text(encoding="utf-8")
    assert "GPL-2.txt" in html and "installation-guide.appendix-F.en.txt" in html
    assert "written to" in capsys.readouterr().err


def test_check_writes_a_report_with_the_query_as_a(tmp_path, capsys):
    html = tmp_path / "check.html"
    assert main(["check", str(APPENDIX), "--against", str(GPL), "-o", str(tmp_path / "m.jsonl"), "--report", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert f'data-a="{APPENDIX}" data-b="{GPL}"' in page


def report_error(capsys, *argv):
    code = main(["report", *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("partialdup: error: ") and len(err.splitlines()) == 1, err
    return err


def test_a_missing_document_names_the_jsonl_line(run, tmp_path, capsys):
    err = report_error(capsys, str(run / "m.jsonl"), "--docs", str(GPL), "-o", str(tmp_path / "r.html"))
    assert f"{run / 'm.jsonl'}:1: no document 'GPL-2.txt' among the 1 given" in err
    assert not (tmp_path / "r.html").exists()


def test_offsets_outside_the_text_name_the_jsonl_line(run, tmp_path, capsys):
    lines = (run / "m.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[-1])
    record["b_end"] = 10**6
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines[:-1] + [json.dumps(record)]) + "\n", encoding="utf-8")
    err = report_error(capsys, str(bad), "--docs", str(run / "docs"), "-o", str(tmp_path / "r.html"))
    assert f"{bad}:{len(lines)}: b_start..b_end" in err and "lies outside" in err


def test_an_output_that_cannot_be_written_fails_before_any_work(run, tmp_path, capsys):
    err = report_error(capsys, str(tmp_path / "none.jsonl"), "--docs", str(run / "docs"), "-o", str(tmp_path / "no" / "r.html"))
    assert "r.html" in err and "none.jsonl" not in err  # the output is checked first


def test_bad_options_are_user_errors(run, tmp_path, capsys):
    err = report_error(capsys, str(run / "m.jsonl"), "--docs", str(run / "docs"), "-o", str(tmp_path / "r.html"), "--max-sentence-chars", "0")
    assert "--max-sentence-chars" in err
    err = report_error(capsys, str(run / "m.jsonl"), "--docs", str(run / "docs"), "-o", str(tmp_path / "r.html"), "--encoding", "no-such-codec")
    assert "no-such-codec" in err
    err = report_error(capsys, str(tmp_path / "none.jsonl"), "--docs", str(run / "docs"), "-o", str(tmp_path / "r.html"))
    assert "none.jsonl: cannot read" in err
