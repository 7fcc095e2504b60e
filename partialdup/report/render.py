"""The report as one self-contained HTML file.

Jinja2 templates (``templates/`` beside this module) with autoescaping on:
every document id and every piece of document text reaches the page through
``{{ }}`` and is escaped, so a document holding ``<script>`` shows it as
text. The page loads nothing from elsewhere: the CSS and the small script
are inlined, and a Content-Security-Policy allows only that one script (by
its SHA-256) and no network at all, a second wall should markup ever slip
through.

Output is deterministic: the same report gives the same bytes (no dates,
everything in a fixed order).
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Sequence

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from partialdup.io.output import atomic_output
from partialdup.report.model import Mark, PairReport, Passage, Report, Row

__all__ = ["render_report", "write_report", "OPEN_PAIRS", "EXPAND_PAIRS", "PAGE_SIZE"]

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: A report with more document pairs than this starts with each collapsed
#: (the summary table is the way in); a smaller one starts with all open.
OPEN_PAIRS = 50
#: "Expand all" is offered up to this many pairs: opening more at once
#: takes the browser many seconds.
EXPAND_PAIRS = 300
#: Rows of the summary table per page (with scripts on; all rows without).
PAGE_SIZE = 100
#: A passage narrower than this on the document map is drawn this wide.
_MIN_MAP_WIDTH = 0.4
#: A lone surrogate: a file name's byte that is not UTF-8 (Python's
#: "surrogate escape"), which no UTF-8 file can hold.
_SURROGATE = re.compile("[\ud800-\udfff]")

#: A piece of a cell: ``(css class or "", text)``. "sep" is whitespace at a
#: row's edge: kept in the page (the highlight covers the passage exactly)
#: but not shown, since the row break stands for it.
Piece = tuple[str, str]


@dataclass(frozen=True, slots=True)
class _RowView:
    kind: str  # "paired" or "unpaired"
    label: str
    title: str
    a: list[Piece]
    b: list[Piece]


@dataclass(frozen=True, slots=True)
class _PassageView:
    anchor: str
    number: int
    passage: Passage
    rows: list[_RowView]
    a_before: str
    a_after: str
    b_before: str
    b_after: str
    a_map: tuple[float, float]  # left and width on the document map, in %
    b_map: tuple[float, float]


@dataclass(frozen=True, slots=True)
class _PairView:
    anchor: str
    number: int
    pair: PairReport
    passages: list[_PassageView]


def render_report(report: Report, *, open_pairs: int = OPEN_PAIRS, page_size: int = PAGE_SIZE) -> str:
    """The report as HTML.

    Args:
        report: The report (see :func:`partialdup.report.build_report`).
        open_pairs: Up to this many document pairs, every pair starts
            expanded; with more, every pair starts collapsed.
        page_size: Rows of the summary table per page.

    Returns:
        One HTML document, self-contained.
    """
    env = _environment()
    script, style = _asset("report.js"), _asset("report.css")
    html = env.get_template("report.html.j2").render(
        title=report.title,
        pairs=[_pair_view(number, pair, report.texts) for number, pair in enumerate(report.pairs, 1)],
        passages=report.passages,
        documents=len(report.texts),
        open_all=len(report.pairs) <= open_pairs,
        expandable=len(report.pairs) <= EXPAND_PAIRS,
        page_size=page_size,
        script=Markup(script),  # our own package files, not document text
        style=Markup(style),
        script_hash=_csp_hash(script),
    )
    if _SURROGATE.search(html):  # shown as the text \udce9 (ASCII: nothing to escape in HTML)
        html = html.encode("utf-8", "backslashreplace").decode("utf-8")
    return html


def write_report(report: Report, path: str | Path, **options: int) -> None:
    """Render the report and write it to ``path`` atomically.

    Rendered first, then written through :func:`partialdup.io.output.atomic_output`
    (a temporary file in the same folder that replaces ``path`` in one
    step): a reader never sees half a report, and a failed or interrupted
    run leaves the previous one intact.

    Args:
        report: The report.
        path: The HTML file to write.
        **options: ``open_pairs``, ``page_size`` (see :func:`render_report`).

    Raises:
        OutputError: The file cannot be written (the message names it).
    """
    html = render_report(report, **options)
    with atomic_output(path) as stream:
        stream.write(html)


@lru_cache(maxsize=1)
def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["percent"] = _percent
    return env


@lru_cache(maxsize=None)
def _asset(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8")


def _csp_hash(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


def _percent(share: float) -> str:
    """``0.4321`` -> ``"43.2%"``; a share above 0 never shows as 0.0%."""
    if 0 < share < 0.001:
        return "<0.1%"
    return f"{share * 100:.1f}%"


def _pair_view(number: int, pair: PairReport, texts: Mapping[str, str]) -> _PairView:
    anchor = f"pair-{number}"
    text_a, text_b = texts[pair.a], texts[pair.b]
    passages = [
        _passage_view(f"{anchor}-p{k}", k, passage, text_a, text_b) for k, passage in enumerate(pair.passages, 1)
    ]
    return _PairView(anchor, number, pair, passages)


def _passage_view(anchor: str, number: int, passage: Passage, text_a: str, text_b: str) -> _PassageView:
    span = passage.span
    return _PassageView(
        anchor=anchor,
        number=number,
        passage=passage,
        rows=[_row_view(row, text_a, text_b) for row in passage.rows],
        a_before=text_a[passage.a_context[0] : span.a_start].strip(),
        a_after=text_a[span.a_end : passage.a_context[1]].strip(),
        b_before=text_b[passage.b_context[0] : span.b_start].strip(),
        b_after=text_b[span.b_end : passage.b_context[1]].strip(),
        a_map=_map_place(span.a_start, span.a_end, len(text_a)),
        b_map=_map_place(span.b_start, span.b_end, len(text_b)),
    )


def _map_place(start: int, end: int, length: int) -> tuple[float, float]:
    if not length:
        return 0.0, 100.0
    width = max((end - start) * 100 / length, _MIN_MAP_WIDTH)
    left = min(start * 100 / length, 100 - width)
    return round(left, 3), round(width, 3)


def _row_view(row: Row, text_a: str, text_b: str) -> _RowView:
    pieces_a = _pieces(text_a, row.a_start, row.a_end, row.a_marks)
    pieces_b = _pieces(text_b, row.b_start, row.b_end, row.b_marks)
    if not row.pairs:
        return _RowView("unpaired", "", "inside the passage, but not paired with a sentence", pieces_a, pieces_b)
    return _RowView("paired", _label(row), _scores(row), pieces_a, pieces_b)


def _label(row: Row) -> str:
    """Sentence indices as in the JSONL: ``12 · 14``, or ``5–6 · 7`` for a sentence split in two."""
    sides = []
    for indices in ({p.a for p in row.pairs}, {p.b for p in row.pairs}):
        low, high = min(indices), max(indices)
        sides.append(f"{low}" if low == high else f"{low}–{high}")
    return " · ".join(sides)


def _scores(row: Row) -> str:
    return "; ".join(f"sentence {p.a} of A, {p.b} of B: score {p.score:.2f}" for p in row.pairs)


def _pieces(text: str, start: int, end: int, marks: Sequence[Mark]) -> list[Piece]:
    """``text[start:end]`` cut at the marks, with its edge whitespace hidden."""
    pieces: list[Piece] = []
    at = start
    for mark in marks:
        if mark.start > at:
            pieces.append(("", text[at : mark.start]))
        pieces.append((mark.kind, text[mark.start : mark.end]))
        at = mark.end
    if end > at:
        pieces.append(("", text[at:end]))
    return _hide_edges(pieces)


def _hide_edges(pieces: list[Piece]) -> list[Piece]:
    if pieces and pieces[-1][0] == "":
        text = pieces[-1][1]
        core = text.rstrip()
        if core != text:
            pieces[-1:] = ([("", core)] if core else []) + [("sep", text[len(core) :])]
    if pieces and pieces[0][0] == "":
        text = pieces[0][1]
        core = text.lstrip()
        if core != text:
            pieces[:1] = [("sep", text[: len(text) - len(core)])] + ([("", core)] if core else [])
    return pieces
