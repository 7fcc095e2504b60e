"""The look-ups: the one place where ``detect`` and ``check`` differ.

``detect`` looks every document's sentences up against every other's;
``check`` looks query sentences up in a reference index. Both hand what
they found, in one shape
(:class:`~partialdup.pipeline.lookup_results.Lookups`), to the shared tail
(:mod:`partialdup.pipeline.tail`). The headline rule's part of them is
:mod:`partialdup.pipeline.headlines`.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from operator import itemgetter
from typing import Callable, Iterator, Sequence, TypeVar, overload

import numpy as np

from partialdup.core.arrays import dense_numbers, sorted_isin
from partialdup.core.deferred import Deferred
from partialdup.core.heap import release_free_memory
from partialdup.core.types import Bag, DocumentFeatures
from partialdup.index.inverted import entry_columns, entry_keys
from partialdup.index.partitioned import CandidateProduct
from partialdup.index.sparse import PairMatches, ReferenceIndex
from partialdup.index.word_columns import WordColumns
from partialdup.match.boilerplate import crowd_documents
from partialdup.match.edited_columns import EditedVerdicts, edited_verdicts
from partialdup.match.keyed import KeyedMatches
from partialdup.match.pair_rows import KeyPositions, PairRows, codes_of
from partialdup.match.pairs import SentenceKey, rejoined_hits
from partialdup.match.verify import NearSentences
from partialdup.methods.similarity import CopyRule
from partialdup.pipeline.base import joined_bags, joined_keys
from partialdup.pipeline.edits import word_set_candidates
from partialdup.pipeline.headlines import HeadlineCandidate, HeadlineStage, Records
from partialdup.pipeline.lookup_results import Lookups, counts_only, search_stats
from partialdup.pipeline.pair_codes import narrow_keys, not_among, pair_codes, unordered_codes
from partialdup.pipeline.sentence_texts import SentenceTexts
from partialdup.pipeline.sidework import Apart, Beside, NearPieces, PiecesSoon, Record, inline_beside, near_copy_rows

__all__ = ["LookupStage"]

T = TypeVar("T")

#: Near misses a piece of their judging (as the tail's, see
#: :data:`~partialdup.pipeline.parallel._RECORDS_PER_CHUNK`).
NEAR_PIECE = 16_384



class LookupStage(HeadlineStage):
    """The index look-ups of :class:`~partialdup.pipeline.detector.Detector`."""

    def search(
        self, query_docs: Sequence[DocumentFeatures], index: ReferenceIndex
    ) -> tuple[PairMatches, PairMatches, PairMatches, PairMatches]:
        """The look-ups of :meth:`check_against`, without interpreting them.

        Returns:
            Matches of the query sentences (in document, then sentence order,
            matchable ones only) with the reference sentences; the same at
            half the threshold, for the near misses (empty when they are not
            looked at); matches of the query's rejoined sentences with the
            reference sentences; of the query sentences with the reference's
            rejoined sentences.
        """
        _, bags = self._matchable_bags(query_docs)
        whole, near, _ = self._sentence_searches(bags, index, loose=False)
        return (whole, near, *self._join_searches(query_docs, bags, index))

    def _join_searches(
        self, query_docs: Sequence[DocumentFeatures], bags: Sequence[Bag], index: ReferenceIndex,
    ) -> tuple[PairMatches, PairMatches]:
        """The query's rejoined sentences against the reference sentences,
        and the query sentences (``bags``, the matchable ones') against the
        reference's rejoined ones."""
        return index.sentences.search(joined_bags(query_docs), self._join_rule), index.joins.search(bags, self._join_rule)

    def _sentence_searches(
        self, bags: Sequence[Bag], index: ReferenceIndex, *, loose: bool,
    ) -> tuple[PairMatches, PairMatches, PairMatches | None]:
        """The query sentences' (``bags``, the matchable ones') whole
        matches, near misses (empty when they are not looked at) and, when
        ``loose`` and the index can search for several rules at once (a
        sparse index: one product for all), their loose candidates of edited
        copies (None: not searched)."""
        each = getattr(index.sentences, "search_each", None)
        loose = loose and each is not None and self._edited is not None
        if each is None:
            found = [index.sentences.search(bags, rule) for rule in self._searched_rules(loose=False)]
        else:
            found = each(bags, self._searched_rules(loose=loose))
        if self._near is None:  # not looked at: an empty search, as the statistics count it
            found.insert(1, index.sentences.search([], self._near_rule))
        return found[0], found[1], found[2] if loose else None

    def _searched_rules(self, *, loose: bool) -> list[CopyRule]:
        """The rules the query sentences are searched for: whole matches,
        near misses (when looked at), and loose candidates of edited copies
        (when ``loose`` and looked at)."""
        return [
            self.rule, *([self._near_rule] if self._near is not None else []),
            *([self._loose_rule] if loose and self._edited is not None else []),
        ]

    def _word_search(
        self, docs: Sequence[DocumentFeatures], beside: Beside | None = None, columns: WordColumns | None = None
    ) -> Callable[[], Records] | None:
        """``detect``'s word-set search of edited copies, started (beside the
        caller, when ``beside`` can: see :mod:`partialdup.pipeline.sidework`);
        calling the result gives its pairs. None when edited copies are off.
        ``columns``: the documents' words numbered (:meth:`_word_columns`),
        read instead of their words when given."""
        if self._edited is None:
            return None
        return (beside or inline_beside)(partial(self._word_loose_all, docs, columns), sum(len(doc.bags) for doc in docs))

    def _self_lookups(
        self, docs: Sequence[DocumentFeatures], index: ReferenceIndex, product: CandidateProduct | None = None,
        beside: Beside | None = None, word_search: Callable[[], Records] | None = None,
        headline_search: Callable[[], list[HeadlineCandidate]] | None = None, columns: WordColumns | None = None,
        pieces_soon: PiecesSoon | None = None,
    ) -> Lookups:
        """``detect``: every document's sentences against every other's, each
        pair once; ``product``: an engine's candidate product (None: here);
        ``beside``: an engine's way to run the word-set search of edited
        copies while the feature searches run (see
        :mod:`partialdup.pipeline.sidework`; None: in turn);
        ``word_search``: that search already started (:meth:`_word_search`);
        ``headline_search``: the headline candidates' search already started
        (:meth:`_headline_search`); ``columns``: the documents' words
        numbered (:meth:`_word_columns`), when made; ``pieces_soon``: an
        engine's way to judge the near misses while the rest of the look-ups
        run (:meth:`_near_judged_soon`; None: the tail judges them)."""
        config = self.config
        # The word-set search needs only the documents: started first (beside
        # the feature searches, when an engine can), collected when needed.
        word_pairs = word_search or self._word_search(docs, beside, columns)
        # The three searches of every pair score the candidates of one product.
        index = index.using(product).sharing_candidates(self._searched_rules(loose=True))
        sentences = index.sentences.index.sentences
        # Each indexed sentence's key made once, looked up by position (not
        # two attribute reads and a tuple per match: hundreds of thousands).
        keys = entry_keys(sentences)
        key_of = keys.__getitem__
        # A sentence in `crowd` or more other documents is boilerplate whatever
        # else is found: the pairs among such sentences are not made (a few
        # of them kept apart, to link them for the boilerplate rule).
        crowd = crowd_documents(config.boilerplate)
        whole_matches = index.sentences.search_all(self.rule, boilerplate=crowd)
        crowded_keys = whole_matches.boilerplate
        crowded = frozenset(key_of(key) for key in crowded_keys.tolist())
        crowd_links = tuple((key_of(a), key_of(b)) for a, b in whole_matches.links.tolist())
        documents, positions = entry_columns(sentences)
        whole = PairRows.at_positions(
            documents, positions, whole_matches.query, whole_matches.key, whole_matches.score, self._weak_rows(whole_matches))
        searches = [counts_only(whole_matches)]
        # Near misses and loose candidates, a million and more on large runs,
        # stay arrays until the tail reads them (match/keyed.py).
        near: Records = []
        near_verdicts = None
        if self._near is not None:
            near_matches = narrow_keys(index.sentences.search_all(self._near_rule, crowded=crowded_keys))
            near = KeyedMatches(near_matches.query, near_matches.key, near_matches.score, keys)
            searches.append(counts_only(near_matches))
            if pieces_soon is not None and all(type(doc) is DocumentFeatures for doc in docs):
                near_verdicts = self._near_judged_soon(
                    near_matches, whole_matches, keys, docs, pieces_soon, (documents, positions))
            del near_matches  # `near` and the verdicts hold what is read of it: its shared counts go
        del whole_matches  # `whole` holds its pairs (as rows)
        loose_matches = None
        if self._edited is not None:
            # The two searches' working arrays, freed, are given back first:
            # the loose search's peak comes on top of what the process holds
            # (English bench corpus: its peak 20 MB lower in a run measured;
            # docs/benchmark.md, session 35).
            release_free_memory()
            filter_rows = self._filter_rows(docs, sentences, columns)
            # Filtered as the pairs are made: most of the search's pairs are not kept.
            loose_matches = index.sentences.search_all(
                self._loose_rule, crowded=crowded_keys, keep=partial(self._loose_mask, query_rows=filter_rows, key_rows=filter_rows))
            # Its working arrays, freed, are given back too: what follows
            # adds to the results held (the look-ups' end was the English
            # bench corpus's peak; docs/benchmark.md, session 49).
            release_free_memory()
        # Every document's rejoined sentences against every other's sentences
        # covers both directions: no rejoined pair meets another.
        rows = joined_keys(docs)
        joined = index.sentences.search(joined_bags(docs), self._join_rule, docs=[d for d, _ in rows])
        joined = joined.sharing(config.min_shared)
        rejoined = []
        for row, other, score in rejoined_hits(joined, keys):
            d, i = rows[row]
            rejoined.append((((d, i), (d, i + 1)), other, score, True))
        quoted = self._quotation_hits(docs, index, own_documents=True, keys=keys)
        # The headlines' hits are made by the tail (Lookups.embedded_copies):
        # their confirmations tokenize, which brings Chinese text's
        # dictionaries back (50 MB); made here, they came on top of the index
        # and the searches' arrays (--jobs 1, zh 8x peak: 307-314 MB, 277-287
        # MB made by the tail; docs/benchmark.md, session 51).
        candidates = headline_search() if headline_search is not None else None
        headlines = Deferred(lambda: _outside_crowd(self._headline_hits(docs, docs, whole, near, candidates), crowded))
        release_free_memory()  # the searches' working memory, before the word-set pairs are made
        # The word-set search's pairs, asked for last: it may have run beside all of the above.
        loose: Records = []
        edited = None
        if loose_matches is not None:
            assert word_pairs is not None
            words = _outside_crowd(word_pairs(), crowded)
            more = _not_found_in(words, loose_matches, keys)
            loose = KeyedMatches(loose_matches.query, loose_matches.key, loose_matches.score, keys).with_more(more)
            if columns is not None:
                first, second = _loose_numbers(loose_matches, more, columns.doc_starts, (documents, positions))
                edited = Deferred(partial(self._loose_verdicts, first, second, columns, whole))
        stats = search_stats(index, (*searches, joined))
        return Lookups(
            whole, near, loose, quoted, rejoined, stats, crowded=crowded, crowd_links=crowd_links, near_verdicts=near_verdicts,
            edited_verdicts=edited, headline_hits=headlines)

    def _loose_verdicts(self, first: np.ndarray, second: np.ndarray, words: WordColumns, whole: PairRows) -> EditedVerdicts:
        """``detect``'s edited copies among the loose candidates (the loose
        search's matches, then the word sets' pairs: their sentences'
        numbers in ``words``, :func:`_loose_numbers`), judged on the words
        numbered (:func:`~partialdup.match.edited_columns.edited_verdicts`),
        not a record at a time on their words. Run by the tail
        (:class:`~partialdup.core.deferred.Deferred`), once the index is
        freed: the look-ups' end is a run's peak. The pairs of ``whole``
        are passed over: the tail finds them first (most of the word sets'
        pairs on the Chinese bench corpus: the same words)."""
        assert self._edited is not None
        starts = words.doc_starts
        width = max(int(starts[-1]), 1)
        whole_codes = unordered_codes(starts[whole.first_doc] + whole.first_sentence, starts[whole.second_doc] + whole.second_sentence,
                                       width, ordered=True)
        rows = np.flatnonzero(~sorted_isin(unordered_codes(first, second, width), whole_codes, among_sorted=True))
        del whole_codes
        verdicts = edited_verdicts(self._edited, words, first[rows], second[rows])
        return replace(verdicts, accepted=rows[verdicts.accepted])

    def _near_judged_soon(
        self, near: PairMatches, whole: PairMatches, keys: Sequence[SentenceKey], docs: Sequence[DocumentFeatures],
        pieces_soon: PiecesSoon, columns: tuple[np.ndarray, np.ndarray],
    ) -> Callable[[], PairRows]:
        """``detect``'s near-miss verdicts, started now: what the tail's
        :meth:`~partialdup.match.verify.NearMissCheck.add_to` would judge
        (the near misses that are not whole matches, in order) and accept.

        They need only the sentences' texts: sent, with the records as
        numbers, to processes forked as the reading started (whose heap is small,
        see :class:`~partialdup.pipeline.shared_work.LaterPieces`), they are
        judged there while the rest of the look-ups runs here, and here too
        when the tail asks for them. The English bench corpus leaves a core
        idle for about a second at the end of its look-ups (docs/benchmark.md,
        session 25). ``columns``: the document and sentence at each key
        (:func:`~partialdup.index.inverted.entry_columns`): the verdicts come
        as rows."""
        # Not whole matches: both searches give pairs as (larger key, smaller key).
        width = max(len(keys), 1)
        query, key, score = near.query, near.key, near.score
        # int32: held until the verdicts are read (the English bench corpus:
        # 790,000 near misses, through the loose search's peak). The arrays
        # made on the way are made in place where they can be, and go once
        # used: several of them at once were the look-ups' peak.
        kept = not_among(query, key, pair_codes(whole.query, whole.key, width, ordered=True), width)
        distinct, (first, second) = dense_numbers((query[kept], key[kept]), width)
        texts = SentenceTexts(docs, keys, distinct)
        tokens = np.array([docs[d].tokens[i] for d, i in map(keys.__getitem__, distinct.tolist())], np.int64)
        # Sent with the texts made, joined (core/joined_texts.py), made only
        # when sent (not when every piece is judged here: --jobs 1); judged
        # here with the texts read from the documents when needed. The near
        # search's working arrays, freed, are given back before the pieces
        # are pickled.
        release_free_memory()
        here = NearPieces(NearSentences(texts, tokens), first, second, NEAR_PIECE)
        rows = pieces_soon(len(here), near_copy_rows, here.joined, partial(near_copy_rows, self, here), weight=len(kept))

        def verdicts() -> PairRows:
            accepted = kept[np.concatenate([np.empty(0, np.int64), *rows()])]
            return PairRows.at_positions(*columns, query[accepted], key[accepted], score[accepted])

        # Once read, the near misses' arrays go with the work (released
        # records, the look-ups' results are held to the run's end).
        return Deferred(verdicts)

    def _query_lookups(
        self, query_docs: Sequence[DocumentFeatures], index: ReferenceIndex, references: Sequence[DocumentFeatures],
        product: CandidateProduct | None = None,
    ) -> Lookups:
        """``check``: the query documents' sentences against the reference
        index; ``product``: an engine's candidate product (None: here)."""
        config = self.config
        index = index.using(product)
        queries_at, bags = self._matchable_bags(query_docs)
        joins_at = joined_keys(query_docs)
        whole_matches, near_matches, loose_matches = self._sentence_searches(bags, index, loose=True)
        query_joins, reference_joins = (found.sharing(config.min_shared) for found in self._join_searches(query_docs, bags, index))
        sentences = index.sentences.index.sentences
        keys = entry_keys(sentences)
        reference_key = keys.__getitem__
        weak = self._weak(whole_matches, reference_key)
        whole = [(queries_at[row], other, score, (row, other) in weak) for row, other, score in rejoined_hits(whole_matches, keys)]
        near = list(_keyed(near_matches, queries_at.__getitem__, reference_key)) if self._near is not None else []
        # References read from elsewhere (a store's) may start reading the
        # near misses' sentences now, beside the look-ups still to come.
        read_ahead = getattr(references, "read_ahead", None)
        if read_ahead is not None and near:
            read_ahead(sorted({second for _, second, _ in near}))
        loose: list[tuple[SentenceKey, SentenceKey, float]] = []
        if self._edited is not None:
            query_rows = self._filter_rows_of(query_docs, queries_at)
            reference_rows = self._filter_rows(references, sentences)
            if loose_matches is None:  # searched now: a store's references are read meanwhile
                loose_matches = index.sentences.search(bags, self._loose_rule)
            matches = self._loose(loose_matches, query_rows, reference_rows)
            loose = list(_keyed(matches, queries_at.__getitem__, reference_key))
            loose += self._word_loose_query(query_docs, references)
        rejoined = []
        for row, other, score in rejoined_hits(query_joins, keys):
            q, i = joins_at[row]
            rejoined.append((((q, i), (q, i + 1)), other, score, True))
        for row, (r, m), score in rejoined_hits(reference_joins, entry_keys(index.joins.index.sentences)):
            rejoined.append((((r, m), (r, m + 1)), queries_at[row], score, False))
        searches = (whole_matches, near_matches, query_joins, reference_joins)
        quoted = self._quotation_hits(query_docs, index, own_documents=False, keys=keys)
        quoted += self._headline_hits(query_docs, references, whole, near)
        return Lookups(whole, near, loose, quoted, rejoined, search_stats(index, searches))

    def _quotation_hits(
        self,
        docs: Sequence[DocumentFeatures],
        index: ReferenceIndex,
        *,
        own_documents: bool,
        keys: Sequence[SentenceKey],
    ) -> list[tuple[SentenceKey, SentenceKey, float]]:
        """(sentence holding a quotation, indexed sentence, score) of the
        quotations of ``docs`` that match an indexed sentence.
        ``own_documents``: ``docs`` are the indexed documents (``detect``),
        and a quotation does not match its own document; ``keys``: the
        indexed sentences' (document, sentence), by key."""
        rows = [(d, i) for d, doc in enumerate(docs) for i, _ in doc.quotes]
        if not rows:
            return []
        bags = [bag for doc in docs for _, bag in doc.quotes]
        found = index.sentences.search(bags, self.rule, docs=[d for d, _ in rows] if own_documents else None)
        return [(rows[row], other, score) for row, other, score in rejoined_hits(found, keys)]

    def _side_searches(
        self, docs: Sequence[DocumentFeatures], columns: WordColumns | None, beside: Beside, apart: Apart,
    ) -> tuple[Callable[[], Records] | None, Callable[[], list[HeadlineCandidate]] | None]:
        """``detect``'s word-set search and headline candidates, started;
        each a callable that gives its result (None: that search is off).
        On the words numbered (``columns``), the searches are sent ``apart``
        with the arrays they read (a process holding little of this one's
        memory, when the engine has one); the titles are chosen here, where
        the texts are, and the word-set pairs' bags compared here. Otherwise
        each runs ``beside``, on the documents."""
        if columns is None:
            return self._word_search(docs, beside), self._headline_search(docs, beside)
        headline_search = word_search = None
        # The word sets first: they search while the titles are chosen here.
        if self._edited is not None:
            (pairs,) = apart([(word_set_candidates, (columns, self.config.min_tokens))])
            word_search = partial(self._word_pairs_later, docs, columns, pairs)
        if self.config.headlines:
            headline_search = self._headline_search_apart(docs, columns, apart)
        return word_search, headline_search

    def _word_pairs_later(
        self, docs: Sequence[DocumentFeatures], columns: WordColumns, pairs: Callable[[], tuple[np.ndarray, np.ndarray]]
    ) -> KeyedMatches:
        # The word-set search's pairs, once its sentence numbers have come.
        return self._word_pairs_of(docs, columns, *pairs())

    def _weak_rows(self, matches: PairMatches) -> np.ndarray:
        """:meth:`_weak` as a mask of the matches."""
        if self._near is None:
            return np.zeros(len(matches.query), bool)
        return matches.shared < self.config.min_shared

    def _weak(self, matches: PairMatches, key_of: Callable[[int], T]) -> set[tuple[int, T]]:
        """(query row, key_of(indexed key)) of the pairs sharing fewer than
        ``min_shared`` features (see :meth:`_evident`); empty when no
        character check is on."""
        low = self._weak_rows(matches)
        return {(row, key_of(key)) for row, key in zip(matches.query[low].tolist(), matches.key[low].tolist())}


@overload
def _outside_crowd(records: KeyedMatches, crowded: frozenset[SentenceKey]) -> KeyedMatches: ...


@overload
def _outside_crowd(records: list[Record], crowded: frozenset[SentenceKey]) -> list[Record]: ...


def _outside_crowd(records: Records, crowded: frozenset[SentenceKey]) -> Records:
    """The records (in order) but those between two ``crowded`` sentences
    (boilerplate whatever is found: their pairs are not made)."""
    if isinstance(records, KeyedMatches):
        return records.outside(crowded)
    return [record for record in records if not (record[0] in crowded and record[1] in crowded)]


def _loose_numbers(
    loose: PairMatches, more: Records, doc_starts: np.ndarray, columns: tuple[np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """The numbers (a run's sentences numbered, ``doc_starts``: each
    document's first) of the first and of the second sentence of each loose
    candidate: the search's matches (``columns``: the document and sentence
    at each key), then ``more``."""
    documents, positions = columns
    first, second = (
        np.concatenate([doc_starts[documents[at]] + positions[at], doc_starts[held[0]] + held[1]])
        for at, held in ((loose.query, _key_columns(more, 0)), (loose.key, _key_columns(more, 1)))
    )
    return first, second


def _key_columns(records: Records, side: int) -> tuple[np.ndarray, np.ndarray]:
    # The document and the sentence of each record's first (side 0) or second sentence.
    if not isinstance(records, KeyedMatches):
        records = KeyedMatches(np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0), [], more=records)
    return records.key_columns(side)


def _keyed(
    found: PairMatches, query_key: Callable[[int], SentenceKey], key_of: Callable[[int], SentenceKey]
) -> Iterator[tuple[SentenceKey, SentenceKey, float]]:
    # (query sentence, indexed sentence, score) of each match; query_key maps
    # a match's query row to its sentence (rows mean other things in detect,
    # which searches the index against itself, and in check_against).
    for query, key, score in zip(found.query.tolist(), found.key.tolist(), found.score.tolist()):
        yield query_key(query), key_of(key), score


def _not_found_in(pairs: Records, found: PairMatches, keys: Sequence[SentenceKey]) -> Records:
    """The records of ``pairs`` (in order) whose (first, second) sentences
    are not a (query, key) match of ``found``, an index searched against
    itself (``keys``: the sentence of each key): the tail reads a pair once."""
    if not len(pairs):
        return pairs
    # Each pair's sentences' positions in `keys` found on the arrays: a dict
    # of every key made a tuple per indexed sentence too, at the English
    # bench corpus's peak (docs/benchmark.md, session 35).
    positions = KeyPositions(keys)
    if isinstance(pairs, KeyedMatches):
        first, second = map(positions.of, pairs.key_codes())
    else:
        first, second = (positions.of(codes_of(map(itemgetter(side), pairs))) for side in (0, 1))
    width = max(len(keys), 1)
    again = sorted_isin(first * width + second, found.query * width + found.key) & (first >= 0) & (second >= 0)
    if isinstance(pairs, KeyedMatches):
        return pairs.where(~again)
    return [pair for pair, hit in zip(pairs, again.tolist()) if not hit]
