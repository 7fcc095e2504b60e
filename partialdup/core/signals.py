"""Signals that wait: Ctrl-C and SIGTERM held over a few system calls that
must happen together (a temporary file made and its removal armed)."""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

__all__ = ["DEFERRED", "signals_deferred"]

#: The signals whose handlers raise in the middle of a line of ours
#: (KeyboardInterrupt; the command line's termination).
DEFERRED = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block ends, then act as they would have.

    Their handlers raise an exception (KeyboardInterrupt, the command line's
    termination) at whatever line runs when they arrive. Between the creation
    of a temporary file and the arming of its removal, that would leave the
    file behind; the block is a few system calls, so the wait is short.
    Signals are left alone outside the main thread, where none can be set.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.getsignal(signum) for signum in DEFERRED}
    if any(handler is None for handler in previous.values()):
        yield  # a handler set outside Python could not be put back
        return
    arrived: list[int] = []
    for held in DEFERRED:
        signal.signal(held, lambda signum, frame: arrived.append(signum))
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for number in dict.fromkeys(arrived):
            signal.raise_signal(number)  # the handler of before runs now
