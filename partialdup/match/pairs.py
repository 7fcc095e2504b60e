"""Sentence pairs: what the index look-ups found, per pair of documents.

The stage between the index (:mod:`partialdup.index.sparse`) and sequence matching
(:mod:`partialdup.match.spans`): it turns raw matches into the copied sentence
pairs of each (A, B) document pair, and decides which matches of *rejoined*
sentences (two neighbours read as one, see
:func:`partialdup.text.sentences.rejoinable`) add anything.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np

from partialdup.core.arrays import sorted_isin
from partialdup.index.sparse import PairMatches
from partialdup.core.types import SentencePair
from partialdup.match.pair_rows import KeyPositions, PairRows, RowsLookup, pair_codes, pair_rows_of

__all__ = ["FoundPairs", "SentenceKey", "evident", "rejoined_hits"]

#: A sentence: (document number, sentence index).
SentenceKey = tuple[int, int]


class FoundPairs:
    """Copied sentence pairs per (A document, B document).

    Args:
        order: For ``detect``, where either document of a pair may be A:
            each document's place (by document number); a pair is stored
            with the document of the lower place as A. None: the first
            sentence is always in A.
    """

    def __init__(self, order: Sequence[int] | None = None) -> None:
        self._by_documents: dict[tuple[int, int], list[SentencePair]] = defaultdict(list)
        # Whole matches of add_firm not yet made into SentencePairs (oriented):
        # most are boilerplate, set apart by split_off and never built into spans.
        self._pending: list[tuple[SentenceKey, SentenceKey, float]] = []
        self._lead: dict[tuple[int, int], None] = {}  # their document pairs, in order: first in by_documents
        self._order = order
        self._direct: dict[tuple[SentenceKey, SentenceKey], float] = {}
        self._weak: set[tuple[SentenceKey, SentenceKey]] = set()
        self._tentative: set[tuple[SentenceKey, SentenceKey]] = set()
        self._words_only: set[tuple[SentenceKey, SentenceKey]] = set()
        self._firm: set[tuple[SentenceKey, SentenceKey]] = set()
        # Records held as arrays (add_firm, add_all of PairRows), firm and
        # direct, before every other record: made into the structures above
        # when their pairs are read (_settle), for the pairs kept after
        # split_off. `_known`: every such block of the pairs before any
        # split, shared by both sides of one, for has() and the scores.
        self._rows: list[PairRows] = []
        self._known: list[PairRows] = []
        self._lookup: tuple[int, RowsLookup] | None = None

    def add(
        self,
        first: SentenceKey,
        second: SentenceKey,
        score: float,
        *,
        weak: bool = False,
        tentative: bool = False,
        words_only: bool = False,
    ) -> None:
        """Record a copied pair of whole sentences; ``weak``: found on little
        evidence (few shared features), see :meth:`is_weak`; ``tentative``:
        its words agree too little for a copy on its own, see
        :meth:`is_tentative`; ``words_only``: a copy on its words, not on
        its features, see :meth:`is_words_only`."""
        first, second = pair = self.oriented(first, second)
        self._store(first, second, score)
        # One key object for every record of the pair (a tuple each was 72
        # bytes more per set, held through the tail and copied by its workers).
        self._direct[pair] = max(score, self._direct.get(pair, 0.0))
        if weak:
            self._weak.add(pair)
        (self._tentative if tentative else self._words_only if words_only else self._firm).add(pair)

    def add_all(self, records: Iterable[tuple[SentenceKey, SentenceKey, float]] | PairRows) -> None:
        """:meth:`add` of each (first, second, score) record, none weak,
        tentative or words only, in one loop: the near misses whose
        characters agree (86,000 on the English bench corpus, added by the
        calling process alone); held as arrays when given as
        :class:`~partialdup.match.pair_rows.PairRows` (see :meth:`add_firm`)."""
        if isinstance(records, PairRows):
            if self._hold(records.without_weak()):
                return
            records = list(records.records())
        order, direct, firm, by_documents = self._order, self._direct, self._firm, self._by_documents
        for first, second, score in records:
            if order is not None and order[first[0]] > order[second[0]]:
                first, second = second, first
            pair = (first, second)
            by_documents[(first[0], second[0])].append(SentencePair(first[1], second[1], round(score, 6)))
            known = direct.get(pair)
            direct[pair] = max(score, 0.0 if known is None else known)
            firm.add(pair)

    @property
    def by_documents(self) -> dict[tuple[int, int], list[SentencePair]]:
        """The pairs of each (A document, B document), in the order recorded
        (the document pairs of records held as arrays first, by their first
        record before any :meth:`split_off`)."""
        if self._pending or self._lead or self._rows:
            self._make_pending()
        return self._by_documents

    def add_firm(self, records: Iterable[tuple[SentenceKey, SentenceKey, float, bool]] | PairRows) -> None:
        """:meth:`add` each (first, second, score, weak) record, none
        tentative or words only: the whole matches of a run, hundreds of
        thousands, in one loop, made into :class:`SentencePair` records only
        when :attr:`by_documents` is read (after :meth:`split_off`, for the
        pairs kept). Given as :class:`~partialdup.match.pair_rows.PairRows`
        before any other record, they stay arrays until then, and
        :meth:`split_off` sets them apart by masks."""
        if isinstance(records, PairRows):
            if self._hold(records):
                return
            records = [(*record, weak) for record, weak in zip(records.records(), records.weak.tolist())]
        order, direct, weak_pairs, firm = self._order, self._direct, self._weak, self._firm
        # Put off only while no other record exists: made later, they come first.
        pending: list[tuple[SentenceKey, SentenceKey, float]] = self._pending if not self._by_documents else []
        for first, second, score, weak in records:
            if order is not None and order[first[0]] > order[second[0]]:
                first, second = second, first
            pair = (first, second)
            pending.append((first, second, score))
            known = direct.get(pair)
            direct[pair] = max(score, 0.0 if known is None else known)
            if weak:
                weak_pairs.add(pair)
            firm.add(pair)
        if pending is not self._pending:
            for first, second, score in pending:
                self._store(first, second, score)
        else:
            self._lead.update(dict.fromkeys((first[0], second[0]) for first, second, _ in pending))

    def _hold(self, rows: PairRows) -> bool:
        # Firm, direct records held as arrays, while they come before every
        # other record (their place in by_documents); False: added one by one.
        if self._by_documents or self._pending or self._lead:
            return False
        rows = rows.oriented(self._order).ranked_after(self._known)
        self._rows.append(rows)
        self._known.append(rows)
        return True

    def _rows_lookup(self) -> RowsLookup | None:
        # The pairs ever held as arrays, for has() and the scores (made once
        # for the blocks known: both sides of a split_off share them).
        if not self._known:
            return None
        if self._lookup is None or self._lookup[0] != len(self._known):
            self._lookup = (len(self._known), RowsLookup(self._known))
        return self._lookup[1]

    def _direct_scores(self, pairs: Sequence[tuple[SentenceKey, SentenceKey]]) -> list[float | None]:
        # The best score of each pair's direct records, held as arrays or not
        # (those held looked up at once: a million rejoined pairs, 3-Shingle on zh).
        lookup = self._rows_lookup()
        held: list[float | None] = [None] * len(pairs)
        if lookup is not None and pairs:
            held = [None if math.isnan(score) else score for score in lookup.best_many(pairs).tolist()]
        known = map(self._direct.get, pairs)
        return [h if k is None else k if h is None else max(k, h) for h, k in zip(held, known)]

    def _settle(self) -> None:
        # Every record held as arrays made into a SentencePair (is_weak and
        # the others read the sets they fill).
        if self._rows:
            self._make_pending()

    def mark_tentative(self, first: SentenceKey, second: SentenceKey) -> None:
        """Record a pair added firm by :meth:`add` as tentative after all
        (its words disagree: see :meth:`is_tentative`); the caller knows no
        other record made it firm."""
        self._settle()
        pair = self.oriented(first, second)
        self._firm.discard(pair)
        self._tentative.add(pair)

    def mark_strong(self, first: SentenceKey, second: SentenceKey) -> None:
        """Record a pair added weak by :meth:`add` as not weak after all (its
        words confirm it: see :meth:`is_weak`); the caller knows every
        record of it was weak for the same reason."""
        self._settle()
        self._weak.discard(self.oriented(first, second))

    def is_weak(self, a: SentenceKey, b: SentenceKey) -> bool:
        """Whether the pair of sentence ``a`` of an A document and ``b`` of a
        B document (as stored, after orientation) was recorded as weak."""
        self._settle()
        return (a, b) in self._weak

    def is_tentative(self, a: SentenceKey, b: SentenceKey) -> bool:
        """Whether the pair (as stored) was only ever recorded as tentative:
        a copy only beside a pair that is not (see
        :func:`partialdup.match.edited.supported`)."""
        self._settle()
        return (a, b) in self._tentative and (a, b) not in self._firm and (a, b) not in self._words_only

    def is_words_only(self, a: SentenceKey, b: SentenceKey) -> bool:
        """Whether the pair (as stored) was recorded as a copy on its words
        only (an edited copy), never on its features."""
        self._settle()
        return (a, b) in self._words_only and (a, b) not in self._firm

    def has(self, first: SentenceKey, second: SentenceKey) -> bool:
        """Whether the two whole sentences are already recorded as a copy."""
        pair = self.oriented(first, second)
        if pair in self._direct:
            return True
        lookup = self._rows_lookup()
        return lookup is not None and lookup.contains(*pair)

    def has_many(self, pairs: Sequence[tuple[SentenceKey, SentenceKey]]) -> list[bool]:
        """:meth:`has` of each (first, second) pair, the records held as
        arrays looked at once for all."""
        oriented = [self.oriented(first, second) for first, second in pairs]
        lookup = self._rows_lookup()
        held = lookup.contains_many(oriented).tolist() if lookup is not None else [False] * len(oriented)
        direct = self._direct
        return [known or pair in direct for pair, known in zip(oriented, held)]

    def found_rows(self, first_keys: Sequence[SentenceKey], second_keys: Sequence[SentenceKey]) -> Callable[[np.ndarray, np.ndarray], np.ndarray] | None:
        """:meth:`has` for arrays: a function of (first, second) positions in
        ``first_keys`` and ``second_keys`` giving, for each, whether that
        pair is recorded, as of now (a property test holds it to
        :meth:`has`). None where it cannot be told by positions: pairs
        oriented by document place whose sides are different lists."""
        same = first_keys is second_keys
        if self._order is not None and not same:
            return None
        width = max(len(first_keys), len(second_keys), 1)
        codes = self._position_codes(first_keys, second_keys, width)
        codes.sort()
        if self._order is None:
            return lambda first, second: sorted_isin(first * width + second, codes, among_sorted=True)
        # A pair is stored with the document of the lower place first.
        place = np.asarray(self._order, np.int64)[np.fromiter((key[0] for key in first_keys), np.int64, len(first_keys))]

        def recorded(first: np.ndarray, second: np.ndarray) -> np.ndarray:
            swap = place[first] > place[second]
            return sorted_isin(np.where(swap, second, first) * width + np.where(swap, first, second), codes, among_sorted=True)

        return recorded

    def _position_codes(
        self, first_keys: Sequence[SentenceKey], second_keys: Sequence[SentenceKey], width: int,
    ) -> np.ndarray:
        # found_rows' codes (first position * width + second position) of
        # every direct pair, made one by one or held as arrays (some held
        # are made already: a code twice is the same code), those whose
        # sentences both lists hold.
        direct_first, direct_second = pair_codes(list(self._direct))
        held = PairRows.joined(self._known)
        first_at = KeyPositions(first_keys)
        second_at = first_at if first_keys is second_keys else KeyPositions(second_keys)
        first = first_at.of(np.concatenate((direct_first, held.first_codes())))
        second = second_at.of(np.concatenate((direct_second, held.second_codes())))
        both = (first >= 0) & (second >= 0)
        return first[both] * width + second[both]

    def add_rejoined(self, parts: tuple[SentenceKey, SentenceKey], other: SentenceKey, score: float, *, parts_first: bool = True) -> None:
        """Record that two neighbouring sentences, read as one, copy ``other``.

        Both parts pair with ``other``, unless a part already pairs with it
        directly at least as well: a sentence that matches on its own needs no
        neighbour (its heading, an option line) drawn into the span. Call it
        after every :meth:`add`.

        Args:
            parts: The two neighbouring sentences.
            other: The whole sentence they match.
            score: Their bag-Jaccard.
            parts_first: Whether the parts are the first sentence of the
                match (the query side in ``check``).
        """
        self.add_rejoined_many([(parts, other, score, parts_first)])

    def add_rejoined_many(self, records: Sequence[tuple[tuple[SentenceKey, SentenceKey], SentenceKey, float, bool]]) -> None:
        """:meth:`add_rejoined` of each (parts, other, score, parts_first)
        record, in order, the pairs' direct scores looked up at once (no
        record of them changes them)."""
        pairs = [self.oriented(part, other) if parts_first else self.oriented(other, part)
                 for parts, other, _, parts_first in records for part in parts]
        best = self._direct_scores(pairs)
        for at, (_, _, score, _) in enumerate(records):
            if any(known is not None and known >= score for known in best[2 * at : 2 * at + 2]):
                continue
            for first, second in pairs[2 * at : 2 * at + 2]:
                self._store(first, second, score)

    def distinct(self, documents: tuple[int, int]) -> list[SentencePair]:
        """The pairs of two documents, each sentence pair once, sorted. Of
        several records of one pair, a whole-sentence match's own score (its
        best) wins over the scores of rejoined sentences, and of those the
        highest: whatever the order in which the documents were given, which
        decides the order of the records."""
        a, b = documents
        kept: dict[tuple[int, int], SentencePair] = {}
        for pair in self.by_documents[documents]:
            key = (pair.a, pair.b)
            direct = self._direct.get(((a, pair.a), (b, pair.b)))
            if direct is not None:
                kept[key] = SentencePair(pair.a, pair.b, round(direct, 6))
            elif key not in kept or pair.score > kept[key].score:
                kept[key] = pair
        return sorted(kept.values())

    def pairs(self) -> Iterator[tuple[SentenceKey, SentenceKey]]:
        """Every recorded sentence pair, as (A sentence, B sentence) keys
        (the whole matches of :meth:`add_firm` first)."""
        for block in self._rows:
            yield from block
        yield from self._made_pairs()

    def key_rows(self) -> np.ndarray:
        """:meth:`pairs` as an (2n, 2) int32 array of (document, sentence)
        rows: first, second, first, ... (as
        :mod:`partialdup.match.boilerplate` reads them)."""
        return np.concatenate([*(block.key_rows() for block in self._rows), pair_rows_of(self._made_pairs())])

    def _made_pairs(self) -> Iterator[tuple[SentenceKey, SentenceKey]]:
        # pairs() but those held as arrays.
        for first, second, _ in self._pending:
            yield first, second
        for (a, b), pairs in self._by_documents.items():
            for pair in pairs:
                yield (a, pair.a), (b, pair.b)

    def edited(self) -> list[tuple[SentenceKey, SentenceKey]]:
        """The pairs recorded as copies on their words only (edited copies), sorted."""
        pairs = sorted(self._words_only - self._firm)
        lookup = self._rows_lookup()
        if lookup is None or not pairs:
            return pairs
        return [pair for pair, held in zip(pairs, lookup.contains_many(pairs).tolist()) if not held]

    def split_off(
        self, apart: Callable[[SentenceKey, SentenceKey], bool], apart_rows: Callable[[PairRows], np.ndarray] | None = None,
    ) -> FoundPairs:
        """Move the pairs ``apart`` accepts into a new :class:`FoundPairs`
        (with the same records of how each pair was found) and return it:
        boilerplate pairs, whose spans are built apart. ``apart_rows``:
        ``apart`` of each pair of some rows at once (a mask), for the
        records held as arrays (made one by one and asked ``apart`` when
        None). Both sides answer :meth:`has` for every pair; how a pair was
        found (:meth:`is_weak` and the others), for the pairs each holds."""
        if apart_rows is None:
            self._settle()
        other = FoundPairs(self._order)
        other._direct, other._weak, other._tentative = self._direct, self._weak, self._tentative
        other._words_only, other._firm, other._known = self._words_only, self._firm, self._known
        blocks, self._rows = self._rows, []
        for block in blocks:
            held_apart = apart_rows(block) if apart_rows is not None else np.zeros(len(block), bool)
            if held_apart.any():
                other._rows.append(block.take(held_apart))
            if not held_apart.all():
                self._rows.append(block.take(~held_apart))
        if self._pending:
            pending, self._pending = self._pending, []
            other._lead = self._lead
            for record in pending:
                (other._pending if apart(record[0], record[1]) else self._pending).append(record)
        for (a, b), pairs in list(self._by_documents.items()):
            moved = [pair for pair in pairs if apart((a, pair.a), (b, pair.b))]
            if not moved:
                continue
            other._by_documents[(a, b)] = moved
            kept = [pair for pair in pairs if not apart((a, pair.a), (b, pair.b))]
            if kept:
                self._by_documents[(a, b)] = kept
            else:
                del self._by_documents[(a, b)]
        return other

    def _make_pending(self) -> None:
        # The whole matches come first, as if recorded first: first in each
        # document pair's list, their document pairs first.
        # (Their document pairs keep their places after a split_off.)
        # The records held as arrays came before all of them.
        held = self._made_rows()
        whole: dict[tuple[int, int], list[SentencePair]] = defaultdict(list)
        for first, second, score in self._pending:
            whole[(first[0], second[0])].append(SentencePair(first[1], second[1], round(score, 6)))
        self._pending = []
        made: dict[tuple[int, int], list[SentencePair]] = defaultdict(list)
        for documents in [*held, *self._lead, *self._by_documents]:
            if documents not in made:
                pairs = held.get(documents, []) + whole.get(documents, []) + self._by_documents.get(documents, [])
                if pairs:
                    made[documents] = pairs
        self._by_documents, self._lead = made, {}

    def _made_rows(self) -> dict[tuple[int, int], list[SentencePair]]:
        # The records held as arrays, made as add_firm makes its records, by
        # document pair (in the order of their first records).
        blocks, self._rows = self._rows, []
        if not blocks:
            return {}
        held = PairRows.joined(blocks)
        direct, firm = self._direct, self._firm
        made: dict[tuple[int, int], list[SentencePair]] = {}
        for (a, b), rows in held.grouped():
            made[(a, b)] = [SentencePair(i, m, round(score, 6)) for i, m, score in rows]
            for i, m, score in rows:
                pair = ((a, i), (b, m))
                known = direct.get(pair)
                direct[pair] = max(score, 0.0 if known is None else known)
                firm.add(pair)
        self._weak.update(held.take(held.weak))
        return made

    @property
    def order(self) -> Sequence[int] | None:
        """Each document's place (by document number) that orients the pairs
        (:meth:`oriented`); None: as given."""
        return self._order

    def oriented(self, first: SentenceKey, second: SentenceKey) -> tuple[SentenceKey, SentenceKey]:
        """The pair as stored: (A sentence, B sentence)."""
        order = self._order
        return (second, first) if order is not None and order[first[0]] > order[second[0]] else (first, second)

    def _store(self, first: SentenceKey, second: SentenceKey, score: float) -> None:
        self._by_documents[(first[0], second[0])].append(SentencePair(first[1], second[1], round(score, 6)))


def rejoined_hits(found: PairMatches, keys: Sequence[SentenceKey]) -> Iterator[tuple[int, SentenceKey, float]]:
    """(row, (document, sentence) of the indexed entry, score) of a search
    involving rejoined sentences or quotations, by row, then in the order
    found; ``keys``: each indexed entry's (document, sentence), by key (see
    :func:`~partialdup.index.inverted.entry_keys`). Boilerplate is decided
    later, on every pair of the run at once (:mod:`partialdup.match.boilerplate`)."""
    hits: dict[int, list[tuple[SentenceKey, float]]] = defaultdict(list)
    for row, key, score in zip(found.query.tolist(), found.key.tolist(), found.score.tolist()):
        hits[row].append((keys[key], score))
    for row in sorted(hits):
        for other, score in hits[row]:
            yield row, other, score


def evident(
    pairs: Sequence[SentencePair],
    weak: Callable[[SentencePair], bool],
    agrees: Callable[[SentencePair], bool],
    *,
    reach: int,
) -> list[SentencePair]:
    """The pairs of two documents that are evidence of a copy, in their order.

    A weak pair (found on one or two shared features, which unrelated
    sentences share by chance: the opening 也可以使用 of two different
    sentences, or a template sentence about another variable) is kept when
    another pair could chain with it, lying within ``reach`` sentences after
    it on both sides or before it on both sides (chance pairs do not line up,
    while a passage of short lines, or of Taiwan against mainland phrasing
    whose characters differ, 檔案 / 文件, does pair after pair), or else when
    ``agrees`` says its sentences' characters agree (only asked then).

    Args:
        pairs: The pairs found between two documents.
        weak: Whether a pair was found on little evidence.
        agrees: Whether a weak pair's characters agree.
        reach: How far, in sentences on each side, a neighbouring pair may lie.
    """
    if len(pairs) < 2:  # most document pairs: no other pair to chain with
        return [pair for pair in pairs if not weak(pair) or agrees(pair)]
    at = {(pair.a, pair.b) for pair in pairs}
    steps = range(1, reach + 1)

    def chained(pair: SentencePair) -> bool:
        a, b = pair.a, pair.b
        if (a + 1, b + 1) in at or (a - 1, b - 1) in at:  # the usual neighbours, looked at first
            return True
        return any((a + side * i, b + side * m) in at for side in (1, -1) for i in steps for m in steps)

    return [pair for pair in pairs if not weak(pair) or chained(pair) or agrees(pair)]
