"""Many stored documents' features blobs unpacked at once into flat arrays.

A check reads the features blobs of thousands of candidate documents
(:mod:`partialdup.store.query`): :func:`unpack_many` makes one NumPy array
per kind of all of them (:class:`FlatFeatures`), written into a buffer the
store reuses from one check to the next (:class:`UnpackBuffer`). The layout
of one blob is :mod:`partialdup.store.codec`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from typing import Sequence

import numpy as np

from partialdup.store.codec import _HEADER, _I32, _U8, _U32, _U64, PackedFeatures, decompress

__all__ = ["FlatFeatures", "UnpackBuffer", "unpack_many"]


@dataclass(frozen=True)
class FlatFeatures(PackedFeatures):
    """The features blobs of many documents, unpacked at once: every array
    of :class:`~partialdup.store.codec.PackedFeatures`, document after
    document, and where each document's share starts (one more entry than
    documents)."""

    sentence_starts: np.ndarray
    feature_starts: np.ndarray
    join_starts: np.ndarray
    join_feature_starts: np.ndarray

    def __len__(self) -> int:
        return len(self.sentence_starts) - 1

    def tokens_of(self, i: int) -> np.ndarray:
        """Document ``i``'s token counts (a view)."""
        return self.tokens[self.sentence_starts[i]:self.sentence_starts[i + 1]]

    def document(self, i: int) -> PackedFeatures:
        """Document ``i``'s arrays (views, no copy)."""
        s0, s1 = self.sentence_starts[i], self.sentence_starts[i + 1]
        f0, f1 = self.feature_starts[i], self.feature_starts[i + 1]
        j0, j1 = self.join_starts[i], self.join_starts[i + 1]
        g0, g1 = self.join_feature_starts[i], self.join_feature_starts[i + 1]
        return PackedFeatures(
            self.bag_sizes[s0:s1], self.features[f0:f1], self.counts[f0:f1], self.matchable[s0:s1], self.join_at[j0:j1],
            self.join_sizes[j0:j1], self.join_features[g0:g1], self.join_counts[g0:g1], self.tokens[s0:s1],
            self.word_blooms[s0:s1], self.letter_flags[s0:s1],
        )


class UnpackBuffer:
    """Where :func:`unpack_many` writes a check's arrays, reused by the next
    check once no array of the last one is left.

    A check at a million sentences unpacks about 40 MB; written into fresh
    memory each time, the kernel's page faults (9,000 per check) cost a third
    of the unpacking. A bytearray cannot be resized while an array views it,
    which tells whether the last check's arrays are still held: then a new
    buffer is made and the old one left to them.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()

    def take(self, size: int) -> bytearray:
        """A buffer of at least ``size`` bytes that no array views."""
        buffer = self._buffer
        try:
            buffer.append(0)
            buffer.pop()
        except BufferError:
            buffer = self._buffer = bytearray()
        if len(buffer) < size:
            buffer.extend(bytes(max(size, len(buffer) * 5 // 4) - len(buffer)))
        return buffer


#: The arrays of a features blob in the order :class:`FlatFeatures` takes
#: them: raw (features, join features, filters), then those of the small part.
_FLAT_DTYPES: tuple[np.dtype, ...] = (_U64, _U64, _U64, _I32, _U32, _U8, _I32, _I32, _U32, _I32, _U8)


def unpack_many(
    blobs: Sequence[bytes], buffer: UnpackBuffer | None = None, smalls: Sequence[bytes | memoryview | None] | None = None,
) -> FlatFeatures:
    """The arrays of many features blobs at once (a query reads thousands:
    one NumPy array per kind, not one per kind and document), written into
    ``buffer`` (a new one when None). ``smalls``: per blob, its compressed
    part already decompressed, or None (decompressed here)."""
    heads = [_HEADER.unpack_from(blob) for blob in blobs]
    columns = np.array(heads, np.int64).reshape(-1, 4).T
    n, m, k, mj = columns.sum(axis=1).tolist()
    lengths = [8 * m, 8 * mj, 8 * n, 4 * n, 4 * m, n, 4 * k, 4 * k, 4 * mj, 4 * n, n]
    # Each kind starts on 8 bytes, so every array is aligned.
    starts = list(accumulate((-(-length // 8) * 8 for length in lengths), initial=0))
    out = (buffer or UnpackBuffer()).take(starts[-1])
    _write_kinds(out, blobs, heads, starts, smalls or [None] * len(blobs))
    arrays = [
        np.frombuffer(out, dtype, length // dtype.itemsize, start) for dtype, length, start in zip(_FLAT_DTYPES, lengths, starts)
    ]
    features, join_features, blooms, sizes, counts, matchable, join_at, join_sizes, join_counts, tokens, flags = arrays
    begins = [np.concatenate(([0], np.cumsum(column))) for column in columns]
    return FlatFeatures(
        sizes, features, counts, matchable, join_at, join_sizes, join_features, join_counts, tokens, blooms, flags, *begins
    )


def _write_kinds(
    out: bytearray, blobs: Sequence[bytes], heads: Sequence[tuple[int, ...]], starts: Sequence[int],
    smalls: Sequence[bytes | memoryview | None],
) -> None:
    """Copy each blob's arrays after those of the blobs before, kind by kind
    from ``starts``: one copy, no intermediate bytes. The offsets are written
    out (a check unpacks 3,000 blobs: generic loops over the kinds cost a
    fifth more); each small part is decompressed from a view of its blob."""
    p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10 = starts[:11]
    for blob, (n, m, k, mj), given in zip(blobs, heads, smalls):
        view = memoryview(blob)
        # features, join features, filters, raw, as pack writes them
        f_end = _HEADER.size + 8 * m
        j_end = f_end + 8 * mj
        raw_end = j_end + 8 * n
        out[p0:p0 + 8 * m] = view[_HEADER.size:f_end]
        out[p1:p1 + 8 * mj] = view[f_end:j_end]
        out[p2:p2 + 8 * n] = view[j_end:raw_end]
        p0, p1, p2 = p0 + 8 * m, p1 + 8 * mj, p2 + 8 * n
        small = decompress(view[raw_end:]) if given is None else given
        # sizes, counts, matchable, join_at, join_sizes, join_counts, tokens, letter flags, as pack writes them
        e0 = 4 * n
        e1 = e0 + 4 * m
        e2 = e1 + n
        e3 = e2 + 4 * k
        e4 = e3 + 4 * k
        e5 = e4 + 4 * mj
        e6 = e5 + 4 * n
        out[p3:p3 + e0] = small[:e0]
        out[p4:p4 + e1 - e0] = small[e0:e1]
        out[p5:p5 + n] = small[e1:e2]
        out[p6:p6 + e3 - e2] = small[e2:e3]
        out[p7:p7 + e4 - e3] = small[e3:e4]
        out[p8:p8 + e5 - e4] = small[e4:e5]
        out[p9:p9 + e6 - e5] = small[e5:e6]
        out[p10:p10 + n] = small[e6:]
        p3, p4, p5, p6, p7 = p3 + e0, p4 + e1 - e0, p5 + n, p6 + e3 - e2, p7 + e4 - e3
        p8, p9, p10 = p8 + e5 - e4, p9 + e6 - e5, p10 + n
