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


# --- issue 14: terminal output, exit codes, output safety, bad input ------------


def test_a_terminal_gets_a_summary_and_json_on_request(corpus, capsys, monkeypatch):
    monkeypatch.setattr(type(__import__("sys").stdout), "isatty", lambda self: True, raising=False)
    code, out, _ = run(capsys, "detect", str(corpus))
    first, last = out.splitlines()
    assert code == 0 and first.startswith('a.txt ↔ b.txt  1 passage, ') and '"The quick brown fox' in first
    assert last.startswith("1 document pair(s) share 1 copied passage(s) among 2 documents")
    code, out, _ = run(capsys, "detect", str(corpus), "--json")
    assert json.loads(out)["a"] == "a.txt"
    code, out, _ = run(capsys, "check", str(corpus / "a.txt"), "--against", str(corpus / "b.txt"))
    assert " ← " in out.splitlines()[0]


def test_fail_on_match_exits_1_only_when_copies_are_found(corpus, tmp_path, capsys):
    code, out, _ = run(capsys, "detect", str(corpus), "--fail-on-match")
    assert code == 1 and len(out.splitlines()) == 1  # the output is written all the same
    (tmp_path / "x.txt").write_text("Nothing in common here at all.", encoding="utf-8")
    assert run(capsys, "detect", str(corpus / "a.txt"), str(tmp_path / "x.txt"), "--fail-on-match")[0] == 0


def test_version_and_help_with_examples(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0 and capsys.readouterr().out.startswith("partialdup ")
    for command in (["detect"], ["check"], ["pan"], ["eval"], ["idf", "build"]):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        help_text = capsys.readouterr().out
        assert "examples:" in help_text and "exit codes:" in help_text, command


def test_no_progress_bar_unless_standard_error_is_a_terminal(corpus, capsys, monkeypatch):
    from partialdup.io.progress import Progress

    monkeypatch.setattr(Progress, "DELAY", 0)
    _, _, err = run(capsys, "detect", str(corpus))
    assert "reading documents" not in err and "\r" not in err
    assert not Progress.on_terminal(quiet=True).enabled


def test_quiet_and_verbose(corpus, capsys):
    _, _, err = run(capsys, "detect", str(corpus), "--quiet")
    assert err == f"partialdup: skipped: {corpus / 'bin.txt'}: binary file (NUL byte at offset 0)\n"
    _, _, err = run(capsys, "detect", str(corpus), "-v")
    assert f"partialdup: read {corpus / 'a.txt'} (utf-8)" in err


def test_encodings_found_and_given(tmp_path, capsys):
    text = "老王把这一段话原样抄进了自己的文章里面。这样做是不对的，应该注明出处。\n"
    (tmp_path / "gbk.txt").write_bytes(("开头不同的一句话。\n" + text).encode("gbk"))
    (tmp_path / "u16.txt").write_bytes(("另一个开头。\n" + text).encode("utf-16"))
    code, out, err = run(capsys, "detect", str(tmp_path), "-v")
    assert code == 0 and "(gb18030)" in err and "(utf-16)" in err
    [record] = [json.loads(line) for line in out.splitlines()]
    assert (record["a"], record["b"]) == ("gbk.txt", "u16.txt")
    text_a = "开头不同的一句话。\n" + text
    assert text_a[record["a_start"] : record["a_end"]] == text.strip()  # offsets in characters of the decoded text
    code, _, err = run(capsys, "detect", str(tmp_path), "--encoding", "klingon")
    assert code == 2 and err == "partialdup: error: --encoding: unknown encoding 'klingon'\n"


def test_outputs_are_checked_before_any_work(corpus, tmp_path, capsys, monkeypatch):
    import partialdup.pipeline.factory as factory

    monkeypatch.setattr(factory, "make_detector", lambda *a, **k: pytest.fail("work started"))
    for output, problem in ((tmp_path / "no" / "out.jsonl", f"folder {tmp_path / 'no'} does not exist"), (tmp_path, "is a folder")):
        code, out, err = run(capsys, "detect", str(corpus), "-o", str(output))
        assert code == 2 and out == "" and err == f"partialdup: error: {output}: {problem}\n"
    code, _, err = run(capsys, "idf", "build", str(corpus), "-o", str(tmp_path / "no" / "t.tsv"))
    assert code == 2 and err == f"partialdup: error: {tmp_path / 'no' / 't.tsv'}: folder {tmp_path / 'no'} does not exist\n"


def test_a_full_disk_keeps_the_old_output(corpus, tmp_path, capsys, monkeypatch):
    import errno
    import os

    from partialdup.io import output

    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "out.jsonl"
    target.write_text("old\n", encoding="utf-8")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(output.os, "fsync", full)
    code, _, err = run(capsys, "detect", str(corpus), "-o", str(target))
    assert code == 2 and err.endswith(f"partialdup: error: {target}: cannot write (No space left on device)\n")
    assert "Traceback" not in err and err.count("error") == 1
    assert target.read_text(encoding="utf-8") == "old\n" and os.listdir(tmp_path / "out") == ["out.jsonl"]


def test_standard_input_is_a_document(corpus, capsys, monkeypatch):
    import io
    import sys

    piped = io.TextIOWrapper(io.BytesIO(("Quoted here. " + TEXT).encode("utf-8")), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", piped)
    code, out, _ = run(capsys, "check", "-", "--against", str(corpus / "b.txt"))
    [record] = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and record["a"] == "<stdin>" and record["a_start"] == len("Quoted here. ")


def test_two_folders_with_one_file_name_do_not_stop_the_run(tmp_path, capsys):
    for folder, opening in (("one", "First words of my own."), ("two", "Other words entirely.")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "essay.txt").write_text(f"{opening} {TEXT}", encoding="utf-8")
    code, out, err = run(capsys, "detect", str(tmp_path / "one"), str(tmp_path / "two"))
    [record] = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and (record["a"], record["b"]) == ("essay.txt", "essay.txt#2")
    assert f"partialdup: renamed: {tmp_path / 'two' / 'essay.txt'}: duplicate document id 'essay.txt' (first in {tmp_path / 'one' / 'essay.txt'}), read as 'essay.txt#2'\n" in err
    code, out, err = run(capsys, "detect", str(tmp_path / "one"), str(tmp_path / "two"), "--strict")
    assert code == 2 and out == "" and err.endswith("duplicate document id 'essay.txt' (first in " + str(tmp_path / "one" / "essay.txt") + ")\n")


def test_a_bug_is_exit_3_with_its_traceback(corpus, capsys, monkeypatch):
    from partialdup.pipeline.detector import Detector

    def broken(self, documents, **options):
        raise RuntimeError("boom")

    monkeypatch.setattr(Detector, "detect", broken)
    code, _, err = run(capsys, "detect", str(corpus))
    assert code == 3 and "Traceback" in err and "RuntimeError: boom" in err
    assert err.splitlines()[-1] == "partialdup: internal error (a bug: please report it with the lines above)"


def test_a_named_pipe_and_a_link_loop_given_do_not_stop_the_run(corpus, tmp_path, capsys):
    import os
    import signal

    os.mkfifo(tmp_path / "pipe")  # nobody writes to it: reading it would wait for ever
    os.symlink("loop", tmp_path / "loop")

    def hung(signum, frame):
        raise TimeoutError("the run waited on the named pipe")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)
    try:
        code, out, err = run(capsys, "detect", str(tmp_path / "pipe"), str(tmp_path / "loop"), str(corpus))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert code == 0 and len(out.splitlines()) == 1
    assert err.splitlines()[:2] == [
        f"partialdup: skipped: {tmp_path / 'pipe'}: a named pipe (FIFO), not a file; pipe it into standard input as -",
        f"partialdup: skipped: {tmp_path / 'loop'}: symbolic link loop",
    ]


def test_ids_that_are_not_utf8_are_escaped(tmp_path, capsys):
    import os

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / os.fsdecode(b"caf\xe9.txt")).write_text("Mine first. " + TEXT, encoding="utf-8")
    (docs / "b.txt").write_text(TEXT + "Then mine.", encoding="utf-8")
    code, out, _ = run(capsys, "detect", str(docs))
    assert code == 0 and "caf\\udce9.txt" in out
    [record] = [json.loads(line) for line in out.encode("utf-8").decode("utf-8").splitlines()]  # valid UTF-8
    assert os.fsencode(record["b"]) == b"caf\xe9.txt"
    code, _, _ = run(capsys, "detect", str(docs), "-o", str(tmp_path / "out.jsonl"))
    assert json.loads((tmp_path / "out.jsonl").read_bytes().decode("utf-8"))["b"] == record["b"]


def test_pan_out_dir_that_is_a_file_is_a_user_error(corpus, tmp_path, capsys):
    pairs = tmp_path / "pairs"
    pairs.write_text("a.txt b.txt\n", encoding="utf-8")
    code, _, err = run(capsys, "pan", str(pairs), str(corpus), str(corpus), str(pairs))
    assert code == 2 and err == f"partialdup: error: {pairs}: not a folder\n"


def test_reading_no_document_is_a_one_line_error_that_says_why(tmp_path, capsys):
    # The case of issue #12: check --against a folder of extension-less files.
    refs = tmp_path / "refs"
    refs.mkdir()
    (refs / "GPL").write_text((SAMPLES / "GPL-2.txt").read_text(encoding="utf-8"), encoding="utf-8")
    query = SAMPLES / "installation-guide.appendix-F.en.txt"
    code, out, err = run(capsys, "check", str(query), "--against", str(refs))
    assert code == 2 and out == ""
    assert err == f"partialdup: error: no documents read from {refs} (1 file(s) neither .txt nor .jsonl: try --glob '*')\n"
    code, out, err = run(capsys, "check", str(query), "--against", str(refs), "--glob", "*", "-q")
    assert code == 0 and json.loads(out.splitlines()[0])["b"] == "GPL"
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, "detect", str(empty))
    assert code == 2 and err == f"partialdup: error: no documents read from {empty} (no files found)\n"


def test_verbose_names_the_ignored_files(corpus, capsys):
    (corpus / "notes.md").write_text(TEXT, encoding="utf-8")
    _, _, err = run(capsys, "detect", str(corpus))
    assert "partialdup: ignored 1 file(s) neither .txt nor .jsonl (-v names them; --glob chooses files)" in err
    _, _, err = run(capsys, "detect", str(corpus), "-v")
    assert f"partialdup: ignored {corpus / 'notes.md'} (neither .txt nor .jsonl)" in err
    code, out, err = run(capsys, "detect", str(corpus), "--glob", "*.md", "--glob", "a.txt", "-v")
    assert code == 0 and {json.loads(out)["a"], json.loads(out)["b"]} == {"a.txt", "notes.md"}
    assert f"partialdup: ignored {corpus / 'b.txt'} (matched by no --glob)" in err


def test_show_boilerplate_names_the_sentences_set_apart(tmp_path, capsys, monkeypatch):
    # One GPL-2 paragraph in four real documents: in three others each, boilerplate.
    gpl = (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8")
    paragraph = next(p for p in gpl.split("\n\n") if len(p) > 400)
    for name in ("man_ls.1.zh_CN.txt", "man_cp.1.zh_CN.txt", "man_chmod.1.zh_CN.txt", "fortunes-zh.fortuneszh_chinese_debref_ch01.txt"):
        text = (SAMPLES / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text + "\n\n" + paragraph + "\n", encoding="utf-8")
    code, out, err = run(capsys, "detect", str(tmp_path), "--json")
    plain = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and "set apart as boilerplate" in err and "--show-boilerplate names them" in err
    code, out, _ = run(capsys, "detect", str(tmp_path), "--json", "--show-boilerplate")
    records = [json.loads(line) for line in out.splitlines()]
    assert records[: len(plain)] == plain  # the spans as before, then the records of their own kind
    listed = records[len(plain):]
    assert listed and all(r["kind"] == "boilerplate" and r["documents"] == 3 for r in listed)
    first = listed[0]
    text = (tmp_path / first["doc"]).read_text(encoding="utf-8")
    assert " ".join(text[first["start"] : first["end"]].split()).startswith(first["excerpt"].rstrip("…"))
    monkeypatch.setattr(type(__import__("sys").stdout), "isatty", lambda self: True, raising=False)
    _, _, err = run(capsys, "detect", str(tmp_path), "--show-boilerplate")
    assert f"partialdup: boilerplate: {first['doc']} {first['start']}-{first['end']} (sentence {first['sentence']}), in 3 other document(s): " in err
    code, out, _ = run(capsys, "detect", str(tmp_path), "--json", "--boilerplate", "0")
    assert len(out.splitlines()) > len(plain)  # every pair of the four shares the paragraph
