"""The detector: documents in, duplicated spans out.

:class:`Detector` strings the stages together (sentences -> tokens -> features
-> index -> sentence pairs -> spans -> refined edges -> one origin per query
passage). It does no I/O: reading files and writing
JSONL live in :mod:`partialdup.io.reader` and :mod:`partialdup.io.jsonl`, so other
engines and front ends can wrap it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Callable, Collection, Iterable, Iterator, Sequence, TypeVar, Union

from partialdup.methods.low_idf_sig import DEFAULT_SKIP_WORDS, FeatureExtractor
from partialdup.index.inverted import FeatureIndex, IndexedSentence
from partialdup.match.spans import matchable_ranks, spans_for_documents
from partialdup.match.origin import single_origin
from partialdup.match.pairs import FoundPairs, SentenceKey, evident, rejoined_hits, rows_by_documents
from partialdup.match.refine import refine_spans
from partialdup.text.sentences import SentenceSplitter, rejoinable
from partialdup.methods.similarity import CopyRule
from partialdup.index.sparse import PairMatches, ReferenceIndex, SparseIndex
from partialdup.text.tokens import Tokenizer
from partialdup.core.types import Document, DocumentFeatures, RunStats, Sentence, SentencePair, Span, TokenizedDocument
from partialdup.match.verify import DEFAULT_MIN_INSIDE, DEFAULT_MIN_RATIO, EMBEDDED_CONTAINMENT, EMBEDDED_MIN_FEATURES, NearMissCheck

__all__ = ["Detector", "DetectorConfig", "Detection", "AnyDocument"]

T = TypeVar("T")

#: A document at any stage the detector can take it from.
AnyDocument = Union[Document, TokenizedDocument, DocumentFeatures]


@dataclass(frozen=True)
class DetectorConfig:
    """Parameters of the default (Low-IDF-Sig) detector.

    Attributes:
        antecedents: n, the number of lowest-IDF tokens of each language's IDF
            table that start features.
        chain: c, tokens chained after an antecedent.
        spacing: d, distance between chained tokens.
        threshold: tau, the bag-Jaccard at or above which two sentences are
            copies.
        containment: Two sentences are also copies when this share of the
            smaller one's features lies in the larger (their boundaries
            differ: a verse copied out of a longer sentence, a heading pasted
            in front of another sentence); 0 turns the rule off.
        min_contained: The smaller sentence needs at least this many features
            for the containment rule.
        gap: Unmatched sentences tolerated inside one span, on either side.
        max_postings: Features held by more sentences are not used to find
            candidates (reported in the run's statistics).
        max_sentence_chars: A run of text without a terminator is cut into
            sentences of at most this many characters.
        min_tokens: Sentences with fewer tokens are not matched on their own
            (a heading such as "描述" or "See also" recurs everywhere); they
            can still lie inside a span, between matched sentences.
        boilerplate: A sentence that matches sentences of this many other
            documents or more is boilerplate (a licence line, a man-page
            footer) and none of its pairs is reported; 0 turns this off (for
            quote detection, where a quote recurring everywhere is the point).
        skip_words: Tokens passed over inside chains.
        refine: Trim span edges to the aligned characters where the text is
            known (see :mod:`partialdup.match.refine`).
        near_ratio: A pair the index finds with bag-Jaccard below τ but at
            least τ / 2 is also a copy when the two sentences' normalised
            letters and digits agree at this rapidfuzz ratio (0-100; see
            :mod:`partialdup.match.verify`); 0 turns the second look off.
        embedded_ratio: A pair the index finds with half of the smaller bag
            in the larger is also a copy when the shorter sentence's letters
            lie inside the longer's at this rapidfuzz partial_ratio (0-100):
            a sentence copied into another without a sentence boundary, or
            quoted inside it (see :mod:`partialdup.match.verify`); 0 turns it off.
        min_shared: A pair that shares fewer features than this (one or two
            chains, which different sentences share by chance: 你也可以使用…)
            is a copy only when another pair of the two documents could
            chain with it, or its characters agree: whole at ``near_ratio``,
            or the shorter inside the longer at ``embedded_ratio`` (with both
            off, it is not checked). A rejoined pair of sentences needs this
            many shared features outright. 1 turns both off.
        rejoin: Also match two neighbouring sentences read as one where a
            line break may have cut a sentence in two (see
            :func:`partialdup.text.sentences.rejoinable`); such a pair of sentences
            is a copy of one sentence by bag-Jaccard only.
        single_origin: In ``check`` (A = query), a query passage has one
            origin per reference document: a span whose query side lies
            mostly inside longer spans of the same pair is dropped (see
            :mod:`partialdup.match.origin`). ``detect`` has no query side and keeps
            every span.
    """

    antecedents: int = 10
    chain: int = 2
    spacing: int = 1
    threshold: float = 0.6
    containment: float = 0.8
    min_contained: int = 3
    gap: int = 3
    max_postings: int = 2000
    max_sentence_chars: int = 1000
    min_tokens: int = 3
    boilerplate: int = 3
    skip_words: frozenset[str] = DEFAULT_SKIP_WORDS
    refine: bool = True
    near_ratio: float = DEFAULT_MIN_RATIO
    embedded_ratio: float = DEFAULT_MIN_INSIDE
    min_shared: int = 3
    rejoin: bool = True
    single_origin: bool = True

    def __post_init__(self) -> None:
        if self.antecedents < 0 or self.chain < 0 or self.spacing < 1 or self.gap < 0:
            raise ValueError("antecedents, chain and gap must be >= 0 and spacing >= 1")
        CopyRule(self.threshold, self.containment, self.min_contained)  # raises ValueError if out of range
        if self.boilerplate < 0:
            raise ValueError("boilerplate must be >= 0 (0 turns it off)")
        if not 0.0 <= self.near_ratio <= 100.0:
            raise ValueError("near_ratio must lie in [0, 100] (0 turns it off)")
        if not 0.0 <= self.embedded_ratio <= 100.0:
            raise ValueError("embedded_ratio must lie in [0, 100] (0 turns it off)")
        if self.max_postings < 1 or self.max_sentence_chars < 1 or self.min_tokens < 1 or self.min_shared < 1:
            raise ValueError("max_postings, max_sentence_chars, min_tokens and min_shared must be >= 1")


@dataclass(frozen=True)
class Detection:
    """What a run found.

    Attributes:
        spans: Duplicated spans, sorted by (a, b, a_start, b_start, a_end, b_end).
        stats: Work done and skipped.
    """

    spans: tuple[Span, ...]
    stats: RunStats = field(default_factory=RunStats)


class Detector:
    """Finds passages copied between documents.

    Args:
        extractor: Turns tokens into a bag of features (any
            :class:`FeatureExtractor`; :func:`partialdup.methods.make_detector`
            builds the named methods, Low-IDF-Sig by default).
        threshold: Minimum bag-Jaccard of a copied sentence pair.
        containment: Minimum share of the smaller sentence's features found
            in the larger for the containment rule (0: off).
        min_contained: Features the smaller sentence needs for that rule.
        gap: Unmatched sentences tolerated inside one span.
        max_postings: Bound on a feature's posting list used for candidates.
        min_tokens: Sentences with fewer tokens are not looked up on their
            own; inside a span they are still paired with their copies.
        boilerplate: Sentences matching this many other documents are not
            reported (0: off).
        refine: Trim span edges to the aligned characters (documents whose
            text is known: given as :class:`Document`, or tokenized from one).
        near_ratio: Near misses (bag-Jaccard in [τ / 2, τ)) are copies when
            their normalised letters agree at this rapidfuzz ratio; 0: off.
        embedded_ratio: Pairs with half of the smaller bag in the larger are
            copies when the shorter's letters lie inside the longer's at
            this rapidfuzz partial_ratio; 0: off.
        min_shared: Pairs sharing fewer features need a neighbouring pair or
            agreeing characters (1: off).
        rejoin: Also match neighbouring sentences read as one across a line
            break that may be a wrap.
        single_origin: In :meth:`check`, drop spans whose query side is
            mostly explained by longer spans of the same document pair.
        tokenizer: Shared tokenizer (holds jieba); one is made when None.
        splitter: Shared sentence splitter; one is made when None.
    """

    def __init__(
        self,
        extractor: FeatureExtractor,
        *,
        threshold: float = 0.6,
        containment: float = 0.8,
        min_contained: int = 3,
        gap: int = 3,
        max_postings: int = 2000,
        min_tokens: int = 3,
        boilerplate: int = 3,
        refine: bool = True,
        near_ratio: float = DEFAULT_MIN_RATIO,
        embedded_ratio: float = DEFAULT_MIN_INSIDE,
        min_shared: int = 3,
        rejoin: bool = True,
        single_origin: bool = True,
        tokenizer: Tokenizer | None = None,
        splitter: SentenceSplitter | None = None,
    ) -> None:
        self.extractor = extractor
        self.threshold = threshold
        self.rule = CopyRule(threshold, containment, min_contained)
        self.gap = gap
        self.max_postings = max_postings
        self.min_tokens = min_tokens
        self.boilerplate = boilerplate
        self.refine = refine
        self.rejoin = rejoin
        self.near_ratio = near_ratio
        self.embedded_ratio = embedded_ratio
        self.min_shared = min_shared
        if embedded_ratio:
            self._near_rule = CopyRule(threshold / 2, EMBEDDED_CONTAINMENT, EMBEDDED_MIN_FEATURES)
        else:
            self._near_rule = CopyRule(threshold / 2, 0.0, min_contained)
        self.single_origin = single_origin
        # Rejoined sentences pair with a whole sentence by bag-Jaccard only:
        # containment would let any sentence match the longer rejoined pair
        # holding it, and extend every span over the next line.
        self._join_rule = CopyRule(threshold, 0.0, min_contained)
        self.tokenizer = tokenizer or Tokenizer()
        self._near = NearMissCheck(self.tokenizer.normalise, near_ratio, embedded_ratio) if near_ratio or embedded_ratio else None
        self.splitter = splitter or SentenceSplitter()

    def tokenize(self, document: Document) -> TokenizedDocument:
        """Sentences and their normalised tokens (method-independent; cacheable)."""
        text = document.text
        sentences = self.splitter.split(text)
        tokens = tuple(tuple(self.tokenizer.words(text, s.start, s.end)) for s in sentences)
        joins = tuple(
            (i, self._joined_words(text, sentences[i], sentences[i + 1], tokens[i] + tokens[i + 1]))
            for i in (rejoinable(text, sentences) if self.rejoin else ())
            if tokens[i] and tokens[i + 1]
        )
        return TokenizedDocument(document.id, sentences, tokens, text, joins)

    def _joined_words(self, text: str, first: Sentence, second: Sentence, both: tuple[str, ...]) -> tuple[str, ...]:
        # Two sentences read as one have the words of each, unless a Han run
        # goes on across the break (a tenth of the gold set's joins): then
        # jieba must segment the run whole.
        if self.tokenizer.words_across(text[first.end - 1], text[second.start]):
            return tuple(self.tokenizer.words(text, first.start, second.end))
        return both

    def fingerprint(self, document: TokenizedDocument) -> DocumentFeatures:
        """The bag of features of every sentence of a tokenized document."""
        bags = tuple(self.extractor.bag(words) for words in document.tokens)
        joins = tuple(
            (i, bag)
            for i, words in (document.joins if self.rejoin else ())
            if len(words) >= self.min_tokens and (bag := self.extractor.bag(words))
        )
        return DocumentFeatures(document.id, document.sentences, bags, tuple(map(len, document.tokens)), document.text, joins)

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
        found_pairs = index.sentences.search_all(self.rule)
        sentences = index.sentences.index.sentences
        matches = list(zip(found_pairs.query.tolist(), found_pairs.key.tolist(), found_pairs.score.tolist()))
        common = self._boilerplate_keys(matches, sentences)
        weak = self._weak(found_pairs, lambda key: key)
        # A is the document with the smaller id, whichever sentence was the query.
        found = FoundPairs(swapped=lambda first, second: (docs[first[0]].id, first[0]) > (docs[second[0]].id, second[0]))
        for key, other_key, score in matches:
            if key not in common and other_key not in common:
                first, second = (sentences[key].doc, sentences[key].sentence), (sentences[other_key].doc, sentences[other_key].sentence)
                found.add(first, second, score, weak=(key, other_key) in weak)
        boilerplate = {(sentences[key].doc, sentences[key].sentence) for key in common}
        searches = [found_pairs]
        if self._near is not None:
            near = index.sentences.search_all(self._near_rule)
            near_pairs = _keyed(near, lambda key: (sentences[key].doc, sentences[key].sentence), sentences)
            self._near.add_to(found, near_pairs, docs, docs, (boilerplate, boilerplate), self.boilerplate)
            searches.append(near)
        # Every document's rejoined sentences against every other's sentences
        # covers both directions: no rejoined pair meets another.
        rows = [(d, i) for d, doc in enumerate(docs) for i, _ in doc.joins]
        joined = index.sentences.search([bag for doc in docs for _, bag in doc.joins], self._join_rule, docs=[d for d, _ in rows])
        joined = joined.sharing(self.min_shared)
        for row, entry, score in rejoined_hits(joined, sentences, self.boilerplate):
            d, i = rows[row]
            other = (entry.doc, entry.sentence)
            if not {(d, i), (d, i + 1), other} & boilerplate:
                found.add_rejoined(((d, i), (d, i + 1)), other, score)
        return self._detection(docs, docs, found, index, (*searches, joined), boilerplate, boilerplate)

    def matchable(self, doc: DocumentFeatures, sentence: int) -> bool:
        """Whether a sentence is long enough to be looked up on its own."""
        return doc.tokens[sentence] >= self.min_tokens and bool(doc.bags[sentence])

    def _weak(self, matches: PairMatches, key_of: Callable[[int], T]) -> set[tuple[int, T]]:
        """(query row, key_of(indexed key)) of the pairs sharing fewer than
        ``min_shared`` features (see :meth:`_evident`); empty when no
        character check is on."""
        if self._near is None:
            return set()
        low = matches.shared < self.min_shared
        return {(row, key_of(key)) for row, key in zip(matches.query[low].tolist(), matches.key[low].tolist())}

    def _matchable_sentences(self, docs: Sequence[DocumentFeatures]) -> list[SentenceKey]:
        """(document, sentence) of every matchable sentence, in document order."""
        return [(d, s) for d, doc in enumerate(docs) for s in range(len(doc.bags)) if self.matchable(doc, s)]

    def _boilerplate_keys(self, matches: Sequence[tuple[int, int, float]], sentences: Sequence[IndexedSentence]) -> set[int]:
        # A sentence matched in `boilerplate` or more other documents is boilerplate.
        if not self.boilerplate:
            return set()
        documents: dict[int, set[int]] = defaultdict(set)
        for key, other_key, _ in matches:
            documents[key].add(sentences[other_key].doc)
            documents[other_key].add(sentences[key].doc)
        return {key for key, docs in documents.items() if len(docs) >= self.boilerplate}

    def check(self, queries: Iterable[AnyDocument], references: Iterable[AnyDocument]) -> Detection:
        """Passages of each query copied from any reference (A = query, B = reference)."""
        reference_docs = [self.features(d) for d in references]
        return self.check_against(queries, reference_docs, self.build_index(reference_docs))

    def build_index(self, references: Sequence[DocumentFeatures], *, joins: bool = True) -> ReferenceIndex:
        """Index the sentences of reference documents (document number = position).

        Args:
            references: The documents to index.
            joins: Also index their rejoined sentences (``check`` looks whole
                query sentences up there; ``detect`` needs no such index).
        """
        sentences = FeatureIndex(max_postings=self.max_postings)
        joined = FeatureIndex(max_postings=self.max_postings)
        for number, doc in enumerate(references):
            for position, bag in enumerate(doc.bags):
                if self.matchable(doc, position):
                    sentences.add(number, position, bag)
            for position, bag in doc.joins if joins else ():
                joined.add(number, position, bag)
        return ReferenceIndex(SparseIndex(sentences), SparseIndex(joined))

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
        queries_at = self._matchable_sentences(query_docs)
        joins_at = [(q, i) for q, doc in enumerate(query_docs) for i, _ in doc.joins]
        found_pairs, near, query_joins, reference_joins = self.search(query_docs, index)
        query_joins, reference_joins = query_joins.sharing(self.min_shared), reference_joins.sharing(self.min_shared)
        sentences = index.sentences.index.sentences
        found = FoundPairs()
        query_boilerplate, reference_boilerplate = self._whole_matches(found, found_pairs, queries_at, sentences)
        skip = (query_boilerplate, reference_boilerplate)
        if self._near is not None:
            near_pairs = _keyed(near, queries_at.__getitem__, sentences)
            self._near.add_to(found, near_pairs, query_docs, references, skip, self.boilerplate)
        for row, other, score in rejoined_hits(query_joins, sentences, self.boilerplate):
            q, i = joins_at[row]
            if not {(q, i), (q, i + 1)} & query_boilerplate and (other.doc, other.sentence) not in reference_boilerplate:
                found.add_rejoined(((q, i), (q, i + 1)), (other.doc, other.sentence), score)
        for row, other, score in rejoined_hits(reference_joins, index.joins.index.sentences, self.boilerplate):
            q, s = queries_at[row]
            r, m = other.doc, other.sentence
            if (q, s) not in query_boilerplate and not {(r, m), (r, m + 1)} & reference_boilerplate:
                found.add_rejoined(((r, m), (r, m + 1)), (q, s), score, parts_first=False)
        if only_pairs is not None:
            for q, r in list(found.by_documents):
                if (query_docs[q].id, references[r].id) not in only_pairs:
                    del found.by_documents[(q, r)]
        searches = (found_pairs, near, query_joins, reference_joins)
        detection = self._detection(query_docs, references, found, index, searches, query_boilerplate, reference_boilerplate)
        if not self.single_origin:
            return detection
        return replace(detection, spans=tuple(single_origin(detection.spans)))

    def _whole_matches(
        self,
        found: FoundPairs,
        matches: PairMatches,
        queries_at: Sequence[SentenceKey],
        sentences: Sequence[IndexedSentence],
    ) -> tuple[set[SentenceKey], set[SentenceKey]]:
        """Records the query sentences' matches with whole reference sentences.

        A query sentence that matches sentences of ``boilerplate`` or more
        reference documents is boilerplate: none of its pairs is recorded.
        Weak pairs (see :meth:`_weak`) are marked as such.

        Returns:
            The boilerplate sentences of the queries and of the references.
        """
        kept, common = rows_by_documents(matches, sentences, self.boilerplate)
        weak = self._weak(matches, lambda key: (sentences[key].doc, sentences[key].sentence))
        for row, others in kept.items():
            for other, score in others:
                other_key = (other.doc, other.sentence)
                found.add(queries_at[row], other_key, score, weak=(row, other_key) in weak)
        query_boilerplate = {queries_at[row] for row in common}
        reference_boilerplate = {(other.doc, other.sentence) for others in common.values() for other, _ in others}
        return query_boilerplate, reference_boilerplate

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

    def _detection(
        self,
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
        found: FoundPairs,
        index: ReferenceIndex,
        searches: Sequence[PairMatches],
        a_boilerplate: set[tuple[int, int]],
        b_boilerplate: set[tuple[int, int]],
    ) -> Detection:
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
                    da.id, db.id, da.sentences, db.sentences, self._evident(found, (a, b), (da, db)), gap=self.gap,
                    a_ranks=ranks(0, a, da, a_boilerplate), b_ranks=ranks(1, b, db, b_boilerplate),
                    fill=(da.bags, db.bags, self.threshold),
                )
            )
        if self.refine:
            spans = list(self._refined(spans, a_docs, b_docs))
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

    def _evident(
        self, found: FoundPairs, numbers: tuple[int, int], docs: tuple[DocumentFeatures, DocumentFeatures]
    ) -> list[SentencePair]:
        """The pairs of two documents that are evidence of a copy (see
        :func:`partialdup.match.pairs.evident`): a pair sharing fewer than
        ``min_shared`` features needs a pair that could chain with it, within
        ``gap`` + 1 sentences, or characters that agree (see
        :meth:`partialdup.match.verify.NearMissCheck.confirmed`)."""
        pairs = found.distinct(numbers)
        check = self._near
        if check is None:
            return pairs
        (a, b), (da, db) = numbers, docs

        def agrees(pair: SentencePair) -> bool:
            first, second = check.of_sentence(da, pair.a), check.of_sentence(db, pair.b)
            if first is None or second is None:
                return True  # nothing to check against: as without the rule
            return check.confirmed(first, second)

        return evident(pairs, lambda pair: found.is_weak((a, pair.a), (b, pair.b)), agrees, reach=self.gap + 1)

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
