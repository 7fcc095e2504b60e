"""Checking queries against a store: read only what the queries can meet.

A query sentence can only ever meet stored sentences that share with it a
feature held by at most ``max_postings`` sentences of the *whole*
collection (the others find no candidates). So a check

1. reads the counts of the queries' own features (``features``, indexed)
   and keeps those under the bound;
2. reads from ``postings`` the documents holding those, and their features
   blobs, unpacked at once into flat arrays (:func:`~partialdup.store.codec.unpack_many`);
3. picks, with NumPy, the sentences (and rejoined pairs) of those documents
   that hold such a feature and indexes just them, searched with the
   collection's counts (:class:`~partialdup.store.search.PartialIndex`);
4. hands the documents to :meth:`~partialdup.pipeline.detector.Detector.check_against`
   as :class:`~partialdup.store.reference.StoredReference`, whose text,
   sentence offsets and words are read from the database only when the
   detector reads them (for the pairs it judges and the spans it reports).
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from functools import partial
from itertools import islice
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from partialdup.core.types import Bag, DocumentFeatures, RunStats
from partialdup.pipeline.detector import Detection, Detector
from partialdup.store import codec
from partialdup.store.records import signed, slices
from partialdup.store.reference import StoredReference
from partialdup.store.search import PartialIndex, partial_reference_index

__all__ = ["check_stored", "holding"]


def check_stored(db: sqlite3.Connection, detector: Detector, query_docs: Sequence[DocumentFeatures]) -> Detection:
    """Passages of each query copied from the stored documents (inside the caller's read transaction).

    The spans equal those of ``detector.check(query_docs, stored documents)``;
    the statistics count the whole collection.
    """
    wanted = {f for bag in _query_bags(detector, query_docs) for f in bag}
    in_sentences, in_joins = _feature_counts(db, wanted)
    bound = detector.config.max_postings
    usual_sentences = [f for f in wanted if 0 < in_sentences.get(f, 0) <= bound]
    usual_joins = [f for f in wanted if 0 < in_joins.get(f, 0) <= bound]
    numbers = _documents_holding(db, [*usual_sentences, *usual_joins])
    ids, flat = _features(db, numbers)
    # Documents are numbered by their position here, in the collection's order.
    frequent = lambda: int(db.execute(f"SELECT count(*) FROM features WHERE sentences > {int(bound)}").fetchone()[0])  # noqa: E731
    index = partial_reference_index(
        PartialIndex(holding(flat, usual_sentences, joins=False), in_sentences, bound, frequent),
        PartialIndex(holding(flat, usual_joins, joins=True), in_joins, bound, frequent),
    )
    counts = np.diff(flat.sentence_starts).tolist()
    references = [
        StoredReference(doc_id, count, partial(flat.document, i), _text_blob(db, n))
        for i, (n, doc_id, count) in enumerate(zip(numbers, ids, counts))
    ]
    detection = detector.check_against(query_docs, references, index)  # type: ignore[arg-type]
    return replace(detection, stats=_run_stats(db, detection.stats, query_docs))


def holding(flat: codec.FlatFeatures, wanted: Sequence[int], *, joins: bool) -> list[tuple[int, int, Bag]]:
    """(document, sentence, bag) of the matchable sentences (or the rejoined
    pairs, then ``sentence`` is the first of the two) holding a wanted
    feature, in document then sentence order; documents numbered by their
    position in ``flat``.

    :func:`holding_plain` is the plain reference (one document at a time).
    """
    if joins:
        sizes, features, counts, starts = flat.join_sizes, flat.join_features, flat.join_counts, flat.join_starts
    else:
        sizes, features, counts, starts = flat.bag_sizes, flat.features, flat.counts, flat.sentence_starts
    if not len(features) or not wanted:
        return []
    sizes = sizes.astype(np.int64)
    row_of_entry = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    rows = np.unique(row_of_entry[_among(features, np.array(sorted(wanted), np.uint64))])
    if not joins:
        rows = rows[flat.matchable[rows].astype(bool)]
    documents = np.searchsorted(starts, rows, side="right") - 1
    positions = flat.join_at[rows] if joins else rows - starts[documents]
    lengths = sizes[rows]
    first = (np.cumsum(sizes) - sizes)[rows]
    entries = np.repeat(first - (np.cumsum(lengths) - lengths), lengths) + np.arange(int(lengths.sum()), dtype=np.int64)
    pairs = zip(features[entries].tolist(), counts[entries].tolist())
    bags = [dict(islice(pairs, size)) for size in lengths.tolist()]
    return list(zip(documents.tolist(), positions.tolist(), bags))


def _among(values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Which ``values`` are in ``wanted`` (sorted, a few hundred): a table of
    their low 16 bits rules most values out with one look-up each, then a
    binary search decides the rest (``np.isin`` would sort the many values)."""
    table = np.zeros(1 << 16, bool)
    table[(wanted & np.uint64(0xFFFF)).astype(np.intp)] = True
    maybe = np.flatnonzero(table[(values & np.uint64(0xFFFF)).astype(np.intp)])
    where = np.minimum(np.searchsorted(wanted, values[maybe]), len(wanted) - 1)
    found = np.zeros(len(values), bool)
    found[maybe] = wanted[where] == values[maybe]
    return found


def holding_plain(packed: Sequence[codec.PackedFeatures], wanted: Iterable[int], *, joins: bool) -> list[tuple[int, int, Bag]]:
    """The plain reference of :func:`holding`, one document and one bag at a time."""
    wanted = set(wanted)
    entries: list[tuple[int, int, Bag]] = []
    for number, doc in enumerate(packed):
        if joins:
            found = codec.bags(doc.join_sizes, doc.join_features, doc.join_counts)
            positions = doc.join_at.tolist()
            usable = [True] * len(found)
        else:
            found = codec.bags(doc.bag_sizes, doc.features, doc.counts)
            positions = list(range(len(found)))
            usable = doc.matchable.astype(bool).tolist()
        entries.extend((number, p, bag) for p, bag, ok in zip(positions, found, usable) if ok and wanted & bag.keys())
    return entries


def _query_bags(detector: Detector, query_docs: Sequence[DocumentFeatures]) -> Iterator[Bag]:
    """The bags a query looks up: its matchable sentences' and its rejoined pairs'."""
    for doc in query_docs:
        yield from (bag for i, bag in enumerate(doc.bags) if detector.matchable(doc, i))
        yield from (bag for _, bag in doc.joins)


def _feature_counts(db: sqlite3.Connection, features: Iterable[int]) -> tuple[dict[int, int], dict[int, int]]:
    """Matchable sentences and rejoined pairs of the collection holding each feature."""
    in_sentences: dict[int, int] = {}
    in_joins: dict[int, int] = {}
    for chunk in slices(sorted(features)):
        marks = ",".join("?" * len(chunk))
        for feature, sentences, joins in db.execute(
            f"SELECT feature, sentences, joins FROM features WHERE feature IN ({marks})", [signed(f) for f in chunk]
        ):
            unsigned = feature & 0xFFFFFFFFFFFFFFFF
            if sentences:
                in_sentences[unsigned] = sentences
            if joins:
                in_joins[unsigned] = joins
    return in_sentences, in_joins


def _documents_holding(db: sqlite3.Connection, features: Iterable[int]) -> list[int]:
    """Document numbers whose postings name any of the features, in order."""
    numbers: set[int] = set()
    for chunk in slices(sorted(set(features))):
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"SELECT doc FROM postings WHERE feature IN ({marks})", [signed(f) for f in chunk])
        numbers.update(doc for (doc,) in rows)
    return sorted(numbers)


def _features(db: sqlite3.Connection, numbers: Sequence[int]) -> tuple[list[str], codec.FlatFeatures]:
    """The ids and features blobs (unpacked at once) of documents, in the order given."""
    found: dict[int, tuple[str, bytes]] = {}
    for chunk in slices(numbers):
        marks = ",".join("?" * len(chunk))
        query = f"SELECT d.doc, d.id, b.features FROM documents d JOIN bodies b USING (doc) WHERE d.doc IN ({marks})"
        found.update((doc, (doc_id, blob)) for doc, doc_id, blob in db.execute(query, chunk))
    rows = [found[n] for n in numbers]
    return [doc_id for doc_id, _ in rows], codec.unpack_many([blob for _, blob in rows])


def _text_blob(db: sqlite3.Connection, number: int) -> Callable[[], bytes]:
    """Reads a document's text blob when called (inside the check's read transaction)."""
    return lambda: db.execute("SELECT text FROM bodies WHERE doc = ?", (number,)).fetchone()[0]


def _run_stats(db: sqlite3.Connection, stats: RunStats, query_docs: Sequence[DocumentFeatures]) -> RunStats:
    """The run's statistics, its documents and sentences counted over the whole collection."""
    documents, sentences = db.execute("SELECT count(*), coalesce(sum(sentences), 0) FROM documents").fetchone()
    return replace(stats, documents=len(query_docs) + documents, sentences=sum(len(d.sentences) for d in query_docs) + sentences)
