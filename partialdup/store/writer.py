"""Adding and removing documents: one transaction per batch, counts kept exact.

A document is written as its ``documents`` row, its two blobs (see
:mod:`partialdup.store.codec`), its share of the per-feature counts and its
postings, all in the batch's transaction: a process killed in the middle
leaves no half document. Removing (or replacing) a document subtracts
exactly what adding it added, computed from its stored features blob.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from typing import Any, Iterable, Mapping, Sequence

from partialdup.core.types import Document, DocumentFeatures
from partialdup.pipeline.detector import Detector
from partialdup.store import codec
from partialdup.store.records import AddReport, signed, slices, text_hash

__all__ = ["Writer", "stored_hashes"]


def stored_hashes(db: sqlite3.Connection, ids: Iterable[str]) -> dict[str, tuple[int, str]]:
    """id -> (document number, sha256) of the stored ones among ``ids``."""
    found: dict[str, tuple[int, str]] = {}
    for chunk in slices(ids):
        marks = ",".join("?" * len(chunk))
        for doc_id, number, digest in db.execute(f"SELECT id, doc, sha256 FROM documents WHERE id IN ({marks})", chunk):
            found[doc_id] = (number, digest)
    return found


class Writer:
    """Writes documents into an open store.

    Args:
        db: The store's connection (transactions explicit).
        detector: Makes the features (its settings are the store's); None
            when only removing.
    """

    def __init__(self, db: sqlite3.Connection, detector: Detector | None) -> None:
        self._db = db
        self._detector = detector

    def add(
        self, documents: Iterable[Document | DocumentFeatures], batch: int, extras: Mapping[str, Mapping[str, Any]]
    ) -> AddReport:
        """See :meth:`partialdup.store.Store.add`."""
        total = AddReport()
        for chunk in slices(documents, batch):
            total += self._add_batch(chunk, extras)
        return total

    @property
    def detector(self) -> Detector:
        """The detector that makes the features (adding needs one)."""
        if self._detector is None:
            raise ValueError("adding needs a detector")
        return self._detector

    def _add_batch(self, documents: Sequence[Document | DocumentFeatures], extras: Mapping[str, Mapping[str, Any]]) -> AddReport:
        stored = stored_hashes(self._db, [d.id for d in documents])
        # Features are made before the write lock is taken: the lock is held
        # only while rows are written.
        prepared = [
            (d, digest, self.detector.features(d))
            for d in documents
            if stored.get(d.id, (None, None))[1] != (digest := text_hash(_text(d)))
        ]
        added = replaced = sentences = 0
        self._db.execute("BEGIN IMMEDIATE")
        try:
            current = stored_hashes(self._db, [d.id for d, _, _ in prepared])  # another writer may have been first
            for document, digest, features in prepared:
                number, old = current.get(document.id, (None, None))
                if old == digest:
                    continue
                if number is not None:
                    self._delete(number)
                    replaced += 1
                else:
                    added += 1
                # An id given twice in one batch: the second replaces the first.
                current[document.id] = (self._insert(number, document, digest, features, _extras_of(document, extras)), digest)
                sentences += len(features.sentences)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return AddReport(added, replaced, len(documents) - added - replaced, sentences)

    def _insert(
        self, number: int | None, document: Document | DocumentFeatures, digest: str, features: DocumentFeatures,
        extra: Mapping[str, Any] | None,
    ) -> int:
        """Write a document's rows (under ``number``, or a new one); returns its number."""
        matchable = [self.detector.matchable(features, i) for i in range(len(features.bags))]
        cursor = self._db.execute(
            "INSERT INTO documents (doc, id, sha256, chars, sentences, extra) VALUES (?, ?, ?, ?, ?, ?)",
            (number, document.id, digest, len(_text(document)), len(features.sentences),
             json.dumps(dict(extra), ensure_ascii=False, sort_keys=True) if extra else None),
        )
        doc = int(cursor.lastrowid or 0) if number is None else number  # a rowid is never 0 here
        self._db.execute("INSERT INTO bodies VALUES (?, ?, ?)", (doc, *codec.pack(features, matchable)))
        in_sentences, in_joins = _held_counts(features, matchable)
        rows = [(signed(f), in_sentences.get(f, 0), in_joins.get(f, 0)) for f in in_sentences.keys() | in_joins.keys()]
        self._db.executemany(
            "INSERT INTO features VALUES (?, ?, ?) ON CONFLICT(feature) DO UPDATE "
            "SET sentences = sentences + excluded.sentences, joins = joins + excluded.joins",
            rows,
        )
        self._db.executemany("INSERT INTO postings VALUES (?, ?)", [(f, doc) for f, _, _ in rows])
        return doc

    def _delete(self, number: int) -> None:
        """Remove a stored document's rows and its share of the feature counts."""
        (blob,) = self._db.execute("SELECT features FROM bodies WHERE doc = ?", (number,)).fetchone()
        in_sentences, in_joins = _packed_counts(codec.unpack_features(blob))
        rows = [(signed(f), in_sentences.get(f, 0), in_joins.get(f, 0)) for f in in_sentences.keys() | in_joins.keys()]
        self._db.executemany("UPDATE features SET sentences = sentences - ?, joins = joins - ? WHERE feature = ?",
                             [(s, j, f) for f, s, j in rows])
        self._db.executemany("DELETE FROM features WHERE feature = ? AND sentences = 0 AND joins = 0", [(f,) for f, _, _ in rows])
        self._db.executemany("DELETE FROM postings WHERE feature = ? AND doc = ?", [(f, number) for f, _, _ in rows])
        self._db.execute("DELETE FROM bodies WHERE doc = ?", (number,))
        self._db.execute("DELETE FROM documents WHERE doc = ?", (number,))

    def remove(self, ids: Sequence[str]) -> list[str]:
        """See :meth:`partialdup.store.Store.remove`."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            stored = stored_hashes(self._db, ids)
            for doc_id in dict.fromkeys(ids):
                if doc_id in stored:
                    self._delete(stored[doc_id][0])
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return [doc_id for doc_id in ids if doc_id not in stored]


def _text(document: Document | DocumentFeatures) -> str:
    if document.text is None:
        raise ValueError(f"{document.id}: a stored document needs its text")
    return document.text


def _held_counts(doc: DocumentFeatures, matchable: Sequence[bool]) -> tuple[Counter[int], Counter[int]]:
    """Per feature: matchable sentences holding it, rejoined pairs holding it."""
    in_sentences: Counter[int] = Counter(f for bag, ok in zip(doc.bags, matchable) if ok for f in bag)
    in_joins: Counter[int] = Counter(f for _, bag in doc.joins for f in bag)
    return in_sentences, in_joins


def _packed_counts(doc: codec.PackedFeatures) -> tuple[Counter[int], Counter[int]]:
    matchable = doc.matchable.astype(bool)[doc.sentence_rows()]
    return Counter(doc.features[matchable].tolist()), Counter(doc.join_features.tolist())


def _extras_of(document: Document | DocumentFeatures, extras: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The extra fields stored with a document: given ones, else those of its JSONL record."""
    given = extras.get(document.id)
    if given is not None:
        return given
    fields = getattr(document, "fields", None)  # a Document read from JSONL keeps its other fields
    return dict(fields) if fields else None
