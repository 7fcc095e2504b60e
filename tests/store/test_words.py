"""The word table: the word searches of a stored check are those of ``check --against``, by the collection's counts."""

from __future__ import annotations

import io
import sqlite3

import pytest

from partialdup.core.config import Config
from partialdup.core.types import Document
from partialdup.index.words import WORD_JACCARD, WordSets
from partialdup.io.jsonl import write_jsonl
from partialdup.pipeline.factory import make_detector
from partialdup.store import Store
from partialdup.store.wordsearch import word_candidates
from tests.store.conftest import assert_consistent, rebuilt_words


def jsonl(detection) -> str:
    out = io.StringIO()
    write_jsonl(detection.spans, out)
    return out.getvalue()


def _excerpts(detector, sources, suspicious) -> tuple[list[Document], set[str], set[str]]:
    """One document per source sentence that the word searches alone pair
    with a query sentence (an edited copy sharing no feature with it; a
    headline inside a longer sentence): the sentence's own text, cut from
    the real source. Returns them, and the ids of those sharing no feature
    with any query (reached by words only), from each search."""
    references = [detector.features(d) for d in sources]
    queries = [detector.features(d) for d in suspicious]
    edited = [(b, score) for _, b, score in detector._word_loose_query(queries, references)]
    headlines = [(b, 1.0) for _, b, _ in detector._headline_hits(queries, references, [], [])]
    query_features = {f for q in queries for bags in (q.bags, [b for _, b in q.joins], [b for _, b in q.quotes]) for bag in bags for f in bag}
    made, alone = {}, ({}, {})
    for kind, found in enumerate((edited, headlines)):
        for (d, s), score in found:
            if kind == 0 and score:  # shares a feature with its query sentence
                continue
            sentence = references[d].sentences[s]
            doc = made.setdefault((d, s), Document(f"excerpt/{references[d].id}/{s}", references[d].text[sentence.start:sentence.end]))
            own = detector.features(doc)
            if kind == 1 or not {f for bag in [*own.bags, *(b for _, b in own.joins)] for f in bag} & query_features:
                alone[kind][doc.id] = True
    return list(made.values()), set(alone[0]), set(alone[1])


def test_a_document_whose_only_copy_is_an_edited_sentence_or_a_headline_is_found(tmp_path, detector, idf, sources, suspicious) -> None:
    # Such a document shares no feature with the query: only the word table
    # makes it a candidate of the store, as it is one of check --against.
    excerpts, by_words, by_headline = _excerpts(detector, sources, suspicious)
    stored = [*sources, *excerpts]
    expected = detector.check(suspicious, stored)
    with Store(tmp_path / "s.db", detector, idf, create=True) as store:
        store.add(stored, batch=9)
    # The word searches read the stored words they need in one statement
    # per hundreds of documents (their prefetch), never a text on its own.
    from partialdup.store import query, reads, wordsearch

    searching, one_by_one = [False], []
    candidates, text_blob = wordsearch.word_candidates, reads.text_blob

    def watched(*args, **kwargs):
        searching[0] = True
        try:
            return candidates(*args, **kwargs)
        finally:
            searching[0] = False

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(query, "word_candidates", watched)
        patch.setattr(reads, "text_blob", lambda db, number: one_by_one.append(searching[0]) or text_blob(db, number))
        with Store(tmp_path / "s.db", detector, idf) as store:
            found = store.check(suspicious)
    assert jsonl(found) == jsonl(expected)
    assert not any(one_by_one)
    reported = {span.b for span in expected.spans}
    assert reported & by_words and reported & by_headline


def test_every_pair_of_the_word_searches_lies_among_the_stores_candidates(tmp_path, detector, idf, sources, suspicious) -> None:
    # The candidates a check reads through the word table hold every stored
    # sentence the in-memory searches pair with a query sentence.
    references = [detector.features(d) for d in sources]
    queries = [detector.features(d) for d in suspicious]
    edited = {b for _, b, _ in detector._word_loose_query(queries, references)}
    headlines = {second for _, second, _ in detector._headline_hits(queries, references, [], [])}  # (query, stored)
    with Store(tmp_path / "s.db", detector, idf, create=True) as store:
        store.add(sources, batch=8)
        db = sqlite3.connect(str(tmp_path / "s.db"))
        numbers = dict(db.execute("SELECT id, doc FROM documents"))
        words = {n: references[i].words for i, n in enumerate(numbers[d.id] for d in sources)}
        found = word_candidates(db, detector.config, queries, words.__getitem__)
        db.close()
    position = {numbers[d.id]: i for i, d in enumerate(sources)}
    reached = {(position[n], s) for n, sentences in found.words.items() for s in sentences}
    reached_headlines = {(position[n], s) for n, sentences in found.headlines.items() for s in sentences}
    assert edited and edited <= reached
    assert headlines and headlines <= reached_headlines


def test_the_collections_counts_decide_as_in_memory(tmp_path, monkeypatch, detector, idf, sources, suspicious) -> None:
    # With the cap on word postings at 10 (and on headline keys at 5), the
    # cap binds on the slice: counting only the documents a query's pairs
    # lie in would pair other sentences (shown first); the store counts the
    # collection and gives the spans of check --against.
    monkeypatch.setattr("partialdup.index.words.WORD_POSTINGS", 10)
    monkeypatch.setattr("partialdup.match.headline_search.KEY_POSTINGS", 5)
    references = [detector.features(d) for d in sources]
    rows = [(d, s) for d, doc in enumerate(references) for s, words in enumerate(doc.words) if len(words) >= 3]
    query = [words for words in detector.features(suspicious[2]).words if len(words) >= 3]
    whole = {(q, rows[k]) for q, k, _ in WordSets(query, [references[d].words[s] for d, s in rows], WORD_JACCARD, max_postings=10).pairs()}
    part = [(d, s) for d, s in rows if d in {d for _, (d, _) in whole}]
    alone = {(q, part[k]) for q, k, _ in WordSets(query, [references[d].words[s] for d, s in part], WORD_JACCARD, max_postings=10).pairs()}
    assert alone != whole
    expected = detector.check(suspicious, sources)
    handed = []
    check_against = detector.check_against
    detector.check_against = lambda queries, references, *a, **k: handed.append((queries, references)) or check_against(queries, references, *a, **k)
    try:
        with Store(tmp_path / "s.db", detector, idf, create=True) as store:
            store.add(sources, batch=5)
            assert jsonl(store.check(suspicious)) == jsonl(expected)
    finally:
        del detector.check_against
    assert_consistent(tmp_path / "s.db")
    # The word searches themselves find, among the store's candidates, what
    # they find among all the documents: the same pairs, by document id.
    [(query_docs, candidates)] = handed
    for search in (lambda refs: detector._word_loose_query(query_docs, refs), lambda refs: detector._headline_hits(query_docs, refs, [], [])):
        found, whole = search(candidates), search(references)
        assert whole and _by_id(found, candidates) == _by_id(whole, references)


def _by_id(pairs, references) -> list:
    """(query sentence, (reference id, sentence), score) of (query sentence, reference sentence, score) pairs."""
    return sorted((first, (references[second[0]].id, second[1]), score) for first, second, score in pairs)


def test_removing_documents_finds_the_dropped_places_again(tmp_path, monkeypatch, detector, idf, sources, suspicious) -> None:
    # Caps of 3 and 4: places are dropped past 6 sentences and 8 long
    # occurrences; removing most documents brings words back under the caps,
    # and their places are read again from the stored words.
    monkeypatch.setattr("partialdup.index.words.WORD_POSTINGS", 3)
    monkeypatch.setattr("partialdup.match.headline_search.KEY_POSTINGS", 4)
    path = tmp_path / "s.db"
    with Store(path, detector, idf, create=True) as store:
        store.add([*sources, *suspicious], batch=8)
        dropped = _dropped(path)
        store.remove([d.id for d in suspicious] + [d.id for d in sources[::2]])
        kept = sources[1::2]
        assert jsonl(store.check(suspicious)) == jsonl(detector.check(suspicious, kept))
    assert dropped and dropped - _dropped(path)  # some came back
    assert_consistent(path)


def _dropped(path) -> set[int]:
    db = sqlite3.connect(str(path))
    try:
        return {key for (key,) in db.execute("SELECT word FROM words WHERE places IS NULL")}
    finally:
        db.close()


def test_a_store_opened_without_a_detector_removes_with_the_stored_min_tokens(tmp_path, tokenizer, idf, sources) -> None:
    # `index remove` opens the store without a detector: the word table's
    # counts of sentences of at least min_tokens words use the recorded value.
    detector = make_detector("low-idf-sig", idf, Config(min_tokens=6), tokenizer=tokenizer)
    path = tmp_path / "s.db"
    with Store(path, detector, idf, create=True) as store:
        store.add(sources[:6])
    with Store(path) as store:
        store.remove([sources[2].id])
    db = sqlite3.connect(str(path))
    stored = {key: (s, l) for key, s, l in db.execute("SELECT word, sentences, longs FROM words") if s or l}
    db.close()
    assert stored == rebuilt_words(path, min_tokens=6)[0] != rebuilt_words(path)[0]


def test_the_filters_of_words_spare_reads_and_change_no_candidate(tmp_path, monkeypatch, detector, idf, sources, suspicious) -> None:
    # Small caps make most words common (no places): their bound is loose,
    # and the filters rule out most of the sentences it lets through. The
    # plain search (no filters) reads every one and finds the same sentences.
    from partialdup.store.reads import FeatureBlobs

    monkeypatch.setattr("partialdup.index.words.WORD_POSTINGS", 3)
    monkeypatch.setattr("partialdup.match.headline_search.KEY_POSTINGS", 4)
    references = [detector.features(d) for d in sources]
    queries = [detector.features(d) for d in suspicious]
    with Store(tmp_path / "s.db", detector, idf, create=True) as store:
        store.add(sources, batch=8)
    db = sqlite3.connect(str(tmp_path / "s.db"))
    numbers = dict(db.execute("SELECT id, doc FROM documents"))
    words = {n: references[i].words for i, n in enumerate(numbers[d.id] for d in sources)}
    read: list[list[int]] = [[], []]
    found = []
    for reads, blooms in zip(read, (None, FeatureBlobs(db).word_blooms)):
        words_of = lambda number, reads=reads: reads.append(number) or _Counted(words[number], reads)  # noqa: E731
        found.append(word_candidates(db, detector.config, queries, words_of, blooms_of=blooms))
    db.close()
    plain, filtered = found
    assert plain.words and (dict(plain.words), dict(plain.headlines)) == (dict(filtered.words), dict(filtered.headlines))
    assert plain.collection == filtered.collection
    assert len(read[1]) < len(read[0])


class _Counted(list):
    """A document's words, counting each sentence read in ``reads``."""

    def __init__(self, sentences, reads) -> None:
        super().__init__(sentences)
        self._reads = reads

    def __getitem__(self, index):
        self._reads.append(index)
        return super().__getitem__(index)
