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
array then holds (writable where the array sent was: pickle keeps the
read-only flag; ``Connection`` reads a
message into a buffer of its own first and copies it out, so the receiver
holds one array twice for a moment, not the whole message).

An array that lies in a memory file (:mod:`partialdup.core.shared_arrays`)
is not written at all where the connection is a Unix socket (a duplex
``Pipe``): the file's descriptor goes over the socket, and the receiver
maps the file, privately (its writes are its own, as a copy's would be),
and reads the array in place. A helper's results come back the same way,
their arrays copied into a memory file of their own first
(``send_message(..., spill=True)``): the helper need not stay until the
caller reads them.
"""

from __future__ import annotations

import io
import mmap
import os
import pickle
import socket
import sys
from contextlib import contextmanager
from multiprocessing.reduction import ForkingPickler, recvfds, sendfds
from typing import Any, Iterator

from partialdup.core.shared_arrays import SharedMapping, shared_buffers, shared_place

__all__ = ["PIPE_BYTES", "SPILL_MIN_BYTES", "prompt_reading", "received_message", "roomy_pipe", "send_message"]

#: Bytes a pipe to a helper is asked to hold (Linux's default is 64 KB;
#: 1 MB is what an unprivileged process may ask for by default). A helper
#: that reads a large message while its main thread works takes the
#: interpreter's lock once per pipe's worth: the rest of the Chinese bench
#: corpus's texts, sent while a helper made the first piece, held the
#: caller 0.16-0.18 s with 64 KB, 0.06 s with a prompter hand-over
#: (:func:`prompt_reading`), 0.03 s with both (docs/benchmark.md, session 47).
PIPE_BYTES = 1 << 20

#: Buffers a spilled message (:func:`send_message`) holds before they go
#: into a memory file: fewer fit in a socket's own buffer (Linux: about
#: 200 KB), and the sender does not wait for them to be read.
SPILL_MIN_BYTES = 1 << 16

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


def send_message(conn: Any, message: Any, *, spill: bool = False) -> None:
    """Sends ``message`` through ``conn`` (a multiprocessing connection), its
    buffers (arrays) written out of band, without a copy; those lying in a
    memory file are sent as the file, where ``conn`` can carry one.

    ``spill``: the other buffers too, when they hold :data:`SPILL_MIN_BYTES`
    or more, copied into one memory file sent so: the sender then need not
    wait until the receiver has read their bytes (a helper's result, read
    when the caller asks for it: the helper ends at once, and the memory it
    holds goes with it)."""
    buffers: list[Any] = []
    head = io.BytesIO()
    pickler = pickle.Pickler(head, 5, buffer_callback=buffers.append)
    # What a connection's own pickler reduces (multiprocessing's objects).
    pickler.dispatch_table = {**ForkingPickler._copyreg_dispatch_table, **ForkingPickler._extra_reducers}  # type: ignore[attr-defined]
    pickler.dump(message)
    views = [buffer.raw() for buffer in buffers]
    places = [shared_place(view) for view in views]
    if spill and sum(view.nbytes for view, place in zip(views, places) if place is None) >= SPILL_MIN_BYTES:
        views, places = _spilled(views, places)
    files: list[SharedMapping] = []
    sock = _unix_socket(conn) if any(places) else None
    # Each buffer: (bytes, None) written after the pickle, or (bytes, (file, offset)) in the file-th file sent.
    layout: list[tuple[int, tuple[int, int] | None]] = []
    for view, place in zip(views, places):
        if place is None or sock is None:
            layout.append((view.nbytes, None))
            continue
        mapping, offset = place
        if mapping not in files:
            files.append(mapping)
        layout.append((view.nbytes, (files.index(mapping), offset)))
    conn.send(layout)
    conn.send_bytes(head.getbuffer())
    del head
    if sock is not None:  # then some buffer lies in a file (files is not empty)
        with sock:
            sendfds(sock, [mapping.fd for mapping in files])
    for view, (_, where) in zip(views, layout):
        if where is None:
            conn.send_bytes(view)


def _spilled(
    views: list[memoryview], places: list[tuple[SharedMapping, int] | None]
) -> tuple[list[memoryview], list[tuple[SharedMapping, int] | None]]:
    # The buffers not in a memory file copied into one (see send_message's
    # ``spill``), with their places; the buffers as they are where no file
    # can be made.
    loose = [k for k, place in enumerate(places) if place is None]
    copies = shared_buffers([views[k] for k in loose])
    if copies is None:
        return views, places
    views, places = list(views), list(places)
    for k, copy in zip(loose, copies):
        views[k], places[k] = copy, shared_place(copy)
    return views, places


def received_message(conn: Any) -> Any:
    """The message :func:`send_message` sent through ``conn``."""
    layout = conn.recv()
    head = conn.recv_bytes()
    files = _received_files(conn, {place[0] for _, place in layout if place is not None})
    buffers: list[Any] = []
    for size, place in layout:
        if place is not None:
            number, offset = place
            buffers.append(files[number][offset : offset + size])
            continue
        buffer = bytearray(size)
        if size:
            conn.recv_bytes_into(buffer)
        else:
            conn.recv_bytes()
        buffers.append(buffer)
    return pickle.loads(head, buffers=buffers)


def _unix_socket(conn: Any) -> socket.socket | None:
    # A socket on a copy of the connection's descriptor, when it is a Unix
    # socket (which carries descriptors); None for a pipe's.
    fd = os.dup(conn.fileno())
    try:
        sock = socket.socket(fileno=fd)
    except OSError:  # not a socket
        os.close(fd)
        return None
    if sock.family != getattr(socket, "AF_UNIX", None):
        sock.close()
        return None
    return sock


def _received_files(conn: Any, numbers: set[int]) -> list[memoryview]:
    # The memory files sent (as many as `numbers`), each mapped privately
    # (copy on write), whole, as a view.
    if not numbers:
        return []
    sock = _unix_socket(conn)
    if sock is None:
        raise ValueError("memory files were sent over a connection that cannot carry them")
    with sock:
        fds = recvfds(sock, len(numbers))
    views = []
    for fd in fds:
        try:
            views.append(memoryview(mmap.mmap(fd, os.fstat(fd).st_size, access=mmap.ACCESS_COPY)))
        finally:
            os.close(fd)
    return views
