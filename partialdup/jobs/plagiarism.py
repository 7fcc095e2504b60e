"""Plagiarism check: how much of each query was copied, from which sources, where.

Built on the spans of ``check`` (A = query, B = source). Per query:

* the **share copied**: the non-white-space characters of the query that lie
  in the union of its copied spans, over all its non-white-space characters
  (a union, not a sum: a passage copied from three sources counts once, and
  a document copied whole reads 100 %);
* its **regions**: the copied stretches of the query, each listing every
  source passage it matches, so that one passage copied from several
  identical sources is one region listed with all of them;
* per **source**: its own share, passages and best score.

Template text among the sources is set apart, never hidden: the detector's
boilerplate rule (:mod:`partialdup.match.boilerplate`, in its ``check`` form)
takes a passage for a template when its copies lie in ``--boilerplate`` or
more *reference* documents (other queries never count), and its spans
(``Detection.boilerplate_spans``) become *common* regions here: listed with
their sources, not counted in the shares, their own share reported beside
(a paragraph of the GPL copied from one of five licences that hold it reads
"31 % copied, 22 % more is template text"). ``common`` can also set apart
any region found in that many sources.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from partialdup.core.ranges import solid_chars
from partialdup.core.types import Document, Span

__all__ = ["SourcePassage", "Region", "SourceSummary", "QueryReport", "plagiarism_reports", "EXCERPT_CHARS"]

#: Characters of each side shown as an excerpt.
EXCERPT_CHARS = 80


@dataclass(frozen=True, slots=True)
class SourcePassage:
    """A passage of the query copied from (or to) a passage of one source.

    Attributes:
        source: The source document's id.
        query_start: Offset of the passage in the query.
        query_end: One past its end in the query.
        source_start: Offset of the passage in the source.
        source_end: One past its end in the source.
        score: The span's score.
        query_excerpt: The passage's first characters in the query.
        source_excerpt: Its first characters in the source.
    """

    source: str
    query_start: int
    query_end: int
    source_start: int
    source_end: int
    score: float
    query_excerpt: str
    source_excerpt: str


@dataclass(frozen=True, slots=True)
class Region:
    """A copied stretch of the query: overlapping passages merged.

    Attributes:
        start: Offset of the region in the query.
        end: One past its end.
        passages: Every source passage inside it, by source id then offset.
        common: Template text set apart (not counted in the shares): its
            passages are boilerplate (found in ``--boilerplate`` or more
            sources), or it is found in ``common`` or more sources.
    """

    start: int
    end: int
    passages: tuple[SourcePassage, ...]
    common: bool = False

    @property
    def sources(self) -> tuple[str, ...]:
        """The distinct sources of the region, sorted."""
        return tuple(sorted({p.source for p in self.passages}))


@dataclass(frozen=True, slots=True)
class SourceSummary:
    """What one source contributed to a query.

    Attributes:
        source: The source's id.
        share: Share of the query's non-white-space characters copied from it.
        passages: Passages copied from it (common ones left out).
        best_score: The highest score among them.
    """

    source: str
    share: float
    passages: int
    best_score: float


@dataclass(frozen=True)
class QueryReport:
    """The plagiarism report of one query.

    Attributes:
        query: The query's id.
        share: Share of its non-white-space characters copied (union of its
            regions that are not common).
        regions: Its copied regions, in text order (common ones included).
        sources: One summary per source, the largest share first.
        common_share: Share of its non-white-space characters in common
            regions only (template text, not counted in ``share``).
    """

    query: str
    share: float
    regions: tuple[Region, ...]
    sources: tuple[SourceSummary, ...]
    common_share: float = 0.0


def plagiarism_reports(
    queries: Sequence[Document],
    references: Sequence[Document],
    spans: Iterable[Span],
    *,
    common: int = 0,
    boilerplate: Iterable[Span] = (),
) -> list[QueryReport]:
    """One report per query, in the order given.

    Args:
        queries: The checked documents (A of the spans).
        references: The sources (B of the spans).
        spans: The spans of ``check`` (queries against references).
        common: A region found in this many sources or more is common text:
            listed, not counted (0: off).
        boilerplate: The spans ``check`` set apart as boilerplate
            (``Detection.boilerplate_spans``): common regions, listed, not counted.
    """
    texts = {doc.id: doc.text for doc in references}
    query_texts = {doc.id: doc.text for doc in queries}
    by_query: dict[str, tuple[list[SourcePassage], list[SourcePassage]]] = {doc.id: ([], []) for doc in queries}
    for kind, found in enumerate((spans, boilerplate)):
        for span in found:
            if span.a in by_query:
                by_query[span.a][kind].append(_passage(span, query_texts[span.a], texts.get(span.b, "")))
    return [_report(doc, *by_query[doc.id], common) for doc in queries]


def _passage(span: Span, query_text: str, source_text: str) -> SourcePassage:
    return SourcePassage(
        span.b, span.a_start, span.a_end, span.b_start, span.b_end, span.score,
        _excerpt(query_text, span.a_start, span.a_end), _excerpt(source_text, span.b_start, span.b_end),
    )


def _excerpt(text: str, start: int, end: int) -> str:
    piece = " ".join(text[start:end].split())
    return piece if len(piece) <= EXCERPT_CHARS else piece[: EXCERPT_CHARS - 1] + "…"


def _report(query: Document, passages: list[SourcePassage], templates: list[SourcePassage], common: int) -> QueryReport:
    regions = _regions(passages, common)
    regions = sorted([*regions, *(replace(r, common=True) for r in _regions(templates, 0))], key=lambda r: (r.start, r.end, r.common))
    counted = [(r.start, r.end) for r in regions if not r.common]
    total = solid_chars(query.text, [(0, len(query.text))]) or 1
    copied = solid_chars(query.text, counted) / total
    everything = solid_chars(query.text, [(r.start, r.end) for r in regions]) / total
    summaries = []
    for source in sorted({p.source for r in regions if not r.common for p in r.passages}):
        mine = [p for r in regions if not r.common for p in r.passages if p.source == source]
        if mine:
            share = solid_chars(query.text, [(p.query_start, p.query_end) for p in mine]) / total
            summaries.append(SourceSummary(source, share, len(mine), max(p.score for p in mine)))
    summaries.sort(key=lambda s: (-s.share, s.source))
    return QueryReport(query.id, copied, tuple(regions), tuple(summaries), everything - copied)


def _regions(passages: list[SourcePassage], common: int) -> list[Region]:
    """Passages whose query sides overlap, grouped into regions in text order."""
    ordered = sorted(passages, key=lambda p: (p.query_start, p.query_end, p.source, p.source_start))
    groups: list[list[SourcePassage]] = []
    end = -1
    for passage in ordered:
        if groups and passage.query_start < end:
            groups[-1].append(passage)
            end = max(end, passage.query_end)
        else:
            groups.append([passage])
            end = passage.query_end
    regions = []
    for group in groups:
        members = tuple(sorted(group, key=lambda p: (p.source, p.source_start, p.query_start)))
        is_common = bool(common) and len({p.source for p in members}) >= common
        regions.append(Region(min(p.query_start for p in group), max(p.query_end for p in group), members, is_common))
    return regions
