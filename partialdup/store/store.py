"""A persistent reference collection: add documents once, check queries against them every day.

:class:`Store` keeps, in one SQLite file (see :mod:`partialdup.store.schema`),
every document's text and features and an inverted postings table. It opens
the file and holds to the settings the store was made with
(:mod:`partialdup.store.settings`); adding and removing are
:mod:`partialdup.store.writer`'s, checking :mod:`partialdup.store.query`'s:
the spans are those of ``check --against`` on the same documents.
"""

from __future__ import annotations

import json
import sqlite3
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from partialdup.core.collector import collector_paused
from partialdup.core.types import Document, DocumentFeatures
from partialdup.pipeline.detector import AnyDocument, Detection, Detector
from partialdup.store import codec
from partialdup.store.flat import UnpackBuffer
from partialdup.store.query import check_stored
from partialdup.store.reference import TextCache
from partialdup.store.records import AddReport, StoredDocument, StoreError, StoreStats, require_store, slices
from partialdup.store.schema import SCHEMA_VERSION, connect, create_tables
from partialdup.store.settings import first_difference, settings_of
from partialdup.store.writer import Writer
from partialdup.text.idf import IdfTable

__all__ = ["Store"]


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
        cache: Documents whose unpacked texts and words are kept from one
            check to the next (a long-running checker; least recently used
            out, dropped when the store changes); 0 keeps none.

    Raises:
        StoreError: The file is missing (``create`` False), is not a store,
            has another schema version, or was made with other settings.
    """

    def __init__(
        self, path: str | Path, detector: Detector | None = None, idf: IdfTable | None = None, *, create: bool = False,
        cache: int = 0,
    ) -> None:
        self.path = Path(path)
        self._cache = TextCache(cache)
        self._buffer = UnpackBuffer()  # the candidates' features of each check, unpacked (see flat.UnpackBuffer)
        if not create:
            require_store(self.path)
        self._detector = detector
        self._settings = {} if detector is None or idf is None else settings_of(detector.config, idf, detector.tokenizer)
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
            raise StoreError(
                f"{self.path}: store schema version {stored.get('schema_version')}, this partialdup reads {SCHEMA_VERSION}"
                " (make it again with `partialdup index add`)"
            )
        difference = first_difference(stored, self._settings)  # nothing to compare without a detector
        if difference is not None:
            raise StoreError(f"{self.path}: made with other settings ({difference}); use the same options or another store")

    def _meta(self) -> dict[str, str]:
        """The ``meta`` rows; empty when the file holds no store yet."""
        try:
            return dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.OperationalError:
            return {}

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
        self._cache.clear()  # a replaced document keeps its number
        return Writer(self._db, self.detector).add(documents, batch, extras or {})

    def remove(self, ids: Iterable[str]) -> list[str]:
        """Remove documents by id, in one transaction; returns the ids that were not stored."""
        self._cache.clear()
        return Writer(self._db, self._detector).remove(list(ids))

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
        for chunk in slices(wanted):
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

    def checkpoint(self) -> None:
        """Move every committed row from the WAL into the database file (and empty the WAL)."""
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def check(self, queries: Iterable[AnyDocument], *, boilerplate_spans: bool = False) -> Detection:
        """Passages of each query copied from the stored documents (A = query, B = stored).

        The spans equal those of ``detector.check(queries, stored documents)``
        but for the reach of the searches over every stored sentence's words
        (see :mod:`partialdup.store.query`); the statistics count the whole collection. All reads happen in one
        read transaction: a writer committing meanwhile is not seen halfway.
        ``boilerplate_spans``: also build the spans of the boilerplate pairs
        (see :meth:`~partialdup.pipeline.detector.Detector.check_against`).
        """
        detector = self.detector
        with collector_paused():
            query_docs = [detector.features(q) for q in queries]
            self._db.execute("BEGIN")
            try:
                # Another connection's commit changes the data version: cached
                # texts may be stale. Read once the snapshot is taken (by a read).
                self._db.execute("SELECT count(*) FROM meta").fetchone()
                self._cache.valid_for(self._db.execute("PRAGMA data_version").fetchone()[0])
                return check_stored(
                    self._db, detector, query_docs, self._cache, boilerplate_spans=boilerplate_spans, buffer=self._buffer
                )
            finally:
                self._db.execute("COMMIT")


def _version() -> str:
    try:
        return metadata.version("partialdup")
    except metadata.PackageNotFoundError:
        return "unknown"
