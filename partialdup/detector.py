"""The detector: documents in, duplicated spans out.

:class:`Detector` strings the stages together (sentences -> tokens -> features
-> index -> sentence pairs -> spans). It does no I/O: reading files and writing
JSONL live in :mod:`partialdup.reader` and :mod:`partialdup.output`, so other
engines and front ends can wrap it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from .features import DEFAULT_SKIP_WORDS, FeatureExtractor
from .index import FeatureIndex, QueryStats
from .matching import spans_for_documents
from .sentences import SentenceSplitter
from .tokens import Tokenizer
from .types import Document, DocumentFeatures, RunStats, SentencePair, Span

__all__ = ["Detector", "DetectorConfig", "Detection"]


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
        gap: Unmatched sentences tolerated inside one span, on either side.
        max_postings: Features held by more sentences are not used to find
            candidates (reported in the run's statistics).
        max_sentence_chars: A run of text without a terminator is cut into
            sentences of at most this many characters.
        skip_words: Tokens passed over inside chains.
    """

    antecedents: int = 50
    chain: int = 2
    spacing: int = 1
    threshold: float = 0.6
    gap: int = 2
    max_postings: int = 2000
    max_sentence_chars: int = 1000
    skip_words: frozenset[str] = DEFAULT_SKIP_WORDS

    def __post_init__(self) -> None:
        if self.antecedents < 0 or self.chain < 0 or self.spacing < 1 or self.gap < 0:
            raise ValueError("antecedents, chain and gap must be >= 0 and spacing >= 1")
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError("threshold must lie in (0, 1]")
        if self.max_postings < 1 or self.max_sentence_chars < 1:
            raise ValueError("max_postings and max_sentence_chars must be >= 1")


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
        gap: Unmatched sentences tolerated inside one span.
        max_postings: Bound on a feature's posting list used for candidates.
        tokenizer: Shared tokenizer (holds jieba); one is made when None.
        splitter: Shared sentence splitter; one is made when None.
    """

    def __init__(
        self,
        extractor: FeatureExtractor,
        *,
        threshold: float = 0.6,
        gap: int = 2,
        max_postings: int = 2000,
        tokenizer: Tokenizer | None = None,
        splitter: SentenceSplitter | None = None,
    ) -> None:
        self.extractor = extractor
        self.threshold = threshold
        self.gap = gap
        self.max_postings = max_postings
        self.tokenizer = tokenizer or Tokenizer()
        self.splitter = splitter or SentenceSplitter()

    def features(self, document: Document) -> DocumentFeatures:
        """Sentences and their bags for one document (pure; cacheable)."""
        sentences = self.splitter.split(document.text)
        bags, counts = [], []
        for sentence in sentences:
            words = [t.text for t in self.tokenizer.tokenize(document.text, sentence.start, sentence.end)]
            bags.append(self.extractor.bag(words))
            counts.append(len(words))
        return DocumentFeatures(document.id, sentences, tuple(bags), tuple(counts))

    def detect(self, documents: Iterable[Document | DocumentFeatures]) -> Detection:
        """Every copied passage between any two of the documents."""
        docs = [self._as_features(d) for d in documents]
        index = self._index(docs)
        stats = QueryStats()
        found: dict[tuple[int, int], list[SentencePair]] = defaultdict(list)
        for key, entry in enumerate(index.sentences):
            for match in index.query(entry.bag, self.threshold, doc=entry.doc, below_key=key, stats=stats):
                other = index.sentences[match.key]
                _record(found, docs, (entry.doc, entry.sentence), (other.doc, other.sentence), match.score)
        return self._detection(docs, docs, found, index, stats, len(docs))

    def check(
        self,
        queries: Iterable[Document | DocumentFeatures],
        references: Iterable[Document | DocumentFeatures],
    ) -> Detection:
        """Passages of each query copied from any reference (A = query, B = reference)."""
        query_docs = [self._as_features(d) for d in queries]
        reference_docs = [self._as_features(d) for d in references]
        index = self._index(reference_docs)
        stats = QueryStats()
        found: dict[tuple[int, int], list[SentencePair]] = defaultdict(list)
        for q, doc in enumerate(query_docs):
            for s, bag in enumerate(doc.bags):
                for match in index.query(bag, self.threshold, stats=stats):
                    other = index.sentences[match.key]
                    found[(q, other.doc)].append(SentencePair(s, other.sentence, round(match.score, 6)))
        return self._detection(query_docs, reference_docs, found, index, stats, len(query_docs) + len(reference_docs))

    def _as_features(self, document: Document | DocumentFeatures) -> DocumentFeatures:
        return document if isinstance(document, DocumentFeatures) else self.features(document)

    def _index(self, docs: Sequence[DocumentFeatures]) -> FeatureIndex:
        index = FeatureIndex(max_postings=self.max_postings)
        for number, doc in enumerate(docs):
            for position, bag in enumerate(doc.bags):
                index.add(number, position, bag)
        return index

    def _detection(
        self,
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
        found: dict[tuple[int, int], list[SentencePair]],
        index: FeatureIndex,
        stats: QueryStats,
        documents: int,
    ) -> Detection:
        spans: list[Span] = []
        for (a, b), pairs in found.items():
            da, db = a_docs[a], b_docs[b]
            spans.extend(spans_for_documents(da.id, db.id, da.sentences, db.sentences, pairs, gap=self.gap))
        spans.sort(key=_span_order)
        run = RunStats(
            documents=documents,
            sentences=sum(len(d.sentences) for d in {id(d): d for d in (*a_docs, *b_docs)}.values()),
            candidate_pairs=stats.candidate_pairs,
            frequent_features=index.frequent_features(),
            skipped_postings=stats.skipped_postings,
        )
        return Detection(tuple(spans), run)


def _record(
    found: dict[tuple[int, int], list[SentencePair]],
    docs: Sequence[DocumentFeatures],
    first: tuple[int, int],
    second: tuple[int, int],
    score: float,
) -> None:
    # Orient every document pair the same way: A is the document with the smaller id.
    if (docs[first[0]].id, first[0]) > (docs[second[0]].id, second[0]):
        first, second = second, first
    found[(first[0], second[0])].append(SentencePair(first[1], second[1], round(score, 6)))


def _span_order(span: Span) -> tuple:
    return (span.a, span.b, span.a_start, span.b_start, span.a_end, span.b_end)
