"""The shared tail of the detector: sentence pairs -> spans -> refined, scored spans."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from partialdup.core.types import DocumentFeatures, RunStats, SentencePair, Span
from partialdup.index.sparse import ReferenceIndex
from partialdup.match.edited import supported, word_ratio
from partialdup.match.pairs import FoundPairs, evident
from partialdup.match.refine import refine_spans
from partialdup.match.score import passage_similarity
from partialdup.match.spans import matchable_ranks, spans_for_documents
from partialdup.pipeline.base import Detection
from partialdup.pipeline.edits import EditedStage
from partialdup.pipeline.lookups import Lookups

__all__ = ["SpanStage"]


class SpanStage(EditedStage):
    """Pairs to spans, the same for ``detect`` and ``check``."""

    def _spans(
        self,
        lookups: Lookups,
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

    def _detection(
        self,
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
        found: FoundPairs,
        index: ReferenceIndex,
        lookups: Lookups,
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


def _span_order(span: Span) -> tuple:
    return (span.a, span.b, span.a_start, span.b_start, span.a_end, span.b_end)
