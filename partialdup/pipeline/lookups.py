"""The look-ups: the one place where ``detect`` and ``check`` differ.

``detect`` looks every document's sentences up against every other's;
``check`` looks query sentences up in a reference index. Both hand what
they found, in one shape (:class:`Lookups`), to the shared tail
(:mod:`partialdup.pipeline.tail`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence, TypeVar

import numpy as np

from partialdup.core.types import DocumentFeatures
from partialdup.index.inverted import IndexedSentence
from partialdup.index.sparse import PairMatches, ReferenceIndex
from partialdup.match.pairs import SentenceKey, rejoined_hits
from partialdup.pipeline.edits import EditedStage

__all__ = ["Lookups", "LookupStage"]

T = TypeVar("T")


@dataclass(frozen=True)
class Lookups:
    """What the index look-ups found, in the one shape ``detect`` and ``check`` share.

    Attributes:
        whole: (A sentence, B sentence, score, weak) of the whole-sentence
            matches. Nothing is left out as boilerplate here: the rule
            decides once every pair is known (see
            :mod:`partialdup.match.boilerplate`).
        near: (A sentence, B sentence, score) of the near misses, for the
            character checks (empty when they are off).
        loose: (A sentence, B sentence, score) of every pair sharing a
            feature (bag-Jaccard at least
            :data:`~partialdup.match.edited.CANDIDATE_JACCARD`) and of every
            pair whose word sets agree (:mod:`partialdup.index.words`), for
            the word checks of edited copies (empty when they are off).
        quoted: (A sentence holding a quotation, B sentence, score) of the
            quotations that match a whole sentence.
        rejoined: (the two rejoined sentences, the other sentence, score,
            whether the rejoined ones are on the first side) of the matches
            of rejoined sentences.
        searches: The raw searches, for the run's statistics.
        a_boilerplate: Boilerplate sentences of the A side, which do not
            count in a span's gap: empty from the look-ups, filled by the
            tail once the rule has decided (:mod:`partialdup.match.boilerplate`).
        b_boilerplate: The same for the B side.
        crowded: ``detect``: sentences copied in ``max_postings`` or more
            other documents (when the boilerplate rule is on). The pairs
            between two of them are never made (a sentence in 30,000
            documents would make 450 million); they are boilerplate, as is
            every pair of one of them with another sentence.
    """

    whole: list[tuple[SentenceKey, SentenceKey, float, bool]]
    near: list[tuple[SentenceKey, SentenceKey, float]]
    loose: list[tuple[SentenceKey, SentenceKey, float]]
    quoted: list[tuple[SentenceKey, SentenceKey, float]]
    rejoined: list[tuple[tuple[SentenceKey, SentenceKey], SentenceKey, float, bool]]
    searches: tuple[PairMatches, ...]
    a_boilerplate: set[SentenceKey] = field(default_factory=set)
    b_boilerplate: set[SentenceKey] = field(default_factory=set)
    crowded: frozenset[SentenceKey] = frozenset()


class LookupStage(EditedStage):
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
        bags = [query_docs[q].bags[s] for q, s in self._matchable_sentences(query_docs)]
        joined = [bag for doc in query_docs for _, bag in doc.joins]
        return (
            index.sentences.search(bags, self.rule),
            index.sentences.search(bags if self._near is not None else [], self._near_rule),
            index.sentences.search(joined, self._join_rule),
            index.joins.search(bags, self._join_rule),
        )

    def _self_lookups(self, docs: Sequence[DocumentFeatures], index: ReferenceIndex) -> Lookups:
        """``detect``: every document's sentences against every other's, each pair once."""
        config = self.config
        sentences = index.sentences.index.sentences
        key_of = lambda key: (sentences[key].doc, sentences[key].sentence)  # noqa: E731
        # A sentence in `max_postings` or more other documents is boilerplate
        # whatever else is found: the pairs among such sentences are not made.
        crowd = config.max_postings if config.boilerplate else 0
        whole_matches = index.sentences.search_all(self.rule, boilerplate=crowd)
        crowded_keys = whole_matches.boilerplate
        crowded = frozenset(key_of(key) for key in crowded_keys.tolist())
        matches = list(zip(whole_matches.query.tolist(), whole_matches.key.tolist(), whole_matches.score.tolist()))
        weak = self._weak(whole_matches, lambda key: key)
        whole = [(key_of(key), key_of(other_key), score, (key, other_key) in weak) for key, other_key, score in matches]
        whole = self._words_confirm(whole, docs, docs)
        searches = [whole_matches]
        near: list[tuple[SentenceKey, SentenceKey, float]] = []
        if self._near is not None:
            near_matches = index.sentences.search_all(self._near_rule, crowded=crowded_keys)
            near = list(_keyed(near_matches, key_of, sentences))
            searches.append(near_matches)
        loose: list[tuple[SentenceKey, SentenceKey, float]] = []
        if self._edited is not None:
            lengths = self._token_counts(docs, sentences)
            loose_matches = self._loose(index.sentences.search_all(self._loose_rule, crowded=crowded_keys), lengths, lengths)
            loose = list(_keyed(loose_matches, key_of, sentences))
            loose += [pair for pair in self._word_loose_all(docs) if not (pair[0] in crowded and pair[1] in crowded)]
        # Every document's rejoined sentences against every other's sentences
        # covers both directions: no rejoined pair meets another.
        rows = [(d, i) for d, doc in enumerate(docs) for i, _ in doc.joins]
        joined = index.sentences.search([bag for doc in docs for _, bag in doc.joins], self._join_rule, docs=[d for d, _ in rows])
        joined = joined.sharing(config.min_shared)
        rejoined = []
        for row, entry, score in rejoined_hits(joined, sentences):
            d, i = rows[row]
            rejoined.append((((d, i), (d, i + 1)), (entry.doc, entry.sentence), score, True))
        quoted = self._quotation_hits(docs, index, own_documents=True)
        return Lookups(whole, near, loose, quoted, rejoined, (*searches, joined), crowded=crowded)

    def _query_lookups(
        self, query_docs: Sequence[DocumentFeatures], index: ReferenceIndex, references: Sequence[DocumentFeatures]
    ) -> Lookups:
        """``check``: the query documents' sentences against the reference index."""
        config = self.config
        queries_at = self._matchable_sentences(query_docs)
        joins_at = [(q, i) for q, doc in enumerate(query_docs) for i, _ in doc.joins]
        whole_matches, near_matches, query_joins, reference_joins = self.search(query_docs, index)
        query_joins, reference_joins = query_joins.sharing(config.min_shared), reference_joins.sharing(config.min_shared)
        sentences = index.sentences.index.sentences
        weak = self._weak(whole_matches, lambda key: (sentences[key].doc, sentences[key].sentence))
        whole = [
            (queries_at[row], (other.doc, other.sentence), score, (row, (other.doc, other.sentence)) in weak)
            for row, other, score in rejoined_hits(whole_matches, sentences)
        ]
        whole = self._words_confirm(whole, query_docs, references)
        near = list(_keyed(near_matches, queries_at.__getitem__, sentences)) if self._near is not None else []
        loose: list[tuple[SentenceKey, SentenceKey, float]] = []
        if self._edited is not None:
            bags = [query_docs[q].bags[s] for q, s in queries_at]
            query_lengths = np.fromiter((query_docs[q].tokens[s] for q, s in queries_at), np.int64, len(queries_at))
            reference_lengths = self._token_counts(references, sentences)
            matches = self._loose(index.sentences.search(bags, self._loose_rule), query_lengths, reference_lengths)
            loose = list(_keyed(matches, queries_at.__getitem__, sentences))
            loose += self._word_loose_query(query_docs, references)
        rejoined = []
        for row, other, score in rejoined_hits(query_joins, sentences):
            q, i = joins_at[row]
            rejoined.append((((q, i), (q, i + 1)), (other.doc, other.sentence), score, True))
        for row, other, score in rejoined_hits(reference_joins, index.joins.index.sentences):
            r, m = other.doc, other.sentence
            rejoined.append((((r, m), (r, m + 1)), queries_at[row], score, False))
        searches = (whole_matches, near_matches, query_joins, reference_joins)
        quoted = self._quotation_hits(query_docs, index, own_documents=False)
        return Lookups(whole, near, loose, quoted, rejoined, searches)

    def _quotation_hits(
        self,
        docs: Sequence[DocumentFeatures],
        index: ReferenceIndex,
        *,
        own_documents: bool,
    ) -> list[tuple[SentenceKey, SentenceKey, float]]:
        """(sentence holding a quotation, indexed sentence, score) of the
        quotations of ``docs`` that match an indexed sentence.
        ``own_documents``: ``docs`` are the indexed documents (``detect``),
        and a quotation does not match its own document."""
        rows = [(d, i) for d, doc in enumerate(docs) for i, _ in doc.quotes]
        if not rows:
            return []
        bags = [bag for doc in docs for _, bag in doc.quotes]
        found = index.sentences.search(bags, self.rule, docs=[d for d, _ in rows] if own_documents else None)
        entries = index.sentences.index.sentences
        return [(rows[row], (entry.doc, entry.sentence), score) for row, entry, score in rejoined_hits(found, entries)]

    def _weak(self, matches: PairMatches, key_of: Callable[[int], T]) -> set[tuple[int, T]]:
        """(query row, key_of(indexed key)) of the pairs sharing fewer than
        ``min_shared`` features (see :meth:`_evident`); empty when no
        character check is on."""
        if self._near is None:
            return set()
        low = matches.shared < self.config.min_shared
        return {(row, key_of(key)) for row, key in zip(matches.query[low].tolist(), matches.key[low].tolist())}


def _keyed(
    found: PairMatches, query_key: Callable[[int], SentenceKey], keys: Sequence[IndexedSentence]
) -> Iterator[tuple[SentenceKey, SentenceKey, float]]:
    # (query sentence, indexed sentence, score) of each match; query_key maps
    # a match's query row to its sentence (rows mean other things in detect,
    # which searches the index against itself, and in check_against).
    for query, key, score in zip(found.query.tolist(), found.key.tolist(), found.score.tolist()):
        yield query_key(query), (keys[key].doc, keys[key].sentence), score

