"""Arrays that processes share: put once in a memory file, mapped by each
process that is sent them, not copied into it.

``detect`` sends the run's words numbered
(:class:`~partialdup.index.word_columns.WordColumns`: 10 MB of arrays on
either bench corpus at 8x) to two helper processes, the word-set search's
and the headline search's, and keeps them itself: sent as bytes, each of
the three processes held a copy of its own. :func:`shared_arrays` copies
such arrays into one memory file (Linux's ``memfd_create``), mapped shared;
:func:`~partialdup.pipeline.messages.send_message` then sends a helper the
file itself (its descriptor, over the socket the helper listens on) and
where each array lies in it, and the helper maps the file: the three
processes read the same pages (8x peaks, docs/benchmark.md, session 52).

Where no memory file can be made (not Linux, or the system refuses one),
or for arrays too small to be worth one (:data:`SHARED_MIN_BYTES`), the
arrays are given back as they are: every caller works on either.
"""

from __future__ import annotations

import mmap
import os
import weakref
from typing import Sequence

import numpy as np

__all__ = ["SHARED_MIN_BYTES", "SharedMapping", "shared_arrays", "shared_buffers", "shared_place"]

#: Arrays together smaller than this stay where they are: a memory file
#: costs a descriptor and a mapping, and sending small arrays as bytes is cheap.
SHARED_MIN_BYTES = 1 << 20

#: Each array's start in a memory file is a multiple of this (a cache line).
_ALIGN = 64


class SharedMapping(mmap.mmap):
    """A memory file mapped whole and shared: every process that maps the
    same file sees the same pages. ``fd`` is the file's descriptor, open as
    long as the mapping is (to be sent to another process)."""

    fd: int


def shared_arrays(arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Copies of ``arrays`` (equal, same dtypes and shapes) lying in one
    memory file, read-only: a process that maps the file sees any write, so
    none is allowed. ``arrays`` themselves where no memory file can be made,
    or when they hold fewer than :data:`SHARED_MIN_BYTES` together."""
    offsets, total = _layout([array.nbytes for array in arrays])
    if total < SHARED_MIN_BYTES:
        return list(arrays)
    mapping = _memory_file(total)
    if mapping is None:
        return list(arrays)
    copies = []
    for array, offset in zip(arrays, offsets):
        copy = np.frombuffer(mapping, array.dtype, array.size, offset).reshape(array.shape)
        copy[...] = array
        copy.flags.writeable = False
        copies.append(copy)
    return copies


def shared_buffers(buffers: Sequence[memoryview]) -> list[memoryview] | None:
    """Copies of contiguous ``buffers`` (equal bytes) lying in one memory
    file, whatever their size: for a process that hands them to another
    and need not stay until they are read. None where no memory file can
    be made."""
    offsets, total = _layout([buffer.nbytes for buffer in buffers])
    mapping = _memory_file(max(total, 1))
    if mapping is None:
        return None
    whole = memoryview(mapping)
    copies = []
    for buffer, offset in zip(buffers, offsets):
        copy = whole[offset : offset + buffer.nbytes]
        copy[:] = buffer.cast("B")
        copies.append(copy)
    return copies


def shared_place(buffer: memoryview) -> tuple[SharedMapping, int] | None:
    """The memory file a contiguous buffer lies in (one of
    :func:`shared_arrays`' arrays, or a view of one) and the buffer's offset
    in it; None for a buffer of ordinary memory."""
    owner: object = buffer.obj
    while not isinstance(owner, SharedMapping):
        if isinstance(owner, np.ndarray):
            owner = owner.base
        elif isinstance(owner, memoryview):
            owner = owner.obj
        else:
            return None
    start = _address(np.frombuffer(owner, np.uint8))
    offset = _address(np.frombuffer(buffer, np.uint8)) - start
    if not 0 <= offset <= len(owner) - buffer.nbytes:
        return None
    return owner, offset


def _layout(sizes: Sequence[int]) -> tuple[list[int], int]:
    # Each buffer's offset (of `sizes` bytes each) in a file holding them all, and the file's size.
    offsets, end = [], 0
    for size in sizes:
        start = -(-end // _ALIGN) * _ALIGN
        offsets.append(start)
        end = start + size
    return offsets, end


def _memory_file(size: int) -> SharedMapping | None:
    # A memory file of `size` bytes mapped shared (None: none can be made here).
    create = getattr(os, "memfd_create", None)
    if create is None:
        return None
    try:
        fd = create("partialdup-arrays", getattr(os, "MFD_CLOEXEC", 0))
    except OSError:
        return None
    try:
        os.ftruncate(fd, size)
        mapping = SharedMapping(fd, size)
    except (OSError, ValueError):
        os.close(fd)
        return None
    mapping.fd = fd
    # The file goes once the mapping and every process's copy of it are gone.
    weakref.finalize(mapping, os.close, fd)
    return mapping


def _address(array: np.ndarray) -> int:
    return int(array.__array_interface__["data"][0])
