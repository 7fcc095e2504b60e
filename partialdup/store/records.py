"""What the store hands back (reports, sizes, document rows), its error, and small shared helpers."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from partialdup.core.errors import PartialdupError

__all__ = [
    "StoreError", "AddReport", "StoreStats", "StoredDocument", "require_store", "text_hash", "signed", "slices",
    "IN_CHUNK",
]

#: Values per ``IN (...)`` list (well under SQLite's variable limit).
IN_CHUNK = 900


class StoreError(PartialdupError):
    """A store that cannot be used as asked (one line naming the file)."""


@dataclass(frozen=True)
class AddReport:
    """What :meth:`~partialdup.store.Store.add` did.

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

    def __add__(self, other: AddReport) -> AddReport:
        return AddReport(
            self.added + other.added, self.replaced + other.replaced, self.unchanged + other.unchanged,
            self.sentences + other.sentences,
        )


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


def signed(feature: int) -> int:
    """A feature hash (unsigned 64-bit) as SQLite's signed INTEGER: the same bits."""
    return feature - (1 << 64) if feature >= 1 << 63 else feature


def slices(items: Iterable[Any], size: int = IN_CHUNK) -> Iterator[list[Any]]:
    """Consecutive lists of at most ``size`` items."""
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
