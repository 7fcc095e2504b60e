"""Files opened a few ahead of the one being read, each announced to the
kernel as it is opened, so that the disk's waits overlap.

Read one by one from a cold page cache, a folder's files wait on the disk one
after the other. The Chinese bench corpus's 9,161 files took 1.21 to 1.35 s
to read cold, and 0.09 to 0.14 s warm. :class:`OpenAhead` opens each file
:data:`READ_AHEAD` files before it is read and tells the kernel it will be
(``posix_fadvise`` ``WILLNEED``: the kernel reads it asynchronously). Each
file is then read from the descriptor already open, so a warm cache pays one
more system call per file. ``read_documents`` on that corpus (reading and
decoding, trees alternating: two runs each cold, four warm) took 0.84 to
1.01 s cold against 1.70 to 1.78 s, and 0.29 to 0.40 s warm against 0.36 to
0.49 s.

Everything stays in the calling thread and in the files' order. A file that
cannot be opened raises its error when it is read, as if it had been opened
then. Out of descriptors (a low limit on open files), fewer are held ahead
from then on: the files held never make another fail (with ``ulimit -n 40``
the bench corpus is read whole). A thread that announced the files instead
made the plain reading take 0.23 to 0.33 s cold, but it fought the decoding
for the GIL and slowed ``read_documents`` warm (0.52 to 0.65 s, against 0.30
to 0.49 s).
"""

from __future__ import annotations

import errno
import os
from collections import deque
from io import FileIO
from pathlib import Path
from typing import Sequence

__all__ = ["OpenAhead", "READ_AHEAD"]

#: Files opened and announced ahead of the one read: descriptors held at once.
READ_AHEAD = 32


class OpenAhead:
    """Opens ``paths`` in order, :data:`READ_AHEAD` ahead of the one asked
    for, and announces each to the kernel. Use it as a context manager: the
    files opened and not asked for are closed on leaving it.

    Args:
        paths: The files, in the order :meth:`opened` asks for them.
        ahead: Files opened ahead of the one asked for (0: each opened when asked).
    """

    def __init__(self, paths: Sequence[str | Path], ahead: int = READ_AHEAD) -> None:
        self._paths = list(paths)
        self._ahead = ahead if hasattr(os, "posix_fadvise") else 0
        self._next = 0  # the next path to open
        self._open: deque[tuple[str | Path, int | OSError]] = deque()

    def __enter__(self) -> OpenAhead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the files opened and not asked for."""
        while self._open:
            _, descriptor = self._open.popleft()
            if isinstance(descriptor, int):
                os.close(descriptor)

    def opened(self, path: str | Path) -> FileIO:
        """``path`` opened for reading, unbuffered (the caller closes it).

        Raises:
            OSError: The file cannot be opened (as ``open`` raises it).
            ValueError: ``path`` is not the next of the paths given.
        """
        self._fill(1 + self._ahead)
        if not self._open or self._open[0][0] != path:
            raise ValueError(f"{path}: not the next file to read")
        _, descriptor = self._open.popleft()
        if isinstance(descriptor, OSError):
            raise descriptor
        return open(descriptor, "rb", buffering=0)  # noqa: SIM115 - the caller closes it

    def _fill(self, wanted: int) -> None:
        while len(self._open) < wanted and self._next < len(self._paths):
            path = self._paths[self._next]
            opened = _opened(path, announce=self._ahead > 0)
            if self._open and isinstance(opened, OSError) and opened.errno in (errno.EMFILE, errno.ENFILE):
                # Out of descriptors, those held ahead among them (a low
                # limit): hold fewer from now on. This file is opened when
                # it is asked for, and fails then only as it would have.
                self._ahead = len(self._open) - 1
                return
            self._next += 1
            self._open.append((path, opened))


def _opened(path: str | Path, *, announce: bool) -> int | OSError:
    try:
        # O_BINARY: where it exists (Windows), else the descriptor would translate line ends.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    except OSError as error:
        return error
    if announce:
        try:
            os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_WILLNEED)
        except OSError:
            pass  # a file the kernel does not read ahead: read when asked, as ever
    return descriptor
