"""The shared tail of the detector: sentence pairs -> spans -> refined, scored spans."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Sequence, overload

from partialdup.core.types import DocumentFeatures, SentencePair, Span
from partialdup.match.boilerplate import BoilerplateListing, boilerplate_verdict, crowd_documents
from partialdup.match.pair_rows import PairRows, PairsByDocuments, pair_key_rows
from partialdup.match.edited import supported, word_ratio
from partialdup.match.embedded import headline_edges
from partialdup.match.pairs import FoundPairs, SentenceKey, evident
from partialdup.match.refine import refine_spans
from partialdup.match.score import passage_similarity
from partialdup.match.chains import matchable_ranks
from partialdup.match.spans import spans_for_documents
from partialdup.pipeline.base import Detection
from partialdup.pipeline.edits import EditedStage
from partialdup.pipeline.lookup_results import Lookups
from partialdup.pipeline.sidework import Judged, edited_copies, judging, near_copies

__all__ = ["SpanStage", "PairEvidence", "PairJob", "PairJobs", "PairSpans", "PairRunner"]


@dataclass(frozen=True)
class PairEvidence:
    """What the look-ups found between two documents, on its own (picklable):
    the input of one document pair's spans.

    Attributes:
        pairs: The distinct sentence pairs (see
            :meth:`~partialdup.match.pairs.FoundPairs.distinct`), sorted.
        weak: (a, b) of the pairs found on few shared features.
        tentative: (a, b) of the pairs only ever recorded as tentative.
        words_only: (a, b) of the pairs that are copies on their words only.
    """

    pairs: tuple[SentencePair, ...]
    weak: frozenset[tuple[int, int]]
    tentative: frozenset[tuple[int, int]]
    words_only: frozenset[tuple[int, int]]

    @classmethod
    def of(cls, found: FoundPairs, a: int, b: int) -> PairEvidence:
        """The evidence ``found`` holds for documents number ``a`` and ``b``."""
        pairs = tuple(found.distinct((a, b)))

        def where(test: Callable[[tuple[int, int], tuple[int, int]], bool]) -> frozenset[tuple[int, int]]:
            return frozenset((p.a, p.b) for p in pairs if test((a, p.a), (b, p.b)))

        return cls(pairs, where(found.is_weak), where(found.is_tentative), where(found.is_words_only))


@dataclass(frozen=True)
class PairJob:
    """One document pair's share of the tail.

    Attributes:
        a: Number of the A document (in the A documents).
        b: Number of the B document (in the B documents).
        evidence: What the look-ups found between them.
        a_ranks: Matchable sentences before each of A's (see
            :func:`~partialdup.match.chains.matchable_ranks`; boilerplate
            sentences do not count).
        b_ranks: The same for B.
    """

    a: int
    b: int
    evidence: PairEvidence
    a_ranks: tuple[int, ...]
    b_ranks: tuple[int, ...]


class PairJobs(Sequence[PairJob]):
    """The jobs of some document pairs, each made when it is read.

    Made by the calling process before they are handed out, the jobs of the
    English bench corpus (the word checks of their whole matches, their
    evidence and ranks) cost it about a second alone. A forked helper that
    inherits this object makes the jobs it takes itself. A job is a pure
    function of the run's state when it is read: reading it twice, in
    whichever process, makes it twice, the same.

    Args:
        keys: The document pairs (A number, B number), in order.
        make: Makes the job of a document pair.
        weights: Each job's share of the work (its records plus one), to cut
            them into pieces without making them.
    """

    def __init__(self, keys: Sequence[tuple[int, int]], make: Callable[[tuple[int, int]], PairJob], weights: Sequence[int]) -> None:
        self._keys = keys
        self._make = make
        self.weights = weights

    def __len__(self) -> int:
        return len(self._keys)

    @overload
    def __getitem__(self, index: int) -> PairJob: ...

    @overload
    def __getitem__(self, index: slice) -> list[PairJob]: ...

    def __getitem__(self, index: int | slice) -> PairJob | list[PairJob]:
        if isinstance(index, slice):
            return [self._make(key) for key in self._keys[index]]
        return self._make(self._keys[index])


@dataclass(frozen=True)
class PairSpans:
    """One document pair's spans, refined (``known``: both texts were known
    and refining is on) and scored."""

    known: bool
    spans: tuple[Span, ...]


#: Runs :meth:`SpanStage.pair_spans` for every job (in worker processes, on a
#: cluster), given the A and B documents, and returns the results in the
#: jobs' order.
PairRunner = Callable[[Sequence[DocumentFeatures], Sequence[DocumentFeatures], Sequence[PairJob]], Sequence[PairSpans]]


class SpanStage(EditedStage):
    """Pairs to spans, the same for ``detect`` and ``check``."""

    def _spans(
        self,
        lookups: Lookups,
        found: FoundPairs,
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
        *,
        keep: Callable[[int, int], bool] | None = None,
        runner: PairRunner | None = None,
        boilerplate_spans: bool,
        judged: Judged | None = None,
    ) -> Detection:
        """Sentence pairs from the look-ups (whole matches, near misses whose
        characters agree, rejoined sentences), then spans of the document
        pairs ``keep`` accepts (all when None), each pair's by ``runner``
        (here, one after the other, when None); the spans of the boilerplate
        pairs too when ``boilerplate_spans``. ``judged``: an engine's way to
        judge the near misses and edited copies on other cores (see
        :mod:`partialdup.pipeline.sidework`; here when None). The near
        misses' and loose candidates' arrays are let go once judged
        (:meth:`Lookups.release_judged`)."""
        # The headlines' hits first (detect's, left for now by the look-ups),
        # while the near misses' helper ends its pieces; they read the near misses.
        quoted = lookups.embedded_copies()
        edited = self._edited
        if edited is not None and lookups.edited_verdicts is not None:
            # Judged first, while the near misses' helper ends its pieces
            # (whose verdicts come next): neither needs the other (English
            # bench corpus: 0.17 s the calling process did alone after them).
            lookups.edited_verdicts()
        found.add_firm(lookups.whole)
        near: Iterable[tuple[SentenceKey, SentenceKey]] = []
        if self._near is not None:
            near = self._near.add_to(found, lookups.near, a_docs, b_docs, judged=judging(judged, near_copies, a_docs, b_docs),
                                     verdicts=lookups.near_verdicts)
        if edited is not None:
            self._add_edited(found, lookups.loose, a_docs, b_docs, judging(judged, edited_copies, a_docs, b_docs),
                             verdicts=lookups.edited_verdicts)
        lookups.release_judged()
        for host, other, score in quoted:
            if not found.has(host, other):
                found.add(host, other, score)
        found.add_rejoined_many(lookups.rejoined)
        # Boilerplate: decided once, on every pair of the run, over the whole
        # collection (before `keep`); its pairs are set apart, their spans built too.
        # Each stage counts apart (whole matches, near misses, edited copies, quotations).
        # The whole matches as rows (check's come as a list), for the rule and the word checks.
        whole = lookups.whole if isinstance(lookups.whole, PairRows) else PairRows.of_records(lookups.whole)
        stages = (whole, near, found.edited(), [(host, other) for host, other, _ in quoted])
        verdict = boilerplate_verdict(pair_key_rows(found, lookups.crowd_links), stages, self.config.boilerplate,
                                      one_collection=a_docs is b_docs, crowded=lookups.crowded)
        del stages, near  # counted; `found` holds its own rows of the near misses' copies
        verdict = verdict.with_crowded(lookups.crowded, crowd_documents(self.config.boilerplate))
        apart: FoundPairs | None = found.split_off(verdict.pair, verdict.pairs_of)
        if not boilerplate_spans:
            # Its pairs serve only their own spans: not held through the others'
            # (the English bench corpus's are 9 MB of rows).
            apart = None
        if keep is not None:
            for pairs in [found] if apart is None else [found, apart]:
                for a, b in list(pairs.by_documents):
                    if not keep(a, b):
                        del pairs.by_documents[(a, b)]
        # By document pair (as `found` stores them), for _judge_whole_words of
        # the pairs whose spans are built: made when a pair is asked for, most
        # pairs being boilerplate. Words are judged for edited copies only.
        whole_words = PairsByDocuments(whole if edited is not None else PairRows.of_records([]), found.order)
        skipping = replace(lookups, a_boilerplate=set(verdict.first), b_boilerplate=verdict.second_keys())
        detection = self._detection(a_docs, b_docs, found, skipping, whole_words, runner)
        listed = BoilerplateListing(verdict, a_docs)
        if apart is None or not apart.by_documents:
            return replace(detection, boilerplate_sentences=listed)
        set_apart = self._detection(a_docs, b_docs, apart, lookups, whole_words, runner)
        return replace(detection, boilerplate_spans=set_apart.spans, boilerplate_sentences=listed)

    def _judge_whole_words(
        self,
        whole: Sequence[tuple[SentenceKey, SentenceKey, bool]],
        found: FoundPairs,
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
    ) -> None:
        """The word checks of one document pair's whole matches (first,
        second, weak), when its spans are built: a weak one whose words
        agree is weak no longer (:meth:`_words_confirm`), one whose words
        disagree is tentative (:meth:`_words_disagree`). Done after
        boilerplate is set apart, as neither mark changes it: most whole
        matches of a run are boilerplate, and a pair's marks matter only to
        its spans (and marking twice marks the same). (Later stages pass
        over a pair already found, so no other record marks a whole match.)"""
        for first, second, weak in whole:
            da, i, db, m = a_docs[first[0]], first[1], b_docs[second[0]], second[1]
            if weak and self._words_confirm(da, i, db, m):
                found.mark_strong(first, second)
            if self._words_disagree(da, i, db, m):
                found.mark_tentative(first, second)

    def _detection(
        self,
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
        found: FoundPairs,
        lookups: Lookups,
        whole_words: PairsByDocuments,
        runner: PairRunner | None = None,
    ) -> Detection:
        a_boilerplate, b_boilerplate = lookups.a_boilerplate, lookups.b_boilerplate
        # Boilerplate sentences, like sentences too short to have features,
        # cannot be missed copies: they do not count towards a span's gap.
        cache: dict[tuple[int, int], tuple[int, ...]] = {}
        skipped = (_rows_by_document(a_boilerplate), _rows_by_document(b_boilerplate))

        def ranks(side: int, number: int, doc: DocumentFeatures) -> tuple[int, ...]:
            if (side, number) not in cache:
                flags = self.matchable_flags(doc)
                for row in skipped[side].get(number, ()):
                    flags[row] = False
                cache[(side, number)] = tuple(matchable_ranks(flags))
            return cache[(side, number)]

        def job(key: tuple[int, int]) -> PairJob:
            a, b = key
            self._judge_whole_words(whole_words.get(key, ()), found, a_docs, b_docs)
            return PairJob(
                a, b, PairEvidence.of(found, a, b), ranks(0, a, a_docs[a]), ranks(1, b, b_docs[b])
            )

        # Each job made by whichever process computes its spans (PairJobs).
        keys = list(found.by_documents)
        by_documents = found.by_documents
        jobs = PairJobs(keys, job, [len(by_documents[key]) + 1 for key in keys])
        # Each document pair's spans, refined and scored, on its own (in
        # worker processes or on a cluster when a runner says so); put
        # together in the order one process gives them.
        if runner is None:
            results: Sequence[PairSpans] = [self.pair_spans(a_docs[j.a], b_docs[j.b], j) for j in jobs]
        else:
            results = runner(a_docs, b_docs, jobs)
        refined = sorted((span for result in results if result.known for span in result.spans), key=_span_order)
        spans = [*refined, *(span for result in results if not result.known for span in result.spans)]
        spans.sort(key=_span_order)
        distinct = {id(d): d for d in (*a_docs, *b_docs)}.values()  # detect passes one list twice
        run = replace(
            lookups.stats, documents=len(distinct), sentences=sum(map(_sentence_count, distinct)),
            boilerplate_sentences=len(a_boilerplate),
        )
        return Detection(tuple(spans), run)

    def pair_spans(self, da: DocumentFeatures, db: DocumentFeatures, job: PairJob) -> PairSpans:
        """The spans of one document pair: sentence pairs that are evidence
        of a copy, chained into spans, refined (when both texts are known)
        and scored. A pure function of its arguments and the configuration:
        the unit of work that worker processes and clusters run."""
        spans = spans_for_documents(
            da.id, db.id, da.sentences, db.sentences, self._evident(job.evidence, (da, db)), gap=self.config.gap,
            a_ranks=job.a_ranks, b_ranks=job.b_ranks, fill=(da.bags, db.bags, self.threshold), beside=self._beside(da, db),
            agreement=self._agreement(da, db),
        )
        if da.text is None or db.text is None:  # spans of documents without their text keep their pairs' scores
            return PairSpans(False, tuple(spans))
        if self.config.refine:
            spans = list(refine_spans(spans, {da.id: da.text}, {da.id: da.sentences}, self.tokenizer.normalise,
                                      b_texts={db.id: db.text}, b_sentences={db.id: db.sentences}))
            if self.config.headlines:
                spans = headline_edges(spans, da.text, da.sentences, db.text, db.sentences, self.tokenizer.tokenize)
        return PairSpans(self.config.refine, tuple(self._scored(spans, da.text, db.text)))

    def _evident(self, evidence: PairEvidence, docs: tuple[DocumentFeatures, DocumentFeatures]) -> list[SentencePair]:
        """The pairs of two documents that are evidence of a copy (see
        :func:`partialdup.match.pairs.evident`): a pair sharing fewer than
        ``min_shared`` features needs a pair that could chain with it, within
        ``gap`` + 1 sentences, or characters that agree (see
        :meth:`partialdup.match.verify.NearMissCheck.confirmed`)."""
        pairs = list(evidence.pairs)
        da, db = docs
        if self._edited is not None:
            pairs = supported(
                pairs, lambda pair: (pair.a, pair.b) in evidence.tentative, reach=self.config.gap + 1,
                words_only=lambda pair: (pair.a, pair.b) in evidence.words_only,
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

        return evident(pairs, lambda pair: (pair.a, pair.b) in evidence.weak, agrees, reach=self.config.gap + 1)

    def _scored(self, spans: Sequence[Span], a_text: str, b_text: str) -> list[Span]:
        """Each span of two documents scored by how much of its passage is
        copied (see :mod:`partialdup.match.score`)."""
        normalise = self.tokenizer.normalise
        return [replace(span, score=passage_similarity(a_text[span.a_start : span.a_end], b_text[span.b_start : span.b_end], normalise))
                for span in spans]


def _span_order(span: Span) -> tuple:
    return (span.a, span.b, span.a_start, span.b_start, span.a_end, span.b_end)


def _rows_by_document(keys: Iterable[tuple[int, int]]) -> dict[int, list[int]]:
    """The sentences of ``keys`` (document, sentence), by document."""
    rows: dict[int, list[int]] = {}
    for number, row in keys:
        rows.setdefault(number, []).append(row)
    return rows


def _sentence_count(doc: DocumentFeatures) -> int:
    """A document's sentences; a stored reference tells how many without
    making them (``sentence_count``: a store's check counts thousands of
    candidates it never pairs)."""
    count: int | None = getattr(doc, "sentence_count", None)
    return len(doc.sentences) if count is None else count
