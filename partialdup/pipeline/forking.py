"""How a helper process is forked, starts and ends.

A helper forked from the calling process inherits its heap, its signal
handlers and its garbage collector's view of every object. Forked around
:func:`frozen_heap`, it shares the heap's pages without writing to them;
:func:`as_helper` is then the first thing it runs, giving Ctrl-C and
SIGTERM back to the caller; :func:`end_process` ends one whose result
was read or never will be.
"""

from __future__ import annotations

import gc
import signal
from contextlib import contextmanager
from typing import Any, Iterator

from partialdup.core.heap import release_free_memory

__all__ = ["as_helper", "end_process", "frozen_heap"]


#: The signals held across a fork (:func:`frozen_heap`) until the child has
#: its own handlers (:func:`as_helper`).
_HELD_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


def as_helper() -> None:
    """In a forked helper or worker: the calling process answers Ctrl-C and
    SIGTERM and ends its helpers, which must not run the handlers they
    inherited. The signals held since the fork (:func:`frozen_heap`) come
    now: a SIGTERM met before would have run the caller's handler in the
    helper, or been lost (a helper ended right after it was forked then
    waited for ever)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD_SIGNALS)


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Around a fork: the calling process's objects moved to the garbage
    collector's permanent generation, so that a forked child's collections
    do not walk them, writing to every page it shares with its parent
    (copy-on-write would copy them all: the documents' features, hundreds
    of megabytes); the parent's own collections see them again afterwards.
    The memory the parent freed is given back to the system first: a child
    forked late kept those pages too, and allocating into them copied them
    (zh tail: 598 → 539–567 MB peak, docs/benchmark.md, session 24).
    Ctrl-C and SIGTERM are held meanwhile: a child gets them once it has
    its own handlers (:func:`as_helper`); the caller gets them on the way out."""
    release_free_memory()
    gc.freeze()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_SIGNALS) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        gc.unfreeze()


def end_process(process: Any, reader: Any) -> None:
    """Close ``reader`` and end ``process``: its result was read (it has
    ended) or never will be."""
    reader.close()
    if process.is_alive():
        process.terminate()
    process.join()
