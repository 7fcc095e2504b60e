"""Features packed for the way back from a worker process.

A worker sends a document's features without its text (the calling process
has it; the local engine's workers add it compressed, as the run holds it) and in types
that pickle fast: sentence offsets as their arrays
(:class:`~partialdup.core.types.SentenceOffsets` pickles so), the bags as
their arrays' bytes (:class:`~partialdup.core.bags.FlatBags` pickles so),
each sentence's words as one string, or left out where they travel
numbered beside (:func:`unpack_piece`). Pickled as they are, the gold set's
features cost 3.3 s CPU to dump and load against 12.1 s to compute them;
packed, 1.1 s (docs/engine.md).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from partialdup.core.packed_text import PackedText
from partialdup.core.packed_text import packed as packed_text
from partialdup.core.types import DocumentFeatures, Sentence, SentenceOffsets, hold_text_packed
from partialdup.core.word_lines import WordLines, word_counts
from partialdup.index.word_columns import PieceWords, aligned_words

__all__ = ["held_as_numbers", "pack_features", "unpack_features", "unpack_piece"]

#: Joins a sentence's words on the way back: tokens hold word characters,
#: apostrophes, hyphens and dots only, never this.
_WORD_JOIN = "\x00"


def pack_features(features: DocumentFeatures, *, words: bool = True, text: bool = False) -> tuple:
    """A document's features without its text, in builtin types that pickle
    fast (:func:`unpack_features` is the inverse).

    ``words``: False leaves out each sentence's words when its piece's
    :class:`~partialdup.index.word_columns.PieceWords` carries them (a
    sentence's words are as many as its tokens); :func:`unpack_piece` takes
    them from there. They are then sent once, not twice.

    ``text``: also the text compressed, where a run holds it so
    (:func:`~partialdup.core.packed_text.packed`; None where it stays a
    string): compressed by the worker, not by the calling process, which
    then holds what was sent (:func:`unpack_features`).
    """
    packed = (
        features.id,
        _offsets(features.sentences),
        features.bags,
        features.tokens,
        features.joins,
        None if not words and _counted(features) else tuple(_WORD_JOIN.join(line) for line in features.words),
        tuple((i, dict(bag)) for i, bag in features.quotes),
    )
    if not text:
        return packed
    held = None if features.text is None else packed_text(features.text)
    return (*packed, held if isinstance(held, PackedText) else None)


def unpack_features(
    packed: tuple, text: str | None, vocabulary: dict[str, str] | None = None, words: Sequence[tuple[str, ...]] = (),
) -> DocumentFeatures:
    """The features :func:`pack_features` packed, with their document's text.

    Args:
        packed: What :func:`pack_features` returned.
        text: The document's text.
        vocabulary: Words already unpacked, each its own value: a word met
            again is that one string, not a new one. Shared by every
            document of a run, it keeps the words as one process's
            tokenizer keeps them (a Chinese corpus of 1.5 million words
            has 76,000 distinct ones: about 90 MB less at 160,000
            sentences). None: every word a new string.
        words: Each sentence's words, when packed without them.
    """
    doc_id, sentences, bags, tokens, joins, lines, quotes = packed[:7]
    if lines is not None:
        words = tuple(_words_of(line, vocabulary) for line in lines)
    doc = DocumentFeatures(doc_id, sentences, bags, tokens, text, joins, words, quotes)
    if len(packed) > 7 and packed[7] is not None:  # the text compressed by the worker (pack_features' ``text``)
        hold_text_packed(doc, packed_as=packed[7])
    return doc


def unpack_piece(
    packed: Sequence[tuple], texts: Sequence[str | None], piece: PieceWords, vocabulary: dict[str, str],
) -> tuple[list[DocumentFeatures], PieceWords]:
    """The features of a piece's documents packed without their words
    (``pack_features(..., words=False)``), their words taken from the
    piece's numbered ones, and those numbered words: each word the
    vocabulary's string (see :func:`unpack_features`).

    No sentence's words are split out of a string: the calling process
    unpacks the helper's pieces in about half the CPU (Chinese bench
    corpus: 0.15-0.17 s against 0.30-0.36 s), and a piece pickles about
    40 % smaller. The words stay the piece's numbers
    (:class:`~partialdup.core.word_lines.WordLines`) into its distinct
    words held as one string
    (:class:`~partialdup.core.packed_words.PackedWords`), each sentence's
    tuple made when read: the calling process holds them to the end of
    the run. ``vocabulary`` serves the documents sent with their words.
    """
    distinct = piece.words
    docs, at = [], 0
    for item, text in zip(packed, texts):
        tokens, lines = item[3], item[5]  # pack_features' fields, as unpack_features names them
        if lines is None:  # its sentences' words follow each other in the piece's
            count = sum(tokens)
            docs.append(unpack_features(item, text, vocabulary, WordLines(distinct, piece.columns, tokens, at)))
            at += count
            continue
        doc = unpack_features(item, text, vocabulary)
        at += sum(word_counts(aligned_words(doc)))  # numbered in the piece all the same
        docs.append(doc)
    assert at == len(piece.columns), "a piece's numbered words are its documents' words"
    return docs, piece


def held_as_numbers(docs: Sequence[DocumentFeatures]) -> tuple[list[DocumentFeatures], PieceWords]:
    """A piece's documents made where they are unpacked (the calling
    process's own), their words held as the piece's numbered ones
    (:class:`~partialdup.core.word_lines.WordLines`), as
    :func:`unpack_piece` holds a helper's; and those numbered words."""
    piece = PieceWords.of(docs)
    held, at = [], 0
    for doc in docs:
        if _counted(doc):  # its words are as many as its tokens: counted once
            count = sum(doc.tokens)
            doc = replace(doc, words=WordLines(piece.words, piece.columns, doc.tokens, at))
        else:
            count = sum(word_counts(aligned_words(doc)))
        held.append(doc)
        at += count
    return held, piece


def _counted(features: DocumentFeatures) -> bool:
    # Whether the words are one tuple a sentence, as many as its tokens (the
    # sentence lengths that unpack_piece reads): then their piece's numbered
    # words are every word of each sentence, in order (PieceWords.of).
    words = features.words
    return len(words) == len(features.sentences) and tuple(features.tokens) == tuple(word_counts(words))


def _words_of(line: str, vocabulary: dict[str, str] | None) -> tuple[str, ...]:
    # One sentence's words, joined by pack_features; the vocabulary's own
    # string for a word it holds.
    if not line:
        return ()
    words = line.split(_WORD_JOIN)
    return tuple(words) if vocabulary is None else tuple(map(vocabulary.setdefault, words, words))


def _offsets(sentences: Sequence[Sentence]) -> SentenceOffsets | tuple[Sentence, ...]:
    # Sentences held otherwise (a store's, read when asked) go as a tuple,
    # which the unpacked features hold as offsets (DocumentFeatures).
    return sentences if isinstance(sentences, SentenceOffsets) else tuple(sentences)
