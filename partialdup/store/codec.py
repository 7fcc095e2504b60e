"""One stored document as two blobs, and feature hashes as SQLite integers.

A document's features are kept beside its text so that a query never
re-tokenizes the collection. They are split in two blobs because a query
reads far more documents' features (to find its candidate sentences) than
documents' texts (only those it matched):

* the *features* blob: the 64-bit hashes of every sentence's bag and every
  rejoined pair's bag, and each sentence's 64-bit filter of its words
  (:mod:`partialdup.store.blooms`), raw (they are random: zlib would not
  shrink them, only slow their reading), then, compressed, the bag sizes, multiplicities,
  matchable flags, rejoined positions, token counts and letter flags
  (:func:`partialdup.match.verify.letter_flags`: whether a sentence's
  letters can be read from its words; small integers that compress well):
  all a query reads of a candidate it does not pair;
* the *text* blob, three parts compressed apart, so that each is read only
  when asked for: sentence offsets and the text; the words of the
  word-level checks (words joined by ``\\x00``, sentences by ``\\x01``,
  compressed by chunks of :data:`WORD_CHUNK` sentences: split when read,
  far faster than unmarshalling a tuple per sentence, and only the chunks
  read are decompressed); every other field of
  :class:`~partialdup.core.types.DocumentFeatures` by name, with
  :mod:`marshal`, so that a field the detector adds is stored without a new
  layout.

Arrays are packed with NumPy, little endian. Parts are compressed with
Zstandard (level :data:`LEVEL`): as small as zlib's level 6 on stored text,
and decompressed two to three times faster with a reused context (a check
decompresses thousands of parts; zlib's took a fifth of its time at 1M
sentences).
"""

from __future__ import annotations

import dataclasses
import marshal
import struct
from itertools import accumulate, islice
from dataclasses import dataclass
from typing import Any, Sequence, overload

import numpy as np

from partialdup.core.bags import FlatBags, PlacedBags
from partialdup.core.types import Bag, DocumentFeatures, Sentence
from partialdup.core.zstd_contexts import ZstdContexts
from partialdup.store.blooms import EVERY_WORD, sentence_blooms

__all__ = [
    "PackedFeatures", "TextPart", "bags", "flat_bags", "placed_joins", "pack", "unpack_features", "unpack_text_part", "unpack_document",
    "unpack_text", "unpack_words", "text_blob_parts", "words_part", "Words", "WORD_CHUNK", "LEVEL", "to_signed", "from_signed",
    "word_blooms",
    "compress", "decompress", "decompress_many", "small_part",
]

#: The fields packed apart; every other field goes by name into the text blob.
_APART_FIELDS = frozenset({"id", "sentences", "bags", "tokens", "text", "joins", "words"})

_HEADER = struct.Struct("<4I")
#: Sentences per separately compressed chunk of a words part: the detector
#: reads the words of a few sentences of most documents it pairs.
WORD_CHUNK = 32
#: Byte lengths of a text blob's three parts.
_PARTS = struct.Struct("<3I")
#: Separators of the words part (the tokenizer's words hold neither).
_WORD_JOIN, _SENTENCE_JOIN = "\x00", "\x01"
_U64, _I64, _I32, _U32, _U8 = np.dtype("<u8"), np.dtype("<i8"), np.dtype("<i4"), np.dtype("<u4"), np.dtype("u1")
#: Zstandard level of every compressed part: writes stay a few per cent of
#: the indexing time, parts as small as zlib's (level 12 is 4 % larger on text).
LEVEL = 15


#: This process's contexts, per thread (a context is a work buffer, not data:
#: making one per part would cost more than decompressing a small part).
_contexts = ZstdContexts(LEVEL)


def compress(data: bytes) -> bytes:
    """One stored part, compressed (its size is written in the frame)."""
    return _contexts.compress(data)


def decompress(data: bytes | memoryview) -> bytes:
    """The inverse of :func:`compress`."""
    return _contexts.decompress(data)


def decompress_many(parts: Sequence[bytes | memoryview]) -> Sequence[bytes | memoryview]:
    """:func:`decompress` of each part, in one call that holds no lock of
    Python's while it works (zstandard's ``multi_decompress_to_buffer``):
    run on another thread, it takes nothing from this one. Part by part
    where the installed zstandard lacks it (its CFFI backend)."""
    if not parts:
        return []
    decompressor = _contexts.decompressor
    try:
        buffers = decompressor.multi_decompress_to_buffer(list(parts), threads=1)
    except (AttributeError, NotImplementedError):
        return [decompressor.decompress(part) for part in parts]
    return [memoryview(buffers[i]) for i in range(len(buffers))]  # type: ignore[arg-type]  # a BufferSegment is a buffer


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
        tokens: Tokens per sentence.
        word_blooms: Per sentence, the filter of its words (uint64).
        letter_flags: Per sentence, its letter flags (uint8, see
            :func:`partialdup.match.verify.letter_flags`).
    """

    bag_sizes: np.ndarray
    features: np.ndarray
    counts: np.ndarray
    matchable: np.ndarray
    join_at: np.ndarray
    join_sizes: np.ndarray
    join_features: np.ndarray
    join_counts: np.ndarray
    tokens: np.ndarray
    word_blooms: np.ndarray
    letter_flags: np.ndarray

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
    flat = FlatBags.of(bag_list)
    return flat.sizes.astype(_I32), flat.features.astype(_U64), flat.counts.astype(_U32)


def pack(doc: DocumentFeatures, matchable: Sequence[bool], letter_flags: Sequence[int] | None = None) -> tuple[bytes, bytes]:
    """A document's (features blob, text blob).

    Args:
        doc: The document after the feature stage, with its text.
        matchable: Per sentence, whether the detector looks it up on its own.
        letter_flags: Per sentence, its letter flags (see
            :func:`partialdup.match.verify.letter_flags`); None: none set
            (its letters are read from the text).
    """
    if doc.text is None:
        raise ValueError(f"{doc.id}: a stored document needs its text")
    sizes, features, counts = _flat(doc.bags)
    joins = PlacedBags.of(doc.joins)
    join_sizes, join_features, join_counts = _flat(joins.bags)
    small = b"".join((
        sizes.tobytes(), counts.tobytes(), np.array(matchable, _U8).tobytes(),
        joins.positions.astype(_I32).tobytes(), join_sizes.tobytes(), join_counts.tobytes(),
        np.array(doc.tokens, _I32).tobytes(),
        np.array(letter_flags if letter_flags is not None else [0] * len(doc.bags), _U8).tobytes(),
    ))
    header = _HEADER.pack(len(doc.bags), len(features), len(doc.joins), len(join_features))
    blooms = sentence_blooms(doc.words) if len(doc.words) == len(doc.bags) else np.full(len(doc.bags), EVERY_WORD, _U64)
    feature_blob = header + features.tobytes() + join_features.tobytes() + blooms.tobytes() + compress(small)
    offsets = np.array([(s.start, s.end) for s in doc.sentences], _I32).reshape(-1, 2).T
    others = {f.name: getattr(doc, f.name) for f in dataclasses.fields(doc) if f.name not in _APART_FIELDS}
    parts = (
        compress(offsets.tobytes() + doc.text.encode("utf-8")),
        _pack_words(doc.words, len(doc.sentences)),
        compress(marshal.dumps(others)),
    )
    return feature_blob, _PARTS.pack(*map(len, parts)) + b"".join(parts)


def _pack_words(words: Sequence[Sequence[str]], sentences: int) -> bytes:
    """The words part of a text blob: empty when no words are known."""
    if not words:
        return b""
    plain = len(words) == sentences and all(w for sentence in words for w in sentence) and not any(
        _WORD_JOIN in w or _SENTENCE_JOIN in w for sentence in words for w in sentence
    )
    if not plain:
        # A word holding a separator (never made by the tokenizer) keeps the exact form.
        return b"M" + compress(marshal.dumps(tuple(map(tuple, words))))
    joined = [_WORD_JOIN.join(w) for w in words]
    chunks = [
        compress(_SENTENCE_JOIN.join(joined[i:i + WORD_CHUNK]).encode("utf-8"))
        for i in range(0, len(joined), WORD_CHUNK)
    ]
    sizes = np.array([len(words), *map(len, chunks)], _U32)
    return b"C" + struct.pack("<I", len(chunks)) + sizes.tobytes() + b"".join(chunks)


class Words(Sequence[tuple[str, ...]]):
    """A document's words, per sentence: each chunk of :data:`WORD_CHUNK`
    sentences decompressed when one of its sentences is first read, each
    sentence split when first read and kept (a check reads the words of a
    stored sentence several times: its word searches, then the detector's).

    Args:
        count: Sentences.
        part: The words part holding the chunks (not copied: a check opens
            one or two chunks of most documents it reads words of).
        ends: Where each chunk starts in ``part``, then where the last ends.
    """

    def __init__(self, count: int, part: bytes | memoryview, ends: list[int]) -> None:
        self._count = count
        self._part = memoryview(part)
        self._ends = ends
        self._open: dict[int, list[str]] = {}
        self._split: dict[int, tuple[str, ...]] = {}

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> tuple[str, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[str, ...], ...]: ...

    def __getitem__(self, index: int | slice) -> tuple[str, ...] | tuple[tuple[str, ...], ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(len(self))[index])
        split = self._split.get(index)
        if split is None:
            position = range(self._count)[index]  # negative indexes and IndexError as a tuple's
            split = self._split.get(position)
            if split is None:
                split = self._split[position] = self._sentence(position)
        return split

    def joined(self, index: int) -> str:
        """Sentence ``index``'s words as stored, joined by a character that is
        no letter nor digit (``\x00``): their letters without splitting them."""
        chunk, within = divmod(range(self._count)[index], WORD_CHUNK)
        return self._chunk(chunk)[within]

    def _sentence(self, position: int) -> tuple[str, ...]:
        """The words of sentence ``position`` (0 <= position < count), split."""
        chunk, within = divmod(position, WORD_CHUNK)
        joined = self._chunk(chunk)[within]
        return tuple(joined.split(_WORD_JOIN)) if joined else ()

    def chunk_part(self, position: int) -> tuple[int, memoryview] | None:
        """(chunk, its compressed bytes) of the chunk holding sentence
        ``position`` when not yet decompressed, else None (see :meth:`provide`)."""
        chunk = range(self._count)[position] // WORD_CHUNK
        if chunk in self._open:
            return None
        return chunk, self._part[self._ends[chunk]:self._ends[chunk + 1]]

    def provide(self, chunk: int, data: bytes | memoryview) -> None:
        """Chunk ``chunk`` decompressed elsewhere (:func:`decompress_many` on
        another thread): the same as decompressing it here."""
        if chunk not in self._open:
            self._open[chunk] = bytes(data).decode("utf-8").split(_SENTENCE_JOIN)

    def _chunk(self, chunk: int) -> list[str]:
        """The sentences of a chunk, each its words joined, decompressed once."""
        sentences = self._open.get(chunk)
        if sentences is None:
            packed = self._part[self._ends[chunk]:self._ends[chunk + 1]]
            sentences = self._open[chunk] = decompress(packed).decode("utf-8").split(_SENTENCE_JOIN)
        return sentences


def unpack_words(part: bytes | memoryview) -> Sequence[tuple[str, ...]]:
    """The words of a words part (empty when none were stored)."""
    if not part:
        return ()
    if part[:1] == b"M":
        return marshal.loads(decompress(part[1:]))  # type: ignore[no-any-return]
    (count,) = struct.unpack_from("<I", part, 1)
    sizes = np.frombuffer(part, _U32, count + 1, 5).tolist()
    return Words(sizes[0], part, list(accumulate(sizes[1:], initial=5 + 4 * (count + 1))))


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
    features, join_features, blooms = raw.take(_U64, m), raw.take(_U64, mj), raw.take(_U64, n)
    small = _Reader(decompress(blob[raw.offset:]))
    sizes, counts, matchable = small.take(_I32, n), small.take(_U32, m), small.take(_U8, n)
    join_at, join_sizes, join_counts = small.take(_I32, k), small.take(_I32, k), small.take(_U32, mj)
    tokens, flags = small.take(_I32, n), small.take(_U8, n)
    return PackedFeatures(sizes, features, counts, matchable, join_at, join_sizes, join_features, join_counts, tokens, blooms, flags)


def small_part(blob: bytes) -> memoryview:
    """A features blob's compressed part (the arrays after the raw ones), a view."""
    n, m, _, mj = _HEADER.unpack_from(blob)
    return memoryview(blob)[_HEADER.size + 8 * (m + mj + n):]


def word_blooms(blob: bytes) -> np.ndarray:
    """The filters of a features blob's sentences (a view: nothing decompressed)."""
    n, m, _, mj = _HEADER.unpack_from(blob)
    return np.frombuffer(blob, _U64, n, _HEADER.size + 8 * (m + mj))


@dataclass(frozen=True)
class TextPart:
    """What a text blob holds: offsets and text; the words and other fields, unpacked when asked for."""

    starts: list[int]
    ends: list[int]
    text: str
    packed_words: bytes
    packed_others: bytes

    def words(self) -> Sequence[tuple[str, ...]]:
        """The words of each sentence (empty when not stored)."""
        return unpack_words(self.packed_words)

    def others(self) -> dict[str, Any]:
        """The fields stored by name (quotations, ...)."""
        return marshal.loads(decompress(self.packed_others))  # type: ignore[no-any-return]


def text_blob_parts(text_blob: bytes) -> tuple[bytes, bytes, bytes]:
    """A text blob's three parts, still compressed: offsets and text, words, other fields."""
    first, second, third = _PARTS.unpack_from(text_blob)
    low = _PARTS.size
    return text_blob[low:low + first], text_blob[low + first:low + first + second], text_blob[low + first + second:]


def words_part(text_blob: bytes) -> memoryview:
    """A text blob's words part, still compressed, without copying it or the other parts."""
    first, second, _ = _PARTS.unpack_from(text_blob)
    return memoryview(text_blob)[_PARTS.size + first:_PARTS.size + first + second]


def unpack_text_part(text_blob: bytes, sentences: int) -> TextPart:
    """The text blob of a document of ``sentences`` sentences."""
    text_part, words, others = text_blob_parts(text_blob)
    data = _Reader(decompress(text_part))
    starts, stops = data.take(_I32, sentences).tolist(), data.take(_I32, sentences).tolist()
    text = data.data[data.offset:].decode("utf-8")
    return TextPart(starts, stops, text, words, others)


def unpack_text(text_blob: bytes, sentences: int) -> str:
    """The text alone from a text blob of a document of ``sentences`` sentences."""
    return unpack_text_part(text_blob, sentences).text


def flat_bags(packed: PackedFeatures) -> FlatBags:
    """A document's bags from its features blob, in the detector's dtypes."""
    return _widened(packed.bag_sizes, packed.features, packed.counts)


def placed_joins(packed: PackedFeatures) -> PlacedBags:
    """A document's rejoined sentences' bags from its features blob, in the detector's dtypes."""
    return PlacedBags(packed.join_at, _widened(packed.join_sizes, packed.join_features, packed.join_counts))


def _widened(sizes: np.ndarray, features: np.ndarray, counts: np.ndarray) -> FlatBags:
    # Stored as int32, uint64, uint32 (_flat's inverse).
    return FlatBags(sizes.astype(np.int64), features.astype(np.uint64), counts.astype(np.int64))


def unpack_document(doc_id: str, packed: PackedFeatures, text_blob: bytes) -> DocumentFeatures:
    """The document as the detector made it, from its two blobs."""
    part = unpack_text_part(text_blob, len(packed.bag_sizes))
    sentences = tuple(map(Sentence, range(len(part.starts)), part.starts, part.ends))
    joins = placed_joins(packed)
    known = {f.name for f in dataclasses.fields(DocumentFeatures)}
    others = {name: value for name, value in part.others().items() if name in known}
    return DocumentFeatures(
        doc_id, sentences, flat_bags(packed), tuple(packed.tokens.tolist()),
        part.text, joins, words=tuple(part.words()), **others,
    )
