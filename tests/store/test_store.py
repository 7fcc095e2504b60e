"""The store: same spans as ``check --against``, idempotent adds, replacements, settings."""

from __future__ import annotations

import dataclasses
import io
import sqlite3

import pytest

from partialdup.core.config import Config
from partialdup.core.types import Document
from partialdup.io.jsonl import write_jsonl
from partialdup.pipeline.factory import make_detector
from partialdup.store import Store, StoreError, text_hash
from tests.match.test_word_filter import count_ruled_out, judge_every_pair
from tests.store.conftest import assert_consistent, stored_tables


def jsonl(detection) -> str:
    out = io.StringIO()
    write_jsonl(detection.spans, out)
    return out.getvalue()


def _stored(path, tokenizer, idf, documents):
    """A detector of the default settings and a store of ``documents`` made with it at ``path``."""
    detector = make_detector("low-idf-sig", idf, Config(), tokenizer=tokenizer)
    with Store(path, detector, idf, create=True) as store:
        store.add(documents, batch=7)
    return detector


@pytest.mark.parametrize("max_postings", [2000, 3])
def test_same_spans_and_counts_as_check_against(tmp_path, tokenizer, idf, sources, suspicious, max_postings) -> None:
    # max_postings 3 binds on the slice (dozens of features go over it), so
    # the counts kept in the store must decide exactly as the in-memory index.
    detector = make_detector("low-idf-sig", idf, Config(max_postings=max_postings), tokenizer=tokenizer)
    expected = detector.check(suspicious, sources)
    with Store(tmp_path / "s.db", detector, idf, create=True) as store:
        store.add(sources, batch=7)
        found = store.check(suspicious)
    assert expected.spans and jsonl(found) == jsonl(expected)
    # The sentences holding an over-frequent feature are not counted by a
    # store (0: "not known", the run's note then gives no number).
    assert found.stats.frequent_sentences == 0
    assert found.stats == dataclasses.replace(expected.stats, frequent_sentences=0)
    if max_postings == 3:
        assert expected.stats.frequent_features > 0 and expected.stats.skipped_postings > 0


def test_the_boilerplate_spans_on_request_as_check_against(tmp_path, tokenizer, idf, sources, suspicious) -> None:
    # The plagiarism job's common regions: built when asked for, the same
    # as in memory; the copies are the same either way.
    detector = make_detector("low-idf-sig", idf, Config(boilerplate=2), tokenizer=tokenizer)
    expected = detector.check(suspicious, sources, boilerplate_spans=True)
    with Store(tmp_path / "s.db", detector, idf, create=True) as store:
        store.add(sources, batch=7)
        found = store.check(suspicious, boilerplate_spans=True)
        plain = store.check(suspicious)
    assert expected.boilerplate_spans and found.boilerplate_spans == expected.boilerplate_spans
    assert (plain.spans, plain.boilerplate_spans) == (found.spans, ()) and found.spans == expected.spans
    assert plain.boilerplate_sentences == found.boilerplate_sentences == expected.boilerplate_sentences


def test_the_word_searches_read_only_their_candidates(tmp_path, tokenizer, idf, sources, suspicious) -> None:
    # The stored documents handed to the detector name the sentences its
    # word searches look at: fewer than all, and the spans are still
    # those of check --against.
    detector = _stored(tmp_path / "s.db", tokenizer, idf, sources)
    handed = []
    check_against = detector.check_against
    detector.check_against = lambda queries, references, *a, **k: handed.extend(references) or check_against(queries, references, *a, **k)
    with Store(tmp_path / "s.db", detector, idf) as store:
        found = store.check(suspicious)
    del detector.check_against
    assert jsonl(found) == jsonl(detector.check(suspicious, sources))
    for scanned in ([r.scanned for r in handed], [r.scanned_headlines for r in handed]):
        assert all(s is not None for s in scanned) and 0 < sum(map(len, scanned)) < sum(len(r.sentences) for r in handed)


def test_word_filters_change_no_span(tmp_path, tokenizer, idf, sources, suspicious, monkeypatch) -> None:
    # The edited-copy stage passes over the pairs whose word filters rule
    # them out (without reading a stored sentence's words): the same spans
    # as when every pair is judged on its words.
    detector = make_detector("low-idf-sig", idf, Config(), tokenizer=tokenizer)
    with Store(tmp_path / "s.db", detector, idf, create=True) as store:
        store.add(sources, batch=7)
        ruled_out = count_ruled_out(monkeypatch)
        filtered = store.check(suspicious)
        judge_every_pair(monkeypatch)
        every = store.check(suspicious)
    assert sum(ruled_out) > 0 and filtered.spans and jsonl(filtered) == jsonl(every)


def test_candidates_columns_equal_the_plain_ones(tmp_path, tokenizer, idf, sources, suspicious, monkeypatch) -> None:
    # A check's candidates give the edited-copy stage their sentences'
    # token counts and word filters from the features blobs' arrays at once
    # (sentence_columns): the same as read document by document, the
    # filters made from the stored words.
    import numpy as np

    from partialdup.index.inverted import entry_keys
    from partialdup.pipeline.edits import EditedStage

    detector = _stored(tmp_path / "s.db", tokenizer, idf, sources)
    compared = []
    fast = EditedStage._filter_rows

    def both(self, docs, entries):
        columns = getattr(docs, "sentence_columns", None)
        if columns is not None:
            tokens, filters = columns(entries)
            plain = self._filter_rows_of(docs, entry_keys(entries))
            assert np.array_equal(tokens, plain.lengths)
            assert np.array_equal(filters, plain.filters)
            compared.append(len(entries))
        return fast(self, docs, entries)

    monkeypatch.setattr(EditedStage, "_filter_rows", both)
    with Store(tmp_path / "s.db", detector, idf) as store:
        store.check(suspicious)
    assert compared and sum(compared) > 100


def test_near_misses_read_their_stored_texts_together(tmp_path, tokenizer, idf, sources, suspicious, monkeypatch) -> None:
    # The near misses' stored sentences are read in one statement per
    # hundreds of documents (References.prefetch), never one by one.
    from partialdup.match.verify import NearMissCheck
    from partialdup.store import reads

    detector = _stored(tmp_path / "s.db", tokenizer, idf, sources)
    judging, one_by_one, judged = [False], [], []
    accepted, text_blob = NearMissCheck.accepted, reads.text_blob

    def watched(self, records, *args, **kwargs):
        records = list(records)
        judged.append(len(records))
        judging[0] = True
        try:
            return accepted(self, records, *args, **kwargs)
        finally:
            judging[0] = False

    monkeypatch.setattr(NearMissCheck, "accepted", watched)
    monkeypatch.setattr(reads, "text_blob", lambda db, number: one_by_one.append(judging[0]) or text_blob(db, number))
    with Store(tmp_path / "s.db", detector, idf) as store:
        found = store.check(suspicious)
    assert sum(judged) > 0 and not any(one_by_one)
    assert jsonl(found) == jsonl(detector.check(suspicious, sources))


def test_parts_decompressed_on_another_thread_give_the_same_spans(tmp_path, tokenizer, idf, sources, suspicious, monkeypatch) -> None:
    # With the bound lowered so that every check takes both paths, the
    # candidates' features (beside the word searches) and the near misses'
    # chunks of words (beside the look-ups) decompressed on another thread
    # give the spans of check --against.
    import threading

    from partialdup.store import codec, reads

    detector = _stored(tmp_path / "s.db", tokenizer, idf, sources)
    threads, provided = [], []
    many, provide = codec.decompress_many, codec.Words.provide
    monkeypatch.setattr(reads, "AHEAD_LEAST", 1)
    monkeypatch.setattr(codec, "decompress_many", lambda parts: threads.append(threading.current_thread().name) or many(parts))
    monkeypatch.setattr(codec.Words, "provide", lambda self, chunk, data: provided.append(chunk) or provide(self, chunk, data))
    with Store(tmp_path / "s.db", detector, idf) as store:
        found = store.check(suspicious)
    assert len(threads) >= 2 and set(threads) == {"partialdup-decompress"} and provided
    assert jsonl(found) == jsonl(detector.check(suspicious, sources))


def test_a_failure_beside_the_word_searches_reaches_the_caller(tmp_path, tokenizer, idf, sources, suspicious, monkeypatch) -> None:
    from partialdup.store import codec, reads

    detector = _stored(tmp_path / "s.db", tokenizer, idf, sources[:8])

    def broken(parts):
        raise ValueError("corrupt part")

    monkeypatch.setattr(reads, "AHEAD_LEAST", 1)
    monkeypatch.setattr(codec, "decompress_many", broken)
    with Store(tmp_path / "s.db", detector, idf) as store, pytest.raises(ValueError, match="corrupt part"):
        store.check(suspicious[:3])


def test_adding_again_changes_nothing(tmp_path, detector, idf, sources) -> None:
    path = tmp_path / "s.db"
    with Store(path, detector, idf, create=True) as store:
        first = store.add(sources[:10])
        before = stored_tables(path)
        again = store.add(sources[:10])
    assert (first.added, again.added, again.replaced, again.unchanged) == (10, 0, 0, 10)
    assert stored_tables(path) == before
    assert_consistent(path)


def test_changed_document_replaces_its_old_version(tmp_path, detector, idf, sources, suspicious) -> None:
    path = tmp_path / "s.db"
    changed = [Document(d.id, d.text + "\n" + suspicious[0].text) if i == 3 else d for i, d in enumerate(sources)]
    with Store(path, detector, idf, create=True) as store:
        store.add(sources)
        report = store.add(changed)
        assert (report.replaced, report.unchanged) == (1, len(sources) - 1)
        assert jsonl(store.check(suspicious)) == jsonl(detector.check(suspicious, changed))
    assert_consistent(path)
    # The same tables as a store built from the changed documents directly.
    with Store(tmp_path / "clean.db", detector, idf, create=True) as clean:
        clean.add(changed)
    assert stored_tables(path) == stored_tables(tmp_path / "clean.db")


def test_remove_list_and_stats(tmp_path, detector, idf, sources) -> None:
    path = tmp_path / "s.db"
    with Store(path, detector, idf, create=True) as store:
        store.add(sources[:4], extras={sources[0].id: {"url": "https://example.org/a"}})
    with Store(path) as store:  # no detector: maintenance only
        assert store.remove([sources[1].id, "missing"]) == ["missing"]
        listed = list(store.documents())
        stats = store.stats()
    assert [d.id for d in listed] == [sources[0].id, *(d.id for d in sources[2:4])]
    assert listed[0].extra == {"url": "https://example.org/a"}
    assert stats.documents == 3 and stats.sentences == sum(d.sentences for d in listed)
    assert stats.postings > 0 and stats.bytes_per_sentence > 0
    assert_consistent(path)


def test_other_settings_are_refused_naming_the_option(tmp_path, tokenizer, idf, detector, sources) -> None:
    path = tmp_path / "s.db"
    with Store(path, detector, idf, create=True) as store:
        store.add(sources[:2])
    other = make_detector("low-idf-sig", idf, dataclasses.replace(Config(), gap=5), tokenizer=tokenizer)
    with pytest.raises(StoreError, match=r"s\.db: made with other settings \(--gap: stored 3, this run 5\)"):
        Store(path, other, idf)
    with pytest.raises(StoreError, match="IDF tables"):
        Store(path, detector, dataclasses.replace(idf, values={**idf.values, "新词": 1.0}))


def test_missing_or_foreign_file_is_a_user_error(tmp_path, detector, idf) -> None:
    with pytest.raises(StoreError, match="no such store"):
        Store(tmp_path / "none.db", detector, idf)
    foreign = tmp_path / "foreign.db"
    foreign.write_text("not a database, just text " * 100, encoding="utf-8")
    with pytest.raises(StoreError, match="foreign.db: not a partialdup store"):
        Store(foreign, detector, idf)


def test_an_id_given_twice_keeps_the_last_text(tmp_path, detector, idf, sources) -> None:
    path = tmp_path / "s.db"
    first, second = sources[0], Document(sources[0].id, sources[1].text)
    with Store(path, detector, idf, create=True) as store:
        report = store.add([first, second, first, second])
        assert [d.sha256 for d in store.documents()] == [text_hash(second.text)]
    assert report.added == 1 and report.replaced == 3
    assert_consistent(path)


def test_run_only_parameters_are_not_settings(tmp_path, tokenizer, idf, detector, sources) -> None:
    # --jobs says how a run is carried out, never what it finds: any value reads the store.
    path = tmp_path / "s.db"
    with Store(path, detector, idf, create=True) as store:
        store.add(sources[:2])
    other = make_detector("low-idf-sig", idf, dataclasses.replace(detector.config, jobs=detector.config.jobs + 2), tokenizer=tokenizer)
    with Store(path, other, idf) as store:
        assert store.stats().documents == 2
    with sqlite3.connect(str(path)) as db:
        assert not db.execute("SELECT key FROM meta WHERE key = 'config.jobs'").fetchall()


def test_repeated_sentences_count_once_and_find_their_copies(tmp_path, tokenizer, idf, sources, suspicious) -> None:
    # Five sources stored four times more under other ids: their sentences'
    # features are held by many sentences but few distinct bags, and at
    # max_postings 2 some query sentences hold only over-frequent features,
    # so they meet their identical copies alone (the in-memory index pairs
    # identical bags without a look-up).
    detector = make_detector("low-idf-sig", idf, Config(max_postings=2), tokenizer=tokenizer)
    references = [*sources, *(Document(f"again{n}/{d.id}", d.text) for n in range(4) for d in sources[:5])]
    expected = detector.check(suspicious, references)
    with Store(tmp_path / "s.db", detector, idf, create=True) as store:
        store.add(references, batch=9)
        found = store.check(suspicious)
    assert expected.spans and jsonl(found) == jsonl(expected)
    assert found.stats == dataclasses.replace(expected.stats, frequent_sentences=0)
    assert_consistent(tmp_path / "s.db")


def test_a_cache_of_texts_gives_the_same_spans_and_sees_other_writers(tmp_path, detector, idf, sources, suspicious) -> None:
    path = tmp_path / "s.db"
    with Store(path, detector, idf, create=True) as store:
        store.add(sources)
    with Store(path, detector, idf, cache=len(sources)) as cached:
        found = cached.check(suspicious)
        first = jsonl(found)
        # A source whose text the check read (cached), changed: its sentences move.
        paired = found.spans[0].b
        changed = [Document(d.id, sources[0].text + "\n" + d.text) if d.id == paired and d is not sources[0] else d for d in sources]
        assert jsonl(cached.check(suspicious)) == first == jsonl(detector.check(suspicious, sources))
        with Store(path, detector, idf) as writer:  # another connection replaces a document (same number)
            writer.add(changed)
        assert jsonl(cached.check(suspicious)) == jsonl(detector.check(suspicious, changed)) != first


@pytest.mark.parametrize("enabled", [True, False])
def test_a_check_pauses_the_collector_and_leaves_no_cycles(tmp_path, detector, idf, sources, suspicious, enabled) -> None:
    # Store.check pauses the garbage collector (a full collection walks the
    # IDF tables for nothing); that frees everything only if the check's
    # objects form no reference cycles: none is left for the collector.
    import gc

    with Store(tmp_path / "s.db", detector, idf, create=True) as store:
        store.add(sources, batch=7)
        seen = []
        check_against = detector.check_against
        detector.check_against = lambda *a, **k: seen.append(gc.isenabled()) or check_against(*a, **k)
        try:
            gc.collect()
            if not enabled:
                gc.disable()
            found = store.check(suspicious)
            assert gc.isenabled() is enabled  # given back as it was found
            gc.disable()
            gc.set_debug(gc.DEBUG_SAVEALL)
            unreachable = gc.collect()
            left = [type(o) for o in gc.garbage]
        finally:
            del detector.check_against
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
    assert seen == [False] and found.spans
    assert unreachable == 0, sorted({f"{t.__module__}.{t.__qualname__}" for t in left})
