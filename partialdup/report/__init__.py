"""The HTML report: copied passages side by side, in one self-contained file.

Three steps, each usable alone::

    from partialdup.report import build_report, read_span_lines, write_report

    located = read_span_lines("matches.jsonl")  # (file:line, Span) per line
    report = build_report([s for _, s in located], texts, labels=[w for w, _ in located])
    write_report(report, "report.html")

:mod:`partialdup.report.spans` reads the JSONL back into spans,
:mod:`partialdup.report.model` works out what to show (shares copied, rows
of aligned sentences, character differences) in plain Python, and
:mod:`partialdup.report.render` writes the HTML with Jinja2 templates.
"""

from partialdup.report.model import (
    DEFAULT_TITLE,
    Mark,
    PairReport,
    Passage,
    Report,
    Row,
    build_report,
    char_marks,
    fold_text,
)
from partialdup.report.render import render_report, write_report
from partialdup.report.spans import read_span_lines, read_spans, span_from_record

__all__ = [
    "DEFAULT_TITLE",
    "Mark",
    "PairReport",
    "Passage",
    "Report",
    "Row",
    "build_report",
    "char_marks",
    "fold_text",
    "render_report",
    "write_report",
    "read_span_lines",
    "read_spans",
    "span_from_record",
]
