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
