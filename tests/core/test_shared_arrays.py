"""Arrays put in a memory file that processes share (core/shared_arrays.py)."""

import mmap
import multiprocessing
import os
import pickle

import numpy as np
import pytest

from partialdup.core import shared_arrays as shared_module
from partialdup.core.shared_arrays import SHARED_MIN_BYTES, SharedMapping, shared_arrays, shared_place

needs_memory_files = pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="memory files are Linux's")


def _arrays():
    return [np.arange(SHARED_MIN_BYTES // 8, dtype=np.int64), np.zeros(0, np.int32), np.array([True, False, True]),
            np.arange(12, dtype=np.float32).reshape(3, 4), np.arange(7, dtype=np.int16)]


def _place(array):
    return shared_place(pickle.PickleBuffer(array).raw())


@needs_memory_files
def test_shared_arrays_are_equal_read_only_copies_in_one_memory_file():
    arrays = _arrays()
    copies = shared_arrays(arrays)
    for array, copy in zip(arrays, copies, strict=True):
        assert copy.dtype == array.dtype and copy.shape == array.shape and np.array_equal(copy, array)
        assert not copy.flags.writeable
        with pytest.raises(ValueError):
            copy[...] = 0
    places = [_place(copy) for copy in copies]
    assert all(place is not None for place in places)
    mappings = {id(mapping) for mapping, _ in places}
    assert len(mappings) == 1 and isinstance(places[0][0], SharedMapping)
    # Each in its own stretch of the file, at a cache line's start.
    stretches = sorted((offset, offset + copy.nbytes) for (_, offset), copy in zip(places, copies))
    assert all(offset % 64 == 0 for offset, _ in stretches)
    assert all(end <= start for (_, end), (start, _) in zip(stretches, stretches[1:]))
    arrays[0][0] = -1  # copies: the originals are not read
    assert copies[0][0] == 0


@needs_memory_files
def test_a_view_of_a_shared_array_is_placed_within_it_and_ordinary_memory_nowhere():
    (big,) = shared_arrays([np.arange(SHARED_MIN_BYTES // 8, dtype=np.int64)])
    mapping, offset = _place(big)
    assert _place(big[10:20]) == (mapping, offset + 80)
    assert _place(np.arange(5)) is None
    assert shared_place(memoryview(b"bytes")) is None


def test_small_arrays_stay_as_they_are():
    arrays = [np.arange(10), np.zeros(3, bool)]
    assert all(copy is array for copy, array in zip(shared_arrays(arrays), arrays, strict=True))


def test_without_memory_files_the_arrays_stay_as_they_are(monkeypatch):
    monkeypatch.delattr(os, "memfd_create", raising=False)
    arrays = _arrays()
    assert all(copy is array for copy, array in zip(shared_arrays(arrays), arrays, strict=True))


@needs_memory_files
def test_a_memory_file_refused_leaves_the_arrays_as_they_are(monkeypatch):
    def refused(*_):
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(os, "memfd_create", refused)
    arrays = _arrays()
    assert all(copy is array for copy, array in zip(shared_arrays(arrays), arrays, strict=True))


@needs_memory_files
def test_the_memory_file_is_closed_once_its_arrays_are_gone():
    (big,) = shared_arrays([np.ones(SHARED_MIN_BYTES, np.uint8)])
    fd = _place(big)[0].fd
    os.fstat(fd)  # open
    del big
    with pytest.raises(OSError):
        os.fstat(fd)


@needs_memory_files
@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="forked processes only")
def test_a_process_mapping_the_file_reads_the_arrays_without_a_copy():
    # What a helper does with the descriptor it is sent (pipeline/messages.py).
    copies = shared_arrays(_arrays())
    mapping, _ = _place(copies[0])
    context = multiprocessing.get_context("fork")
    mine, theirs = context.Pipe(duplex=False)

    def read(fd):
        other = mmap.mmap(fd, os.fstat(fd).st_size, access=mmap.ACCESS_READ)
        theirs.send(int(np.frombuffer(other, np.int64, SHARED_MIN_BYTES // 8).sum()))

    process = context.Process(target=read, args=(mapping.fd,))
    process.start()
    try:
        assert mine.recv() == int(copies[0].sum())
    finally:
        process.join(10)
    assert shared_module._layout([copy.nbytes for copy in copies])[1] <= len(mapping)


def test_shared_buffers_are_equal_copies_in_one_memory_file():
    from partialdup.core.shared_arrays import shared_buffers

    buffers = [memoryview(bytes(range(256)) * 5), memoryview(b""), memoryview(np.arange(7, dtype=np.int64)).cast("B")]
    copies = shared_buffers(buffers)
    assert copies is not None and [bytes(c) for c in copies] == [bytes(b) for b in buffers]
    assert shared_place(copies[0]) is not None and shared_place(copies[2])[0] is shared_place(copies[0])[0]


def test_shared_buffers_without_memory_files_are_none(monkeypatch):
    from partialdup.core.shared_arrays import shared_buffers

    monkeypatch.delattr(os, "memfd_create", raising=False)
    assert shared_buffers([memoryview(b"abc")]) is None
