"""Files opened ahead (io/read_ahead.py): the same bytes and the same errors,
in the same order, as opening each file when it is read."""

from __future__ import annotations

import errno
import os
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.core.errors import InputError
from partialdup.io import read_ahead, reader
from partialdup.io.read_ahead import OpenAhead
from partialdup.io.reader import read_documents


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _refusing(monkeypatch: pytest.MonkeyPatch, refused: set[str]) -> None:
    # Tests run as root, whom permissions do not stop: the refusal is simulated.
    real_open = os.open

    def opened(path, *args, **kwargs):
        if os.path.basename(path) in refused:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", opened)


def _outcomes_plain(paths: list[str]) -> list[bytes | str]:
    """The plain reference: each file opened when it is read (by os.open,
    which the refusal is simulated on)."""
    outcomes: list[bytes | str] = []
    for path in paths:
        try:
            with open(os.open(path, os.O_RDONLY), "rb", buffering=0) as file:
                outcomes.append(file.readall())
        except OSError as error:
            outcomes.append(f"{type(error).__name__}: {error.strerror}")
    return outcomes


def _outcomes_ahead(paths: list[str], ahead: int) -> list[bytes | str]:
    outcomes: list[bytes | str] = []
    with OpenAhead(paths, ahead) as files:
        for path in paths:
            try:
                with files.opened(path) as file:
                    outcomes.append(file.readall())
            except OSError as error:
                outcomes.append(f"{type(error).__name__}: {error.strerror}")
    return outcomes


@settings(max_examples=40, deadline=None)
@given(
    contents=st.lists(st.binary(max_size=64), min_size=0, max_size=12),
    refused=st.sets(st.integers(0, 11), max_size=4),
    ahead=st.integers(0, 5),
)
def test_the_same_bytes_and_errors_in_order_as_opening_each_file_when_read(tmp_path_factory, contents, refused, ahead):
    folder = tmp_path_factory.mktemp("files")
    paths = []
    for number, data in enumerate(contents):
        path = folder / f"{number}.txt"
        path.write_bytes(data)
        paths.append(str(path))
    with pytest.MonkeyPatch.context() as monkeypatch:
        _refusing(monkeypatch, {f"{number}.txt" for number in refused})
        before = _open_fds()
        assert _outcomes_ahead(paths, ahead) == _outcomes_plain(paths)
        assert _open_fds() == before


def test_each_file_is_announced_to_the_kernel_when_opened_ahead(tmp_path, monkeypatch):
    paths = []
    for number in range(5):
        (tmp_path / f"{number}.txt").write_text(str(number), encoding="utf-8")
        paths.append(str(tmp_path / f"{number}.txt"))
    announced = []
    real_advise = os.posix_fadvise

    def advise(descriptor, offset, length, advice):
        announced.append(advice)
        return real_advise(descriptor, offset, length, advice)

    monkeypatch.setattr(os, "posix_fadvise", advise)
    assert _outcomes_ahead(paths, 2) == [b"0", b"1", b"2", b"3", b"4"]
    assert announced == [os.POSIX_FADV_WILLNEED] * 5
    announced.clear()
    assert _outcomes_ahead(paths, 0) == [b"0", b"1", b"2", b"3", b"4"]
    assert announced == []


def test_a_file_asked_for_out_of_order_is_refused(tmp_path):
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(name, encoding="utf-8")
    with OpenAhead([str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]) as files:
        with pytest.raises(ValueError, match="not the next file"):
            files.opened(str(tmp_path / "b.txt"))


def test_leaving_early_closes_the_files_opened_ahead(tmp_path):
    paths = []
    for number in range(10):
        (tmp_path / f"{number}.txt").write_text("x", encoding="utf-8")
        paths.append(str(tmp_path / f"{number}.txt"))
    before = _open_fds()
    with OpenAhead(paths, 4) as files:
        with files.opened(paths[0]) as file:
            assert file.readall() == b"x"
        assert _open_fds() == before + 4  # the next four, opened ahead
    assert _open_fds() == before


def _folder(tmp_path):
    (tmp_path / "sub").mkdir()
    for number in range(7):
        (tmp_path / "sub" / f"{number}.txt").write_text(f"document {number}", encoding="utf-8")
    (tmp_path / "gbk.txt").write_bytes("中文文件的内容，用国标码写的。".encode("gbk"))
    (tmp_path / "secret.txt").write_text("locked", encoding="utf-8")
    (tmp_path / "lines.jsonl").write_text('{"id": "j1", "text": "one"}\n{"id": "j2", "text": "two"}\n', encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("strict", [False, True])
def test_read_documents_reads_and_reports_as_opening_each_file_when_read(tmp_path, monkeypatch, strict):
    folder = _folder(tmp_path)
    _refusing(monkeypatch, {"secret.txt"})
    paths = [folder, folder / "sub" / "3.txt"]  # one file given twice: read once

    def read(ahead: int):
        monkeypatch.setattr(reader, "OpenAhead", partial(OpenAhead, ahead=ahead))
        before = _open_fds()
        try:
            return read_documents(paths, strict=strict)
        except InputError as error:
            return str(error)
        finally:
            assert _open_fds() == before

    plain = read(0)
    assert read(3) == plain
    assert read(read_ahead.READ_AHEAD) == plain
    if strict:
        assert plain == f"{folder / 'secret.txt'}: cannot read (Permission denied)"
    else:
        assert [d.id for d in plain.documents][:3] == ["gbk.txt", "j1", "j2"]
        assert f"{folder / 'secret.txt'}: cannot read (Permission denied)" in plain.skipped


def test_out_of_descriptors_it_opens_fewer_ahead_and_loses_no_file(tmp_path, monkeypatch):
    # A low limit on open files: opening ahead must not make a file unreadable.
    paths = []
    for number in range(12):
        (tmp_path / f"{number}.txt").write_text(str(number), encoding="utf-8")
        paths.append(str(tmp_path / f"{number}.txt"))
    base = _open_fds()
    real_open = os.open

    def opened(path, *args, **kwargs):
        if _open_fds() >= base + 3:
            raise OSError(errno.EMFILE, "Too many open files", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", opened)
    assert _outcomes_ahead(paths, 8) == [str(number).encode() for number in range(12)]
    assert _open_fds() == base
