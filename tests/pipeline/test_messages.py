"""Messages sent to helpers with their arrays out of band (pipeline/messages.py), through real pipes and processes."""

import mmap
import multiprocessing
import os
import sys
import threading
from types import SimpleNamespace

import numpy as np
import pytest

from partialdup.core.joined_texts import JoinedTexts
from partialdup.core.shared_arrays import SHARED_MIN_BYTES, shared_arrays
from partialdup.index.word_columns import WordColumns
from partialdup.pipeline.messages import PIPE_BYTES, prompt_reading, received_message, roomy_pipe, send_message

from tests.paths import SAMPLES

LINES = (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8").splitlines()


def _message():
    return {
        "arrays": [np.arange(100_000, dtype=np.int64), np.zeros(0, np.int32), np.arange(12, dtype=np.float32).reshape(3, 4),
                   np.arange(40)[::3]],
        "texts": JoinedTexts.of([*LINES[:50], None, "", "漢字 and “quotes” 😀"]),
        "plain": ("words", 3, None, b"bytes"),
    }


def _same(got, want):
    assert got["plain"] == want["plain"] and list(got["texts"]) == list(want["texts"])
    for a, b in zip(got["arrays"], want["arrays"], strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def _received_by_a_thread(reader, writer, message):
    # Larger than a pipe holds: read by a thread while it is written.
    got = {}
    receiver = threading.Thread(target=lambda: got.update(received_message(reader)))
    receiver.start()
    send_message(writer, message)
    receiver.join(10)
    return got


def test_a_message_comes_through_a_pipe_whole():
    reader, writer = multiprocessing.Pipe(duplex=False)
    message = _message()
    got = _received_by_a_thread(reader, writer, message)
    _same(got, message)
    assert all(array.flags.writeable for array in got["arrays"] if array.size)


def _echo(conn):
    conn.send_bytes(b"ready")
    message = received_message(conn)
    message["arrays"][0][0] = -1  # the arrays received are the receiver's own
    send_message(conn, message)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="forked helpers only")
def test_a_message_goes_to_a_forked_process_and_back():
    # Larger than a pipe holds: the sender and the receiver take turns.
    context = multiprocessing.get_context("fork")
    mine, theirs = context.Pipe()
    process = context.Process(target=_echo, args=(theirs,))
    process.start()
    try:
        assert mine.recv_bytes() == b"ready"
        message = _message()
        sentences = [tuple(line.split()) for line in LINES]
        docs = [SimpleNamespace(sentences=part, tokens=tuple(map(len, part)), words=part)
                for part in (sentences[i : i + 20] for i in range(0, 200, 20))]
        message["columns"] = WordColumns.of(docs)
        send_message(mine, message)
        back = received_message(mine)
    finally:
        process.join(10)
    assert back["arrays"][0][0] == -1 and message["arrays"][0][0] == 0
    back["arrays"][0][0] = 0
    _same(back, message)
    assert back["columns"].words == message["columns"].words
    assert np.array_equal(back["columns"].columns, message["columns"].columns)


def _in_a_mapping(array):
    # Whether an array's memory is a mapped file (not bytes of the heap).
    owner = array
    while isinstance(owner, (np.ndarray, memoryview)):
        owner = owner.base if isinstance(owner, np.ndarray) else owner.obj
    return isinstance(owner, mmap.mmap)


def _shared_message():
    big, small = shared_arrays([np.arange(SHARED_MIN_BYTES // 8, dtype=np.int64), np.arange(50, dtype=np.int32)])
    return {"arrays": [big, big[5:9], np.arange(100_000, dtype=np.int64), small, big[:0]], "texts": JoinedTexts.of(LINES[:5]),
            "plain": (1, "two")}


def _mapped_echo(conn):
    message = received_message(conn)
    arrays = message["arrays"]
    conn.send(([_in_a_mapping(array) for array in arrays], [array.flags.writeable for array in arrays]))
    arrays[2][0] = -1  # a writable array received is the receiver's own
    send_message(conn, message)


needs_memory_files = pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="memory files are Linux's")


@needs_memory_files
@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="forked helpers only")
def test_arrays_in_a_memory_file_go_over_a_socket_as_the_file():
    context = multiprocessing.get_context("fork")
    mine, theirs = context.Pipe(duplex=True)  # a Unix socket
    process = context.Process(target=_mapped_echo, args=(theirs,))
    process.start()
    theirs.close()  # the child's end: EOF here if the child dies
    message = _shared_message()
    try:
        send_message(mine, message)
        mapped, writable = mine.recv()
        back = received_message(mine)
    finally:
        process.join(10)
    # The shared arrays and views mapped (not sent as bytes), read-only as
    # they were sent; the rest as bytes, writable as sent.
    assert mapped == [True, True, False, True, True]
    assert writable == [False, False, True, False, False]
    assert back["arrays"][2][0] == -1 and message["arrays"][2][0] == 0
    back["arrays"][2][0] = 0
    _same(back, message)


@needs_memory_files
def test_arrays_in_a_memory_file_go_through_a_pipe_as_bytes():
    reader, writer = multiprocessing.Pipe(duplex=False)  # a pipe carries no descriptor
    message = _shared_message()
    open_before = len(os.listdir("/proc/self/fd"))
    got = _received_by_a_thread(reader, writer, message)
    assert len(os.listdir("/proc/self/fd")) == open_before  # none left open by asking for a socket
    _same(got, message)
    assert not any(_in_a_mapping(array) for array in got["arrays"])
    assert [array.flags.writeable for array in got["arrays"]] == [array.flags.writeable for array in message["arrays"]]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipe sizes are Linux's")
def test_a_roomy_pipe_holds_a_megabyte_and_carries_messages():
    import fcntl

    reader, writer = roomy_pipe(multiprocessing.get_context("fork"))
    assert fcntl.fcntl(writer.fileno(), fcntl.F_GETPIPE_SZ) >= PIPE_BYTES
    writer.send_bytes(b"x" * (PIPE_BYTES - 1024))  # no reader yet: held by the pipe, no wait
    assert reader.recv_bytes() == b"x" * (PIPE_BYTES - 1024)
    message = _message()
    _same(_received_by_a_thread(reader, writer, message), message)


def test_prompt_reading_shortens_the_switch_interval_and_gives_it_back():
    before = sys.getswitchinterval()
    with prompt_reading():
        assert sys.getswitchinterval() < before
    assert sys.getswitchinterval() == before
    with pytest.raises(EOFError), prompt_reading():
        raise EOFError
    assert sys.getswitchinterval() == before
