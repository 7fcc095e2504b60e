"""Output safety in real processes: kill -9 and SIGTERM during the write, two
runs writing one file, a full disk, a full standard output, jieba's cache,
progress bars on a terminal. Every run has a time limit."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.paths import REPO

TEXT = (
    "The quick brown fox jumps over the lazy dog near the river bank. "
    "It was the best of times, it was the worst of times, said the narrator. "
)
LIMIT = 180  # seconds: a run that takes longer is a failure, not a hang

#: Runs the command line with every JSONL line written slowly, so that a
#: signal can be sent while the output is being written.
SLOW_WRITE = """
import sys, time
import partialdup.io.jsonl as jsonl
line = jsonl.SpanLines.line
def slow(self, span):
    time.sleep(float(sys.argv[1]))
    return line(self, span)
jsonl.SpanLines.line = slow
from partialdup.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def corpus(folder: Path, pairs: int = 1) -> Path:
    folder.mkdir()
    for n in range(pairs + 1):
        (folder / f"d{n}.txt").write_text(f"Opening line number {n} of its own. {TEXT}", encoding="utf-8")
    return folder


def python(*argv: str, **kwargs) -> subprocess.Popen:
    options = {"cwd": REPO, "env": {**os.environ, "PYTHONPATH": str(REPO)}, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    return subprocess.Popen([sys.executable, *argv], **{**options, **kwargs})


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + LIMIT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


def temporaries(folder: Path) -> list[str]:
    return [name for name in os.listdir(folder) if name.endswith(".partialdup-tmp")]


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_a_run_killed_while_writing_leaves_the_old_output(tmp_path, signum):
    docs = corpus(tmp_path / "docs", pairs=2)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "out.jsonl"
    out.write_bytes(b'{"old": "output"}\n')
    run = python("-c", SLOW_WRITE, "5", "detect", str(docs), "-o", str(out))
    wait_for(lambda: temporaries(out_dir) or run.poll() is not None, "the temporary output")
    assert run.poll() is None, run.stderr.read().decode()
    run.send_signal(signum)
    _, err = run.communicate(timeout=LIMIT)
    assert out.read_bytes() == b'{"old": "output"}\n'
    assert [name for name in os.listdir(out_dir) if not name.startswith(".")] == ["out.jsonl"]
    if signum == signal.SIGKILL:
        assert run.returncode == -signal.SIGKILL  # a hidden temporary may stay beside the intact file
    else:
        assert run.returncode == 143 and err.decode().endswith("partialdup: terminated\n")
        assert temporaries(out_dir) == []  # SIGTERM unwinds: the temporary is removed


def test_two_runs_writing_one_file_leave_one_whole_output(tmp_path):
    first, second = corpus(tmp_path / "first", pairs=1), corpus(tmp_path / "second", pairs=3)
    out = tmp_path / "out.jsonl"
    runs = [python("-c", SLOW_WRITE, "0.1", "detect", str(docs), "--boilerplate", "0", "-o", str(out)) for docs in (first, second)]
    for run in runs:
        run.communicate(timeout=LIMIT)
        assert run.returncode == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) in (1, 6)  # one run's whole output: 1 pair, or 6 pairs of 4 documents
    assert temporaries(tmp_path) == []


def test_standard_output_on_a_full_device(tmp_path):
    docs = corpus(tmp_path / "docs")
    with open("/dev/full", "wb") as full:
        run = python("-m", "partialdup", "detect", str(docs), stdout=full)
        _, err = run.communicate(timeout=LIMIT)
    assert run.returncode == 2
    assert err.decode().splitlines()[-1] == "partialdup: error: standard output: cannot write (No space left on device)"
    assert b"Traceback" not in err and b"Exception ignored" not in err


@pytest.fixture()
def full_disk(tmp_path):
    """A small tmpfs filled to the last page (needs root; skipped otherwise)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (the in-process test simulates ENOSPC instead)")
    try:
        (disk / "out.jsonl").write_bytes(b"old\n")
        filler = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(filler, b"\0" * 4096):
                pass
        except OSError:
            pass  # the disk is full
        finally:
            os.close(filler)
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


def test_a_full_disk_is_one_line_and_keeps_the_old_output(tmp_path, full_disk):
    docs = corpus(tmp_path / "docs")
    run = python("-m", "partialdup", "detect", str(docs), "-o", str(full_disk / "out.jsonl"))
    _, err = run.communicate(timeout=LIMIT)
    assert run.returncode == 2 and b"Traceback" not in err
    assert err.decode().splitlines()[-1] == f"partialdup: error: {full_disk / 'out.jsonl'}: cannot write (No space left on device)"
    assert (full_disk / "out.jsonl").read_bytes() == b"old\n" and sorted(os.listdir(full_disk)) == ["filler", "out.jsonl"]


def test_jieba_cache_is_per_user_and_never_a_traceback(tmp_path):
    (tmp_path / "tmp").mkdir()
    (tmp_path / "a file").write_text("not a folder", encoding="utf-8")
    script = "from partialdup.text.tokens import Tokenizer; print(Tokenizer(segmenter='jieba').words('中文分词'))"
    for cache, made in ((tmp_path / "cache", True), (tmp_path / "a file", False)):
        env = {"XDG_CACHE_HOME": str(cache), "TMPDIR": str(tmp_path / "tmp")}
        run = python("-c", script, env={**os.environ, **env, "PYTHONPATH": str(REPO)})
        out, err = run.communicate(timeout=LIMIT)
        assert run.returncode == 0 and err == b"" and out.strip() == "['中文', '分词']".encode()
        if made:
            [cached] = os.listdir(tmp_path / "cache" / "partialdup")
            assert cached.startswith("jieba-") and oct(os.stat(tmp_path / "cache" / "partialdup").st_mode)[-3:] == "700"
    assert os.listdir(tmp_path / "tmp") == []  # jieba's shared /tmp/jieba.cache is not used


def test_progress_bars_on_a_terminal_only(tmp_path):
    import fcntl
    import pty
    import struct
    import termios

    docs = corpus(tmp_path / "docs")
    show_at_once = "import sys; from partialdup.io.progress import Progress; Progress.DELAY = 0; " \
                   "from partialdup.cli.main import main; sys.exit(main(sys.argv[1:]))"
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a new pty has no width
    run = python("-c", show_at_once, "detect", str(docs), stderr=follower)
    os.close(follower)
    run.communicate(timeout=LIMIT)
    seen = b""
    with contextlib.suppress(OSError):  # EIO once the other end is closed and read
        while chunk := os.read(leader, 65536):
            seen += chunk
    os.close(leader)
    assert run.returncode == 0 and b"\rreading documents:   0%" in seen and b"partialdup: 2 documents" in seen
    # Standard error that is not a terminal, or --quiet: no bar (tests/cli/test_main.py).
