"""Nothing lost, nothing doubled: real writer processes, killed with SIGKILL, and a reader beside them."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from partialdup.io.reader import read_documents
from partialdup.store import Store
from tests.paths import REPO, SLICE
from tests.store.conftest import assert_consistent, stored_tables

#: Enough documents (36) that a kill lands mid-way.
CORPUS = [str(SLICE / "susp")]


def index_add(db: Path, *extra: str, paths: list[str] = CORPUS) -> subprocess.Popen:
    command = [sys.executable, "-m", "partialdup", "index", "add", *paths, "--db", str(db), *extra]
    return subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def stored_documents(db: Path) -> int:
    try:
        connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return connection.execute("SELECT count(*) FROM documents").fetchone()[0]
        finally:
            connection.close()
    except sqlite3.OperationalError:
        return 0  # not created yet


def by_id(tables: tuple) -> tuple:
    """Tables with document numbers replaced by ids (numbers depend on history)."""
    features, postings, documents = tables
    ids = {doc: doc_id for doc, doc_id, *_ in documents}
    return features, {(f, ids[doc]) for f, doc in postings}, sorted(row[1:] for row in documents)


def test_sigkill_mid_add_leaves_a_consistent_store_and_adding_again_completes_it(tmp_path, detector, idf) -> None:
    db = tmp_path / "killed.db"
    writer = index_add(db, "--batch", "3")
    deadline = time.monotonic() + 60
    while stored_documents(db) < 6 and writer.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert writer.poll() is None, "the writer finished before it could be killed"
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    assert writer.returncode == -signal.SIGKILL
    partial = assert_consistent(db)
    total = len(read_documents(CORPUS).documents)
    assert 6 <= len(partial) < total
    again = index_add(db)
    assert again.wait(timeout=120) == 0, again.stderr.read().decode() if again.stderr else ""
    assert_consistent(db)
    clean = tmp_path / "clean.db"
    with Store(clean, detector, idf, create=True) as store:
        store.add(read_documents(CORPUS).documents)
    assert by_id(stored_tables(db)) == by_id(stored_tables(clean))


def test_a_reader_checks_while_a_writer_adds(tmp_path, detector, idf) -> None:
    db = tmp_path / "shared.db"
    queries = read_documents([SLICE / "src"]).documents[1:3]
    with Store(db, detector, idf, create=True) as store:
        store.add(read_documents([SLICE / "src"]).documents[:1])  # the store exists before the writer starts
    # Twelve documents, two per transaction: six commits while the reader runs.
    writer = index_add(db, "--batch", "2", paths=[str(p) for p in sorted((SLICE / "susp").iterdir())[:12]])
    checks = 0
    with Store(db, detector, idf) as store:
        while writer.poll() is None:
            store.check(queries)  # raises on "database is locked"
            checks += 1
    assert writer.returncode == 0, writer.stderr.read().decode() if writer.stderr else ""
    assert checks >= 2
    assert_consistent(db)
