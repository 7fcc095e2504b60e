"""The texts of some sentences of a run's documents, each read from its
document's text when asked for (the near misses' sentences, sent to the
helper that judges them: :mod:`partialdup.pipeline.lookups`)."""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from partialdup.core.text_sequence import TextSequence
from partialdup.core.types import DocumentFeatures, SentenceOffsets
from partialdup.match.pairs import SentenceKey

__all__ = ["SentenceTexts", "sentence_text"]


class SentenceTexts(TextSequence):
    """The texts of the sentences at some index keys (``distinct``), read
    from the documents when asked for (None: the document came without)."""

    def __init__(self, docs: Sequence[DocumentFeatures], keys: Sequence[SentenceKey], distinct: np.ndarray) -> None:
        self._docs, self._keys, self._distinct = docs, keys, distinct

    def __len__(self) -> int:
        return len(self._distinct)

    def _text(self, number: int) -> str | None:
        document, index = self._keys[int(self._distinct[number])]
        return sentence_text(self._docs[document], index)

    def __iter__(self) -> Iterator[str | None]:
        # Every text in one pass: a Sequence's own iteration asks
        # __getitem__ for each (66,740 texts of the English bench corpus's
        # near misses, 0.17 s of the calling process alone); one at a time,
        # not listed (JoinedTexts.of lays each down as it comes).
        docs, keys = self._docs, map(self._keys.__getitem__, self._distinct.tolist())
        return (sentence_text(docs[document], index) for document, index in keys)


def sentence_text(doc: DocumentFeatures, index: int) -> str | None:
    """A sentence's text (None: its document came without it)."""
    if doc.text is None:
        return None
    sentences = doc.sentences
    if isinstance(sentences, SentenceOffsets):
        start, end = sentences.bounds(index)  # no sentence made
        return doc.text[start:end]
    sentence = sentences[index]
    return doc.text[sentence.start : sentence.end]
