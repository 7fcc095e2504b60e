"""Large work sent to a helper process through a pipe, its arrays unpickled
in place.

``Connection.send`` pickles a message whole into one buffer before writing
it: each array of the message is copied into it (with the buffer's
growth, up to twice the message at once), and on the other side unpickled
out of the bytes read into arrays of its own, a second copy. ``detect``
sends its helpers the run's words numbered (:mod:`partialdup.index.word_columns`,
twice: one per side search) and its near misses (:class:`~partialdup.pipeline.sidework.NearPieces`):
making the near misses' message took the calling process 24 MB more
(traced) in the look-ups of the English bench corpus.

:func:`send_message` pickles with protocol 5, its arrays' memory left out of
band, and writes the pickle, then each array's bytes straight from the
array: no copy on the sending side. :func:`received_message` reads the
arrays one at a time, each into a buffer of its own that the unpickled
array then holds (writable, as a copy would be; ``Connection`` reads a
message into a buffer of its own first and copies it out, so the receiver
holds one array twice for a moment, not the whole message).
"""

from __future__ import annotations

import io
import pickle
import sys
from contextlib import contextmanager
from multiprocessing.reduction import ForkingPickler
from typing import Any, Iterator

__all__ = ["PIPE_BYTES", "prompt_reading", "received_message", "roomy_pipe", "send_message"]

#: Bytes a pipe to a helper is asked to hold (Linux's default is 64 KB;
#: 1 MB is what an unprivileged process may ask for by default). A helper
#: that reads a large message while its main thread works takes the
#: interpreter's lock once per pipe's worth: the rest of the Chinese bench
#: corpus's texts, sent while a helper made the first piece, held the
#: caller 0.16-0.18 s with 64 KB, 0.06 s with a prompter hand-over
#: (:func:`prompt_reading`), 0.03 s with both (docs/benchmark.md, session 47).
PIPE_BYTES = 1 << 20

#: The interpreter's switch interval (seconds) while a thread reads a pipe
#: beside a working main thread (:func:`prompt_reading`); Python's is 0.005.
_PROMPT_SWITCH = 0.0001


def roomy_pipe(context: Any) -> tuple[Any, Any]:
    """``context.Pipe(duplex=False)`` (reader, sender) whose buffer holds
    :data:`PIPE_BYTES` where the system lets it (Linux), else as it is."""
    reader, sender = context.Pipe(duplex=False)
    try:
        import fcntl

        fcntl.fcntl(sender.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (ImportError, AttributeError, OSError):  # not Linux, or over the user's pipe quota: the default
        pass
    return reader, sender


@contextmanager
def prompt_reading() -> Iterator[None]:
    """Around a thread's reading of a pipe while the process's main thread
    works: each time the reader has bytes to take, the worker hands it the
    interpreter's lock within 0.1 ms instead of 5 (a switch is made only when
    the reader asks: the main thread is not slowed otherwise). The interval
    is the process's: one such reader at a time."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(_PROMPT_SWITCH)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def send_message(conn: Any, message: Any) -> None:
    """Sends ``message`` through ``conn`` (a multiprocessing connection), its
    buffers (arrays) written out of band, without a copy."""
    buffers: list[Any] = []
    head = io.BytesIO()
    pickler = pickle.Pickler(head, 5, buffer_callback=buffers.append)
    # What a connection's own pickler reduces (multiprocessing's objects).
    pickler.dispatch_table = {**ForkingPickler._copyreg_dispatch_table, **ForkingPickler._extra_reducers}  # type: ignore[attr-defined]
    pickler.dump(message)
    views = [buffer.raw() for buffer in buffers]
    conn.send([view.nbytes for view in views])
    conn.send_bytes(head.getbuffer())
    del head
    for view in views:
        conn.send_bytes(view)


def received_message(conn: Any) -> Any:
    """The message :func:`send_message` sent through ``conn``."""
    sizes = conn.recv()
    head = conn.recv_bytes()
    buffers = []
    for size in sizes:
        buffer = bytearray(size)
        if size:
            conn.recv_bytes_into(buffer)
        else:
            conn.recv_bytes()
        buffers.append(buffer)
    return pickle.loads(head, buffers=buffers)
