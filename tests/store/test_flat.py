"""Many features blobs unpacked at once, into a buffer reused between checks."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.store import codec
from partialdup.store.flat import FlatFeatures, UnpackBuffer, unpack_many
from tests.store.test_query import documents

_REUSED = UnpackBuffer()


def _packed(docs, flags) -> list[bytes]:
    return [codec.pack(doc, flags[i][: len(doc.bags)])[0] for i, doc in enumerate(docs)]


def _same(first: FlatFeatures, second: FlatFeatures) -> bool:
    return all(np.array_equal(getattr(first, name), getattr(second, name)) for name in first.__dataclass_fields__)


@settings(max_examples=150, deadline=None)
@given(st.lists(documents(), max_size=5), st.lists(st.lists(st.booleans(), min_size=6, max_size=6), min_size=5, max_size=5))
def test_a_reused_buffer_unpacks_as_a_new_one_and_as_each_blob_alone(docs, flags) -> None:
    # One buffer across every example: larger and smaller unpacks in turn.
    blobs = _packed(docs, flags)
    reused, fresh = unpack_many(blobs, _REUSED), unpack_many(blobs)
    assert _same(reused, fresh) and len(reused) == len(blobs)
    # Compressed parts decompressed beforehand, for some blobs: the same.
    given = [codec.decompress(codec.small_part(blob)) if i % 2 else None for i, blob in enumerate(blobs)]
    assert _same(unpack_many(blobs, smalls=given), fresh)
    for i, blob in enumerate(blobs):
        alone, among = vars(codec.unpack_features(blob)), vars(reused.document(i))
        assert all(np.array_equal(alone[name], among[name]) for name in alone)
    assert all(array.flags.aligned for array in vars(reused).values())


def test_arrays_still_held_are_never_written_over(detector, sources) -> None:
    blobs = []
    for document in sources[:8]:
        features = detector.features(document)
        blobs.append(codec.pack(features, [detector.matchable(features, i) for i in range(len(features.bags))])[0])
    buffer = UnpackBuffer()
    first = unpack_many(blobs[:4], buffer)
    kept = first.features  # an array of the first unpack, still held
    before = kept.copy()
    second = unpack_many(blobs[4:], buffer)  # must not write where `kept` lies
    assert np.array_equal(kept, before) and _same(second, unpack_many(blobs[4:]))
    del first, kept, second
    # Nothing of the earlier unpacks is held any more: the buffer is reused.
    taken = buffer.take(1)
    assert buffer.take(1) is taken
    third = unpack_many(blobs, buffer)
    assert np.shares_memory(third.features, np.frombuffer(taken, np.uint8)) and _same(third, unpack_many(blobs))
