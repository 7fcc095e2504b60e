"""Output: spans as JSONL records (the schema documented in the README)."""

from __future__ import annotations

import json
from typing import IO, Iterable

from partialdup.core.types import Span

__all__ = ["span_record", "write_jsonl", "span_line"]


def span_record(span: Span) -> dict[str, object]:
    """A span as the JSON object of the output schema (keys in schema order)."""
    return {
        "a": span.a,
        "b": span.b,
        "a_start": span.a_start,
        "a_end": span.a_end,
        "b_start": span.b_start,
        "b_end": span.b_end,
        "a_sentences": list(span.a_sentences),
        "b_sentences": list(span.b_sentences),
        "score": round(span.score, 6),
        "pairs": [[p.a, p.b, round(p.score, 6)] for p in span.pairs],
    }


def span_line(span: Span) -> str:
    """One JSONL line (no newline); UTF-8 text kept as is, byte-stable."""
    return json.dumps(span_record(span), ensure_ascii=False, separators=(", ", ": "))


def write_jsonl(spans: Iterable[Span], stream: IO[str]) -> int:
    """Write one line per span; returns how many were written."""
    count = 0
    for span in spans:
        stream.write(span_line(span) + "\n")
        count += 1
    return count
