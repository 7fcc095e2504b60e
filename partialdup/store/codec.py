"""One stored document as two blobs, and feature hashes as SQLite integers.

A document's features are kept beside its text so that a query never
re-tokenizes the collection. They are split in two blobs because a query
reads far more documents' features (to find its candidate sentences) than
documents' texts (only those it matched):

* the *features* blob: the 64-bit hashes of every sentence's bag and every
  rejoined pair's bag, raw (they are random: zlib would not shrink them, only
  slow their reading), then, zlib-compressed, the bag sizes, multiplicities,
  matchable flags and rejoined positions (small integers that compress well);
* the *text* blob, zlib-compressed: sentence offsets, token counts, the
  text, then every other field of
  :class:`~partialdup.core.types.DocumentFeatures` (the words of the
  word-level checks, ...) by name, with :mod:`marshal`, so that a field the
  detector adds is stored without a new layout.

Arrays are packed with NumPy, little endian.
"""

from __future__ import annotations

import dataclasses
import marshal
import struct
import zlib
from itertools import islice
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from partialdup.core.types import Bag, DocumentFeatures, Sentence

__all__ = [
    "PackedFeatures", "TextPart", "bags", "pack", "unpack_features", "unpack_text_part", "unpack_document",
    "unpack_text", "to_signed", "from_signed",
]

#: The fields packed as arrays; every other field goes by name into the text blob.
_ARRAY_FIELDS = frozenset({"id", "sentences", "bags", "tokens", "text", "joins"})

_HEADER = struct.Struct("<4I")
_U64, _I64, _I32, _U32, _U8 = np.dtype("<u8"), np.dtype("<i8"), np.dtype("<i4"), np.dtype("<u4"), np.dtype("u1")


def to_signed(features: np.ndarray) -> np.ndarray:
    """Unsigned 64-bit feature hashes as SQLite's signed INTEGER (same bits)."""
    return np.asarray(features, _U64).view(_I64)


def from_signed(values: np.ndarray) -> np.ndarray:
    """The inverse of :func:`to_signed`."""
    return np.asarray(values, _I64).view(_U64)


@dataclass(frozen=True)
class PackedFeatures:
    """A stored document's features, as arrays (no Python object per sentence).

    Attributes:
        bag_sizes: Distinct features per sentence (entries of ``features``).
        features: Every sentence's features, sentence after sentence (uint64).
        counts: Their multiplicities.
        matchable: 1 where the detector looks the sentence up on its own.
        join_at: First sentence of each rejoined pair.
        join_sizes: Distinct features per rejoined pair.
        join_features: Their features, pair after pair (uint64).
        join_counts: Their multiplicities.
    """

    bag_sizes: np.ndarray
    features: np.ndarray
    counts: np.ndarray
    matchable: np.ndarray
    join_at: np.ndarray
    join_sizes: np.ndarray
    join_features: np.ndarray
    join_counts: np.ndarray

    def sentence_rows(self) -> np.ndarray:
        """The sentence of each entry of ``features``."""
        return np.repeat(np.arange(len(self.bag_sizes), dtype=np.int64), self.bag_sizes)

    def join_rows(self) -> np.ndarray:
        """The rejoined pair (position in ``join_at``) of each entry of ``join_features``."""
        return np.repeat(np.arange(len(self.join_sizes), dtype=np.int64), self.join_sizes)


def bags(sizes: np.ndarray, features: np.ndarray, counts: np.ndarray, rows: Sequence[int] | None = None) -> list[Bag]:
    """Bags as dicts, in stored order (the order the detector made them in).

    Args:
        sizes: Entries per bag.
        features: The entries' features.
        counts: The entries' multiplicities.
        rows: Only these bags (all when None).
    """
    if rows is None:
        entries = zip(features.tolist(), counts.tolist())
        return [dict(islice(entries, size)) for size in sizes.tolist()]
    ends = np.cumsum(sizes).tolist()
    feats, cnts = features.tolist(), counts.tolist()
    return [dict(zip(feats[ends[r] - sizes[r]:ends[r]], cnts[ends[r] - sizes[r]:ends[r]])) for r in rows]


def _flat(bag_list: Sequence[Bag]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    sizes = np.fromiter((len(b) for b in bag_list), _I32, len(bag_list))
    features = np.fromiter((f for b in bag_list for f in b), _U64, int(sizes.sum()))
    counts = np.fromiter((c for b in bag_list for c in b.values()), _U32, int(sizes.sum()))
    return sizes, features, counts


def pack(doc: DocumentFeatures, matchable: Sequence[bool]) -> tuple[bytes, bytes]:
    """A document's (features blob, text blob).

    Args:
        doc: The document after the feature stage, with its text.
        matchable: Per sentence, whether the detector looks it up on its own.
    """
    if doc.text is None:
        raise ValueError(f"{doc.id}: a stored document needs its text")
    sizes, features, counts = _flat(doc.bags)
    join_sizes, join_features, join_counts = _flat([bag for _, bag in doc.joins])
    small = b"".join((
        sizes.tobytes(), counts.tobytes(), np.array(matchable, _U8).tobytes(),
        np.array([i for i, _ in doc.joins], _I32).tobytes(), join_sizes.tobytes(), join_counts.tobytes(),
    ))
    header = _HEADER.pack(len(doc.bags), len(features), len(doc.joins), len(join_features))
    feature_blob = header + features.tobytes() + join_features.tobytes() + zlib.compress(small, 6)
    offsets = np.array([(s.start, s.end) for s in doc.sentences], _I32).reshape(-1, 2).T
    text = doc.text.encode("utf-8")
    others = {f.name: getattr(doc, f.name) for f in dataclasses.fields(doc) if f.name not in _ARRAY_FIELDS}
    text_part = zlib.compress(offsets.tobytes() + np.array(doc.tokens, _I32).tobytes() + text, 6)
    # Compressed apart: the detector reads every candidate's text, the words of few.
    return feature_blob, struct.pack("<I", len(text_part)) + text_part + zlib.compress(marshal.dumps(others), 6)


class _Reader:
    """Consecutive arrays of one buffer."""

    def __init__(self, data: bytes, offset: int = 0) -> None:
        self.data, self.offset = data, offset

    def take(self, dtype: np.dtype, count: int) -> np.ndarray:
        array = np.frombuffer(self.data, dtype, count, self.offset)
        self.offset += count * dtype.itemsize
        return array


def unpack_features(blob: bytes) -> PackedFeatures:
    """The arrays of a features blob made by :func:`pack`."""
    n, m, k, mj = _HEADER.unpack_from(blob)
    raw = _Reader(blob, _HEADER.size)
    features, join_features = raw.take(_U64, m), raw.take(_U64, mj)
    small = _Reader(zlib.decompress(blob[raw.offset:]))
    sizes, counts, matchable = small.take(_I32, n), small.take(_U32, m), small.take(_U8, n)
    join_at, join_sizes, join_counts = small.take(_I32, k), small.take(_I32, k), small.take(_U32, mj)
    return PackedFeatures(sizes, features, counts, matchable, join_at, join_sizes, join_features, join_counts)


@dataclass(frozen=True)
class TextPart:
    """What a text blob holds: offsets, token counts, text; the other fields by name, read when asked."""

    starts: list[int]
    ends: list[int]
    tokens: tuple[int, ...]
    text: str
    packed_others: bytes

    def others(self) -> dict[str, Any]:
        """The fields stored by name (words, ...)."""
        return marshal.loads(zlib.decompress(self.packed_others))


def unpack_text_part(text_blob: bytes, sentences: int) -> TextPart:
    """The text blob of a document of ``sentences`` sentences."""
    (size,) = struct.unpack_from("<I", text_blob)
    data = _Reader(zlib.decompress(text_blob[4:4 + size]))
    starts, ends = data.take(_I32, sentences).tolist(), data.take(_I32, sentences).tolist()
    tokens = tuple(data.take(_I32, sentences).tolist())
    return TextPart(starts, ends, tokens, data.data[data.offset:].decode("utf-8"), text_blob[4 + size:])


def unpack_text(text_blob: bytes, sentences: int) -> str:
    """The text alone from a text blob of a document of ``sentences`` sentences."""
    return unpack_text_part(text_blob, sentences).text


def unpack_document(doc_id: str, packed: PackedFeatures, text_blob: bytes) -> DocumentFeatures:
    """The document as the detector made it, from its two blobs."""
    part = unpack_text_part(text_blob, len(packed.bag_sizes))
    sentences = tuple(map(Sentence, range(len(part.starts)), part.starts, part.ends))
    joins = tuple(zip(packed.join_at.tolist(), bags(packed.join_sizes, packed.join_features, packed.join_counts)))
    known = {f.name for f in dataclasses.fields(DocumentFeatures)}
    others = {name: value for name, value in part.others().items() if name in known}
    return DocumentFeatures(
        doc_id, sentences, tuple(bags(packed.bag_sizes, packed.features, packed.counts)), part.tokens, part.text, joins, **others
    )
