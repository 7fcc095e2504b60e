import errno
import os
import signal
import stat
import tempfile

import pytest

from partialdup.io import output
from partialdup.io.output import OutputError, atomic_output, atomic_path, check_output


def visible(folder):
    return sorted(name for name in os.listdir(folder) if not name.startswith("."))


def test_the_old_file_is_replaced_whole_with_its_permissions(tmp_path):
    target = tmp_path / "out.jsonl"
    target.write_text("old\n", encoding="utf-8")
    os.chmod(target, 0o640)
    with atomic_output(target) as stream:
        stream.write("new 新\n")
        assert target.read_text(encoding="utf-8") == "old\n"  # not yet
    assert target.read_text(encoding="utf-8") == "new 新\n"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert os.listdir(tmp_path) == ["out.jsonl"]


def test_a_new_file_gets_the_usual_permissions(tmp_path):
    mask = os.umask(0o027)
    try:
        with atomic_output(tmp_path / "new.jsonl") as stream:
            stream.write("x\n")
    finally:
        os.umask(mask)
    assert stat.S_IMODE(os.stat(tmp_path / "new.jsonl").st_mode) == 0o640


def test_an_interrupt_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.jsonl"
    target.write_text("old\n", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt):
        with atomic_output(target) as stream:
            stream.write("half")
            raise KeyboardInterrupt
    assert target.read_text(encoding="utf-8") == "old\n" and os.listdir(tmp_path) == ["out.jsonl"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("probe", [False, True], ids=["write", "probe"])
def test_a_signal_as_the_temporary_is_made_leaves_none(tmp_path, monkeypatch, signum, probe):
    # The signal arrives just after mkstemp has made the file, before the
    # removal is armed: the handler's exception must come after it is.
    target = tmp_path / "out.jsonl"
    target.write_text("old\n", encoding="utf-8")
    made = tempfile.mkstemp

    def mkstemp_then_signal(*args, **kwargs):
        answer = made(*args, **kwargs)
        signal.raise_signal(signum)
        return answer

    class Terminated(Exception):
        pass

    def terminated(signum, frame):
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminated)
    monkeypatch.setattr(tempfile, "mkstemp", mkstemp_then_signal)
    try:
        with pytest.raises(KeyboardInterrupt if signum == signal.SIGINT else Terminated):
            if probe:
                check_output(target)
            else:
                with atomic_output(target) as stream:
                    stream.write("new\n")
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert target.read_text(encoding="utf-8") == "old\n" and os.listdir(tmp_path) == ["out.jsonl"]


def test_a_full_disk_is_one_line_and_the_old_file_stays(tmp_path, monkeypatch):
    target = tmp_path / "out.jsonl"
    target.write_text("old\n", encoding="utf-8")

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(output.os, "fsync", full)
    with pytest.raises(OutputError) as error:
        with atomic_output(target) as stream:
            stream.write("new\n")
    assert str(error.value) == f"{target}: cannot write (No space left on device)"
    assert target.read_text(encoding="utf-8") == "old\n" and os.listdir(tmp_path) == ["out.jsonl"]


def test_a_link_is_followed_and_kept(tmp_path):
    (tmp_path / "real.jsonl").write_text("old\n", encoding="utf-8")
    os.symlink("real.jsonl", tmp_path / "link.jsonl")
    with atomic_output(tmp_path / "link.jsonl") as stream:
        stream.write("new\n")
    assert os.path.islink(tmp_path / "link.jsonl") and (tmp_path / "real.jsonl").read_text(encoding="utf-8") == "new\n"


def test_a_device_is_written_in_place():
    check_output(os.devnull)
    with atomic_output(os.devnull) as stream:
        stream.write("nothing\n")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_outputs_that_cannot_be_written_are_found_before_any_work(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    cases = {
        tmp_path / "missing" / "out.jsonl": f"folder {tmp_path / 'missing'} does not exist",
        tmp_path: "is a folder",
        tmp_path / "file" / "out.jsonl": f"folder {tmp_path / 'file'} is not a folder",
    }
    for path, problem in cases.items():
        with pytest.raises(OutputError) as error:
            check_output(path)
        assert str(error.value) == f"{path}: {problem}"
    check_output(tmp_path / "new.jsonl")
    assert visible(tmp_path) == ["file"] and os.listdir(tmp_path) == ["file"]  # the probe left nothing


def test_a_folder_that_takes_no_file(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(output.tempfile, "mkstemp", refuse)
    with pytest.raises(OutputError) as error:
        check_output(tmp_path / "out.jsonl")
    assert str(error.value) == f"{tmp_path / 'out.jsonl'}: cannot write in folder {tmp_path} (Permission denied)"


def test_a_path_for_a_writer_that_needs_one(tmp_path):
    target = tmp_path / "table.tsv"
    target.write_text("old\n", encoding="utf-8")
    with pytest.raises(RuntimeError):
        with atomic_path(target) as temporary:
            temporary.write_text("half", encoding="utf-8")
            raise RuntimeError("crash")
    assert target.read_text(encoding="utf-8") == "old\n" and os.listdir(tmp_path) == ["table.tsv"]
    with atomic_path(target) as temporary:
        temporary.write_text("new\n", encoding="utf-8")
    assert target.read_text(encoding="utf-8") == "new\n" and os.listdir(tmp_path) == ["table.tsv"]


def test_an_output_folder_is_checked_before_any_work(tmp_path):
    from partialdup.io.output import check_folder

    (tmp_path / "file").write_text("x", encoding="utf-8")
    check_folder(tmp_path / "new" / "deeper")  # made when the run writes
    check_folder(tmp_path)
    for path, problem in ((tmp_path / "file", "not a folder"), (tmp_path / "file" / "x", f"{tmp_path / 'file'} is not a folder")):
        with pytest.raises(OutputError) as error:
            check_folder(path)
        assert str(error.value) == f"{path}: {problem}"
    assert sorted(os.listdir(tmp_path)) == ["file"]
