"""A document's blob gives back the detector's features exactly."""

from __future__ import annotations

import numpy as np

from partialdup.core.types import DocumentFeatures, Sentence
from partialdup.match.verify import letter_flags
from partialdup.store import codec
from partialdup.store.flat import unpack_many
from partialdup.store.blooms import sentence_blooms


def test_high_bit_features_survive_signed_storage() -> None:
    features = np.array([0, 1, 2**63 - 1, 2**63, 2**64 - 1], np.uint64)
    assert codec.to_signed(features).tolist() == [0, 1, 2**63 - 1, -(2**63), -1]
    assert codec.from_signed(codec.to_signed(features)).tolist() == features.tolist()


def test_pack_round_trip_keeps_every_field_and_bag_order() -> None:
    doc = DocumentFeatures(
        "a/b.txt",
        (Sentence(0, 0, 6), Sentence(1, 7, 12), Sentence(2, 12, 12)),
        ({2**64 - 1: 2, 5: 1}, {7: 1, 2**63: 3}, {}),
        (4, 2, 0),
        "中文句子。\nsecond",
        ((0, {9: 1, 2**64 - 1: 2}),),
    )
    features, text = codec.pack(doc, [True, False, False])
    packed = codec.unpack_features(features)
    again = codec.unpack_document("a/b.txt", packed, text)
    assert again == doc
    assert [list(b) for b in again.bags] == [list(b) for b in doc.bags]
    assert packed.matchable.tolist() == [1, 0, 0]
    assert packed.letter_flags.tolist() == [0, 0, 0]  # none given: every letter read from the text
    # No words stored: every sentence may hold any word.
    assert packed.word_blooms.tolist() == codec.word_blooms(features).tolist() == [2**64 - 1] * 3


def test_detector_features_round_trip(detector, sources) -> None:
    blobs = []
    for document in sources[:5]:
        features = detector.features(document)
        matchable = [detector.matchable(features, i) for i in range(len(features.bags))]
        flags = letter_flags(features, detector.tokenizer.normalise)
        blob, text = codec.pack(features, matchable, flags)
        assert codec.unpack_document(document.id, codec.unpack_features(blob), text) == features
        assert codec.unpack_features(blob).letter_flags.tolist() == flags
        blobs.append(blob)
        filters = sentence_blooms(features.words).tolist()
        assert codec.unpack_features(blob).word_blooms.tolist() == codec.word_blooms(blob).tolist() == filters
    flat = unpack_many(blobs)
    for i, blob in enumerate(blobs):
        alone, among = vars(codec.unpack_features(blob)), vars(flat.document(i))
        assert all(np.array_equal(alone[name], among[name]) for name in alone)


def test_words_round_trip_lazily_and_keep_separators_exactly() -> None:
    plain = (("中文", "句子"), (), ("second",))
    odd = (("a\x00b",), ("c\x01",), ())
    for words in (plain, odd):
        doc = DocumentFeatures("d", tuple(Sentence(i, i, i + 1) for i in range(3)), ({}, {}, {}), (0, 0, 0), "abc", (), words)
        features, text = codec.pack(doc, [False] * 3)
        stored = codec.unpack_words(codec.text_blob_parts(text)[1])
        assert len(stored) == 3 and tuple(stored) == words and stored[-1] == words[-1]
        if isinstance(stored, codec.Words):  # the plain layout (words without separators)
            assert [stored.joined(i) for i in range(3)] == ["\x00".join(w) for w in words] and stored.joined(-1) == "\x00".join(words[-1])
        assert codec.unpack_document("d", codec.unpack_features(features), text) == doc
    empty = DocumentFeatures("d", (Sentence(0, 0, 1),), ({},), (0,), "a")
    assert codec.unpack_words(codec.text_blob_parts(codec.pack(empty, [False])[1])[1]) == ()


def test_words_of_many_chunks_read_in_any_order(detector, sources) -> None:
    # Documents of several chunks of WORD_CHUNK sentences: every sentence's
    # words, read back to front (each chunk opened by its last sentence).
    longest = max((detector.features(d) for d in sources[:8]), key=lambda f: len(f.sentences))
    assert len(longest.words) > 2 * codec.WORD_CHUNK
    _, text = codec.pack(longest, [False] * len(longest.bags))
    for part in (codec.text_blob_parts(text)[1], codec.words_part(text)):  # a copy, a view
        stored = codec.unpack_words(part)
        assert len(stored) == len(longest.words)
        assert [stored[i] for i in reversed(range(len(stored)))] == list(reversed(longest.words))
        # Read again (kept), by negative index, and by slice: the same words.
        assert [stored[i - len(stored)] for i in range(len(stored))] == list(longest.words) == list(stored[:])
        assert all(stored[i] is stored[i - len(stored)] for i in range(len(stored)))
    # Chunks decompressed elsewhere and handed over (every other one): the
    # same words; a chunk already open is neither offered nor replaced.
    given = codec.unpack_words(codec.words_part(text))
    offered = [given.chunk_part(i) for i in range(0, len(given), codec.WORD_CHUNK)]
    for chunk, part in offered[::2]:
        given.provide(chunk, codec.decompress(part))
    assert given.chunk_part(0) is None and given.chunk_part(codec.WORD_CHUNK) == offered[1]
    assert list(given[:]) == list(longest.words)
    assert all(given.chunk_part(i) is None for i in range(len(given)))


def test_decompress_many_gives_each_part_as_decompress(monkeypatch) -> None:
    parts = [codec.compress(data) for data in (b"", "中文句子".encode() * 40, bytes(range(256)) * 9, b"x")]
    one_by_one = [codec.decompress(part) for part in parts]
    assert [bytes(out) for out in codec.decompress_many(parts)] == one_by_one
    assert [bytes(out) for out in codec.decompress_many([memoryview(part) for part in parts])] == one_by_one
    assert codec.decompress_many([]) == []
    # A zstandard without the call (its CFFI backend): part by part, the same.
    plain = codec._contexts.decompressor
    monkeypatch.setattr(codec._contexts, "_decompressor", type("Plain", (), {"decompress": staticmethod(plain.decompress)})())
    assert [bytes(out) for out in codec.decompress_many(parts)] == one_by_one


def test_small_part_is_the_compressed_part_of_a_features_blob(detector, sources) -> None:
    features = detector.features(sources[0])
    blob = codec.pack(features, [detector.matchable(features, i) for i in range(len(features.bags))])[0]
    many = unpack_many([blob], smalls=[codec.decompress(codec.small_part(blob))])
    assert all(np.array_equal(value, getattr(many, name)) for name, value in vars(unpack_many([blob])).items())
