"""The edited-copy stage of the detector (see :mod:`partialdup.match.edited`).

Pairs that share a feature but fall below τ, and pairs whose word sets
agree (:mod:`partialdup.index.words`), are judged on their words; whole
matches of similar length are checked on their words too (template
sentences that differ in their key words are not copies), and a weak whole
match whose words agree is confirmed by them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from partialdup.core.bags import FlatBags
from partialdup.core.heap import release_free_memory
from partialdup.core.types import DocumentFeatures
from partialdup.index.inverted import IndexedSentence, entry_columns, entry_keys
from partialdup.index.word_columns import PieceWords, WordColumns
from partialdup.index.sparse import PairMatches
from partialdup.index import words as word_sets
from partialdup.index.words import WORD_JACCARD, WordSets, distinct_sizes
from partialdup.match.edited import WHOLE_LENGTH_RATIO, SentenceNumbers, numbers_agree_of, word_ratio
from partialdup.methods.similarity import bag_jaccard, flat_bag_jaccard
from partialdup.match.edited_columns import EditedVerdicts
from partialdup.match.keyed import KeyedMatches, Pending
from partialdup.match.pairs import FoundPairs, SentenceKey
from partialdup.match.word_filter import FilterRows, ratios_may_reach
from partialdup.pipeline.base import DetectorBase

__all__ = ["CollectionWords", "EditedStage", "collection_words", "scanned_sentences", "scanned_words", "word_set_candidates"]

#: Word-set pairs whose bags are compared at once (bounds the arrays taken).
_SCORED_AT_ONCE = 1 << 13


@dataclass(frozen=True)
class CollectionWords:
    """What the whole reference collection holds of some words, when the
    references a check is handed are only the part of it that its queries
    can meet (a store's candidates, :mod:`partialdup.store`): the searches
    over every reference sentence's words then count the collection, and
    find among the part exactly what they find among all of it.

    Attributes:
        sentences: Per word, the collection's sentences of at least
            ``min_tokens`` words holding it (what :class:`WordSets` counts;
            absent: none).
        long_words: Per word, how many times the collection's sentences of
            more than :data:`~partialdup.match.embedded.MIN_TOKENS` tokens
            hold it (what the headline search counts; absent: none).
    """

    sentences: Mapping[str, int]
    long_words: Mapping[str, int]


def collection_words(references: Sequence[DocumentFeatures]) -> CollectionWords | None:
    """The collection's counts handed with ``references`` (their attribute
    ``collection_words``), or None: ``references`` are the whole collection."""
    return getattr(references, "collection_words", None)


def word_set_candidates(words: WordColumns, least_words: int) -> tuple[np.ndarray, np.ndarray]:
    """``detect``'s word-set search on the run's words numbered: (later,
    earlier) sentence numbers of the pairs of different documents whose
    word sets reach :data:`~partialdup.index.words.WORD_JACCARD` and whose
    lengths are alike (:data:`~partialdup.match.edited.WHOLE_LENGTH_RATIO`,
    as :meth:`EditedStage._word_pairs` asks), in the search's order, among
    the sentences of at least ``least_words`` known words. A pure function
    of its arguments: a helper process may run it."""
    numbers = np.flatnonzero(words.known & (words.lengths >= least_words))
    if not len(numbers):
        return numbers, numbers[:0]
    # The sentences' words go once their sets are made (nested calls: no name holds them).
    sets = WordSets.of_sizes(*distinct_sizes(*words.rows_columns(numbers)), words.words, WORD_JACCARD)
    # The sets' working arrays, freed, go back to the system before the pairs
    # are searched: the search's helper otherwise holds its high-water mark
    # through the look-ups it runs beside (en 8x: 64-65 MB, 59 trimmed).
    release_free_memory()
    query, key, _ = sets.pair_arrays()
    first, second = numbers[query], numbers[key]
    a, b = words.lengths[first], words.lengths[second]
    keep = (words.documents(first) != words.documents(second)) & (np.maximum(a, b) < WHOLE_LENGTH_RATIO * np.minimum(a, b))
    return first[keep], second[keep]


def scanned_words(doc: DocumentFeatures, search: str = "words") -> Iterable[tuple[int, Sequence[str]]]:
    """(sentence, words) of the sentences a search over every reference
    sentence's words looks at: all of them, or, for a document that names
    them (a stored reference, :mod:`partialdup.store`: the only ones of it
    the query can meet), those: ``scanned`` for the word sets of edited
    copies (``search`` "words"), ``scanned_headlines`` for the headlines
    ("headlines")."""
    scanned: Sequence[int] | None = getattr(doc, "scanned" if search == "words" else "scanned_headlines", None)
    if scanned is None:
        return enumerate(doc.words)
    return ((s, doc.words[s]) for s in scanned) if scanned and doc.words else ()


def scanned_sentences(docs: Sequence[DocumentFeatures], search: str = "words") -> Iterator[tuple[int, int, Sequence[str]]]:
    """(document, sentence, words) of :func:`scanned_words` over a list of
    documents, in order. A list that names the documents holding such
    sentences (``scanning(search)``: a store's candidates, thousands of which
    a few hold one) is walked through those only."""
    scanning: Callable[[str], Sequence[int]] | None = getattr(docs, "scanning", None)
    for d in range(len(docs)) if scanning is None else scanning(search):
        for s, words in scanned_words(docs[d], search):
            yield d, s, words


class EditedStage(DetectorBase):
    """The word checks of edited copies, shared by the look-ups and the tail."""

    def _filter_rows(
        self, docs: Sequence[DocumentFeatures], entries: Sequence[IndexedSentence], words: WordColumns | None = None
    ) -> FilterRows:
        """Each indexed sentence's tokens and word filter (see
        :mod:`partialdup.match.word_filter`). A list of documents that holds
        them as arrays (``sentence_columns``: a store's candidates, known
        without reading their words) gives them all at once; so do the
        documents' words numbered (``words``, :meth:`_word_columns`)."""
        columns = getattr(docs, "sentence_columns", None)
        if columns is not None:
            return FilterRows.of(*columns(entries))
        if words is not None:
            documents, positions = entry_columns(entries)
            numbers = words.doc_starts[documents] + positions
            filters = self._word_filters.of_columns(words.words, words.lengths, words.columns)
            return FilterRows.of(words.tokens[numbers], filters[numbers])
        return self._filter_rows_of(docs, entry_keys(entries))

    def _word_columns(
        self, docs: Sequence[DocumentFeatures], pieces: Sequence[PieceWords] | None = None
    ) -> WordColumns | None:
        """``detect``: the documents' words numbered, for the word-set search,
        the word filters and the headline candidates' search to read as
        arrays (see :mod:`partialdup.index.word_columns`); made before the
        searches start beside the caller, so that they read few of the
        words themselves. None when edited copies and headlines are off, or
        when a document is not plain features (a store's, read as needed).
        ``pieces``: their words already numbered piece by piece (an engine's,
        :meth:`~partialdup.pipeline.parallel.Engine.numbered_words`)."""
        if (self._edited is None and not self.config.headlines) or getattr(docs, "scanning", None) is not None:
            return None
        if not all(type(doc) is DocumentFeatures for doc in docs):
            return None
        columns = WordColumns.of(docs, pieces)
        columns.hold_words(docs)  # the pieces' copy of the words goes
        return columns

    def _filter_rows_of(self, docs: Sequence[DocumentFeatures], rows: Sequence[SentenceKey]) -> FilterRows:
        """:meth:`_filter_rows` of the sentences ``rows`` (document, sentence), from their words."""
        return FilterRows.of(
            np.fromiter((docs[d].tokens[s] for d, s in rows), np.int64, len(rows)),
            self._word_filters.of_sentences(_words_of(docs[d], s) for d, s in rows),
        )

    def _loose(self, matches: PairMatches, query_rows: FilterRows, key_rows: FilterRows) -> PairMatches:
        """The candidates of the edited-copy stage among a search's matches
        (:meth:`_loose_mask`)."""
        keep = self._loose_mask(matches.query, matches.key, matches.score, query_rows, key_rows)
        return replace(matches, query=matches.query[keep], key=matches.key[keep], score=matches.score[keep],
                       shared=matches.shared[keep])

    def _loose_mask(
        self, query: np.ndarray, key: np.ndarray, score: np.ndarray, query_rows: FilterRows, key_rows: FilterRows
    ) -> np.ndarray:
        """Which (query, key, score) matches :meth:`_loose` keeps (a search's
        ``keep``): below τ (the whole matches are judged apart), two sentences
        of similar length (see :data:`~partialdup.match.edited.WHOLE_LENGTH_RATIO`),
        whose words may agree at ``edited_neighbour_ratio``, the least the
        stage accepts (their word filters tell: :func:`~partialdup.match.word_filter.ratios_may_reach`)."""
        assert self._edited is not None
        first, second = query_rows.lengths[query], key_rows.lengths[key]
        shorter, longer = np.minimum(first, second), np.maximum(first, second)
        keep = (score < self.threshold) & (shorter >= self.config.min_tokens)
        keep &= longer < WHOLE_LENGTH_RATIO * shorter
        rows = np.flatnonzero(keep)
        keep[rows] = ratios_may_reach(query_rows, query[rows], key_rows, key[rows], self._edited.neighbour_ratio)
        return keep

    def _word_rows(self, docs: Sequence[DocumentFeatures]) -> list[SentenceKey]:
        """(document, sentence) of every sentence long enough to be matched
        on its own, whose words are known."""
        least = self.config.min_tokens
        return [(d, s) for d, s, words in scanned_sentences(docs) if len(words) >= least]

    def _word_loose_all(
        self, docs: Sequence[DocumentFeatures], words: WordColumns | None = None
    ) -> KeyedMatches | list[tuple[SentenceKey, SentenceKey, float]]:
        """``detect``: pairs of sentences of different documents whose word
        sets reach :data:`~partialdup.index.words.WORD_JACCARD` (see
        :mod:`partialdup.index.words`), as (later sentence, earlier sentence,
        bag-Jaccard of their features), like the feature search's loose
        candidates. ``words``: the documents' words numbered
        (:meth:`_word_columns`), read instead of their words when given (the
        pairs then held as arrays: :meth:`_word_pairs_of`)."""
        if words is not None:
            return self._word_pairs_of(docs, words, *word_set_candidates(words, self.config.min_tokens))
        rows = self._word_rows(docs)
        found = WordSets([docs[d].words[s] for d, s in rows], None, WORD_JACCARD).pairs() if rows else iter(())
        pairs = ((rows[q], rows[k]) for q, k, _ in found if rows[q][0] != rows[k][0])
        return self._word_pairs(pairs, docs, docs)

    def _word_pairs_of(
        self, docs: Sequence[DocumentFeatures], words: WordColumns, first: np.ndarray, second: np.ndarray
    ) -> KeyedMatches:
        """:meth:`_word_pairs` of the pairs :func:`word_set_candidates` kept
        (sentence numbers of ``words``), in order, held as arrays: as
        records (a tuple and a float each), the English bench corpus's 69,000
        took 16 MB of the look-ups' end, then the English run's peak, and the
        pairs' bags taken at once 26 MB more (traced)."""
        # The documents' bags one after the other are numbered as ``words``
        # numbers the sentences (both count each document's sentences).
        bags = FlatBags.joined([doc.bags for doc in docs])
        scores = np.zeros(len(first), np.float64)
        for low in range(0, len(first), _SCORED_AT_ONCE):
            high = low + _SCORED_AT_ONCE
            scores[low:high] = flat_bag_jaccard(bags.take(first[low:high]), bags.take(second[low:high]))
        return KeyedMatches(first, second, scores, words.sentence_keys())

    def _word_loose_query(
        self, query_docs: Sequence[DocumentFeatures], references: Sequence[DocumentFeatures]
    ) -> list[tuple[SentenceKey, SentenceKey, float]]:
        """``check``: pairs of a query sentence and a reference sentence whose
        word sets reach :data:`~partialdup.index.words.WORD_JACCARD`."""
        queries, keys = self._word_rows(query_docs), self._word_rows(references)
        if not (queries and keys):
            return []
        collection = collection_words(references)
        found = WordSets(
            [query_docs[d].words[s] for d, s in queries], [references[d].words[s] for d, s in keys], WORD_JACCARD,
            max_postings=word_sets.WORD_POSTINGS, right_held=collection.sentences if collection else None,
        ).pairs()
        return self._word_pairs(((queries[q], keys[k]) for q, k, _ in found), query_docs, references)

    def _word_pairs(
        self,
        pairs: Iterable[tuple[SentenceKey, SentenceKey]],
        first_docs: Sequence[DocumentFeatures],
        second_docs: Sequence[DocumentFeatures],
    ) -> list[tuple[SentenceKey, SentenceKey, float]]:
        # Pairs of similar length, with the bag-Jaccard of their features.
        kept = []
        for first, second in pairs:
            da, db = first_docs[first[0]], second_docs[second[0]]
            shorter, longer = sorted((len(da.words[first[1]]), len(db.words[second[1]])))
            if longer < WHOLE_LENGTH_RATIO * shorter:
                kept.append((first, second, bag_jaccard(da.bags[first[1]], db.bags[second[1]])))
        return kept

    def _words_confirm(self, da: DocumentFeatures, i: int, db: DocumentFeatures, m: int) -> bool:
        """Whether a weak whole match (few shared features) is no longer weak:
        its words agree enough for an edited copy on its own. Its letters may
        disagree at ``near_ratio`` (one word in five changed): its words are
        the evidence the features lack."""
        check = self._edited
        if check is None or not (da.words and db.words):
            return False
        a_words, b_words = da.words[i], db.words[m]
        # Too short to stand alone: no word ratio to compute (most weak pairs).
        if min(len(a_words), len(b_words)) < check.min_alone:
            return False
        return check.alone_at(check.score(a_words, b_words), a_words, b_words) and check.numbers_agree(a_words, b_words)

    def _words_disagree(self, da: DocumentFeatures, i: int, db: DocumentFeatures, m: int) -> bool:
        """Whether two whole sentences of similar length that the features
        accept have words that agree too little for a copy on their own
        (template sentences that differ in their key words) and letters that
        do not agree either (at ``near_ratio``: an edited copy whose garbled
        word jieba cuts apart still agrees on its letters) unless they differ
        in many places, as a copy edited by hand does and template twins do
        not (:meth:`~partialdup.match.edited.EditedCheck.scattered_edits`);
        False when the words are not known or the sentences differ in length
        (their own checks apply)."""
        assert self._edited is not None
        if not (da.words and db.words):
            return False
        first, second = da.words[i], db.words[m]
        if first == second:  # the same words (most whole matches): they agree
            return False
        if not self._edited.whole(first, second) or self._edited.alone(first, second):
            return False
        check = self._near
        if check is None:
            return True
        a, b = check.of_sentence(da, i), check.of_sentence(db, m)
        if a is None or b is None:
            return True
        return not (check.same(a.letters, b.letters) or self._edited.scattered_edits(a.letters, b.letters))

    def _add_edited(
        self,
        found: FoundPairs,
        loose: KeyedMatches | Sequence[tuple[SentenceKey, SentenceKey, float]],
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
        judged: Callable[[Iterable[tuple[SentenceKey, SentenceKey, float]]], Iterable[tuple[SentenceKey, SentenceKey, float, bool]]]
        | None = None,
        verdicts: Callable[[], EditedVerdicts] | None = None,
    ) -> None:
        """Edited copies among the pairs sharing a feature (see
        :mod:`partialdup.match.edited`): a pair whose words reach
        ``edited_ratio`` is a copy, one reaching ``edited_neighbour_ratio``
        is tentative. ``judged``: returns, in order, what
        :meth:`_edited_copies` returns for the records it is given (an
        engine's worker processes judge them); None: here. ``verdicts``:
        gives the verdicts of the records of ``loose`` (arrays) judged on
        the words numbered (the look-ups', :mod:`partialdup.match.edited_columns`)."""
        # `found` does not change until every verdict is in.
        if verdicts is not None and isinstance(loose, KeyedMatches):
            accepted = _not_found(loose, verdicts(), found)
        else:
            pending = Pending.not_found(loose, found)
            accepted = self._edited_copies(pending, a_docs, b_docs) if judged is None else list(judged(pending))
        # A pair met twice counts once, as first met: its verdict depends on
        # its words only, so its first accepted record is its first record.
        seen: set[tuple[SentenceKey, SentenceKey]] = set()
        # Boilerplate (an edited copy of a template in many documents) is
        # decided later, on every pair of the run: partialdup.match.boilerplate.
        for first, second, score, tentative in accepted:
            if (first, second) not in seen:
                seen.add((first, second))
                found.add(first, second, score, tentative=tentative, words_only=not tentative)

    def _edited_copies(
        self,
        loose: Iterable[tuple[SentenceKey, SentenceKey, float]],
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
        memo: dict | None = None,
    ) -> list[tuple[SentenceKey, SentenceKey, float, bool]]:
        """(first, second, score, tentative) of the pairs whose words make an
        edited copy, in order: a pure function of the pairs' words, which a
        worker process may compute for a chunk of them. ``memo``: the
        sentences' words and numbers read so far, kept from one chunk to the
        next (by a worker); the words are read again for other documents."""
        assert self._edited is not None
        check = self._edited
        # Bound once: a million records on the English bench corpus.
        score_of, least, alone_at = check.score, check.neighbour_ratio, check.alone_at
        # Each sentence's words read once, and their numbers found once: the
        # records name few sentences many times (29,717 records on the
        # Chinese bench corpus read 59,434 sentences' words; a document's
        # words make the tuple on each read, core/word_lines.py).
        memo = {} if memo is None else memo
        numbers = memo.setdefault("numbers", SentenceNumbers())  # by the words themselves: any documents'
        a_words_of = _SentenceWords.kept(memo, "a", a_docs)
        b_words_of = a_words_of if b_docs is a_docs else _SentenceWords.kept(memo, "b", b_docs)
        accepted = []
        for first, second, score in loose:
            a_words, b_words = a_words_of[first], b_words_of[second]
            if a_words is None or b_words is None:
                continue
            ratio = score_of(a_words, b_words)
            if ratio >= least and numbers_agree_of(numbers[a_words], numbers[b_words]):
                accepted.append((first, second, score, not alone_at(ratio, a_words, b_words)))
        return accepted

    def _agreement(self, da: DocumentFeatures, db: DocumentFeatures) -> Callable[[int, int], float] | None:
        """How well the words of two documents' sentences agree (a word
        ratio, 0-100), which breaks ties in a passage's alignment (see
        :func:`partialdup.match.spans.monotone_alignment`), whether the
        edited-copy stage is on or not (a verbatim twin should win a tie
        either way); None when the words are not known."""
        if not (da.words and db.words):
            return None
        return lambda i, m: word_ratio(da.words[i], db.words[m])

    def _beside(self, da: DocumentFeatures, db: DocumentFeatures) -> Callable[[int, int], bool | None] | None:
        """The word check of sentences paired beside a span's pairs, for two
        whole sentences of similar length: True when their words agree;
        False when their numbers differ, or their words disagree although
        they share τ of their features; else None (the features decide, as
        without the stage), also when the words are not known or the
        lengths differ."""
        check = self._edited
        if check is None or not (da.words and db.words):
            return None

        def beside(i: int, m: int) -> bool | None:
            # Words that agree pair what the features would not. Words that
            # disagree veto only a pair sharing every feature a copy needs
            # (τ: template sentences, whose differing words no chain covers);
            # below τ the features decide, as without the stage, so an edited
            # neighbour the features pair at half the threshold is kept. A
            # renumbered heading (9.2.5. / 9.3.4.) says something else
            # whatever its features.
            first, second = da.words[i], db.words[m]
            if not check.whole(first, second):
                return None
            if not check.numbers_agree(first, second):
                return False
            if check.words_beside(first, second):  # check.beside, the numbers known to agree
                return True
            return False if bag_jaccard(da.bags[i], db.bags[m]) >= self.threshold else None

        return beside


class _SentenceWords(dict):
    """Each sentence's words by its key (document, sentence), read once;
    None for a document that came without its words."""

    __slots__ = ("_docs",)

    def __init__(self, docs: Sequence[DocumentFeatures]) -> None:
        super().__init__()
        self._docs = docs

    @classmethod
    def kept(cls, memo: dict, side: str, docs: Sequence[DocumentFeatures]) -> _SentenceWords:
        """``memo[side]`` when it reads these documents, else a new one put there."""
        held = memo.get(side)
        if not (isinstance(held, cls) and held._docs is docs):
            held = memo[side] = cls(docs)
        return held

    def __missing__(self, key: SentenceKey) -> Sequence[str] | None:
        words = self._docs[key[0]].words
        found = self[key] = words[key[1]] if words else None
        return found


def _not_found(
    loose: KeyedMatches, verdicts: EditedVerdicts, found: FoundPairs
) -> list[tuple[SentenceKey, SentenceKey, float, bool]]:
    """The records of ``loose`` accepted by ``verdicts``, as
    :meth:`EditedStage._edited_copies` gives them, but those whose pair
    ``found`` holds: what judging the pending records gives (a verdict
    depends on the record's words only)."""
    accepted = loose.at(verdicts.accepted)
    held = found.has_many([(first, second) for first, second, _ in accepted])
    return [(first, second, score, tentative)
            for (first, second, score), tentative, known in zip(accepted, verdicts.tentative.tolist(), held) if not known]


def _words_of(doc: DocumentFeatures, sentence: int) -> Sequence[str]:
    """A sentence's words (none when its document came without them)."""
    return doc.words[sentence] if doc.words else ()
