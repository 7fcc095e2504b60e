"""A persistent reference collection: add documents once, check queries against them every day.

:class:`Store` keeps, in one SQLite file (see :mod:`partialdup.store.schema`),
every document's text and features and an inverted postings table. A query
reads the counts and postings of its own features only, then the documents
those postings name, and hands them to the detector's public
:meth:`~partialdup.pipeline.detector.Detector.check_against`: the spans are
those of ``check --against`` on the same documents.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from importlib import metadata
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from partialdup.core.errors import PartialdupError
from partialdup.core.types import Bag, Document, DocumentFeatures, RunStats
from partialdup.pipeline.detector import AnyDocument, Detection, Detector
from partialdup.store import codec
from partialdup.store.schema import SCHEMA_VERSION, connect, create_tables
from partialdup.store.reference import StoredReference
from partialdup.store.search import PartialIndex, partial_reference_index
from partialdup.store.settings import first_difference, settings_of
from partialdup.text.idf import IdfTable

__all__ = ["Store", "StoreError", "AddReport", "StoreStats", "StoredDocument", "require_store", "text_hash"]

#: Features per ``IN (...)`` list (well under SQLite's variable limit).
_CHUNK = 900


class StoreError(PartialdupError):
    """A store that cannot be used as asked (one line naming the file)."""


@dataclass(frozen=True)
class AddReport:
    """What :meth:`Store.add` did.

    Attributes:
        added: Documents stored for the first time.
        replaced: Documents whose stored version had other content.
        unchanged: Documents already stored with the same content.
        sentences: Sentences stored (added and replaced documents).
    """

    added: int = 0
    replaced: int = 0
    unchanged: int = 0
    sentences: int = 0


@dataclass(frozen=True)
class StoreStats:
    """Size of a store.

    Attributes:
        documents: Documents stored.
        sentences: Their sentences.
        features: Distinct features.
        postings: (feature, document) rows.
        bytes: Size of the database file and its WAL.
    """

    documents: int
    sentences: int
    features: int
    postings: int
    bytes: int

    @property
    def bytes_per_sentence(self) -> float:
        """Database bytes per stored sentence (0 when empty)."""
        return self.bytes / self.sentences if self.sentences else 0.0


@dataclass(frozen=True)
class StoredDocument:
    """A document's row: id, sha256 of its text, characters, sentences, extra fields."""

    id: str
    sha256: str
    chars: int
    sentences: int
    extra: Mapping[str, Any]


def require_store(path: Path) -> None:
    """Raise :class:`StoreError` when ``path`` is not a file (a store is not made by reading)."""
    if not path.is_file():
        raise StoreError(f"{path}: no such store (make one with `partialdup index add PATH... --db {path}`)")


def text_hash(text: str) -> str:
    """sha256 of a document's text (UTF-8): what tells a changed document apart."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Store:
    """A reference collection in one SQLite file, searched with one detector's settings.

    Args:
        path: The database file (created on the first add).
        detector: Makes the features and runs the search; its settings must
            be those the store was made with. None opens the store for
            listing, counting and removing only.
        idf: The detector's IDF table (fingerprinted: features depend on it).
        create: Create the file when it does not exist (adding); otherwise a
            missing file is an error (checking).

    Raises:
        StoreError: The file is missing (``create`` False), is not a store,
            has another schema version, or was made with other settings.
    """

    def __init__(
        self, path: str | Path, detector: Detector | None = None, idf: IdfTable | None = None, *, create: bool = False
    ) -> None:
        self.path = Path(path)
        if not create:
            require_store(self.path)
        self._detector = detector
        self._settings = {} if detector is None or idf is None else settings_of(detector.config, idf.values, idf.default, detector.tokenizer)
        if create and not self._settings:
            raise ValueError("creating a store needs the detector and its IDF table")
        try:
            self._db = connect(self.path)
            self._open(create)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: not a partialdup store ({error})") from None

    @property
    def detector(self) -> Detector:
        """The detector the store was opened with (adding and checking need one)."""
        if self._detector is None:
            raise StoreError(f"{self.path}: opened without a detector: it can list, count and remove only")
        return self._detector

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- settings -----------------------------------------------------------

    def _open(self, create: bool) -> None:
        """Create the schema on first use; otherwise refuse other versions or settings.

        An existing store is only read here: a checker never takes the write lock.
        """
        stored = self._meta()
        if not stored and create:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                create_tables(self._db, self.detector.config.max_postings)  # create: a detector was given
                if not self._meta():  # another writer may have been first
                    rows = {"schema_version": str(SCHEMA_VERSION), "partialdup_version": _version(), **self._settings}
                    self._db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(rows.items()))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            stored = self._meta()
        if not stored:
            raise StoreError(f"{self.path}: not a partialdup store (make one with `partialdup index add`)")
        if stored.get("schema_version") != str(SCHEMA_VERSION):
            raise StoreError(f"{self.path}: store schema version {stored.get('schema_version')}, this partialdup reads {SCHEMA_VERSION}")
        difference = first_difference(stored, self._settings)  # nothing to compare without a detector
        if difference is not None:
            raise StoreError(f"{self.path}: made with other settings ({difference}); use the same options or another store")

    def _meta(self) -> dict[str, str]:
        """The ``meta`` rows; empty when the file holds no store yet."""
        try:
            return dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.OperationalError:
            return {}

    # --- adding and removing ------------------------------------------------

    def add(
        self,
        documents: Iterable[Document | DocumentFeatures],
        *,
        batch: int = 32,
        extras: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> AddReport:
        """Store documents, one transaction per batch.

        A document already stored with the same text is left as it is; one
        stored with another text is replaced (same document number, so the
        collection's order is kept). A process killed in the middle loses at
        most the batch in progress; adding again completes it.

        Args:
            documents: The documents to store, as read or with their
                features already made (then with their text).
            batch: Documents per transaction.
            extras: Extra fields per document id (a date, a URL), kept as JSON.
        """
        total = AddReport()
        for chunk in _chunks(documents, batch):
            total = _sum_reports(total, self._add_batch(chunk, extras or {}))
        return total

    def _add_batch(self, documents: Sequence[Document | DocumentFeatures], extras: Mapping[str, Mapping[str, Any]]) -> AddReport:
        stored = self._hashes([d.id for d in documents])
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
            current = self._hashes([d.id for d, _, _ in prepared])  # another writer may have been first
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

    def _hashes(self, ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """id -> (document number, sha256) of the stored ones among ``ids``."""
        found: dict[str, tuple[int, str]] = {}
        for chunk in _slices(list(ids), _CHUNK):
            marks = ",".join("?" * len(chunk))
            for doc_id, number, digest in self._db.execute(f"SELECT id, doc, sha256 FROM documents WHERE id IN ({marks})", chunk):
                found[doc_id] = (number, digest)
        return found

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
        rows = [(f, in_sentences.get(f, 0), in_joins.get(f, 0)) for f in in_sentences.keys() | in_joins.keys()]
        signed = [(_signed(f), s, j) for f, s, j in rows]
        self._db.executemany(
            "INSERT INTO features VALUES (?, ?, ?) ON CONFLICT(feature) DO UPDATE "
            "SET sentences = sentences + excluded.sentences, joins = joins + excluded.joins",
            signed,
        )
        self._db.executemany("INSERT INTO postings VALUES (?, ?)", [(f, doc) for f, _, _ in signed])
        return doc

    def _delete(self, number: int) -> None:
        """Remove a stored document's rows and its share of the feature counts."""
        (blob,) = self._db.execute("SELECT features FROM bodies WHERE doc = ?", (number,)).fetchone()
        packed = codec.unpack_features(blob)
        in_sentences, in_joins = _packed_counts(packed)
        rows = [(_signed(f), in_sentences.get(f, 0), in_joins.get(f, 0)) for f in in_sentences.keys() | in_joins.keys()]
        self._db.executemany("UPDATE features SET sentences = sentences - ?, joins = joins - ? WHERE feature = ?",
                             [(s, j, f) for f, s, j in rows])
        self._db.executemany("DELETE FROM features WHERE feature = ? AND sentences = 0 AND joins = 0", [(f,) for f, _, _ in rows])
        self._db.executemany("DELETE FROM postings WHERE feature = ? AND doc = ?", [(f, number) for f, _, _ in rows])
        self._db.execute("DELETE FROM bodies WHERE doc = ?", (number,))
        self._db.execute("DELETE FROM documents WHERE doc = ?", (number,))

    def remove(self, ids: Sequence[str]) -> list[str]:
        """Remove documents by id, in one transaction; returns the ids that were not stored."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            stored = self._hashes(ids)
            for doc_id in dict.fromkeys(ids):
                if doc_id in stored:
                    self._delete(stored[doc_id][0])
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return [doc_id for doc_id in ids if doc_id not in stored]

    # --- reading --------------------------------------------------------------

    def documents(self) -> Iterator[StoredDocument]:
        """Every stored document's row, in the order they were first added."""
        for doc_id, digest, chars, sentences, extra in self._db.execute(
            "SELECT id, sha256, chars, sentences, extra FROM documents ORDER BY doc"
        ):
            yield StoredDocument(doc_id, digest, chars, sentences, json.loads(extra) if extra else {})

    def read(self, ids: Iterable[str]) -> list[Document]:
        """The stored documents with these ids (those stored), in the order given."""
        wanted = list(dict.fromkeys(ids))
        found: dict[str, Document] = {}
        for chunk in _slices(wanted, _CHUNK):
            marks = ",".join("?" * len(chunk))
            query = f"SELECT d.id, d.sentences, b.text FROM documents d JOIN bodies b USING (doc) WHERE d.id IN ({marks})"
            for doc_id, sentences, blob in self._db.execute(query, chunk):
                found[doc_id] = Document(doc_id, codec.unpack_text(blob, sentences))
        return [found[i] for i in wanted if i in found]

    def stats(self) -> StoreStats:
        """Counts and bytes of the store."""
        documents, sentences = self._db.execute("SELECT count(*), coalesce(sum(sentences), 0) FROM documents").fetchone()
        (features,) = self._db.execute("SELECT count(*) FROM features").fetchone()
        (postings,) = self._db.execute("SELECT count(*) FROM postings").fetchone()
        size = sum(p.stat().st_size for p in (self.path, Path(f"{self.path}-wal")) if p.exists())
        return StoreStats(documents, sentences, features, postings, size)

    def check(self, queries: Iterable[AnyDocument]) -> Detection:
        """Passages of each query copied from the stored documents (A = query, B = stored).

        The spans equal those of ``detector.check(queries, stored documents)``;
        the statistics count the whole collection. All reads happen in one
        read transaction: a writer committing meanwhile is not seen halfway.
        """
        detector = self.detector
        query_docs = [detector.features(q) for q in queries]
        self._db.execute("BEGIN")
        try:
            return self._check(query_docs)
        finally:
            self._db.execute("COMMIT")

    def _check(self, query_docs: Sequence[DocumentFeatures]) -> Detection:
        detector = self.detector
        wanted = {f for bag in _query_bags(detector, query_docs) for f in bag}
        in_sentences, in_joins = self._feature_counts(wanted)
        bound = detector.config.max_postings
        usual_sentences = {f for f in wanted if 0 < in_sentences.get(f, 0) <= bound}
        usual_joins = {f for f in wanted if 0 < in_joins.get(f, 0) <= bound}
        numbers = self._documents_holding(usual_sentences | usual_joins)
        packed = self._features(numbers)
        # Documents are numbered by their position here, in the collection's order.
        local = range(len(numbers))
        sentences = _holding([packed[n] for n in numbers], local, usual_sentences, joins=False)
        joins = _holding([packed[n] for n in numbers], local, usual_joins, joins=True)
        index = self._index(sentences, joins, in_sentences, in_joins)
        references = [StoredReference(doc_id, packed[n], self._text_blob(n)) for n, doc_id in zip(numbers, self._ids(numbers))]
        detection = detector.check_against(query_docs, references, index)  # type: ignore[arg-type]
        return replace(detection, stats=self._run_stats(detection.stats, query_docs))

    def _run_stats(self, stats: RunStats, query_docs: Sequence[DocumentFeatures]) -> RunStats:
        """The run's statistics, its documents and sentences counted over the whole collection."""
        documents, sentences = self._db.execute("SELECT count(*), coalesce(sum(sentences), 0) FROM documents").fetchone()
        return replace(stats, documents=len(query_docs) + documents, sentences=sum(len(d.sentences) for d in query_docs) + sentences)

    def _feature_counts(self, features: Iterable[int]) -> tuple[dict[int, int], dict[int, int]]:
        """Matchable sentences and rejoined pairs of the collection holding each feature."""
        in_sentences: dict[int, int] = {}
        in_joins: dict[int, int] = {}
        for chunk in _slices(sorted(features), _CHUNK):
            marks = ",".join("?" * len(chunk))
            for feature, sentences, joins in self._db.execute(
                f"SELECT feature, sentences, joins FROM features WHERE feature IN ({marks})", [_signed(f) for f in chunk]
            ):
                unsigned = feature & 0xFFFFFFFFFFFFFFFF
                if sentences:
                    in_sentences[unsigned] = sentences
                if joins:
                    in_joins[unsigned] = joins
        return in_sentences, in_joins

    def _documents_holding(self, features: Iterable[int]) -> list[int]:
        """Document numbers whose postings name any of the features, in order."""
        numbers: set[int] = set()
        for chunk in _slices(sorted(features), _CHUNK):
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(f"SELECT doc FROM postings WHERE feature IN ({marks})", [_signed(f) for f in chunk])
            numbers.update(doc for (doc,) in rows)
        return sorted(numbers)

    def _features(self, numbers: Sequence[int]) -> dict[int, codec.PackedFeatures]:
        found: dict[int, codec.PackedFeatures] = {}
        for chunk in _slices(list(numbers), _CHUNK):
            marks = ",".join("?" * len(chunk))
            for doc, blob in self._db.execute(f"SELECT doc, features FROM bodies WHERE doc IN ({marks})", chunk):
                found[doc] = codec.unpack_features(blob)
        return found

    def _ids(self, numbers: Sequence[int]) -> list[str]:
        """The ids of documents, in the order given."""
        found: dict[int, str] = {}
        for chunk in _slices(list(numbers), _CHUNK):
            marks = ",".join("?" * len(chunk))
            found.update(self._db.execute(f"SELECT doc, id FROM documents WHERE doc IN ({marks})", chunk).fetchall())
        return [found[n] for n in numbers]

    def _text_blob(self, number: int) -> Callable[[], bytes]:
        """Reads a document's text blob when called (inside the check's read transaction)."""
        return lambda: self._db.execute("SELECT text FROM bodies WHERE doc = ?", (number,)).fetchone()[0]

    def _index(
        self,
        sentences: Sequence[tuple[int, int, Bag]],
        joins: Sequence[tuple[int, int, Bag]],
        in_sentences: Mapping[int, int],
        in_joins: Mapping[int, int],
    ) -> Any:
        """A reference index of the given (document, sentence, bag) entries,
        searched with the collection's counts."""
        bound = self.detector.config.max_postings
        # The bound is a stored setting, so the partial index on it always applies.
        frequent = lambda: int(self._db.execute(f"SELECT count(*) FROM features WHERE sentences > {int(bound)}").fetchone()[0])  # noqa: E731
        return partial_reference_index(
            PartialIndex(sentences, in_sentences, bound, frequent),
            PartialIndex(joins, in_joins, bound, frequent),
        )


def _query_bags(detector: Detector, query_docs: Sequence[DocumentFeatures]) -> Iterator[Bag]:
    """The bags a query looks up: its matchable sentences' and its rejoined pairs'."""
    for doc in query_docs:
        yield from (bag for i, bag in enumerate(doc.bags) if detector.matchable(doc, i))
        yield from (bag for _, bag in doc.joins)


def _holding(
    packed: Sequence[codec.PackedFeatures], numbers: Sequence[int], wanted: set[int], *, joins: bool
) -> list[tuple[int, int, Bag]]:
    """(document number, sentence, bag) of the matchable sentences (or the
    rejoined pairs) holding a wanted feature, in document then sentence order."""
    if not packed:
        return []
    features = np.concatenate([p.join_features if joins else p.features for p in packed])
    hit = np.isin(features, np.fromiter(wanted, np.uint64, len(wanted)))
    entries: list[tuple[int, int, Bag]] = []
    low = 0
    for number, doc in zip(numbers, packed):
        sizes = doc.join_sizes if joins else doc.bag_sizes
        high = low + int(sizes.sum())
        if hit[low:high].any():
            rows = doc.join_rows() if joins else doc.sentence_rows()
            chosen = np.zeros(len(sizes), bool)
            chosen[rows[hit[low:high]]] = True
            if not joins:
                chosen &= doc.matchable.astype(bool)
            where = np.flatnonzero(chosen).tolist()
            positions = doc.join_at[where].tolist() if joins else where
            found = codec.bags(sizes, doc.join_features if joins else doc.features, doc.join_counts if joins else doc.counts, where)
            entries.extend((number, position, bag) for position, bag in zip(positions, found))
        low = high
    return entries


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


def _signed(feature: int) -> int:
    # SQLite integers are signed 64-bit: the same bits, read as signed.
    return feature - (1 << 64) if feature >= 1 << 63 else feature


def _version() -> str:
    try:
        return metadata.version("partialdup")
    except metadata.PackageNotFoundError:
        return "unknown"


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _slices(items: list[Any], size: int) -> Iterator[list[Any]]:
    for low in range(0, len(items), size):
        yield items[low:low + size]


def _sum_reports(a: AddReport, b: AddReport) -> AddReport:
    return AddReport(a.added + b.added, a.replaced + b.replaced, a.unchanged + b.unchanged, a.sentences + b.sentences)


def _extras_of(document: Document | DocumentFeatures, extras: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The extra fields stored with a document: given ones, else those of its JSONL record."""
    given = extras.get(document.id)
    if given is not None:
        return given
    fields = getattr(document, "fields", None)  # a Document read from JSONL keeps its other fields
    return dict(fields) if fields else None
