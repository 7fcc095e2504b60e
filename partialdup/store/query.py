"""Checking queries against a store: read only what the queries can meet.

A query sentence can only ever meet stored sentences that share with it a
feature held by at most ``max_postings`` sentences of the *whole*
collection (the others find no candidates). So a check

1. reads the counts of the queries' own features (``features``, indexed)
   and keeps those held by at most ``max_postings`` distinct bags;
2. reads from ``postings`` the documents holding those (and, for a query
   bag made only of features over the bound that the ``bags`` tables hold,
   the documents holding all its features), and their features blobs,
   unpacked at once into flat arrays (:func:`~partialdup.store.flat.unpack_many`);
3. picks, with NumPy, the sentences (and rejoined pairs) of those documents
   that hold such a feature (or that bag) and indexes just them, searched
   with the collection's counts (:class:`~partialdup.store.search.PartialIndex`);
4. adds the documents holding a sentence the detector's searches over every
   sentence's *words* can pair with a query sentence (the word sets of
   edited copies, the headlines), found through the word table
   (:mod:`partialdup.store.wordsearch`): an edited sentence sharing no
   feature with its source, a heading, make their document a candidate;
5. hands the documents to :meth:`~partialdup.pipeline.detector.Detector.check_against`
   as :class:`~partialdup.store.reference.StoredReference`, whose text,
   sentence offsets and words are read from the database only when the
   detector reads them (for the pairs it judges and the spans it reports),
   each naming the sentences the word searches look at (``scanned``,
   ``scanned_headlines``: :func:`~partialdup.pipeline.edits.scanned_words`),
   with the collection's word counts (:class:`~partialdup.pipeline.edits.CollectionWords`).

The spans are those of ``check --against`` on the same documents.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping, Sequence

import numpy as np

from partialdup.core.arrays import sorted_unique
from partialdup.core.bags import FlatBags
from partialdup.core.types import Bag, DocumentFeatures, RunStats
from partialdup.index.inverted import FlatSentences, IndexedSentence, entry_columns
from partialdup.pipeline.detector import Detection, Detector
from partialdup.pipeline.edits import CollectionWords
from partialdup.store import codec, reads
from partialdup.store.flat import FlatFeatures, UnpackBuffer
from partialdup.store.records import signed, slices
from partialdup.store.reference import StoredReference, TextCache
from partialdup.store.search import PartialIndex, partial_reference_index
from partialdup.store.wordsearch import word_candidates
from partialdup.store.writer import bag_keys

__all__ = ["check_stored", "holding", "Held", "identical", "FeatureCounts"]



def check_stored(
    db: sqlite3.Connection, detector: Detector, query_docs: Sequence[DocumentFeatures], cache: TextCache | None = None,
    *, boilerplate_spans: bool = False, buffer: UnpackBuffer | None = None,
) -> Detection:
    """Passages of each query copied from the stored documents (inside the caller's read transaction).

    The spans equal those of ``detector.check(query_docs, stored documents)``; the
    statistics count the whole collection (but ``frequent_sentences``, not known: 0).
    ``cache`` keeps the texts read for later checks (valid for the caller's
    state of the store; None: none kept). ``boilerplate_spans`` as in
    :meth:`~partialdup.pipeline.detector.Detector.check_against`. ``buffer``:
    where the candidates' features are unpacked (a store's, reused from one
    check to the next; None: a new one).
    """
    in_sentences, in_joins = _query_bags(detector, query_docs)
    wanted = {f for bag in in_sentences for f in bag}
    counts = _feature_counts(db, wanted)
    bound = detector.config.max_postings
    usual_sentences = [f for f in wanted if 0 < counts.sentence_bags.get(f, 0) <= bound]
    usual_joins = [f for f in wanted if 0 < counts.join_bags.get(f, 0) <= bound]
    # Bags made only of over-frequent features meet their identical copies only.
    alone = _stored_alone(db, "bags", in_sentences, counts.sentence_bags, bound)
    alone_joins = _stored_alone(db, "join_bags", in_joins, counts.join_bags, bound)
    alone_numbers = _documents_holding_all(db, [*alone, *alone_joins])
    holding = set(_documents_holding(db, [*usual_sentences, *usual_joins])) | alone_numbers
    texts, blobs = reads.Texts(db, cache or TextCache()), reads.FeatureBlobs(db, buffer)
    blobs.read_ahead(sorted(holding))  # decompressed beside the word searches
    words = word_candidates(
        db, detector.config, query_docs, lambda number: texts(number).words, texts.prefetch, blobs.word_blooms
    )
    numbers = sorted(holding | words.documents())
    ids, flat = blobs.unpacked(numbers)
    # Documents are numbered by their position here, in the collection's order.
    frequent = lambda: int(  # noqa: E731
        db.execute(f"SELECT count(*) FROM features WHERE sentence_bags > {int(bound)}").fetchone()[0]
    )
    index = partial_reference_index(
        PartialIndex(
            _held(flat, usual_sentences, alone, joins=False), counts.sentences, counts.sentence_bags, bound, frequent,
        ),
        PartialIndex(_held(flat, usual_joins, alone_joins, joins=True), counts.joins, counts.join_bags, bound, frequent),
    )
    sizes = np.diff(flat.sentence_starts).tolist()
    scanned = {n: sorted(found) for n, found in words.words.items()}
    headlines = {n: sorted(found) for n, found in words.headlines.items()}
    references = _References(
        StoredReference(doc_id, count, flat, i, texts, n, scanned.get(n, ()), headlines.get(n, ()))
        for i, (n, doc_id, count) in enumerate(zip(numbers, ids, sizes))
    )
    references.collection_words, references.flat, references.texts = words.collection, flat, texts
    position = {number: i for i, number in enumerate(numbers)}
    references.scanned_at = {
        "words": sorted(position[n] for n in words.words), "headlines": sorted(position[n] for n in words.headlines),
    }
    detection = detector.check_against(
        query_docs, references, index, boilerplate_spans=boilerplate_spans  # type: ignore[arg-type]
    )
    return replace(detection, stats=_run_stats(db, detection.stats, query_docs))


class _References(list[StoredReference]):
    """The candidates handed to the detector, with the collection's word
    counts (:func:`~partialdup.pipeline.edits.collection_words`) and their
    features blobs unpacked (``flat``: the candidates in order)."""

    collection_words: CollectionWords
    flat: FlatFeatures
    texts: reads.Texts
    #: Positions of the candidates holding sentences the word searches found, per search.
    scanned_at: dict[str, list[int]]
    #: Chunks of words being decompressed on another thread (read_ahead),
    #: and the words each belongs to.
    _ahead: tuple[reads.Beside[Sequence[bytes | memoryview]], list[tuple[codec.Words, int]]] | None = None

    def scanning(self, search: str) -> list[int]:
        """Positions of the candidates holding sentences the searches over
        words look at (:func:`~partialdup.pipeline.edits.scanned_sentences`):
        those the word searches found, in a few of thousands."""
        return self.scanned_at[search]

    def prefetch(self, positions: Iterable[int]) -> None:
        """Read now, together, the text blobs of the candidates at these
        positions (the near misses' letters read the words of hundreds),
        and hand over the chunks :meth:`read_ahead` decompressed."""
        if self._ahead is not None:
            (beside, targets), self._ahead = self._ahead, None
            for (words, chunk), data in zip(targets, beside.result()):
                words.provide(chunk, data)
        self.texts.prefetch(self[position].number for position in positions)

    def read_ahead(self, keys: Sequence[tuple[int, int]]) -> None:
        """Start reading the words of these (candidate, sentence) (a check's
        near misses, known before the look-ups that follow): their text
        blobs now, together, and the chunks holding them decompressed on
        another thread (:func:`~partialdup.store.reads.decompressing`),
        handed over by the next :meth:`prefetch` (the near misses' judging
        calls it first)."""
        self.texts.prefetch(self[position].number for position in {position for position, _ in keys})
        # Keyed by the words themselves: copies of one text share them.
        wanted: dict[tuple[int, int], tuple[codec.Words, memoryview]] = {}
        for position, sentence in keys:
            words = self[position].words
            if not isinstance(words, codec.Words):
                continue  # stored whole (marshal), no chunks
            part = words.chunk_part(sentence)
            if part is not None:
                wanted[(id(words), part[0])] = (words, part[1])
        beside = reads.decompressing([frame for _, frame in wanted.values()])
        if beside is not None:
            self._ahead = (beside, [(words, chunk) for (_, chunk), (words, _) in wanted.items()])

    def sentence_columns(self, entries: Sequence[IndexedSentence]) -> tuple[np.ndarray, np.ndarray]:
        """The token count and word filter of each indexed sentence, read from
        the features blobs' arrays at once (the edited-copy stage's
        :meth:`~partialdup.pipeline.edits.EditedStage._filter_rows`: thousands
        of candidate sentences per check, most in documents never paired)."""
        documents, sentences = entry_columns(entries)
        rows = self.flat.sentence_starts[documents] + sentences
        return self.flat.tokens[rows].astype(np.int64), self.flat.word_blooms[rows]


def holding(flat: FlatFeatures, wanted: Sequence[int], *, joins: bool) -> list[tuple[int, int, Bag]]:
    """(document, sentence, bag) of the matchable sentences (or the rejoined
    pairs, then ``sentence`` is the first of the two) holding a wanted
    feature, in document then sentence order; documents numbered by their
    position in ``flat``.

    :func:`holding_plain` is the plain reference (one document at a time).
    """
    return Held.of(flat, wanted, joins=joins).entries()


@dataclass(frozen=True)
class Held:
    """The sentences (or rejoined pairs) of :func:`holding`, as arrays.

    Attributes:
        documents: Document of each (position in the check's ``flat``).
        positions: Its sentence (the first of a rejoined pair).
        bags: Their bags.
    """

    documents: np.ndarray
    positions: np.ndarray
    bags: FlatBags

    @classmethod
    def of(cls, flat: FlatFeatures, wanted: Sequence[int], *, joins: bool) -> Held:
        """The entries of :func:`holding`."""
        if joins:
            sizes, features, counts = flat.join_sizes, flat.join_features, flat.join_counts
        else:
            sizes, features, counts = flat.bag_sizes, flat.features, flat.counts
        sizes = sizes.astype(np.int64)
        stored = FlatBags(sizes, features, counts)
        if not len(features) or not wanted:
            none = np.empty(0, np.int64)
            return cls(none, none, _int64_counts(stored.take(none)))
        hits = _among(features, np.array(sorted(wanted), np.uint64))
        # The bag of each hit: the last whose first entry is at or before it
        # (an empty bag starts where the next one does, and comes first).
        rows = sorted_unique(np.searchsorted(stored.starts, hits, side="right") - 1)
        if joins:
            documents = np.searchsorted(flat.join_starts, rows, side="right") - 1
            positions = flat.join_at[rows].astype(np.int64)
        else:
            rows = rows[flat.matchable[rows].astype(bool)]
            documents = np.searchsorted(flat.sentence_starts, rows, side="right") - 1
            positions = rows - flat.sentence_starts[documents]
        return cls(documents.astype(np.int64), positions.astype(np.int64), _int64_counts(stored.take(rows)))

    def entries(self) -> list[tuple[int, int, Bag]]:
        """(document, sentence, bag) of each, the bags as dicts."""
        return list(zip(self.documents.tolist(), self.positions.tolist(), self.bags.dicts()))


def _int64_counts(bags: FlatBags) -> FlatBags:
    """The bags with their counts widened to int64 (stored as uint32: only
    the bags taken are converted)."""
    return FlatBags(bags.sizes, bags.features, bags.counts.astype(np.int64))


def _among(values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Positions of the ``values`` (uint64) that are in ``wanted`` (sorted, a
    few hundred), in order: a table of their low 16 bits rules most values
    out with one look-up each (read through a view, no copy), then a binary
    search decides the rest (``np.isin`` would sort the many values)."""
    table = np.zeros(1 << 16, bool)
    table[(wanted & np.uint64(0xFFFF)).astype(np.intp)] = True
    low_bits = np.ascontiguousarray(values, "<u8").view("<u2")[::4]
    maybe = np.flatnonzero(table[low_bits])
    where = np.minimum(np.searchsorted(wanted, values[maybe]), len(wanted) - 1)
    return maybe[wanted[where] == values[maybe]]


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


def _query_bags(detector: Detector, query_docs: Sequence[DocumentFeatures]) -> tuple[list[Bag], list[Bag]]:
    """The bags a query looks up: (in the stored sentences: its matchable
    sentences', rejoined pairs' and quotations'; in the stored rejoined
    pairs: its matchable sentences')."""
    matchable = [bag for doc in query_docs for i, bag in enumerate(doc.bags) if detector.matchable(doc, i)]
    others = [bag for doc in query_docs for pairs in (doc.joins, doc.quotes) for _, bag in pairs]
    return [*matchable, *others], matchable


@dataclass(frozen=True)
class FeatureCounts:
    """Per feature of a query, what the whole collection holds (absent: 0).

    Attributes:
        sentences: Matchable sentences holding it.
        joins: Rejoined pairs holding it.
        sentence_bags: Distinct bags of matchable sentences holding it.
        join_bags: Distinct bags of rejoined pairs holding it.
    """

    sentences: dict[int, int] = field(default_factory=dict)
    joins: dict[int, int] = field(default_factory=dict)
    sentence_bags: dict[int, int] = field(default_factory=dict)
    join_bags: dict[int, int] = field(default_factory=dict)


def _feature_counts(db: sqlite3.Connection, features: Iterable[int]) -> FeatureCounts:
    """The collection's counts of each feature."""
    counts = FeatureCounts()
    columns = (counts.sentences, counts.joins, counts.sentence_bags, counts.join_bags)
    for chunk in slices(sorted(features)):
        marks = ",".join("?" * len(chunk))
        for feature, *values in db.execute(
            f"SELECT feature, sentences, joins, sentence_bags, join_bags FROM features WHERE feature IN ({marks})",
            [signed(f) for f in chunk],
        ):
            unsigned = feature & 0xFFFFFFFFFFFFFFFF
            for column, value in zip(columns, values):
                if value:
                    column[unsigned] = value
    return counts


def _stored_alone(db: sqlite3.Connection, table: str, bags: Sequence[Bag], distinct: Mapping[int, int], bound: int) -> list[Bag]:
    """The distinct bags among ``bags`` made only of features over the bound
    (by ``distinct``) that ``table`` holds: they find their identical copies only."""
    alone = {bag_keys([bag])[0]: bag for bag in bags if bag and all(distinct.get(f, 0) > bound for f in bag)}
    stored: set[int] = set()
    for chunk in slices(sorted(alone)):
        marks = ",".join("?" * len(chunk))
        stored.update(key for (key,) in db.execute(f"SELECT digest FROM {table} WHERE digest IN ({marks})", chunk))
    return [alone[key] for key in sorted(stored)]


def _documents_holding_all(db: sqlite3.Connection, bags: Iterable[Bag]) -> set[int]:
    """Numbers of the documents whose postings name every feature of one of the bags."""
    numbers: set[int] = set()
    for bag in bags:
        found: set[int] | None = None
        for feature in sorted(bag):
            holders = {doc for (doc,) in db.execute("SELECT doc FROM postings WHERE feature = ?", (signed(feature),))}
            found = holders if found is None else found & holders
        numbers |= found or set()
    return numbers


def identical(flat: FlatFeatures, bags: Sequence[Bag], *, joins: bool) -> list[tuple[int, int, Bag]]:
    """(document, sentence, bag) of the matchable sentences (or rejoined
    pairs) whose bag equals one of ``bags``, documents numbered by their
    position in ``flat`` (plain: a rare case, bags of over-frequent features only)."""
    if not bags:
        return []
    wanted = set(bag_keys(bags))
    found = []
    for number in range(len(flat)):
        doc = flat.document(number)
        if joins:
            own = codec.bags(doc.join_sizes, doc.join_features, doc.join_counts)
            positions, usable = doc.join_at.tolist(), [True] * len(own)
        else:
            own = codec.bags(doc.bag_sizes, doc.features, doc.counts)
            positions, usable = list(range(len(own))), doc.matchable.astype(bool).tolist()
        keys = bag_keys(own)
        found += [
            (number, p, bag) for p, bag, key, ok in zip(positions, own, keys, usable)
            if ok and key in wanted and any(bag == other for other in bags)
        ]
    return found


def _held(flat: FlatFeatures, usual: Sequence[int], alone: Sequence[Bag], *, joins: bool) -> FlatSentences:
    """The sentences of a check's partial index: those holding a usual
    feature and those identical to a bag of ``alone`` (a rare case, merged
    through the dicts)."""
    held = Held.of(flat, usual, joins=joins)
    more = identical(flat, alone, joins=joins)
    if not more:
        return FlatSentences(held.documents, held.positions, held.bags)
    entries = sorted(held.entries() + more, key=lambda entry: (entry[0], entry[1]))  # they share none
    documents, positions, bags = zip(*entries)
    return FlatSentences.of(documents, positions, bags)


def _documents_holding(db: sqlite3.Connection, features: Iterable[int]) -> list[int]:
    """Document numbers whose postings name any of the features, in order."""
    numbers: set[int] = set()
    for chunk in slices(sorted(set(features))):
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"SELECT doc FROM postings WHERE feature IN ({marks})", [signed(f) for f in chunk])
        numbers.update(doc for (doc,) in rows)
    return sorted(numbers)


def _run_stats(db: sqlite3.Connection, stats: RunStats, query_docs: Sequence[DocumentFeatures]) -> RunStats:
    """The run's statistics, its documents and sentences counted over the whole collection."""
    documents, sentences = db.execute("SELECT count(*), coalesce(sum(sentences), 0) FROM documents").fetchone()
    return replace(stats, documents=len(query_docs) + documents, sentences=sum(len(d.sentences) for d in query_docs) + sentences)
