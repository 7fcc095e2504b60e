"""Reading a check's stored documents: texts and features blobs read together,
and decompressed ahead of need on another thread.

A check at a million sentences reads the features blobs of thousands of
candidate documents and the texts of hundreds (:mod:`partialdup.store.query`).
Each is read once per check (:class:`FeatureBlobs`, :class:`Texts`), in one
statement per :data:`~partialdup.store.records.IN_CHUNK` documents when the
caller knows which it needs, and the compressed parts it will need soon are
decompressed on another thread (:class:`Beside`) in one call that holds no
lock of Python's while this thread goes on.
"""

from __future__ import annotations

import sqlite3
import threading
from functools import partial
from typing import Callable, Generic, Iterable, Sequence, TypeVar

import numpy as np

from partialdup.store import codec
from partialdup.store.flat import FlatFeatures, UnpackBuffer, unpack_many
from partialdup.store.records import slices
from partialdup.store.reference import StoredText, TextCache

__all__ = ["AHEAD_LEAST", "Beside", "FeatureBlobs", "Texts", "decompressing", "text_blob"]

T = TypeVar("T")


class Texts:
    """The text of each stored document a check reads, made once (through
    the store's :class:`TextCache`), also for the word searches' candidates
    before their features are read."""

    def __init__(self, db: sqlite3.Connection, cache: TextCache) -> None:
        self._db, self._cache = db, cache
        self._opened: dict[int, StoredText] = {}
        #: sha256 of a text read together -> its blob and text, shared by the
        #: documents whose blob is the same (copies stored under other ids).
        self._alike: dict[str, tuple[bytes, StoredText]] = {}

    def prefetch(self, numbers: Iterable[int]) -> None:
        """Read the texts of these documents now, in one statement per
        :data:`~partialdup.store.records.IN_CHUNK` documents instead of two
        per document (the word searches read the words of hundreds). A
        document whose text blob equals one read before in the check shares
        its :class:`StoredText`: a copy's text and words are unpacked once."""
        missing = sorted(n for n in set(numbers) - self._opened.keys() if n not in self._cache)
        for chunk in slices(missing):
            marks = ",".join("?" * len(chunk))
            query = (
                f"SELECT d.doc, d.sentences, d.sha256, b.text FROM documents d JOIN bodies b USING (doc) WHERE d.doc IN ({marks})"
            )
            for number, sentences, digest, blob in self._db.execute(query, chunk):
                seen = self._alike.get(digest)
                if seen is not None and seen[0] == blob:  # the same bytes, not only the same digest
                    self._opened[number] = seen[1]
                    continue
                text = self._opened[number] = self._cache.get(number, sentences, partial(_given, blob))
                self._alike.setdefault(digest, (blob, text))

    def __call__(self, number: int, sentences: int | None = None) -> StoredText:
        text = self._opened.get(number)
        if text is None:
            if sentences is None:
                (sentences,) = self._db.execute("SELECT sentences FROM documents WHERE doc = ?", (number,)).fetchone()
            text = self._opened[number] = self._cache.get(number, sentences, partial(text_blob, self._db))
        return text


#: Fewest compressed parts decompressed on another thread rather than when
#: read (:func:`decompressing`: a candidate's features, a chunk of words): a
#: thread costs about a tenth of a millisecond, a part some microseconds.
AHEAD_LEAST = 64


def decompressing(parts: Sequence[bytes | memoryview]) -> Beside[Sequence[bytes | memoryview]] | None:
    """:func:`~partialdup.store.codec.decompress_many` of the parts on another
    thread, in one call that holds no lock of Python's (so this thread goes
    on, sharing nothing but the cores); None for fewer than :data:`AHEAD_LEAST`."""
    if len(parts) < AHEAD_LEAST:
        return None
    return Beside(lambda: codec.decompress_many(parts))


class FeatureBlobs:
    """The ids and features blobs of the stored documents a check reads, each
    read once: the word searches read the filters of their candidates'
    sentences (:mod:`~partialdup.store.blooms`), then the check unpacks
    every candidate's features, most of them the same documents."""

    def __init__(self, db: sqlite3.Connection, buffer: UnpackBuffer | None = None) -> None:
        self._db, self._buffer = db, buffer
        self._read: dict[int, tuple[str, bytes]] = {}
        self._ahead: tuple[Sequence[int], Beside[Sequence[bytes | memoryview]]] | None = None

    def read_ahead(self, numbers: Sequence[int]) -> None:
        """Read these documents' features blobs now, and decompress their
        compressed parts on another thread (:func:`decompressing`) while this
        one goes on (the word searches)."""
        self._read_all(numbers)
        beside = decompressing([codec.small_part(self._read[number][1]) for number in numbers])
        self._ahead = None if beside is None else (numbers, beside)

    def _read_all(self, numbers: Iterable[int]) -> None:
        missing = sorted(set(numbers) - self._read.keys())
        for chunk in slices(missing):
            marks = ",".join("?" * len(chunk))
            query = f"SELECT d.doc, d.id, b.features FROM documents d JOIN bodies b USING (doc) WHERE d.doc IN ({marks})"
            self._read.update((doc, (doc_id, blob)) for doc, doc_id, blob in self._db.execute(query, chunk))

    def word_blooms(self, documents: np.ndarray, sentences: np.ndarray) -> np.ndarray:
        """The filters of the words of these (document, sentence) places."""
        numbers, inverse = np.unique(np.asarray(documents, np.int64), return_inverse=True)
        self._read_all(numbers.tolist())
        filters = [codec.word_blooms(self._read[number][1]) for number in numbers.tolist()]
        starts = np.cumsum([0, *map(len, filters)])[:-1]
        joined = np.concatenate(filters) if filters else np.zeros(0, np.uint64)
        return joined[starts[inverse.reshape(-1)] + np.asarray(sentences, np.int64)].astype(np.uint64)

    def unpacked(self, numbers: Sequence[int]) -> tuple[list[str], FlatFeatures]:
        """The ids and features (unpacked at once) of documents, in the order given."""
        self._read_all(numbers)
        rows = [self._read[n] for n in numbers]
        ahead: dict[int, bytes | memoryview] = {}
        if self._ahead is not None:
            read, beside = self._ahead
            ahead = dict(zip(read, beside.result()))
        smalls = [ahead.get(n) for n in numbers]
        return [doc_id for doc_id, _ in rows], unpack_many([blob for _, blob in rows], self._buffer, smalls)


class Beside(Generic[T]):
    """``work()`` run on another thread; :meth:`result` waits for it (and
    raises what it raised)."""

    def __init__(self, work: Callable[[], T]) -> None:
        self._work = work
        self._result: T | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="partialdup-decompress", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._result = self._work()
        except BaseException as error:  # handed to the caller by result()
            self._error = error

    def result(self) -> T:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._result  # type: ignore[return-value]  # set when no error


def _given(blob: bytes, _number: int) -> bytes:
    """A text blob already read (see :meth:`Texts.prefetch`)."""
    return blob


def text_blob(db: sqlite3.Connection, number: int) -> bytes:
    """A document's text blob (read inside the check's read transaction)."""
    return db.execute("SELECT text FROM bodies WHERE doc = ?", (number,)).fetchone()[0]  # type: ignore[no-any-return]
