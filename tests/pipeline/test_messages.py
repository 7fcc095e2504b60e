"""Messages sent to helpers with their arrays out of band (pipeline/messages.py), through real pipes and processes."""

import multiprocessing
import sys
import threading
from types import SimpleNamespace

import numpy as np
import pytest

from partialdup.core.joined_texts import JoinedTexts
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


def test_a_message_comes_through_a_pipe_whole():
    # Larger than a pipe holds: read by a thread while it is written.
    reader, writer = multiprocessing.Pipe(duplex=False)
    message, got = _message(), {}
    receiver = threading.Thread(target=lambda: got.update(received_message(reader)))
    receiver.start()
    send_message(writer, message)
    receiver.join(10)
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


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipe sizes are Linux's")
def test_a_roomy_pipe_holds_a_megabyte_and_carries_messages():
    import fcntl

    reader, writer = roomy_pipe(multiprocessing.get_context("fork"))
    assert fcntl.fcntl(writer.fileno(), fcntl.F_GETPIPE_SZ) >= PIPE_BYTES
    writer.send_bytes(b"x" * (PIPE_BYTES - 1024))  # no reader yet: held by the pipe, no wait
    assert reader.recv_bytes() == b"x" * (PIPE_BYTES - 1024)
    message, got = _message(), {}
    receiver = threading.Thread(target=lambda: got.update(received_message(reader)))
    receiver.start()
    send_message(writer, message)
    receiver.join()
    _same(got, message)


def test_prompt_reading_shortens_the_switch_interval_and_gives_it_back():
    before = sys.getswitchinterval()
    with prompt_reading():
        assert sys.getswitchinterval() < before
    assert sys.getswitchinterval() == before
    with pytest.raises(EOFError), prompt_reading():
        raise EOFError
    assert sys.getswitchinterval() == before
