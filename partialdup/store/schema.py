"""The store's SQLite schema, and opening a database the same way every time.

One file, no server. Tables:

* ``meta``: schema version and the settings the features were made with
  (see :mod:`partialdup.store.settings`);
* ``documents``: one small row per document (id, content hash, length,
  sentence count, extra JSON fields), kept apart from the blobs so that
  listing and counting never read the texts;
* ``bodies``: per document, its features blob, then its text blob (see
  :mod:`partialdup.store.codec`): a query reading only features stops
  before the text;
* ``features``: per feature, how many matchable sentences and how many
  rejoined pairs hold it (the skipped-postings count), and how many
  *distinct* bags of each kind hold it (what ``max_postings`` bounds: the
  in-memory index groups identical bags, :mod:`partialdup.index.groups`),
  so that both are computed on the whole collection, exactly as in memory;
* ``bags`` and ``join_bags``: per distinct bag (its 64-bit digest), how
  many matchable sentences (rejoined pairs) hold it: a bag's features count
  once towards ``max_postings`` however often it is stored, and a query
  sentence made only of over-frequent features still finds its identical
  copies;
* ``postings``: (feature, document) for every feature of a document's
  matchable sentences and rejoined pairs: which documents a query must read;
* ``words``: per word, the counts of the searches over every sentence's
  words and the places of the rare ones (see :mod:`partialdup.store.wordtable`).

Journal: WAL, so a reader keeps its snapshot while a writer commits.
``synchronous=NORMAL``: in WAL mode a committed transaction survives the
process being killed (it is in the OS's cache); only a power cut may undo
the last few batches, never corrupt the file, and re-running the same add
completes them (adds are idempotent).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

__all__ = ["SCHEMA_VERSION", "connect", "create_tables"]

#: 2: token counts moved to the features blob, words stored apart (see codec).
#: 3: distinct bags counted per feature, tables of bag digests.
#: 4: the word table (counts and places of words, see wordtable).
#: 5: parts compressed with Zstandard instead of zlib (see codec).
#: 6: each sentence's filter of its words in the features blob (see blooms).
#: 7: each sentence's letter flags in the features blob (see codec).
SCHEMA_VERSION = 7

#: How long a connection waits for another writer's lock before failing.
BUSY_TIMEOUT_SECONDS = 60.0

#: Bytes of the store file a connection reads through a memory map (SQLite
#: caps it, at 2 GiB as built here): a check reads thousands of pages, and a
#: page read through the map costs no system call or copy (two thirds of a
#: check's system time at 1M sentences; docs/store.md). Pages are still
#: written by SQLite's own writes, never through the map.
MMAP_BYTES = 1 << 32

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS documents (
    doc INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL,
    chars INTEGER NOT NULL,
    sentences INTEGER NOT NULL,
    extra TEXT
);
CREATE TABLE IF NOT EXISTS bodies (doc INTEGER PRIMARY KEY, features BLOB NOT NULL, text BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS features (
    feature INTEGER PRIMARY KEY,
    sentences INTEGER NOT NULL,
    joins INTEGER NOT NULL,
    sentence_bags INTEGER NOT NULL,
    join_bags INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS bags (digest INTEGER PRIMARY KEY, members INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS join_bags (digest INTEGER PRIMARY KEY, members INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS words (
    word INTEGER PRIMARY KEY,
    sentences INTEGER NOT NULL,
    longs INTEGER NOT NULL,
    places BLOB,
    titles BLOB
);
CREATE TABLE IF NOT EXISTS postings (
    feature INTEGER NOT NULL,
    doc INTEGER NOT NULL,
    PRIMARY KEY (feature, doc)
) WITHOUT ROWID;
"""


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating when absent) a store file, with its pragmas set.

    Transactions are explicit (``isolation_level=None``): the store issues
    ``BEGIN IMMEDIATE`` for writes and ``BEGIN`` for a consistent read.
    """
    connection = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=OFF")
    connection.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
    return connection


def create_tables(connection: sqlite3.Connection, max_postings: int) -> None:
    """Create the tables when missing (inside the caller's transaction).

    Args:
        connection: The open store.
        max_postings: The store's bound: a partial index lists the features
            over it, so that counting them reads only them.
    """
    for statement in _TABLES.split(";"):
        if statement.strip():
            connection.execute(statement)
    connection.execute(
        f"CREATE INDEX IF NOT EXISTS frequent ON features (sentence_bags) WHERE sentence_bags > {int(max_postings)}"
    )
