"""Features packed for the way back from a worker process.

A worker sends a document's features without its text (the calling process
has it) and in types that pickle fast: sentence offsets as their arrays
(:class:`~partialdup.core.types.SentenceOffsets` pickles so), the bags as
their arrays' bytes (:class:`~partialdup.core.bags.FlatBags` pickles so),
each sentence's words as one string. Pickled as they are, the
gold set's features cost 3.3 s CPU to dump and load against 12.1 s to
compute them; packed, 1.1 s (docs/engine.md).
"""

from __future__ import annotations

from typing import Sequence

from partialdup.core.types import DocumentFeatures, Sentence, SentenceOffsets

__all__ = ["pack_features", "unpack_features"]

#: Joins a sentence's words on the way back: tokens hold word characters,
#: apostrophes, hyphens and dots only, never this.
_WORD_JOIN = "\x00"


def pack_features(features: DocumentFeatures) -> tuple:
    """A document's features without its text, in builtin types that pickle
    fast (:func:`unpack_features` is the inverse)."""
    return (
        features.id,
        _offsets(features.sentences),
        features.bags,
        features.tokens,
        features.joins,
        tuple(_WORD_JOIN.join(words) for words in features.words),
        tuple((i, dict(bag)) for i, bag in features.quotes),
    )


def unpack_features(packed: tuple, text: str | None, vocabulary: dict[str, str] | None = None) -> DocumentFeatures:
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
    """
    doc_id, sentences, bags, tokens, joins, words, quotes = packed
    return DocumentFeatures(
        doc_id, sentences, bags, tokens, text, joins, tuple(_words_of(line, vocabulary) for line in words), quotes,
    )


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
