"""The detector: documents in, duplicated spans out.

:class:`Detector` strings the stages together (sentences -> tokens -> features
-> index -> sentence pairs -> spans -> refined edges -> one origin per query
passage). It does no I/O: reading files and writing JSONL live in
:mod:`partialdup.io`, so other engines and front ends can wrap it.

``detect`` and ``check`` differ only in their look-ups (every document
against every other, or queries against a reference index); both hand them,
in one shape (:class:`_Lookups`), to one tail that makes sentence pairs,
spans, refined edges and the run's statistics.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Callable, Collection, Iterable, Iterator, Sequence, TypeVar, Union

import numpy as np

from partialdup.core.config import Config
from partialdup.core.types import Document, DocumentFeatures, RunStats, Sentence, SentencePair, Span, TokenizedDocument
from partialdup.index.inverted import FeatureIndex, IndexedSentence
from partialdup.index.sparse import PairMatches, ReferenceIndex, SparseIndex
from partialdup.match.edited import CANDIDATE_JACCARD, WHOLE_LENGTH_RATIO, EditedCheck, supported, word_ratio
from partialdup.match.origin import single_origin
from partialdup.match.pairs import FoundPairs, SentenceKey, evident, rejoined_hits, rows_by_documents
from partialdup.match.refine import refine_spans
from partialdup.match.score import passage_similarity
from partialdup.match.spans import matchable_ranks, spans_for_documents
from partialdup.match.verify import EMBEDDED_CONTAINMENT, EMBEDDED_MIN_FEATURES, NearMissCheck
from partialdup.methods.base import Method, resolved_threshold
from partialdup.methods.similarity import CopyRule
from partialdup.text.sentences import SentenceSplitter, rejoinable
from partialdup.text.tokens import Tokenizer

__all__ = ["Detector", "Detection", "AnyDocument"]

T = TypeVar("T")

# A quotation: text between 「」, “”, "" or '' (the single quotes not inside
# a word, where they are apostrophes), at least a few characters long.
_QUOTATION = re.compile(
    r"「([^「」\n]{4,})」|“([^“”\n]{4,})”|\"([^\"\n]{4,})\"|(?<!\w)'([^'\n]{8,})'(?!\w)"
)

# A quoted sentence ends with its terminator inside the quotation marks
# (「…。」, “….”); a quoted title, path or command does not ("/var/lib/dpkg/",
# 第 6.3.5 节 “安装基本系统”), and is no copy of a line that holds the same words.
_SENTENCE_END = re.compile(r"[。！？!?.]\s*\Z")

#: A quotation is looked up on its own when it is at most this share of its
#: sentence's characters (a sentence that is nearly all quotation is looked
#: up whole already).
QUOTE_MAX_SHARE = 0.85

#: A document at any stage the detector can take it from.
AnyDocument = Union[Document, TokenizedDocument, DocumentFeatures]


@dataclass(frozen=True)
class Detection:
    """What a run found.

    Attributes:
        spans: Duplicated spans, sorted by (a, b, a_start, b_start, a_end, b_end).
        stats: Work done and skipped.
    """

    spans: tuple[Span, ...]
    stats: RunStats = field(default_factory=RunStats)


@dataclass(frozen=True)
class _Lookups:
    """What the index look-ups found, in the one shape ``detect`` and ``check`` share.

    Attributes:
        whole: (A sentence, B sentence, score, weak) of the whole-sentence
            matches that are not boilerplate.
        near: (A sentence, B sentence, score) of the near misses, for the
            character checks (empty when they are off).
        loose: (A sentence, B sentence, score) of every pair sharing a
            feature (bag-Jaccard at least
            :data:`~partialdup.match.edited.CANDIDATE_JACCARD`), for the
            word checks of edited copies (empty when they are off).
        quoted: (A sentence holding a quotation, B sentence, score) of the
            quotations that match a whole sentence.
        rejoined: (the two rejoined sentences, the other sentence, score,
            whether the rejoined ones are on the first side) of the matches
            of rejoined sentences.
        a_boilerplate: Boilerplate sentences of the A side.
        b_boilerplate: Boilerplate sentences of the B side (the same set in
            ``detect``).
        searches: The raw searches, for the run's statistics.
    """

    whole: list[tuple[SentenceKey, SentenceKey, float, bool]]
    near: list[tuple[SentenceKey, SentenceKey, float]]
    loose: list[tuple[SentenceKey, SentenceKey, float]]
    quoted: list[tuple[SentenceKey, SentenceKey, float]]
    rejoined: list[tuple[tuple[SentenceKey, SentenceKey], SentenceKey, float, bool]]
    a_boilerplate: set[SentenceKey]
    b_boilerplate: set[SentenceKey]
    searches: tuple[PairMatches, ...]


class Detector:
    """Finds passages copied between documents.

    Args:
        method: Turns a sentence's tokens into its fingerprint (any
            :class:`~partialdup.methods.base.Method`;
            :func:`partialdup.pipeline.factory.make_detector` builds the
            registered ones by name).
        config: Every parameter of the run (see
            :class:`~partialdup.core.config.Config`); its ``threshold``, when
            None, is the default of the method ``config.method`` names.
        tokenizer: Shared tokenizer (holds jieba); one is made when None.
        splitter: Shared sentence splitter; one is made when None.
    """

    def __init__(
        self,
        method: Method,
        config: Config = Config(),
        *,
        tokenizer: Tokenizer | None = None,
        splitter: SentenceSplitter | None = None,
    ) -> None:
        self.method = method
        self.config = config
        self.threshold = resolved_threshold(config)
        self.rule = CopyRule(self.threshold, config.containment, config.min_contained)
        if config.embedded_ratio:
            self._near_rule = CopyRule(self.threshold / 2, EMBEDDED_CONTAINMENT, EMBEDDED_MIN_FEATURES)
        else:
            self._near_rule = CopyRule(self.threshold / 2, 0.0, config.min_contained)
        # Rejoined sentences pair with a whole sentence by bag-Jaccard only:
        # containment would let any sentence match the longer rejoined pair
        # holding it, and extend every span over the next line.
        self._join_rule = CopyRule(self.threshold, 0.0, config.min_contained)
        self.tokenizer = tokenizer or Tokenizer()
        near_on = config.near_ratio or config.embedded_ratio
        self._near = NearMissCheck(self.tokenizer.normalise, config.near_ratio, config.embedded_ratio) if near_on else None
        self.splitter = splitter or SentenceSplitter(max_chars=config.max_sentence_chars)
        self._edited = EditedCheck(config.edited_ratio, config.edited_neighbour_ratio) if config.edited_ratio else None
        self._loose_rule = CopyRule(min(CANDIDATE_JACCARD, self.threshold / 2), 0.0, config.min_contained)

    def tokenize(self, document: Document) -> TokenizedDocument:
        """Sentences and their normalised tokens (method-independent; cacheable)."""
        text = document.text
        sentences = self.splitter.split(text)
        tokens = tuple(tuple(self.tokenizer.words(text, s.start, s.end)) for s in sentences)
        joins = tuple(
            (i, self._joined_words(text, sentences[i], sentences[i + 1], tokens[i] + tokens[i + 1]))
            for i in (rejoinable(text, sentences) if self.config.rejoin else ())
            if tokens[i] and tokens[i + 1]
        )
        quotes = tuple(self._quotations(text, sentences, tokens)) if self.config.quotes else ()
        return TokenizedDocument(document.id, sentences, tokens, text, joins, quotes)

    def _quotations(
        self, text: str, sentences: Sequence[Sentence], tokens: Sequence[tuple[str, ...]]
    ) -> Iterator[tuple[int, tuple[str, ...]]]:
        """(sentence index, tokens of the quotation) of each quoted sentence
        (its terminator inside the quotation marks) inside a longer sentence,
        with at least ``min_tokens`` tokens."""
        for i, sentence in enumerate(sentences):
            if len(tokens[i]) <= self.config.min_tokens:
                continue
            length = sentence.end - sentence.start
            for match in _QUOTATION.finditer(text, sentence.start, sentence.end):
                group = next(g for g in range(1, 5) if match.group(g) is not None)
                start, end = match.span(group)
                if end - start > QUOTE_MAX_SHARE * length or not _SENTENCE_END.search(text, start, end):
                    continue
                words = tuple(self.tokenizer.words(text, start, end))
                if len(words) >= self.config.min_tokens:
                    yield i, words

    def _joined_words(self, text: str, first: Sentence, second: Sentence, both: tuple[str, ...]) -> tuple[str, ...]:
        # Two sentences read as one have the words of each, unless a Han run
        # goes on across the break (a tenth of the gold set's joins): then
        # jieba must segment the run whole.
        if self.tokenizer.words_across(text[first.end - 1], text[second.start]):
            return tuple(self.tokenizer.words(text, first.start, second.end))
        return both

    def fingerprint(self, document: TokenizedDocument) -> DocumentFeatures:
        """The bag of features of every sentence of a tokenized document."""
        bags = tuple(self.method.bag(words) for words in document.tokens)
        joins = tuple(
            (i, bag)
            for i, words in (document.joins if self.config.rejoin else ())
            if len(words) >= self.config.min_tokens and (bag := self.method.bag(words))
        )
        words = document.tokens if self._edited is not None else ()
        # Plain dicts: a stored document keeps these fields by name (marshal).
        quotes = tuple(
            (i, dict(bag)) for i, quoted in (document.quotes if self.config.quotes else ()) if (bag := self.method.bag(quoted))
        )
        return DocumentFeatures(
            document.id, document.sentences, bags, tuple(map(len, document.tokens)), document.text, joins, words, quotes
        )

    def features(self, document: Document | TokenizedDocument | DocumentFeatures) -> DocumentFeatures:
        """Run the stages a document still needs, up to its features."""
        if isinstance(document, DocumentFeatures):
            return document
        if isinstance(document, Document):
            document = self.tokenize(document)
        return self.fingerprint(document)

    def detect(self, documents: Iterable[AnyDocument]) -> Detection:
        """Every copied passage between any two of the documents."""
        docs = [self.features(d) for d in documents]
        index = self.build_index(docs, joins=False)
        # A is the document with the smaller id, whichever sentence was the query.
        found = FoundPairs(swapped=lambda first, second: (docs[first[0]].id, first[0]) > (docs[second[0]].id, second[0]))
        return self._spans(self._self_lookups(docs, index), found, docs, docs, index)

    def check(self, queries: Iterable[AnyDocument], references: Iterable[AnyDocument]) -> Detection:
        """Passages of each query copied from any reference (A = query, B = reference)."""
        reference_docs = [self.features(d) for d in references]
        return self.check_against(queries, reference_docs, self.build_index(reference_docs))

    def check_against(
        self,
        queries: Iterable[AnyDocument],
        references: Sequence[DocumentFeatures],
        index: ReferenceIndex,
        *,
        only_pairs: Collection[tuple[str, str]] | None = None,
    ) -> Detection:
        """Query documents against an index built by :meth:`build_index`.

        Args:
            queries: The documents to check.
            references: The documents the index was built from, in its order.
            index: The reference index (reused across calls).
            only_pairs: When given, only these (query id, reference id) pairs
                are reported, as in PAN's pairs file.
        """
        query_docs = [self.features(d) for d in queries]
        keep = None
        if only_pairs is not None:
            keep = lambda q, r: (query_docs[q].id, references[r].id) in only_pairs  # noqa: E731
        lookups = self._query_lookups(query_docs, index, references)
        detection = self._spans(lookups, FoundPairs(), query_docs, references, index, keep=keep)
        if not self.config.single_origin:
            return detection
        return replace(detection, spans=tuple(single_origin(detection.spans)))

    def matchable(self, doc: DocumentFeatures, sentence: int) -> bool:
        """Whether a sentence is long enough to be looked up on its own."""
        return doc.tokens[sentence] >= self.config.min_tokens and bool(doc.bags[sentence])

    def build_index(self, references: Sequence[DocumentFeatures], *, joins: bool = True) -> ReferenceIndex:
        """Index the sentences of reference documents (document number = position).

        Args:
            references: The documents to index.
            joins: Also index their rejoined sentences (``check`` looks whole
                query sentences up there; ``detect`` needs no such index).
        """
        sentences = FeatureIndex(max_postings=self.config.max_postings)
        joined = FeatureIndex(max_postings=self.config.max_postings)
        for number, doc in enumerate(references):
            for position, bag in enumerate(doc.bags):
                if self.matchable(doc, position):
                    sentences.add(number, position, bag)
            for position, bag in doc.joins if joins else ():
                joined.add(number, position, bag)
        return ReferenceIndex(SparseIndex(sentences), SparseIndex(joined))

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

    # --- the look-ups: the one place where detect and check differ ----------

    def _self_lookups(self, docs: Sequence[DocumentFeatures], index: ReferenceIndex) -> _Lookups:
        """``detect``: every document's sentences against every other's, each pair once."""
        config = self.config
        sentences = index.sentences.index.sentences
        key_of = lambda key: (sentences[key].doc, sentences[key].sentence)  # noqa: E731
        whole_matches = index.sentences.search_all(self.rule)
        matches = list(zip(whole_matches.query.tolist(), whole_matches.key.tolist(), whole_matches.score.tolist()))
        common = self._boilerplate_keys(matches, sentences)
        weak = self._weak(whole_matches, lambda key: key)
        whole = [
            (key_of(key), key_of(other_key), score, (key, other_key) in weak)
            for key, other_key, score in matches
            if key not in common and other_key not in common
        ]
        boilerplate = {key_of(key) for key in common}
        searches = [whole_matches]
        near: list[tuple[SentenceKey, SentenceKey, float]] = []
        if self._near is not None:
            near_matches = index.sentences.search_all(self._near_rule)
            near = list(_keyed(near_matches, key_of, sentences))
            searches.append(near_matches)
        loose: list[tuple[SentenceKey, SentenceKey, float]] = []
        if self._edited is not None:
            lengths = self._token_counts(docs, sentences)
            loose_matches = self._loose(index.sentences.search_all(self._loose_rule), lengths, lengths)
            loose = [(first, second, score) for first, second, score in _keyed(loose_matches, key_of, sentences)
                     if first not in boilerplate and second not in boilerplate]
        # Every document's rejoined sentences against every other's sentences
        # covers both directions: no rejoined pair meets another.
        rows = [(d, i) for d, doc in enumerate(docs) for i, _ in doc.joins]
        joined = index.sentences.search([bag for doc in docs for _, bag in doc.joins], self._join_rule, docs=[d for d, _ in rows])
        joined = joined.sharing(config.min_shared)
        rejoined = []
        for row, entry, score in rejoined_hits(joined, sentences, config.boilerplate):
            d, i = rows[row]
            other = (entry.doc, entry.sentence)
            if not {(d, i), (d, i + 1), other} & boilerplate:
                rejoined.append((((d, i), (d, i + 1)), other, score, True))
        quoted = self._quotation_hits(docs, index, boilerplate, boilerplate, own_documents=True)
        return _Lookups(whole, near, loose, quoted, rejoined, boilerplate, boilerplate, (*searches, joined))

    def _query_lookups(
        self, query_docs: Sequence[DocumentFeatures], index: ReferenceIndex, references: Sequence[DocumentFeatures]
    ) -> _Lookups:
        """``check``: the query documents' sentences against the reference index.

        A query sentence that matches sentences of ``boilerplate`` or more
        reference documents is boilerplate: none of its pairs is recorded.
        """
        config = self.config
        queries_at = self._matchable_sentences(query_docs)
        joins_at = [(q, i) for q, doc in enumerate(query_docs) for i, _ in doc.joins]
        whole_matches, near_matches, query_joins, reference_joins = self.search(query_docs, index)
        query_joins, reference_joins = query_joins.sharing(config.min_shared), reference_joins.sharing(config.min_shared)
        sentences = index.sentences.index.sentences
        kept, common = rows_by_documents(whole_matches, sentences, config.boilerplate)
        weak = self._weak(whole_matches, lambda key: (sentences[key].doc, sentences[key].sentence))
        whole = [
            (queries_at[row], (other.doc, other.sentence), score, (row, (other.doc, other.sentence)) in weak)
            for row, others in kept.items()
            for other, score in others
        ]
        query_boilerplate = {queries_at[row] for row in common}
        reference_boilerplate = {(other.doc, other.sentence) for others in common.values() for other, _ in others}
        near = list(_keyed(near_matches, queries_at.__getitem__, sentences)) if self._near is not None else []
        loose: list[tuple[SentenceKey, SentenceKey, float]] = []
        if self._edited is not None:
            bags = [query_docs[q].bags[s] for q, s in queries_at]
            query_lengths = np.fromiter((query_docs[q].tokens[s] for q, s in queries_at), np.int64, len(queries_at))
            reference_lengths = self._token_counts(references, sentences)
            matches = self._loose(index.sentences.search(bags, self._loose_rule), query_lengths, reference_lengths)
            loose = [
                (first, second, score)
                for first, second, score in _keyed(matches, queries_at.__getitem__, sentences)
                if first not in query_boilerplate and second not in reference_boilerplate
            ]
        rejoined = []
        for row, other, score in rejoined_hits(query_joins, sentences, config.boilerplate):
            q, i = joins_at[row]
            if not {(q, i), (q, i + 1)} & query_boilerplate and (other.doc, other.sentence) not in reference_boilerplate:
                rejoined.append((((q, i), (q, i + 1)), (other.doc, other.sentence), score, True))
        for row, other, score in rejoined_hits(reference_joins, index.joins.index.sentences, config.boilerplate):
            q, s = queries_at[row]
            r, m = other.doc, other.sentence
            if (q, s) not in query_boilerplate and not {(r, m), (r, m + 1)} & reference_boilerplate:
                rejoined.append((((r, m), (r, m + 1)), (q, s), score, False))
        searches = (whole_matches, near_matches, query_joins, reference_joins)
        quoted = self._quotation_hits(query_docs, index, query_boilerplate, reference_boilerplate, own_documents=False)
        return _Lookups(whole, near, loose, quoted, rejoined, query_boilerplate, reference_boilerplate, searches)

    def _quotation_hits(
        self,
        docs: Sequence[DocumentFeatures],
        index: ReferenceIndex,
        host_skip: set[SentenceKey],
        other_skip: set[SentenceKey],
        *,
        own_documents: bool,
    ) -> list[tuple[SentenceKey, SentenceKey, float]]:
        """(sentence holding a quotation, indexed sentence, score) of the
        quotations of ``docs`` that match an indexed sentence; boilerplate
        sentences (``host_skip``, ``other_skip``) and quotations that match
        ``boilerplate`` or more documents are left out. ``own_documents``:
        ``docs`` are the indexed documents (``detect``), and a quotation
        does not match its own document."""
        rows = [(d, i) for d, doc in enumerate(docs) for i, _ in doc.quotes]
        if not rows:
            return []
        bags = [bag for doc in docs for _, bag in doc.quotes]
        found = index.sentences.search(bags, self.rule, docs=[d for d, _ in rows] if own_documents else None)
        hits = []
        for row, entry, score in rejoined_hits(found, index.sentences.index.sentences, self.config.boilerplate):
            host, copied = rows[row], (entry.doc, entry.sentence)
            if host not in host_skip and copied not in other_skip:
                hits.append((host, copied, score))
        return hits

    def _weak(self, matches: PairMatches, key_of: Callable[[int], T]) -> set[tuple[int, T]]:
        """(query row, key_of(indexed key)) of the pairs sharing fewer than
        ``min_shared`` features (see :meth:`_evident`); empty when no
        character check is on."""
        if self._near is None:
            return set()
        low = matches.shared < self.config.min_shared
        return {(row, key_of(key)) for row, key in zip(matches.query[low].tolist(), matches.key[low].tolist())}

    def _matchable_sentences(self, docs: Sequence[DocumentFeatures]) -> list[SentenceKey]:
        """(document, sentence) of every matchable sentence, in document order."""
        return [(d, s) for d, doc in enumerate(docs) for s in range(len(doc.bags)) if self.matchable(doc, s)]

    def _boilerplate_keys(self, matches: Sequence[tuple[int, int, float]], sentences: Sequence[IndexedSentence]) -> set[int]:
        # A sentence matched in `boilerplate` or more other documents is boilerplate.
        if not self.config.boilerplate:
            return set()
        documents: dict[int, set[int]] = defaultdict(set)
        for key, other_key, _ in matches:
            documents[key].add(sentences[other_key].doc)
            documents[other_key].add(sentences[key].doc)
        return {key for key, docs in documents.items() if len(docs) >= self.config.boilerplate}

    # --- the shared tail: pairs -> spans ----------------------------------

    def _spans(
        self,
        lookups: _Lookups,
        found: FoundPairs,
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
        index: ReferenceIndex,
        *,
        keep: Callable[[int, int], bool] | None = None,
    ) -> Detection:
        """Sentence pairs from the look-ups (whole matches, near misses whose
        characters agree, rejoined sentences), then spans of the document
        pairs ``keep`` accepts (all when None)."""
        edited = self._edited
        for first, second, score, weak in lookups.whole:
            tentative = edited is not None and self._words_disagree(a_docs[first[0]], first[1], b_docs[second[0]], second[1])
            found.add(first, second, score, weak=weak, tentative=tentative)
        if self._near is not None:
            skip = (lookups.a_boilerplate, lookups.b_boilerplate)
            self._near.add_to(found, lookups.near, a_docs, b_docs, skip, self.config.boilerplate)
        if edited is not None:
            self._add_edited(found, lookups.loose, a_docs, b_docs)
        for host, other, score in lookups.quoted:
            if not found.has(host, other):
                found.add(host, other, score)
        for parts, other, score, parts_first in lookups.rejoined:
            found.add_rejoined(parts, other, score, parts_first=parts_first)
        if keep is not None:
            for a, b in list(found.by_documents):
                if not keep(a, b):
                    del found.by_documents[(a, b)]
        return self._detection(a_docs, b_docs, found, index, lookups)

    def _token_counts(self, docs: Sequence[DocumentFeatures], entries: Sequence[IndexedSentence]) -> np.ndarray:
        """Tokens of each indexed sentence."""
        return np.fromiter((docs[e.doc].tokens[e.sentence] for e in entries), np.int64, len(entries))

    def _loose(self, matches: PairMatches, query_lengths: np.ndarray, key_lengths: np.ndarray) -> PairMatches:
        """The candidates of the edited-copy stage among a search's matches:
        below τ (the whole matches are judged apart), and two sentences of
        similar length (see :data:`~partialdup.match.edited.WHOLE_LENGTH_RATIO`)."""
        first, second = query_lengths[matches.query], key_lengths[matches.key]
        shorter, longer = np.minimum(first, second), np.maximum(first, second)
        keep = (matches.score < self.threshold) & (shorter >= self.config.min_tokens)
        keep &= longer < WHOLE_LENGTH_RATIO * shorter
        return replace(matches, query=matches.query[keep], key=matches.key[keep], score=matches.score[keep],
                       shared=matches.shared[keep])

    def _words_disagree(self, da: DocumentFeatures, i: int, db: DocumentFeatures, m: int) -> bool:
        """Whether two whole sentences of similar length that the features
        accept have words that agree too little for a copy on their own
        (template sentences that differ in their key words) and letters that
        do not agree either (at ``near_ratio``: an edited copy whose garbled
        word jieba cuts apart still agrees on its letters); False when the
        words are not known or the sentences differ in length (their own
        checks apply)."""
        assert self._edited is not None
        if not (da.words and db.words):
            return False
        first, second = da.words[i], db.words[m]
        if not self._edited.whole(first, second) or self._edited.alone(first, second):
            return False
        check = self._near
        if check is None or da.text is None or db.text is None:
            return True
        return not check.same(check.letters(da.text, da.sentences[i]), check.letters(db.text, db.sentences[m]))

    def _add_edited(
        self,
        found: FoundPairs,
        loose: Iterable[tuple[SentenceKey, SentenceKey, float]],
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
    ) -> None:
        """Edited copies among the pairs sharing a feature (see
        :mod:`partialdup.match.edited`): a pair whose words reach
        ``edited_ratio`` is a copy, one reaching ``edited_neighbour_ratio``
        is tentative. As for whole matches and near misses, a sentence that
        is an edited copy of sentences in ``boilerplate`` or more other
        documents is a template, not a copy."""
        assert self._edited is not None
        check = self._edited
        accepted = []
        for first, second, score in loose:
            if found.has(first, second):
                continue
            da, db = a_docs[first[0]], b_docs[second[0]]
            if not (da.words and db.words):
                continue
            a_words, b_words = da.words[first[1]], db.words[second[1]]
            ratio = check.score(a_words, b_words)
            if ratio >= check.neighbour_ratio and check.numbers_agree(a_words, b_words):
                accepted.append((first, second, score, not check.alone_at(ratio, a_words, b_words)))
        limit = self.config.boilerplate
        if limit:
            documents: dict[tuple[int, SentenceKey], set[int]] = defaultdict(set)
            one_set = a_docs is b_docs
            for first, second, _, tentative in accepted:
                if not tentative:
                    documents[(0, first)].add(second[0])
                    documents[(0 if one_set else 1, second)].add(first[0])
            common = {key for key, docs in documents.items() if len(docs) >= limit}
            accepted = [
                entry for entry in accepted
                if (0, entry[0]) not in common and (0 if one_set else 1, entry[1]) not in common
            ]
        for first, second, score, tentative in accepted:
            found.add(first, second, score, tentative=tentative, words_only=not tentative)

    def _detection(
        self,
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
        found: FoundPairs,
        index: ReferenceIndex,
        lookups: _Lookups,
    ) -> Detection:
        searches, a_boilerplate, b_boilerplate = lookups.searches, lookups.a_boilerplate, lookups.b_boilerplate
        # Boilerplate sentences, like sentences too short to have features,
        # cannot be missed copies: they do not count towards a span's gap.
        spans: list[Span] = []
        cache: dict[tuple[int, int], list[int]] = {}

        def ranks(side: int, number: int, doc: DocumentFeatures, skip: set[tuple[int, int]]) -> list[int]:
            if (side, number) not in cache:
                flags = [self.matchable(doc, i) and (number, i) not in skip for i in range(len(doc.bags))]
                cache[(side, number)] = matchable_ranks(flags)
            return cache[(side, number)]

        for a, b in list(found.by_documents):
            da, db = a_docs[a], b_docs[b]
            spans.extend(
                spans_for_documents(
                    da.id, db.id, da.sentences, db.sentences, self._evident(found, (a, b), (da, db)), gap=self.config.gap,
                    a_ranks=ranks(0, a, da, a_boilerplate), b_ranks=ranks(1, b, db, b_boilerplate),
                    fill=(da.bags, db.bags, self.threshold),
                    beside=self._beside(da, db),
                )
            )
        if self.config.refine:
            spans = list(self._refined(spans, a_docs, b_docs))
        spans = self._scored(spans, a_docs, b_docs)
        spans.sort(key=_span_order)
        distinct = {id(d): d for d in (*a_docs, *b_docs)}.values()  # detect passes one list twice
        run = RunStats(
            documents=len(distinct),
            sentences=sum(len(d.sentences) for d in distinct),
            candidate_pairs=sum(search.candidates for search in searches),
            frequent_features=index.sentences.frequent_features(),
            skipped_postings=sum(search.skipped_postings for search in searches),
            boilerplate_sentences=len(a_boilerplate),
        )
        return Detection(tuple(spans), run)

    def _beside(self, da: DocumentFeatures, db: DocumentFeatures) -> Callable[[int, int], bool | None] | None:
        """The word check of sentences paired beside a span's pairs: True or
        False for two whole sentences of similar length, None when the words
        are not known or the lengths differ (the features decide)."""
        check = self._edited
        if check is None or not (da.words and db.words):
            return None

        def beside(i: int, m: int) -> bool | None:
            first, second = da.words[i], db.words[m]
            return check.beside(first, second) if check.whole(first, second) else None

        return beside

    def _evident(
        self, found: FoundPairs, numbers: tuple[int, int], docs: tuple[DocumentFeatures, DocumentFeatures]
    ) -> list[SentencePair]:
        """The pairs of two documents that are evidence of a copy (see
        :func:`partialdup.match.pairs.evident`): a pair sharing fewer than
        ``min_shared`` features needs a pair that could chain with it, within
        ``gap`` + 1 sentences, or characters that agree (see
        :meth:`partialdup.match.verify.NearMissCheck.confirmed`)."""
        pairs = found.distinct(numbers)
        (a, b), (da, db) = numbers, docs
        if self._edited is not None:
            pairs = supported(
                pairs, lambda pair: found.is_tentative((a, pair.a), (b, pair.b)), reach=self.config.gap + 1,
                words_only=lambda pair: found.is_words_only((a, pair.a), (b, pair.b)),
                ratio=lambda pair: word_ratio(da.words[pair.a], db.words[pair.b]),
            )
        check = self._near
        if check is None:
            return pairs

        def agrees(pair: SentencePair) -> bool:
            first, second = check.of_sentence(da, pair.a), check.of_sentence(db, pair.b)
            if first is None or second is None:
                return True  # nothing to check against: as without the rule
            return check.confirmed(first, second)

        return evident(pairs, lambda pair: found.is_weak((a, pair.a), (b, pair.b)), agrees, reach=self.config.gap + 1)

    def _scored(
        self, spans: Sequence[Span], a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures]
    ) -> list[Span]:
        """Each span scored by how much of its passage is copied (see
        :mod:`partialdup.match.score`); spans whose documents came without
        their text keep the mean score of their pairs."""
        a_text = {d.id: d.text for d in a_docs if d.text is not None}
        b_text = {d.id: d.text for d in b_docs if d.text is not None}
        normalise = self.tokenizer.normalise
        scored = []
        for span in spans:
            first, second = a_text.get(span.a), b_text.get(span.b)
            if first is None or second is None:
                scored.append(span)
                continue
            score = passage_similarity(first[span.a_start : span.a_end], second[span.b_start : span.b_end], normalise)
            scored.append(replace(span, score=score))
        return scored

    def _refined(
        self, spans: Sequence[Span], a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures]
    ) -> tuple[Span, ...]:
        # Only spans whose two documents came with their text can be trimmed.
        a_known = {d.id: d for d in a_docs if d.text is not None}
        b_known = {d.id: d for d in b_docs if d.text is not None}
        known = [s for s in spans if s.a in a_known and s.b in b_known]
        rest = [s for s in spans if not (s.a in a_known and s.b in b_known)]
        refined = refine_spans(
            known,
            {i: d.text for i, d in a_known.items()},  # type: ignore[misc]
            {i: d.sentences for i, d in a_known.items()},
            self.tokenizer.normalise,
            b_texts={i: d.text for i, d in b_known.items()},  # type: ignore[misc]
            b_sentences={i: d.sentences for i, d in b_known.items()},
        )
        return (*refined, *rest)


def _keyed(
    found: PairMatches, query_key: Callable[[int], SentenceKey], keys: Sequence[IndexedSentence]
) -> Iterator[tuple[SentenceKey, SentenceKey, float]]:
    # (query sentence, indexed sentence, score) of each match; query_key maps
    # a match's query row to its sentence (rows mean other things in detect,
    # which searches the index against itself, and in check_against).
    for query, key, score in zip(found.query.tolist(), found.key.tolist(), found.score.tolist()):
        yield query_key(query), (keys[key].doc, keys[key].sentence), score


def _span_order(span: Span) -> tuple:
    return (span.a, span.b, span.a_start, span.b_start, span.a_end, span.b_end)
