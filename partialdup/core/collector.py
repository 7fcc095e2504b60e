"""The garbage collector paused around work that makes no reference cycles.

Python's cyclic collector runs whenever enough objects have been allocated:
a young collection walks the objects made since the last one, a full
collection every object of the process. The detector allocates millions of
tuples, strings and dicts that live until the run ends, and none of them in
a cycle, so every collection walks them for nothing: on the gold set 0.37 s
of 3.19 s of features and 0.47 s of 5.08 s of detect (CPU, ``--jobs 1``),
about 130 ms of a 1M-sentence store check (docs/store.md). Reference
counting frees what the work made when it ends, collector or not; the tests
check that a check leaves nothing for the collector.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection inside (:func:`gc.disable`); the collector is
    given back as it was found (nested pauses keep it off until the outer
    one ends)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
