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
from multiprocessing.reduction import ForkingPickler
from typing import Any

__all__ = ["received_message", "send_message"]


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
