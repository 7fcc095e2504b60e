"""Freed memory given back to the system.

The C library's ``malloc`` keeps the memory a process frees for its next
allocations: after a large step (a search's arrays, a few hundred thousand
dicts of a stage) the process's resident size stays near its peak while it
waits, holds its results, or forks workers that keep those pages too.
glibc's ``malloc_trim`` returns the free pages at the top of the heap and
inside it. A word-set search's helper held 124 MB after its work, 66 MB once
trimmed (docs/benchmark.md, session 24). Elsewhere (musl, macOS) nothing
happens.
"""

from __future__ import annotations

import functools
from typing import Callable

__all__ = ["release_free_memory"]


def release_free_memory() -> bool:
    """Give the freed heap memory back to the system, where the C library
    can (glibc); a few milliseconds. True when it did."""
    trim = _malloc_trim()
    return trim is not None and bool(trim(0))


@functools.cache  # the C library, found once per process (not at import)
def _malloc_trim() -> Callable[[int], int] | None:
    import ctypes

    try:  # the process's own symbols: the C library it runs on (no search on disk)
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None  # not glibc
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim  # type: ignore[no-any-return]
