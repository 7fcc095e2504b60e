"""The detector: documents in, duplicated spans out.

:class:`Detector` strings the stages together (sentences -> tokens -> features
-> index -> sentence pairs -> spans -> refined edges -> one origin per query
passage). It does no I/O: reading files and writing JSONL live in
:mod:`partialdup.io`, so other engines and front ends can wrap it.

``detect`` and ``check`` differ only in their look-ups (every document
against every other, or queries against a reference index); both hand them,
in one shape (:class:`~partialdup.pipeline.lookup_results.Lookups`), to one tail
(:mod:`partialdup.pipeline.tail`) that makes sentence pairs, spans, refined
edges and the run's statistics; the edited-copy stage is
:mod:`partialdup.pipeline.edits`, the shared state :mod:`partialdup.pipeline.base`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from functools import partial
from typing import Collection, Iterable, Iterator, Sequence, Union, cast

from partialdup.core.bags import FlatBags, PlacedBags
from partialdup.core.collector import collector_paused
from partialdup.core.heap import release_free_memory
from partialdup.core.types import Bag, Document, DocumentFeatures, Sentence, TokenizedDocument, held_text, sentence_offsets
from partialdup.index.dispatch import sentence_index_of
from partialdup.index.sparse import ReferenceIndex, SparseIndex
from partialdup.match.origin import single_origin
from partialdup.match.pairs import FoundPairs
from partialdup.pipeline.base import Detection, joined_bags, joined_keys
from partialdup.pipeline.lookup_results import Lookups
from partialdup.pipeline.lookups import LookupStage
from partialdup.pipeline.parallel import Engine, LocalEngine
from partialdup.pipeline.tail import SpanStage
from partialdup.pipeline.work_pieces import runs_reaching
from partialdup.text.sentences import rejoinable

__all__ = ["Detector", "Detection", "AnyDocument"]

# A quotation: text between 「」, “”, "" or '' (the single quotes not inside
# a word, where they are apostrophes), at least a few characters long.
_QUOTATION = re.compile(
    r"「([^「」\n]{4,})」|“([^“”\n]{4,})”|\"([^\"\n]{4,})\"|(?<!\w)'([^'\n]{8,})'(?!\w)"
)

# A quoted sentence ends with its terminator inside the quotation marks
# (「…。」, “….”); a quoted title, path or command does not ("/var/lib/dpkg/",
# 第 6.3.5 节 “安装基本系统”), and is no copy of a line that holds the same words.
_SENTENCE_END = re.compile(r"[。！？!?.]\s*\Z")

# The first character of every quotation _QUOTATION finds.
_OPENERS = re.compile("[「“\"']")


def _holding_openers(text: str, sentences: Sequence[Sentence]) -> list[int]:
    """The sentences (indexes, in order) holding a character that opens a
    quotation: the only ones :data:`_QUOTATION` can find one in. One search
    over the text instead of one per sentence (most Chinese sentences hold
    none)."""
    places = [match.start() for match in _OPENERS.finditer(text)]
    if not places:
        return []
    starts, ends = sentence_offsets(sentences)
    holding: set[int] = set()
    for place in places:
        i = bisect_right(starts, place) - 1
        if i >= 0 and place < ends[i]:
            holding.add(i)
    return sorted(holding)


#: Sentences' words whose bags a detector keeps for the sentences that repeat
#: them (see :meth:`Detector._sentence_bag`): a few MB at most.
BAG_MEMO = 12_500

#: A quotation is looked up on its own when it is at most this share of its
#: sentence's characters (a sentence that is nearly all quotation is looked
#: up whole already).
QUOTE_MAX_SHARE = 0.85

#: Characters of the documents :meth:`Detector.features_many` tokenizes
#: together: their Han runs segmented in one call (per-call costs), their
#: working memory bounded. A process keeps the pages of its largest such part
#: to its end: 69 MB after one part of a million characters of the Chinese
#: bench corpus, 11 MB after one of 150,000 (a helper's first piece of
#: features is a million characters: docs/benchmark.md, session 65).
TOKENIZED_TOGETHER = 200_000

#: A document at any stage the detector can take it from.
AnyDocument = Union[Document, TokenizedDocument, DocumentFeatures]


class Detector(LookupStage, SpanStage):
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

    def tokenize(self, document: Document) -> TokenizedDocument:
        """Sentences and their normalised tokens (method-independent; cacheable)."""
        return self.tokenize_many([document])[0]

    def tokenize_many(self, documents: Sequence[Document]) -> list[TokenizedDocument]:
        """:meth:`tokenize` of each document, their sentences' words made
        together (:meth:`~partialdup.text.tokens.Tokenizer.sentence_words_many`:
        one segmenter call and one conversion of new words for all)."""
        split = [self.splitter.split(document.text) for document in documents]
        words = self.tokenizer.sentence_words_many(
            (document.text, [(s.start, s.end) for s in sentences]) for document, sentences in zip(documents, split))
        return [self._tokenized(document, sentences, tuple(tokens))
                for document, sentences, tokens in zip(documents, split, words)]

    def _tokenized(
        self, document: Document, sentences: Sequence[Sentence], tokens: tuple[tuple[str, ...], ...]
    ) -> TokenizedDocument:
        # A document's sentences and words, with its rejoined sentences and quotations.
        text = document.text
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
        for i in _holding_openers(text, sentences):
            sentence = sentences[i]
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
        bags = FlatBags.of(list(map(self._sentence_bag, document.tokens)))
        joins = PlacedBags.of([
            (i, bag)
            for i, words in (document.joins if self.config.rejoin else ())
            if len(words) >= self.config.min_tokens and (bag := self.method.bag(words))
        ])
        words = document.tokens if self._edited is not None or self.config.headlines else ()
        # Plain dicts: a stored document keeps these fields by name (marshal).
        quotes = tuple(
            (i, dict(bag)) for i, quoted in (document.quotes if self.config.quotes else ()) if (bag := self.method.bag(quoted))
        )
        return DocumentFeatures(
            document.id, document.sentences, bags, tuple(map(len, document.tokens)), document.text, joins, words, quotes
        )

    def _forget_memos(self, *, last: bool = False) -> None:
        """Forget the tokenizer's memos and the bags of words met before: the
        features are made, the memos only hold memory now, and a process
        forked later would keep their pages.

        ``last``: the caller ends its process after this run (it passes
        ``retain``), so the tokenizer's dictionaries go too, and the freed
        memory goes back to the system: 50 MB with rjieba (76 MB before
        OpenCC's merged ``s2twp``, session 46), where the
        Chinese bench corpus's look-ups reach the run's peak (docs/benchmark.md,
        session 32). Chinese text has them made again by the tail (the
        headlines' confirmations tokenize, once the look-ups' working memory
        is given back; session 51); letting them go lowered the peak even when
        they came back at the look-ups' end (session 47: zh 8x peaks 394-421
        MB, 427-444 MB kept).
        A caller that runs again keeps them: loading them again would cost
        it 0.2 s a run.
        """
        self.tokenizer.clear_cache()
        self._bags_of.clear()
        if last:
            self.tokenizer.unload()
            release_free_memory()

    def _sentence_bag(self, words: tuple[str, ...]) -> Bag:
        """The method's bag of a sentence's words, made once for words met
        before (a quarter of the Chinese bench corpus's sentences repeat
        another's words: boilerplate, templates, copies): the bag is made
        once for both (each document then holds its bags as arrays). Bags
        are never changed once made."""
        memo = self._bags_of
        bag = memo.get(words)
        if bag is None:
            if len(memo) >= BAG_MEMO:
                memo.clear()  # a bound, not a policy: the bags are the same either way
            bag = memo[words] = self.method.bag(words)
        return bag

    def features(self, document: Document | TokenizedDocument | DocumentFeatures) -> DocumentFeatures:
        """Run the stages a document still needs, up to its features."""
        if isinstance(document, DocumentFeatures):
            return document
        if isinstance(document, Document):
            document = self.tokenize(document)
        return self.fingerprint(document)

    def features_many(self, documents: Sequence[Document | TokenizedDocument | DocumentFeatures]) -> list[DocumentFeatures]:
        """:meth:`features` of each document, in order, the plain documents
        tokenized together (:meth:`tokenize_many`), :data:`TOKENIZED_TOGETHER`
        characters at a time: a worker's piece of work."""
        made: list[DocumentFeatures] = []
        # Cut by the texts' lengths (a packed text's, not inflated).
        lengths = [len(held_text(document) or "") for document in documents]
        for part in runs_reaching(documents, lengths, TOKENIZED_TOGETHER):
            plain = [document for document in part if isinstance(document, Document)]
            tokenized = iter(self.tokenize_many(plain))
            made += [self.features(next(tokenized) if isinstance(document, Document) else document) for document in part]
        return made

    def features_of(
        self, documents: Iterable[AnyDocument], *, engine: Engine | None = None, for_detect: bool = False,
    ) -> Iterable[DocumentFeatures]:
        """The features of each document, in order: :meth:`features` on
        ``config.jobs`` worker processes, or on ``engine`` (see
        :mod:`partialdup.pipeline.parallel`); yielded as they come when
        iterated (a progress bar can count them). ``for_detect``: they go to
        :meth:`detect` on the same engine, which then sends its side
        searches to processes started with the features (see
        :meth:`~partialdup.pipeline.parallel.Engine.apart`)."""
        return (engine or self.local_engine()).features(self, documents, apart=for_detect)

    def local_engine(self) -> Engine:
        """The engine used when none is given: ``config.jobs`` local worker
        processes. (``config.engine`` is read by
        :func:`partialdup.engine.open_engine`, a layer above: the command
        line opens the engine it names and passes it in.)"""
        return LocalEngine(self.config.jobs)

    def detect(
        self, documents: Iterable[AnyDocument], *, engine: Engine | None = None, boilerplate_spans: bool = False,
        retain: list[object] | None = None,
    ) -> Detection:
        """Every copied passage between any two of the documents.

        Args:
            documents: The documents, at any stage.
            engine: Where the features and the pair checks run (the same
                spans wherever): ``config.jobs`` local processes when None.
            boilerplate_spans: Also build the spans of the boilerplate pairs
                (``Detection.boilerplate_spans``); the sentences are listed
                either way. Off by default: a footer in every document makes
                a span for every pair of documents.
            retain: A list the run's working state (index, sentence pairs,
                look-ups) is appended to instead of being freed on return:
                for a caller that ends its process at once after the run
                (the command line), which saves freeing millions of objects
                one by one (0.15 to 0.18 s of a 35 s run on the English
                bench corpus). The tokenizer's dictionaries are let go once
                the features are made (the next tokenizing loads them again).
        """
        with collector_paused():  # millions of objects, no cycle (core/collector.py)
            return self._detect(documents, engine or self.local_engine(), boilerplate_spans, retain)

    def _detect(
        self, documents: Iterable[AnyDocument], engine: Engine, boilerplate_spans: bool, retain: list[object] | None = None
    ) -> Detection:
        docs = list(engine.features(self, documents, apart=True))
        lookups = self._detect_lookups(docs, engine, last=retain is not None)
        # The index and the searches' working arrays are freed: given back
        # now, not at the tail's first fork, they no longer add to the memory
        # the tail starts with (English bench corpus: 81 MB of the calling
        # process in a run measured; docs/benchmark.md, session 35).
        release_free_memory()
        # A is the document with the smaller id, whichever sentence was the query.
        place = [0] * len(docs)
        for rank, number in enumerate(sorted(range(len(docs)), key=lambda d: (docs[d].id, d))):
            place[number] = rank
        found = FoundPairs(order=place)
        if retain is not None:
            retain.extend((docs, found, lookups))
        return self._spans(
            lookups, found, docs, docs, runner=partial(engine.pair_spans, self), boilerplate_spans=boilerplate_spans,
            judged=partial(engine.judged, self),
        )

    def _detect_lookups(self, docs: Sequence[DocumentFeatures], engine: Engine, *, last: bool = False) -> Lookups:
        # The index and the side searches are needed by the look-ups only:
        # made here, they go on return, before the tail forks its workers
        # (docs/benchmark.md, session 24). The words' columns go once the
        # tail has judged the edited copies on them (lookups._loose_verdicts).
        # The word-set search and the headline candidates need only the
        # documents' words: numbered first, sent apart with their arrays,
        # they run beside the index and the feature searches.
        columns = self._word_columns(docs, engine.numbered_words(docs))
        # The memos go (``last``: see _forget_memos) once the side searches
        # are sent to the helpers forked as the reading started, which then wait
        # for no freeing; before, when the searches run beside, in a process
        # forked now that would keep the memos' pages.
        if columns is None:
            self._forget_memos(last=last)
        word_search, headline_search = self._side_searches(docs, columns, engine.beside, engine.apart)
        if columns is not None:
            self._forget_memos(last=last)
        index = self.build_index(docs, joins=False)
        return self._self_lookups(
            docs, index, engine.candidate_product, word_search=word_search, headline_search=headline_search, columns=columns,
            pieces_soon=engine.pieces_soon)

    def check(
        self, queries: Iterable[AnyDocument], references: Iterable[AnyDocument], *, engine: Engine | None = None,
        boilerplate_spans: bool = False, retain: list[object] | None = None,
    ) -> Detection:
        """Passages of each query copied from any reference (A = query, B = reference).

        ``engine``, ``boilerplate_spans`` and ``retain`` as in :meth:`check_against`.
        """
        engine = engine or self.local_engine()
        with collector_paused():  # millions of objects, no cycle (core/collector.py)
            reference_docs = list(engine.features(self, references))
            index = self.build_index(reference_docs)
            if retain is not None:
                retain.extend((reference_docs, index))
            return self.check_against(
                queries, reference_docs, index, engine=engine, boilerplate_spans=boilerplate_spans, retain=retain
            )

    def check_against(
        self,
        queries: Iterable[AnyDocument],
        references: Sequence[DocumentFeatures],
        index: ReferenceIndex,
        *,
        only_pairs: Collection[tuple[str, str]] | None = None,
        engine: Engine | None = None,
        boilerplate_spans: bool = False,
        retain: list[object] | None = None,
    ) -> Detection:
        """Query documents against an index built by :meth:`build_index`.

        Args:
            queries: The documents to check.
            references: The documents the index was built from, in its order.
            index: The reference index (reused across calls).
            only_pairs: When given, only these (query id, reference id) pairs
                are reported, as in PAN's pairs file.
            engine: Where the features and the pair checks run (the same
                spans wherever): ``config.jobs`` local processes when None.
            boilerplate_spans: Also build the spans of the boilerplate pairs
                (``Detection.boilerplate_spans``, the plagiarism job's common
                regions); the sentences are listed either way. Off by
                default, as in :meth:`detect`: a licence paragraph in the
                query pairs it with every stored document holding the
                licence, most of a check's spans at a million sentences.
            retain: As in :meth:`detect`: a list the run's working state is
                appended to instead of being freed on return, and the
                tokenizer's dictionaries let go once the queries' features
                are made.
        """
        with collector_paused():  # millions of objects, no cycle (core/collector.py)
            return self._check_against(
                queries, references, index, only_pairs, engine or self.local_engine(), boilerplate_spans, retain)

    def _check_against(
        self, queries: Iterable[AnyDocument], references: Sequence[DocumentFeatures], index: ReferenceIndex,
        only_pairs: Collection[tuple[str, str]] | None, engine: Engine, boilerplate_spans: bool,
        retain: list[object] | None = None,
    ) -> Detection:
        query_docs = list(engine.features(self, queries))
        self._forget_memos(last=retain is not None)
        keep = None
        if only_pairs is not None:
            keep = lambda q, r: (query_docs[q].id, references[r].id) in only_pairs  # noqa: E731
        lookups = self._query_lookups(query_docs, index, references, engine.candidate_product)
        if retain is not None:
            retain.extend((query_docs, lookups))
        detection = self._spans(
            lookups, FoundPairs(), query_docs, references, keep=keep, runner=partial(engine.pair_spans, self),
            boilerplate_spans=boilerplate_spans, judged=partial(engine.judged, self),
        )
        if not self.config.single_origin:
            return detection
        return replace(
            detection, spans=tuple(single_origin(detection.spans)), boilerplate_spans=tuple(single_origin(detection.boilerplate_spans))
        )

    def build_index(self, references: Sequence[DocumentFeatures], *, joins: bool = True) -> ReferenceIndex:
        """Index the sentences of reference documents (document number = position).

        Args:
            references: The documents to index.
            joins: Also index their rejoined sentences (``check`` looks whole
                query sentences up there; ``detect`` needs no such index).
        """
        documents, positions, bags = self._matchable_columns(references)
        joined_at = joined_keys(references) if joins else []
        # The method's search kind picks the index (inverted, permuted tables,
        # LSH bands, rescored word sets); all answer the same look-ups.
        held = partial(sentence_index_of, self.method, max_postings=self.config.max_postings, exact=self.config.exact,
                       rate=self.config.exact_rate)
        joined = held([d for d, _ in joined_at], [i for _, i in joined_at], joined_bags(references if joins else ()))
        return ReferenceIndex(cast(SparseIndex, held(documents.tolist(), positions.tolist(), bags)), cast(SparseIndex, joined))
