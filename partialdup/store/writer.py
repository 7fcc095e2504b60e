"""Adding and removing documents: one transaction per batch, counts kept exact.

A document is written as its ``documents`` row, its two blobs (see
:mod:`partialdup.store.codec`), its share of the per-feature counts, of the
bag counts and its postings, all in the batch's transaction: a process
killed in the middle leaves no half document. Removing (or replacing) a
document subtracts exactly what adding it added, computed from its stored
features blob.

A feature's *distinct-bag* count (what ``max_postings`` bounds, as the
in-memory index does: :mod:`partialdup.index.groups`) changes only when a
bag is stored for the first time or its last copy is removed: the ``bags``
and ``join_bags`` tables count the copies of each bag by digest.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections import Counter
from typing import Any, Iterable, Mapping, Sequence

from partialdup.core.config import Config
from partialdup.core.types import Bag, Document, DocumentFeatures
from partialdup.pipeline.detector import Detector
from partialdup.store import codec
from partialdup.index.groups import bag_digests
from partialdup.match.verify import letter_flags
from partialdup.store.records import AddReport, signed, slices, text_hash
from partialdup.store.wordtable import WordDeltas, document_words

__all__ = ["Writer", "stored_hashes", "bag_keys"]


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
        self._words = WordDeltas()

    def add(
        self, documents: Iterable[Document | DocumentFeatures], batch: int, extras: Mapping[str, Mapping[str, Any]]
    ) -> AddReport:
        """See :meth:`partialdup.store.Store.add`."""
        total = AddReport()
        for chunk in slices(documents, batch):
            total += self._add_batch(chunk, extras)
        return total

    def _min_tokens(self) -> int:
        """The store's ``min_tokens`` (recorded with its settings: a remover has no detector)."""
        if self._detector is not None:
            return self._detector.config.min_tokens
        row = self._db.execute("SELECT value FROM meta WHERE key = 'config.min_tokens'").fetchone()
        return int(json.loads(row[0])) if row else Config().min_tokens

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
            self._words.flush(self._db, self._min_tokens())
            self._db.execute("COMMIT")
        except BaseException:
            self._words.clear()
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
        flags = letter_flags(features, self.detector.tokenizer.normalise)
        self._db.execute("INSERT INTO bodies VALUES (?, ?, ?)", (doc, *codec.pack(features, matchable, flags)))
        with_text = features if features.text is not None else dataclasses.replace(features, text=_text(document))
        self._words.add(doc, document_words(with_text, self.detector.config.min_tokens), 1)
        sentence_bags = [bag for bag, ok in zip(features.bags, matchable) if ok]
        join_bags = [bag for _, bag in features.joins]
        in_sentences, in_joins = _held_counts(sentence_bags, join_bags)
        new_sentences, new_joins = self._count_bags("bags", sentence_bags, 1), self._count_bags("join_bags", join_bags, 1)
        rows = [
            (signed(f), in_sentences.get(f, 0), in_joins.get(f, 0), new_sentences.get(f, 0), new_joins.get(f, 0))
            for f in in_sentences.keys() | in_joins.keys()
        ]
        self._db.executemany(
            "INSERT INTO features VALUES (?, ?, ?, ?, ?) ON CONFLICT(feature) DO UPDATE "
            "SET sentences = sentences + excluded.sentences, joins = joins + excluded.joins, "
            "sentence_bags = sentence_bags + excluded.sentence_bags, join_bags = join_bags + excluded.join_bags",
            rows,
        )
        self._db.executemany("INSERT INTO postings VALUES (?, ?)", [(row[0], doc) for row in rows])
        return doc

    def _count_bags(self, table: str, bag_list: Sequence[Bag], sign: int) -> Counter[int]:
        """Add (``sign`` 1) or remove (-1) copies of bags in ``table``; returns,
        per feature, how many distinct bags holding it were stored for the
        first time (or lost their last copy)."""
        bag_list = [bag for bag in bag_list if bag]  # an empty bag holds no feature and is never looked up
        keys = bag_keys(bag_list)
        copies = Counter(keys)
        first = dict(zip(keys, bag_list))
        stored: dict[int, int] = {}
        for chunk in slices(sorted(copies)):
            marks = ",".join("?" * len(chunk))
            stored.update(self._db.execute(f"SELECT digest, members FROM {table} WHERE digest IN ({marks})", chunk))
        if sign > 0:
            changed = [key for key in copies if key not in stored]
            self._db.executemany(
                f"INSERT INTO {table} VALUES (?, ?) ON CONFLICT(digest) DO UPDATE SET members = members + excluded.members",
                sorted(copies.items()),
            )
        else:
            changed = [key for key in copies if stored.get(key, 0) <= copies[key]]
            self._db.executemany(f"UPDATE {table} SET members = members - ? WHERE digest = ?",
                                 [(n, key) for key, n in sorted(copies.items())])
            self._db.executemany(f"DELETE FROM {table} WHERE digest = ? AND members <= 0", [(key,) for key in sorted(changed)])
        return Counter(f for key in changed for f in first[key])

    def _delete(self, number: int) -> None:
        """Remove a stored document's rows and its share of the feature counts."""
        doc_id, blob, text = self._db.execute(
            "SELECT d.id, b.features, b.text FROM documents d JOIN bodies b USING (doc) WHERE doc = ?", (number,)
        ).fetchone()
        packed = codec.unpack_features(blob)
        self._words.add(number, document_words(codec.unpack_document(doc_id, packed, text), self._min_tokens()), -1)
        sentence_bags, join_bags = stored_bags(packed)
        in_sentences, in_joins = _held_counts(sentence_bags, join_bags)
        lost_sentences, lost_joins = self._count_bags("bags", sentence_bags, -1), self._count_bags("join_bags", join_bags, -1)
        rows = [
            (in_sentences.get(f, 0), in_joins.get(f, 0), lost_sentences.get(f, 0), lost_joins.get(f, 0), signed(f))
            for f in in_sentences.keys() | in_joins.keys()
        ]
        self._db.executemany(
            "UPDATE features SET sentences = sentences - ?, joins = joins - ?, sentence_bags = sentence_bags - ?, "
            "join_bags = join_bags - ? WHERE feature = ?",
            rows,
        )
        self._db.executemany("DELETE FROM features WHERE feature = ? AND sentences = 0 AND joins = 0", [(row[-1],) for row in rows])
        self._db.executemany("DELETE FROM postings WHERE feature = ? AND doc = ?", [(row[-1], number) for row in rows])
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
            self._words.flush(self._db, self._min_tokens())
            self._db.execute("COMMIT")
        except BaseException:
            self._words.clear()
            self._db.execute("ROLLBACK")
            raise
        return [doc_id for doc_id in ids if doc_id not in stored]


def _text(document: Document | DocumentFeatures) -> str:
    if document.text is None:
        raise ValueError(f"{document.id}: a stored document needs its text")
    return document.text


def _held_counts(sentence_bags: Sequence[Bag], join_bags: Sequence[Bag]) -> tuple[Counter[int], Counter[int]]:
    """Per feature: matchable sentences holding it, rejoined pairs holding it."""
    return Counter(f for bag in sentence_bags for f in bag), Counter(f for bag in join_bags for f in bag)


def stored_bags(doc: codec.PackedFeatures) -> tuple[list[Bag], list[Bag]]:
    """A stored document's matchable sentences' bags and rejoined pairs' bags."""
    matchable = doc.matchable.astype(bool).tolist()
    sentence_bags = [bag for bag, ok in zip(codec.bags(doc.bag_sizes, doc.features, doc.counts), matchable) if ok]
    return sentence_bags, codec.bags(doc.join_sizes, doc.join_features, doc.join_counts)


def bag_keys(bag_list: Sequence[Bag]) -> list[int]:
    """The key of each bag in the ``bags`` tables: the first half of its
    stable digest (:func:`~partialdup.index.groups.bag_digests`), as SQLite's
    signed integer. 64 bits: two of a million distinct bags share one with a
    chance of about 3e-8, and then only a count is off by one (a look-up by
    digest compares the bags themselves)."""
    if not bag_list:
        return []
    return [signed(key) for key in bag_digests(bag_list)[:, 0].tolist()]


def _extras_of(document: Document | DocumentFeatures, extras: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The extra fields stored with a document: given ones, else those of its JSONL record."""
    given = extras.get(document.id)
    if given is not None:
        return given
    fields = getattr(document, "fields", None)  # a Document read from JSONL keeps its other fields
    return dict(fields) if fields else None
