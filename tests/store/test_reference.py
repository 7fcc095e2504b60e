"""A stored document reads like the DocumentFeatures it was made from, however its texts are read."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.match.verify import NearMissCheck
from partialdup.store import Store
from partialdup.store.reads import FeatureBlobs, Texts
from partialdup.store.reference import StoredReference, TextCache


@pytest.fixture()
def stored(tmp_path, detector, idf, sources):
    features = [detector.features(d) for d in sources[:6]]
    with Store(tmp_path / "s.db", detector, idf, create=True) as store:
        store.add(features)
    with Store(tmp_path / "s.db", detector, idf) as store:
        yield store._db, features


def _references(db, texts, numbers):
    ids, flat = FeatureBlobs(db).unpacked(numbers)
    sizes = [int(flat.sentence_starts[i + 1] - flat.sentence_starts[i]) for i in range(len(numbers))]
    return [StoredReference(ids[i], sizes[i], flat, i, texts, n) for i, n in enumerate(numbers)]


@pytest.mark.parametrize("prefetched", [False, True])
def test_stored_reference_reads_as_the_document(stored, prefetched) -> None:
    db, features = stored
    numbers = [n for (n,) in db.execute("SELECT doc FROM documents ORDER BY doc")]
    texts = Texts(db, TextCache())
    if prefetched:  # read in one statement, as the word searches do
        texts.prefetch(numbers)
    references = _references(db, texts, numbers)
    assert [r.id for r in references] == [f.id for f in features]
    for reference, doc in zip(references, features):
        n = len(doc.sentences)
        assert reference.sentence_count == n and "sentences" not in vars(reference)  # counted, not made
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
    texts = Texts(db, TextCache())
    texts.prefetch(numbers[:3])
    first = texts(numbers[0])
    texts.prefetch(numbers)  # the ones already read are kept, not read again
    assert texts(numbers[0]) is first
    assert [tuple(texts(n).words) for n in numbers] == [tuple(Texts(db, TextCache())(n).words) for n in numbers]


def test_iterating_sentences_is_indexing_them_one_by_one(stored) -> None:
    db, features = stored
    numbers = [n for (n,) in db.execute("SELECT doc FROM documents ORDER BY doc")]
    iterated = _references(db, Texts(db, TextCache()), numbers)
    indexed = _references(db, Texts(db, TextCache()), numbers)
    for first, second, doc in zip(iterated, indexed, features):
        some = first.sentences[len(doc.sentences) // 2]  # made before iterating: kept, not made again
        assert list(first.sentences) == [second.sentences[i] for i in range(len(doc.sentences))] == list(doc.sentences)
        assert first.sentences[len(doc.sentences) // 2] is some
        assert all(a is b for a, b in zip(first.sentences, first.sentences))


def test_letters_read_from_words_are_the_letters_of_the_text(stored, detector) -> None:
    # The plain reference: every sentence's letters made from the stored text.
    db, features = stored
    numbers = [n for (n,) in db.execute("SELECT doc FROM documents ORDER BY doc")]
    references = _references(db, Texts(db, TextCache()), numbers)
    check = NearMissCheck(detector.tokenizer.normalise, detector.config.near_ratio, detector.config.embedded_ratio)
    from_words = 0
    for reference, doc in zip(references, features):
        for i, sentence in enumerate(doc.sentences):
            plain = check.sentence_letters(doc.text, sentence, doc.tokens[i])
            known = reference.letters_of(i)
            if known is not None:
                from_words += 1
                assert known == plain
            assert check.of_sentence(reference, i) == plain == check.of_sentence(doc, i)
    assert from_words > 0.9 * sum(len(doc.sentences) for doc in features)


def test_letters_are_read_without_the_stored_text(stored, detector) -> None:
    db, features = stored
    numbers = [n for (n,) in db.execute("SELECT doc FROM documents ORDER BY doc")]
    reference = _references(db, Texts(db, TextCache()), numbers)[0]
    i = next(i for i in range(len(features[0].sentences)) if reference.letters_of(i) is not None)
    reference.letters_of(i)
    assert "text" not in vars(reference) and "_part" not in vars(reference)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_characters="\x00\x01"), max_size=6), max_size=8))
def test_the_letters_of_words_joined_by_the_separator_are_those_of_the_words(words) -> None:
    # StoredReference.letters_of reads a sentence's stored string whole: the
    # separator between its words is no letter nor digit.
    from partialdup.match.score import letters
    from partialdup.match.verify import words_letters

    assert letters("\x00".join(words)) == words_letters(words)


def test_the_filters_of_any_places_are_those_of_their_blobs(stored) -> None:
    import numpy as np

    from partialdup.store import codec

    db, _ = stored
    blobs = dict(db.execute("SELECT doc, features FROM bodies"))
    places = [(n, s) for n, blob in sorted(blobs.items()) for s in range(len(codec.word_blooms(blob)))][::-3]  # out of order
    documents, sentences = (np.array(column, np.int64) for column in zip(*places))
    assert FeatureBlobs(db).word_blooms(documents, sentences).tolist() == [int(codec.word_blooms(blobs[n])[s]) for n, s in places]
    assert FeatureBlobs(db).word_blooms(documents[:0], sentences[:0]).tolist() == []


def test_copies_stored_under_other_ids_share_their_text_in_a_check(tmp_path, detector, idf, sources) -> None:
    import dataclasses

    features = [detector.features(d) for d in sources[:2]]
    copy = dataclasses.replace(features[0], id=features[0].id + "-copy")
    with Store(tmp_path / "c.db", detector, idf, create=True) as store:
        store.add([*features, copy])
    with Store(tmp_path / "c.db", detector, idf) as store:
        db = store._db
        numbers = {doc_id: n for n, doc_id in db.execute("SELECT doc, id FROM documents")}
        texts = Texts(db, TextCache())
        texts.prefetch(numbers.values())
        first, other, again = (texts(numbers[d.id]) for d in (features[0], features[1], copy))
        assert again is first and other is not first
        assert again.part.text == copy.text and again.words == first.words
        # Each sentence's letters, from its words or from the text, made once for both copies.
        check = NearMissCheck(detector.tokenizer.normalise, detector.config.near_ratio, detector.config.embedded_ratio)
        original, duplicate = _references(db, texts, [numbers[features[0].id], numbers[copy.id]])
        plain = [check.sentence_letters(copy.text, s, copy.tokens[i]) for i, s in enumerate(copy.sentences)]
        assert [check.of_sentence(original, i) for i in range(len(plain))] == plain
        made = dict(first.letters)
        assert len(made) == len(plain) and [check.of_sentence(duplicate, i) for i in range(len(plain))] == plain
        assert first.letters == made  # nothing made again for the copy
        # The check reads the same spans as check --against on the three documents.
        spans = store.check([sources[0]]).spans
        assert spans and spans == detector.check([sources[0]], [*features, copy]).spans
        assert {span.b for span in spans} >= {features[0].id, copy.id}
