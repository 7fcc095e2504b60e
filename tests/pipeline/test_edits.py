"""The sentences the searches over words look at, walked in full or through the documents a list names."""

from types import SimpleNamespace

from partialdup.pipeline.edits import scanned_sentences, scanned_words


class _Named(list):
    """Documents that name those holding scanned sentences, as a store's candidates do."""

    def scanning(self, search):
        return [d for d, doc in enumerate(self) if getattr(doc, "scanned" if search == "words" else "scanned_headlines")]


def test_scanned_sentences_through_the_named_documents_are_those_of_every_document():
    words = (("a", "b"), ("c",), ("d", "e", "f"))
    docs = [
        SimpleNamespace(words=words, scanned=[], scanned_headlines=[2]),
        SimpleNamespace(words=words, scanned=[0, 2], scanned_headlines=[]),
        SimpleNamespace(words=(), scanned=[0], scanned_headlines=[0]),  # words unknown: nothing
        SimpleNamespace(words=words, scanned=[1], scanned_headlines=[0, 1]),
    ]
    for search in ("words", "headlines"):
        plain = [(d, s, w) for d, doc in enumerate(docs) for s, w in scanned_words(doc, search)]
        assert list(scanned_sentences(_Named(docs), search)) == list(scanned_sentences(docs, search)) == plain
    assert [(d, s) for d, s, _ in scanned_sentences(_Named(docs))] == [(1, 0), (1, 2), (3, 1)]
    every = [SimpleNamespace(words=words)]  # no list of scanned sentences: all of them
    assert list(scanned_sentences(every, "headlines")) == [(0, s, w) for s, w in enumerate(words)]


import dataclasses

import numpy as np
import pytest

from partialdup.core.config import Config
from partialdup.pipeline.factory import make_detector


@pytest.fixture(scope="module")
def features(tokenizer, idf, sources, suspicious):
    """The gold-set slice's features (real Debian text), one document's words unknown."""
    detector = make_detector("low-idf-sig", idf, Config(jobs=1), tokenizer=tokenizer)
    docs = [detector.features(d) for d in [*sources, *suspicious]]
    docs[3] = dataclasses.replace(docs[3], words=())
    return detector, docs


def test_the_word_search_on_numbered_words_finds_what_it_finds_on_the_words(features):
    detector, docs = features
    columns = detector._word_columns(docs)
    assert columns is not None and not columns.known[columns.doc_starts[3]: columns.doc_starts[4]].any()
    expected = detector._word_loose_all(docs)
    assert expected and detector._word_loose_all(docs, columns) == expected
    # Held as arrays, their bags compared a few pairs at a time: the same records.
    from partialdup.match.keyed import KeyedMatches
    from partialdup.pipeline import edits

    original = edits._SCORED_AT_ONCE
    edits._SCORED_AT_ONCE = 3
    try:
        found = detector._word_loose_all(docs, columns)
    finally:
        edits._SCORED_AT_ONCE = original
    assert isinstance(found, KeyedMatches) and len(found) == len(expected) and list(found) == expected


def test_word_filters_from_numbered_words_are_those_from_the_words(features):
    detector, docs = features
    entries = detector.build_index(docs, joins=False).sentences.index.sentences
    plain = detector._filter_rows(docs, entries)
    numbered = detector._filter_rows(docs, entries, detector._word_columns(docs))
    for field in ("lengths", "filters", "spare"):
        assert np.array_equal(getattr(numbered, field), getattr(plain, field))
    assert plain.filters.any()


def test_no_numbered_words_when_no_search_reads_them_or_for_a_store(features, tokenizer, idf):
    detector, docs = features
    neither = make_detector("low-idf-sig", idf, Config(jobs=1, edited_ratio=0, headlines=False), tokenizer=tokenizer)
    assert neither._word_columns(docs) is None
    assert detector._word_columns(_Named(docs)) is None  # a store's candidates: read as needed
