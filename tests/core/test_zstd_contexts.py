import threading

import zstandard
from hypothesis import given, settings, strategies as st

from partialdup.core.zstd_contexts import ZstdContexts


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=5000))
def test_compress_and_decompress_give_the_data_back(data):
    contexts = ZstdContexts(3)
    frame = contexts.compress(data)
    assert contexts.decompress(frame) == data
    assert contexts.decompress(memoryview(frame)) == data


def test_a_frame_is_the_compressor_s_own_frame_and_records_its_size():
    contexts, data = ZstdContexts(3), "一段中文文本。".encode() * 500
    frame = contexts.compress(data)
    assert frame == zstandard.ZstdCompressor(level=3, write_content_size=True).compress(data)
    assert type(frame) is bytes
    assert zstandard.frame_content_size(frame) == len(data)


def test_a_level_is_kept_and_contexts_are_made_on_first_use():
    contexts = ZstdContexts(15)
    assert contexts._compressor is None and contexts._decompressor is None
    contexts.load()
    assert contexts._compressor is not None and contexts._decompressor is not None
    data = b"the same words again " * 200
    assert contexts.compress(data) == zstandard.ZstdCompressor(level=15).compress(data)


def test_each_thread_has_its_own_contexts():
    contexts = ZstdContexts(3)
    here = contexts.compressor
    seen: list[object] = []
    thread = threading.Thread(target=lambda: seen.append((contexts.compressor, contexts.level, contexts.compress(b"x" * 999))))
    thread.start()
    thread.join()
    there, level, frame = seen[0]
    assert there is not here and level == 3
    assert contexts.compressor is here
    assert contexts.decompress(frame) == b"x" * 999
