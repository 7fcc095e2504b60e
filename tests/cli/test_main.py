import json
from pathlib import Path

import pytest

from tests.paths import SAMPLES, SLICE
from partialdup.cli.main import main

TEXT = (
    "The quick brown fox jumps over the lazy dog near the river bank. "
    "It was the best of times, it was the worst of times, said the narrator. "
)


@pytest.fixture()
def corpus(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("My own opening line is here. " + TEXT, encoding="utf-8")
    (folder / "b.txt").write_text(TEXT + "Something else entirely to end with.", encoding="utf-8")
    (folder / "bin.txt").write_bytes(b"\x00\x01binary")
    return folder


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_detect_writes_jsonl_and_reports_skipped_files(corpus, capsys):
    code, out, err = run(capsys, "detect", str(corpus))
    assert code == 0
    [line] = out.splitlines()
    record = json.loads(line)
    assert list(record) == ["a", "b", "a_start", "a_end", "b_start", "b_end", "a_sentences", "b_sentences", "score", "pairs"]
    text_a = (corpus / "a.txt").read_text(encoding="utf-8")
    assert text_a[record["a_start"] : record["a_end"]] == TEXT.strip()
    assert "bin.txt: binary file" in err and "1 input(s) skipped" in err


def test_strict_turns_a_skip_into_exit_2(corpus, capsys):
    code, out, err = run(capsys, "detect", str(corpus), "--strict")
    assert code == 2 and out == ""
    assert err.startswith("partialdup: error: ") and "bin.txt" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_user_errors_are_one_line_exit_2(tmp_path, capsys):
    assert run(capsys, "detect", str(tmp_path / "missing"))[0] == 2
    bad_idf = tmp_path / "bad.tsv"
    bad_idf.write_text("no tab here\n", encoding="utf-8")
    code, _, err = run(capsys, "detect", str(tmp_path), "--idf", str(bad_idf))
    assert code == 2 and "bad.tsv:1" in err
    code, _, err = run(capsys, "detect", str(tmp_path), "--threshold", "1.5")
    assert code == 2 and err == "partialdup: error: --threshold must be <= 1, got 1.5\n"
    for option in ("--near-ratio", "--embedded-ratio"):
        code, _, err = run(capsys, "detect", str(tmp_path), option, "150")
        assert code == 2 and err == f"partialdup: error: {option} must be <= 100 (0 turns it off), got 150\n"
    code, _, err = run(capsys, "detect", str(tmp_path), "--antecedents", "-1")
    assert code == 2 and err == "partialdup: error: --antecedents must be >= 0, got -1\n"
    for option, good, bad in (("--near-ratio", "90", "-1"), ("--embedded-ratio", "95", "-1"), ("--threshold", "0.5", "1.5"), ("--spacing", "1", "0")):
        code, _, err = run(capsys, "eval", str(SLICE), option, good, bad)
        assert code == 2 and option in err and len(err.strip().splitlines()) == 1  # before any work


def test_check_and_output_file(corpus, tmp_path, capsys):
    out_file = tmp_path / "out.jsonl"
    code, out, _ = run(capsys, "check", str(corpus / "a.txt"), "--against", str(corpus / "b.txt"), "-o", str(out_file))
    assert code == 0 and out == ""
    [record] = [json.loads(l) for l in out_file.read_text(encoding="utf-8").splitlines()]
    assert record["a"].endswith("a.txt") and record["b"].endswith("b.txt")


def test_output_is_byte_identical_across_runs(corpus, capsys):
    assert run(capsys, "detect", str(corpus))[1] == run(capsys, "detect", str(corpus))[1]


def test_pan_writes_one_xml_per_pair(corpus, tmp_path, capsys):
    pairs = tmp_path / "pairs"
    pairs.write_text("a.txt b.txt\n", encoding="utf-8")
    out = tmp_path / "out"
    assert run(capsys, "pan", str(pairs), str(corpus), str(corpus), str(out))[0] == 0
    xml = (out / "a-b.xml").read_text(encoding="utf-8")
    assert '<document reference="a.txt">' in xml and 'name="detected-plagiarism"' in xml


def test_span_edges_are_trimmed_unless_no_refine(tmp_path, capsys):
    # A's last sentence is B's last copied sentence plus foreign text.
    line = "Every active line of the sources file describes a package source"
    a, b = str(tmp_path / "a.txt"), str(tmp_path / "b.txt")
    text_a = TEXT + line + "; the first partition on the disk holds the whole system.\n"
    (tmp_path / "a.txt").write_text(text_a, encoding="utf-8")
    (tmp_path / "b.txt").write_text(TEXT + line + ". Something else entirely to end with.\n", encoding="utf-8")
    for argv in (["detect", a, b], ["check", a, "--against", b]):
        [record] = [json.loads(l) for l in run(capsys, *argv)[1].splitlines()]
        assert text_a[record["a_start"] : record["a_end"]] == TEXT + line
        [whole] = [json.loads(l) for l in run(capsys, *argv, "--no-refine")[1].splitlines()]
        assert text_a[whole["a_start"] : whole["a_end"]] == text_a.strip()
        assert whole["pairs"] == record["pairs"]


def test_every_method_runs(corpus, capsys):
    for method in ("3-shingle", "4-shingle", "5-shingle", "i-match", "spotsig", "spotsig-small"):
        code, out, _ = run(capsys, "detect", str(corpus), "--method", method)
        assert code == 0 and len(out.splitlines()) == 1, method


def test_idf_build(corpus, tmp_path, capsys):
    out = tmp_path / "my.tsv"
    code, _, err = run(capsys, "idf", "build", str(corpus / "a.txt"), str(corpus / "b.txt"), "-o", str(out), "--min-df", "2")
    assert code == 0
    lines = [l for l in out.read_text(encoding="utf-8").splitlines() if not l.startswith("#")]
    assert "the\t0.000000" in lines  # in both documents
    assert not any(l.startswith("own\t") for l in lines)  # in one only: below --min-df


def test_a_closed_pipe_ends_quietly(tmp_path):
    """A reader that goes away (``partialdup detect ... | head``) is not an error.

    The output must be larger than a pipe's buffer (64 KiB), or the writer
    finishes before it notices the closed pipe and the test could not fail.
    """
    import subprocess
    import sys

    licence = (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8")
    for name in "abcdefghij":  # 45 document pairs
        (tmp_path / f"{name}.txt").write_text(licence, encoding="utf-8")
    argv = [sys.executable, "-m", "partialdup", "detect", str(tmp_path), "--boilerplate", "0"]
    whole = subprocess.run(argv, capture_output=True, check=True, timeout=300)
    assert len(whole.stdout) > 64 * 1024
    detect = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    detect.stdout.read(10)
    detect.stdout.close()
    assert detect.wait(timeout=300) == 0
    assert b"Traceback" not in detect.stderr.read()
