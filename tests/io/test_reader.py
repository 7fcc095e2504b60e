import json

import pytest

from partialdup.core.errors import InputError
from partialdup.io.reader import read_documents


def test_folder_ids_are_relative_paths_and_bom_is_removed(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.txt").write_bytes("\ufeff第二".encode("utf-8"))
    (tmp_path / "a.txt").write_text("first", encoding="utf-8")
    (tmp_path / "notes.md").write_text("ignored", encoding="utf-8")
    result = read_documents([tmp_path])
    assert [(d.id, d.text) for d in result.documents] == [("a.txt", "first"), ("sub/b.txt", "第二")]
    assert result.ignored_files == 1


def test_line_ends_are_kept(tmp_path):
    (tmp_path / "crlf.txt").write_bytes(b"one.\r\ntwo.\r\n")
    [doc] = read_documents([tmp_path / "crlf.txt"]).documents
    assert doc.text == "one.\r\ntwo.\r\n"


def test_jsonl_records_and_bad_lines(tmp_path):
    path = tmp_path / "docs.jsonl"
    lines = [json.dumps({"id": "x", "text": "甲"}), "{not json", json.dumps({"id": 7, "text": "乙"}), json.dumps({"text": 1})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = read_documents([path])
    assert [d.id for d in result.documents] == ["x", "7"]
    assert result.skipped[0].startswith(f"{path}:2: not valid JSON")
    assert result.skipped[1].startswith(f"{path}:4: expected an object")
    with pytest.raises(InputError, match=":2: not valid JSON"):
        read_documents([path], strict=True)


def test_binary_and_non_utf8_files_are_skipped_by_name(tmp_path):
    (tmp_path / "bin.txt").write_bytes(b"abc\x00def")
    (tmp_path / "latin1.txt").write_bytes("café".encode("latin-1"))
    (tmp_path / "ok.txt").write_text("fine", encoding="utf-8")
    result = read_documents([tmp_path])
    assert [d.id for d in result.documents] == ["ok.txt"]
    assert any("bin.txt: binary file (NUL byte at offset 3)" in m for m in result.skipped)
    assert any("latin1.txt: not UTF-8 (byte 0xe9 at offset 3)" in m for m in result.skipped)
    with pytest.raises(InputError, match="binary file"):
        read_documents([tmp_path], strict=True)


def test_missing_path_and_duplicate_ids_are_user_errors(tmp_path):
    with pytest.raises(InputError, match="no such file or folder"):
        read_documents([tmp_path / "nope"])
    path = tmp_path / "d.jsonl"
    path.write_text('{"id": "a", "text": "x"}\n{"id": "a", "text": "y"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="duplicate document id 'a'"):
        read_documents([path])


def test_same_file_twice_is_read_once(tmp_path):
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    result = read_documents([tmp_path / "a.txt", tmp_path / "a.txt"])
    assert len(result.documents) == 1 and "given more than once" in result.skipped[0]
