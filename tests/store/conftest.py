"""Fixtures of the store tests: one detector per session, real text from the gold-set slice."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from partialdup.core.config import Config
from partialdup.pipeline.factory import make_detector
from partialdup.store import codec


@pytest.fixture(scope="session")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(), tokenizer=tokenizer)


def rebuilt_counts(path: Path) -> tuple[dict[int, tuple[int, int]], set[tuple[int, int]]]:
    """The features and postings tables recomputed from the stored blobs alone."""
    db = sqlite3.connect(str(path))
    in_sentences: Counter[int] = Counter()
    in_joins: Counter[int] = Counter()
    postings: set[tuple[int, int]] = set()
    for doc, blob in db.execute("SELECT doc, features FROM bodies"):
        packed = codec.unpack_features(blob)
        matchable = packed.matchable.astype(bool)[packed.sentence_rows()]
        own_s = Counter(codec.to_signed(packed.features[matchable]).tolist())
        own_j = Counter(codec.to_signed(packed.join_features).tolist())
        in_sentences.update(own_s)
        in_joins.update(own_j)
        postings.update((f, doc) for f in own_s.keys() | own_j.keys())
    db.close()
    features = {f: (in_sentences[f], in_joins[f]) for f in in_sentences.keys() | in_joins.keys()}
    return features, postings


def stored_tables(path: Path) -> tuple[dict[int, tuple[int, int]], set[tuple[int, int]], list[tuple]]:
    """(features, postings, document rows) as stored."""
    db = sqlite3.connect(str(path))
    features = {f: (s, j) for f, s, j in db.execute("SELECT feature, sentences, joins FROM features")}
    postings = set(db.execute("SELECT feature, doc FROM postings"))
    documents = db.execute("SELECT doc, id, sha256, chars, sentences FROM documents ORDER BY doc").fetchall()
    db.close()
    return features, postings, documents


def assert_consistent(path: Path) -> list[tuple]:
    """Integrity, every document complete, every count equal to what the blobs hold.

    Returns:
        The stored document rows.
    """
    db = sqlite3.connect(str(path))
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    blobs = {doc: (features, text) for doc, features, text in db.execute("SELECT doc, features, text FROM bodies")}
    db.close()
    features, postings, documents = stored_tables(path)
    assert sorted(blobs) == [doc for doc, *_ in documents]
    for doc, doc_id, _, chars, sentences in documents:
        whole = codec.unpack_document(doc_id, codec.unpack_features(blobs[doc][0]), blobs[doc][1])
        assert len(whole.sentences) == sentences and len(whole.text or "") == chars
    assert (features, postings) == rebuilt_counts(path)
    return documents
