"""Thread reconciliation: merge the pages of a thread, keeping every repeated passage once.

A forum thread split over pages repeats itself: the first post shown on every
page, quoted earlier posts, headers and footers, pages that overlap at their
boundaries. :func:`merge_pages` reads the pages in reading order and drops,
from each page, the passages that repeat an *earlier* page, so that the
merged text holds each passage once, where it first appeared.

Only true repeats are dropped. A span the detector finds is a candidate; it
is dropped whole when the normalised letters of its two sides agree (rapidfuzz
``ratio`` at ``min_ratio``), and otherwise only those of its sentence pairs
whose two sentences agree so: two different posts that share a template
sentence (可读（r）权限允许所有者检查文件的内容 / …列出目录内的内容) pair by their
features but not by their letters, and both are kept.

The merged text is made of slices of the pages only (nothing is inserted), so
every character maps back to a page and an offset: :class:`Piece` records
that map, :class:`Dropped` every passage left out and what it repeats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from rapidfuzz import fuzz

from partialdup.core.types import Document, DocumentFeatures, Span
from partialdup.match.refine import Normaliser
from partialdup.match.score import letters, normalised_letters
from partialdup.pipeline.detector import Detector

__all__ = ["Piece", "Dropped", "Merge", "merge_pages", "DEFAULT_MIN_RATIO", "MIN_REPEAT_LETTERS"]

#: Least rapidfuzz ratio (0-100) of the normalised letters for a repeat: a
#: repeat on another page is the same text, up to width, script and spacing.
DEFAULT_MIN_RATIO = 95.0

#: Least letters and digits of a repeat inside a page (a repeated post or
#: quote); a shorter line said twice is kept (see :func:`_evidence`).
MIN_REPEAT_LETTERS = 20



@dataclass(frozen=True, slots=True)
class Piece:
    """A run of the merged text and where it comes from.

    Attributes:
        merged_start: Offset of the run in the merged text.
        merged_end: One past its end.
        page: Id of the page it was taken from.
        page_start: Offset of the run in that page.
        page_end: One past its end in that page.
    """

    merged_start: int
    merged_end: int
    page: str
    page_start: int
    page_end: int


@dataclass(frozen=True, slots=True)
class Dropped:
    """A passage left out of the merged text because an earlier page holds it.

    Attributes:
        page: Id of the page it was dropped from.
        start: Its offset in that page.
        end: One past its end.
        source_page: Id of the earlier page holding it.
        source_start: Where it stands there.
        source_end: One past its end there.
    """

    page: str
    start: int
    end: int
    source_page: str
    source_start: int
    source_end: int


@dataclass(frozen=True)
class Merge:
    """A merged thread.

    Attributes:
        text: The merged text: the pages' kept slices in reading order.
        pieces: Where each run of ``text`` comes from, in order.
        dropped: The passages left out, by page order then offset.
    """

    text: str
    pieces: tuple[Piece, ...]
    dropped: tuple[Dropped, ...]


def merge_pages(pages: Sequence[Document], detector: Detector, *, min_ratio: float = DEFAULT_MIN_RATIO) -> Merge:
    """Merge the pages of a thread, given in reading order.

    Args:
        pages: The pages, first page first; their ids must be distinct.
        detector: Finds the candidate repeats. Its boilerplate rule should
            be off (``Config(boilerplate=0)``): a first post repeated on
            every page is exactly what must be found.
        min_ratio: Least rapidfuzz ratio of the normalised letters of a
            repeat and what it repeats.

    Returns:
        The merged text, its map back to the pages and the dropped passages.
    """
    order = {page.id: number for number, page in enumerate(pages)}
    docs = [detector.features(page) for page in pages]
    by_id = {doc.id: doc for doc in docs}
    normalise = detector.tokenizer.normalise
    dropped: list[Dropped] = []
    for span in detector.detect(docs).spans:
        dropped.extend(_repeats(span, order[span.a] > order[span.b], by_id, normalise, min_ratio))
    dropped = [drop for drop in dropped if _evidence(drop, by_id[drop.page].text or "")]
    dropped.extend(_edge_repeats(pages))
    return _assemble(pages, _merged_ranges(dropped, order))


def _evidence(drop: Dropped, text: str) -> bool:
    """Whether a repeat inside a page is long enough to be a repeated passage.

    A short line said twice in a thread ("尝试下列例子", "Thanks!") is not a
    repeated post; repeats at a page's edges (headers, footers, overlapping
    page boundaries), however short, are found line by line by
    :func:`_edge_repeats`.
    """
    return len(letters(text[drop.start : drop.end])) >= MIN_REPEAT_LETTERS


def _edge_repeats(pages: Sequence[Document]) -> Iterable[Dropped]:
    """Whole lines at a page's edges that repeat another page's edge, however short.

    At a page's start: the lines that start the first page (a repeated
    header), then, after them, the lines that end the previous page (pages
    that overlap at their boundary). At its end: the lines that end the
    previous page (a footer).
    """
    for number in range(1, len(pages)):
        page, previous, first = pages[number], pages[number - 1], pages[0]
        lines = _lines(page.text)
        header = _edge_run(page, lines, first, _lines(first.text), page_start=True, source_start=True)
        skip = 0 if header is None else sum(1 for _, end in lines if end <= header.end)
        overlap = _edge_run(page, lines[skip:], previous, _lines(previous.text), page_start=True, source_start=False)
        footer = _edge_run(page, lines, previous, _lines(previous.text), page_start=False, source_start=False)
        yield from (drop for drop in (header, overlap, footer) if drop is not None)


def _edge_run(
    page: Document,
    lines: list[tuple[int, int]],
    source: Document,
    source_lines: list[tuple[int, int]],
    *,
    page_start: bool,
    source_start: bool,
) -> Dropped | None:
    """The longest run of whole lines at one edge of ``lines`` (lines of
    ``page``) equal, white space at line ends aside, to a run at one edge of
    ``source``, with at least one line that is not blank."""

    def run(spans: list[tuple[int, int]], size: int, start: bool) -> list[tuple[int, int]]:
        return spans[:size] if start else spans[len(spans) - size :]

    def text(doc: Document, spans: list[tuple[int, int]]) -> list[str]:
        return [doc.text[lo:hi].rstrip() for lo, hi in spans]

    best = 0
    for size in range(1, min(len(lines), len(source_lines)) + 1):
        mine = text(page, run(lines, size, page_start))
        if mine == text(source, run(source_lines, size, source_start)) and any(mine):
            best = size
    if not best:
        return None
    mine_run, theirs_run = run(lines, best, page_start), run(source_lines, best, source_start)
    return Dropped(page.id, mine_run[0][0], mine_run[-1][1], source.id, theirs_run[0][0], theirs_run[-1][1])


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of every line, its line break left out."""
    spans, start = [], 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        spans.append((start, start + len(body)))
        start += len(line)
    return spans


def _repeats(
    span: Span, a_is_later: bool, docs: dict[str, DocumentFeatures], normalise: Normaliser, min_ratio: float
) -> Iterable[Dropped]:
    """The parts of the later page's side of a span that repeat the earlier page's side."""
    later = (span.a, span.a_start, span.a_end) if a_is_later else (span.b, span.b_start, span.b_end)
    earlier = (span.b, span.b_start, span.b_end) if a_is_later else (span.a, span.a_start, span.a_end)
    (page, start, end), (source, source_start, source_end) = later, earlier
    doc, source_doc = docs[page], docs[source]
    text, source_text = doc.text or "", source_doc.text or ""
    if _agree(text[start:end], source_text[source_start:source_end], normalise, min_ratio):
        yield Dropped(page, start, end, source, source_start, source_end)
        return
    # Not a repeat as a whole (an edited neighbour was filled in, or a
    # template sentence paired): only its sentence pairs that agree.
    for pair in span.pairs:
        mine = doc.sentences[pair.a if a_is_later else pair.b]
        theirs = source_doc.sentences[pair.b if a_is_later else pair.a]
        lo, hi = max(mine.start, start), min(mine.end, end)
        source_lo, source_hi = max(theirs.start, source_start), min(theirs.end, source_end)
        if lo < hi and _agree(text[lo:hi], source_text[source_lo:source_hi], normalise, min_ratio):
            yield Dropped(page, lo, hi, source, source_lo, source_hi)


def _agree(first: str, second: str, normalise: Normaliser, min_ratio: float) -> bool:
    mine, theirs = normalised_letters(first, normalise), normalised_letters(second, normalise)
    if not mine or not theirs:
        return False
    return fuzz.ratio(mine, theirs, score_cutoff=min_ratio) >= min_ratio


def _merged_ranges(dropped: list[Dropped], order: dict[str, int]) -> list[Dropped]:
    """One record per dropped passage: overlapping drops of one page merged
    (the earliest source kept), sorted by page order then offset."""
    dropped.sort(key=lambda d: (order[d.page], d.start, -d.end, order[d.source_page], d.source_start))
    merged: list[Dropped] = []
    for drop in dropped:
        last = merged[-1] if merged else None
        if last is not None and last.page == drop.page and drop.start <= last.end:
            if drop.end > last.end:
                merged[-1] = Dropped(last.page, last.start, drop.end, last.source_page, last.source_start, last.source_end)
            continue
        merged.append(drop)
    return merged


def _assemble(pages: Sequence[Document], dropped: list[Dropped]) -> Merge:
    """The kept slices of every page, in order, with their map."""
    texts = {page.id: page.text for page in pages}
    by_page: dict[str, list[tuple[int, int]]] = {}
    for drop in dropped:
        end = _with_shared_space(drop, texts[drop.page], texts[drop.source_page])
        by_page.setdefault(drop.page, []).append((drop.start, end))
    parts: list[str] = []
    pieces: list[Piece] = []
    offset = 0
    for page in pages:
        for start, end in _kept(len(page.text), by_page.get(page.id, [])):
            parts.append(page.text[start:end])
            pieces.append(Piece(offset, offset + end - start, page.id, start, end))
            offset += end - start
    return Merge("".join(parts), tuple(pieces), tuple(dropped))


def _with_shared_space(drop: Dropped, text: str, source_text: str) -> int:
    """Where a dropped passage ends once the white space after it that the
    earlier page also has after it is counted in (the blank line closing a
    quoted post); the rest of the white space stays, so that the kept text
    around a drop keeps its own line breaks."""
    end, source_end = drop.end, drop.source_end
    while end < len(text) and source_end < len(source_text) and text[end] == source_text[source_end] and text[end].isspace():
        end, source_end = end + 1, source_end + 1
    return end


def _kept(length: int, removed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The complement of sorted, possibly overlapping ranges within [0, length)."""
    kept, at = [], 0
    for start, end in sorted(removed):
        if start > at:
            kept.append((at, start))
        at = max(at, end)
    if at < length:
        kept.append((at, length))
    return kept
