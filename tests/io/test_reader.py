import errno
import io
import json
import os

import pytest

from partialdup.core.errors import InputError
from partialdup.io import reader
from partialdup.io.reader import read_documents


def test_folder_ids_are_relative_paths_and_bom_is_removed(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.txt").write_bytes("\ufeff第二".encode("utf-8"))
    (tmp_path / "a.txt").write_text("first", encoding="utf-8")
    (tmp_path / "notes.md").write_text("ignored", encoding="utf-8")
    result = read_documents([tmp_path])
    assert [(d.id, d.text) for d in result.documents] == [("a.txt", "first"), ("sub/b.txt", "第二")]
    assert result.ignored_files == 1
    assert result.encodings == ((str(tmp_path / "a.txt"), "utf-8"), (str(tmp_path / "sub" / "b.txt"), "utf-8-sig"))


def test_line_ends_are_kept(tmp_path):
    (tmp_path / "crlf.txt").write_bytes(b"one.\r\ntwo.\r\n")
    (tmp_path / "cr.txt").write_bytes("一。\r二。\r".encode("gb18030"))
    crlf, cr = read_documents([tmp_path / "crlf.txt", tmp_path / "cr.txt"]).documents
    assert crlf.text == "one.\r\ntwo.\r\n" and cr.text == "一。\r二。\r"


def test_jsonl_records_and_bad_lines(tmp_path):
    path = tmp_path / "docs.jsonl"
    lines = [json.dumps({"id": "x", "text": "甲", "url": "u"}), '{"id": "y", "text": 甲}', json.dumps({"id": 7, "text": "乙"}), json.dumps({"text": 1})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = read_documents([path])
    assert [d.id for d in result.documents] == ["x", "7"] and result.documents[0].fields == {"url": "u"}
    assert result.skipped == (f"{path}:2:21: not valid JSON (Expecting value)", f"{path}:4: expected an object with a string 'text'")
    with pytest.raises(InputError) as error:
        read_documents([path], strict=True)
    assert str(error.value) == f"{path}:2:21: not valid JSON (Expecting value)"  # no "skipped" when it is not


def test_binary_files_are_skipped_by_name(tmp_path):
    (tmp_path / "bin.txt").write_bytes(b"abc\x00def")
    (tmp_path / "ok.txt").write_text("fine", encoding="utf-8")
    result = read_documents([tmp_path])
    assert [d.id for d in result.documents] == ["ok.txt"]
    assert result.skipped == (f"{tmp_path / 'bin.txt'}: binary file (NUL byte at offset 3)",)
    with pytest.raises(InputError, match="binary file"):
        read_documents([tmp_path], strict=True)


def test_encodings_are_detected_and_can_be_given(tmp_path):
    text = "中文与 English 混合的一行。\n第二行。\n"
    for name, encoding in (("gbk.txt", "gbk"), ("u16.txt", "utf-16"), ("u16le.txt", "utf-16-le"), ("big5.txt", "big5")):
        (tmp_path / name).write_bytes(text.encode(encoding))
    result = read_documents([tmp_path])
    assert {d.id: d.text for d in result.documents} == dict.fromkeys(["big5.txt", "gbk.txt", "u16.txt", "u16le.txt"], text)
    assert [e for _, e in result.encodings] == ["big5", "gb18030", "utf-16", "utf-16-le"]
    [wrong] = read_documents([tmp_path / "gbk.txt"], encoding="big5").documents
    assert wrong.text != text  # the override is obeyed
    with pytest.raises(InputError, match=r"gbk.txt: not utf-8 \(byte 0xd6 at line 1, column 1\)"):
        read_documents([tmp_path / "gbk.txt"], encoding="utf-8", strict=True)


def test_missing_path_is_a_user_error_before_any_reading(tmp_path, monkeypatch):
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    monkeypatch.setattr(reader, "_read_one", lambda *a: pytest.fail("read before the missing path was noticed"))
    with pytest.raises(InputError) as error:
        read_documents([tmp_path / "a.txt", tmp_path / "nope"])
    assert str(error.value) == f"{tmp_path / 'nope'}: no such file or folder"


def test_a_duplicate_id_is_renamed_and_the_run_goes_on(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text('{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n{"id": "a", "text": "z"}\n', encoding="utf-8")
    result = read_documents([path])
    assert [(d.id, d.text) for d in result.documents] == [("a", "x"), ("a#2", "y"), ("a#3", "z")]
    assert result.renamed[0] == f"{path}:2: duplicate document id 'a' (first in {path}:1), read as 'a#2'"
    with pytest.raises(InputError) as error:
        read_documents([path], strict=True)
    assert str(error.value) == f"{path}:2: duplicate document id 'a' (first in {path}:1)"


def test_two_folders_holding_one_name(tmp_path):
    for folder, text in (("one", "first"), ("two", "second")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "essay.txt").write_text(text, encoding="utf-8")
    result = read_documents([tmp_path / "one", tmp_path / "two"])
    assert [(d.id, d.text) for d in result.documents] == [("essay.txt", "first"), ("essay.txt#2", "second")]
    one, two = tmp_path / "one" / "essay.txt", tmp_path / "two" / "essay.txt"
    assert result.renamed == (f"{two}: duplicate document id 'essay.txt' (first in {one}), read as 'essay.txt#2'",)


def test_same_file_twice_is_read_once(tmp_path):
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    result = read_documents([tmp_path / "a.txt", tmp_path / "a.txt"], strict=True)
    assert len(result.documents) == 1 and "given more than once" in result.skipped[0]


def test_standard_input(tmp_path):
    stdin = io.BytesIO("标准输入。\n".encode("gb18030"))
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    result = read_documents(["-", tmp_path / "a.txt", "-"], stdin=stdin)
    assert [(d.id, d.text) for d in result.documents] == [("<stdin>", "标准输入。\n"), (str(tmp_path / "a.txt"), "x")]
    assert result.encodings[0] == ("<stdin>", "gb18030") and result.skipped == ("-: given more than once, read once",)


def test_named_pipe_socket_and_link_problems_have_their_own_line(tmp_path):
    os.mkfifo(tmp_path / "pipe.txt")  # reading it would wait for a writer for ever
    os.symlink("loop2.txt", tmp_path / "loop1.txt")
    os.symlink("loop1.txt", tmp_path / "loop2.txt")
    os.symlink("gone.txt", tmp_path / "broken.txt")
    (tmp_path / "ok.txt").write_text("fine", encoding="utf-8")
    result = read_documents([tmp_path])
    assert [d.id for d in result.documents] == ["ok.txt"]
    assert result.skipped == (
        f"{tmp_path / 'broken.txt'}: broken symbolic link (to gone.txt)",
        f"{tmp_path / 'loop1.txt'}: symbolic link loop",
        f"{tmp_path / 'loop2.txt'}: symbolic link loop",
        f"{tmp_path / 'pipe.txt'}: a named pipe (FIFO), not a file; pipe it into standard input as -",
    )
    given = read_documents([tmp_path / "pipe.txt", tmp_path / "loop1.txt", tmp_path / "ok.txt"])
    assert [d.id for d in given.documents] == [str(tmp_path / "ok.txt")]
    assert given.skipped[0].endswith("pipe.txt: a named pipe (FIFO), not a file; pipe it into standard input as -")
    assert given.skipped[1] == f"{tmp_path / 'loop1.txt'}: symbolic link loop"
    with pytest.raises(InputError, match="broken symbolic link"):
        read_documents([tmp_path], strict=True)


def test_an_unreadable_folder_is_reported_like_an_unreadable_file(tmp_path, monkeypatch):
    # Tests run as root, whom permissions do not stop: the refusal is simulated.
    (tmp_path / "open").mkdir()
    (tmp_path / "open" / "a.txt").write_text("fine", encoding="utf-8")
    (tmp_path / "closed").mkdir()
    (tmp_path / "closed" / "b.txt").write_text("hidden", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("locked", encoding="utf-8")
    real_scandir = os.scandir

    def scandir(path):
        if os.path.basename(path) == "closed":
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_scandir(path)

    real_open = os.open

    def opened(path, *args, **kwargs):  # the reader opens files by os.open, a few ahead (io/read_ahead.py)
        if os.path.basename(path) == "secret.txt":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(reader.os, "scandir", scandir)
    monkeypatch.setattr(os, "open", opened)
    result = read_documents([tmp_path])
    assert [d.id for d in result.documents] == ["open/a.txt"]
    assert result.skipped == (
        f"{tmp_path / 'closed'}: cannot read folder (Permission denied)",
        f"{tmp_path / 'secret.txt'}: cannot read (Permission denied)",
    )


def test_globs_choose_the_files_of_folders_and_the_others_are_named(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "README").write_text("no suffix", encoding="utf-8")
    (tmp_path / "sub" / "notes.md").write_text("markdown", encoding="utf-8")
    (tmp_path / "a.txt").write_text("text", encoding="utf-8")
    default = read_documents([tmp_path])
    assert [d.id for d in default.documents] == ["a.txt"]
    assert default.ignored == (str(tmp_path / "README"), str(tmp_path / "sub" / "notes.md")) and default.ignored_files == 2
    every = read_documents([tmp_path], globs=["*"])
    assert [d.id for d in every.documents] == ["README", "a.txt", "sub/notes.md"] and every.ignored == ()
    markdown = read_documents([tmp_path], globs=["*.md", "READ*"])  # the relative path or the file name
    assert [d.id for d in markdown.documents] == ["README", "sub/notes.md"]
    assert markdown.ignored == (str(tmp_path / "a.txt"),)
    assert [d.id for d in read_documents([tmp_path], globs=["sub/*"]).documents] == ["sub/notes.md"]


def test_a_glob_reads_a_matched_jsonl_file_as_records_and_a_named_file_always(tmp_path):
    (tmp_path / "news.jsonl").write_text('{"id": "n1", "text": "one"}\n', encoding="utf-8")
    (tmp_path / "x.log").write_text("a log", encoding="utf-8")
    result = read_documents([tmp_path, tmp_path / "x.log"], globs=["*.jsonl"])
    assert [d.id for d in result.documents] == ["n1", str(tmp_path / "x.log")]
    assert result.ignored == (str(tmp_path / "x.log"),)  # not chosen in the folder, read as named


def test_a_file_reached_through_links_is_read_once(tmp_path):
    (tmp_path / "docs" / "deep").mkdir(parents=True)
    (tmp_path / "docs" / "deep" / "a.txt").write_text("first", encoding="utf-8")
    (tmp_path / "links").mkdir()
    (tmp_path / "links" / "abs.txt").symlink_to(tmp_path / "docs" / "deep" / "a.txt")
    (tmp_path / "links" / "rel.txt").symlink_to(os.path.join("..", "docs", "deep", "a.txt"))
    (tmp_path / "folder").symlink_to(tmp_path / "docs" / "deep")  # a link to a folder: not followed
    (tmp_path / "links" / "via.txt").symlink_to(tmp_path / "folder" / "a.txt")
    result = read_documents([tmp_path / "docs", tmp_path / "links"])
    assert [(d.id, d.text) for d in result.documents] == [("deep/a.txt", "first")]
    again = ("abs.txt", "rel.txt", "via.txt")
    assert result.skipped == tuple(f"{tmp_path / 'links' / name}: given more than once, read once" for name in again)


def test_a_file_named_twice_by_different_paths_is_read_once(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("first", encoding="utf-8")
    (tmp_path / "docs" / "b.txt").write_text("second", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(tmp_path / "docs" / "a.txt")
    monkeypatch.chdir(tmp_path / "docs")
    result = read_documents(["a.txt", str(tmp_path / "docs" / "b.txt"), "../docs/a.txt", str(tmp_path / "link.txt")])
    assert [(d.id, d.text) for d in result.documents] == [("a.txt", "first"), (str(tmp_path / "docs" / "b.txt"), "second")]
    assert result.skipped == ("../docs/a.txt: given more than once, read once", f"{tmp_path / 'link.txt'}: given more than once, read once")


def test_a_file_named_dash_given_by_its_path_is_that_file(tmp_path, monkeypatch):
    (tmp_path / "-").write_text("a file", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = read_documents(["./-"], stdin=io.BytesIO("standard input".encode("utf-8")))
    assert [(d.id, d.text) for d in result.documents] == [("./-", "a file")]


def test_the_first_documents_are_handed_over_once_when_they_hold_enough_characters(tmp_path):
    # read_documents' `first`: an engine starts on them while the rest are read.
    for number, text in enumerate(["abc", "defg", "hi", "jklmnop", "q"]):
        (tmp_path / f"{number}.txt").write_text(text, encoding="utf-8")
    handed = []
    result = read_documents([tmp_path], first=(7, handed.append))
    assert len(handed) == 1
    assert [d.text for d in handed[0]] == ["abc", "defg"]
    assert all(a is b for a, b in zip(handed[0], result.documents))  # the same documents, the first ones
    never = []
    assert read_documents([tmp_path], first=(18, never.append)).documents == result.documents and never == []
