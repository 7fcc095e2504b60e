"""The start-up cache: the user's own private folder, files written whole or not at all."""

from __future__ import annotations

import os
import signal
import stat
import tempfile

import pytest

from partialdup.text import diskcache
from partialdup.text.diskcache import cache_path, read_cached, user_cache_dir, write_cached


def test_the_cache_folder_is_private_and_the_users_own(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = user_cache_dir()
    assert folder == str(tmp_path / "partialdup") and stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    os.chmod(folder, 0o770)  # others could plant a cache there: none is used
    assert user_cache_dir() is None
    os.chmod(folder, 0o500)  # not writable
    try:
        assert user_cache_dir() is None or os.geteuid() == 0  # root may write anyway
    finally:
        os.chmod(folder, 0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # ignored, as XDG says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_cache_dir() == str(tmp_path / "home" / ".cache" / "partialdup")


def test_a_file_that_is_not_a_folder_means_no_cache(tmp_path, monkeypatch):
    (tmp_path / "partialdup").write_text("a file", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert user_cache_dir() is None and cache_path("idf", []) is None
    write_cached(None, {"a": 1})  # nothing, no error
    assert read_cached(None) is None


def test_the_cache_file_changes_with_its_sources(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = tmp_path / "table.tsv"
    source.write_text("a\t1.0\n", encoding="utf-8")
    first = cache_path("idf", [source])
    assert first is not None and os.path.basename(first).startswith("idf-")
    assert cache_path("idf", [source]) == first and cache_path("jieba", [source]) != first
    source.write_text("a\t1.0\nb\t2.0\n", encoding="utf-8")
    assert cache_path("idf", [source]) != first
    assert cache_path("idf", [tmp_path / "missing.tsv"]) is None


def test_written_whole_and_read_back(tmp_path):
    path = str(tmp_path / "x.cache")
    write_cached(path, ({"词": 1.5}, 2, ("a",)))
    assert read_cached(path) == ({"词": 1.5}, 2, ("a",)) and os.listdir(tmp_path) == ["x.cache"]
    (tmp_path / "x.cache").write_bytes(b"\x00broken")
    assert read_cached(path) is None


def test_a_write_cut_short_leaves_nothing_behind(tmp_path, monkeypatch):
    def full_disk(value, file):
        file.write(b"part")
        raise OSError(28, "No space left on device")

    path = tmp_path / "x.cache"
    path.write_bytes(b"old")
    monkeypatch.setattr(diskcache.marshal, "dump", full_disk)
    write_cached(str(path), ({"a": 1}, 1))
    assert os.listdir(tmp_path) == ["x.cache"] and path.read_bytes() == b"old"


def test_an_interrupt_as_the_temporary_is_made_leaves_nothing_behind(tmp_path, monkeypatch):
    made = tempfile.mkstemp

    def mkstemp_then_interrupt(*args, **kwargs):
        answer = made(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)  # before the removal would be armed
        return answer

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_cached(str(tmp_path / "x.cache"), ({"a": 1}, 1))
    assert os.listdir(tmp_path) == []


def test_old_files_of_a_kind_are_removed_beyond_the_newest(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    source = tmp_path / "table.tsv"
    folder = tmp_path / "cache" / "partialdup"
    written = []
    for version in range(diskcache.KEPT + 3):  # each a new version of the source: a new file
        source.write_text("a\\t1.0\\n" * (version + 1), encoding="utf-8")
        path = cache_path("idf", [source])
        write_cached(path, {"version": version})
        os.utime(path, ns=(version * 10**9, version * 10**9))  # file times may tie within a tick
        written.append(path)
    other = cache_path("jieba", [source])
    write_cached(other, {"other": 1})
    (folder / "notes.txt").write_text("not a cache file", encoding="utf-8")
    source.write_text("last", encoding="utf-8")
    last = cache_path("idf", [source])
    write_cached(last, {"version": "last"})
    left = sorted(name for name in os.listdir(folder) if name.startswith("idf-"))
    # the new one and the KEPT - 1 newest before it; the other kind and other files untouched
    assert left == sorted(os.path.basename(p) for p in [last, *written[-(diskcache.KEPT - 1):]])
    assert read_cached(other) == {"other": 1} and (folder / "notes.txt").exists()
    assert read_cached(last) == {"version": "last"}
