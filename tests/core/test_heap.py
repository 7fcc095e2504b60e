"""Freed memory given back to the system (glibc's malloc_trim)."""

from __future__ import annotations

import os
import platform

import pytest

from partialdup.core.heap import release_free_memory

GLIBC = platform.libc_ver()[0] == "glibc"


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not GLIBC or not os.path.exists("/proc/self/statm"), reason="glibc on Linux only")
def test_memory_freed_between_live_blocks_goes_back():
    # Blocks under malloc's mmap threshold, every tenth kept: the freed ones
    # are holes inside the heap, which free() never gives back by itself.
    blocks = [bytearray(100_000) for _ in range(600)]
    kept = blocks[::10]
    del blocks
    before = resident_bytes()
    assert release_free_memory() is True
    assert before - resident_bytes() > 20_000_000
    assert len(kept) == 60


def test_it_answers_false_where_nothing_can_be_trimmed(monkeypatch):
    from partialdup.core import heap

    monkeypatch.setattr(heap, "_malloc_trim", lambda: None)
    assert release_free_memory() is False
