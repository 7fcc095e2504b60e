"""A stored document reads like the DocumentFeatures it was made from, however its texts are read."""

from __future__ import annotations

import pytest

from partialdup.store import Store
from partialdup.store.query import _FeatureBlobs, _Texts
from partialdup.store.reference import StoredReference, TextCache


@pytest.fixture()
def stored(tmp_path, detector, idf, sources):
    features = [detector.features(d) for d in sources[:6]]
    with Store(tmp_path / "s.db", detector, idf, create=True) as store:
        store.add(features)
    with Store(tmp_path / "s.db", detector, idf) as store:
        yield store._db, features


def _references(db, texts, numbers):
    ids, flat = _FeatureBlobs(db).unpacked(numbers)
    sizes = [int(flat.sentence_starts[i + 1] - flat.sentence_starts[i]) for i in range(len(numbers))]
    return [StoredReference(ids[i], sizes[i], flat, i, texts, n) for i, n in enumerate(numbers)]


@pytest.mark.parametrize("prefetched", [False, True])
def test_stored_reference_reads_as_the_document(stored, prefetched) -> None:
    db, features = stored
    numbers = [n for (n,) in db.execute("SELECT doc FROM documents ORDER BY doc")]
    texts = _Texts(db, TextCache())
    if prefetched:  # read in one statement, as the word searches do
        texts.prefetch(numbers)
    references = _references(db, texts, numbers)
    assert [r.id for r in references] == [f.id for f in features]
    for reference, doc in zip(references, features):
        n = len(doc.sentences)
        # Indexed back to front and by negative index first: each made once, the same either way.
        assert [reference.sentences[i] for i in range(-1, -n - 1, -1)] == list(reversed(doc.sentences))
        assert reference.sentences[n - 1] is reference.sentences[-1]
        assert reference.sentences[1:3] == doc.sentences[1:3]
        with pytest.raises(IndexError):
            reference.sentences[n]
        assert tuple(reference.sentences) == doc.sentences
        assert reference.bags == doc.bags and reference.tokens == doc.tokens
        assert reference.text == doc.text and reference.joins == doc.joins
        assert tuple(reference.words) == doc.words and reference.quotes == doc.quotes


def test_prefetch_reads_each_text_once(stored) -> None:
    db, _ = stored
    numbers = [n for (n,) in db.execute("SELECT doc FROM documents ORDER BY doc")]
    texts = _Texts(db, TextCache())
    texts.prefetch(numbers[:3])
    first = texts(numbers[0])
    texts.prefetch(numbers)  # the ones already read are kept, not read again
    assert texts(numbers[0]) is first
    assert [tuple(texts(n).words) for n in numbers] == [tuple(_Texts(db, TextCache())(n).words) for n in numbers]


def test_iterating_sentences_is_indexing_them_one_by_one(stored) -> None:
    db, features = stored
    numbers = [n for (n,) in db.execute("SELECT doc FROM documents ORDER BY doc")]
    iterated = _references(db, _Texts(db, TextCache()), numbers)
    indexed = _references(db, _Texts(db, TextCache()), numbers)
    for first, second, doc in zip(iterated, indexed, features):
        some = first.sentences[len(doc.sentences) // 2]  # made before iterating: kept, not made again
        assert list(first.sentences) == [second.sentences[i] for i in range(len(doc.sentences))] == list(doc.sentences)
        assert first.sentences[len(doc.sentences) // 2] is some
        assert all(a is b for a, b in zip(first.sentences, first.sentences))
