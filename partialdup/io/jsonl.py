"""Output: spans as JSONL records (the schema documented in the README).

The output is always valid UTF-8. A document id that is not (a file name
whose bytes are not UTF-8, which Python holds as the lone surrogates
U+DC80-U+DCFF, "surrogate escapes") is written with JSON escapes for those
characters, ``\\udce9`` for the byte 0xE9: a JSON reader gets back the same
string, and ``os.fsencode`` of it gives back the file name's bytes.
"""

from __future__ import annotations

import json
import re
from json.encoder import encode_basestring
from typing import IO, Any, Iterable, Iterator

from partialdup.core.types import Span

__all__ = [
    "span_record", "write_jsonl", "write_jsonl_bytes", "span_line", "span_line_py", "SpanLines", "escape_surrogates",
    "printable", "jsonl_records",
]

_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_surrogates(line: str) -> str:
    """A JSON text with every lone surrogate written as its ``\\uXXXX`` escape."""
    return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", line)


def printable(name: str) -> str:
    """A name for a message or the terminal: a surrogate escape shown as ``\\xe9``."""
    return _SURROGATE.sub(_shown, name) if _SURROGATE.search(name) else name


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else "\ufffd"  # a byte, or any other lone surrogate


def jsonl_records(name: str, text: str) -> Iterator[tuple[str, Any, str | None]]:
    """The records of a JSONL text, blank lines passed over.

    Yields:
        ``(where, record, problem)``: ``where`` is ``name:line``; ``problem``
        is None, or ``"name:line:column: not valid JSON (...)"`` (and
        ``record`` None).
    """
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        where = f"{name}:{lineno}"
        try:
            yield where, json.loads(line), None
        except json.JSONDecodeError as error:
            yield where, None, f"{where}:{error.colno}: not valid JSON ({error.msg})"


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
    """One JSONL line (no newline); UTF-8 text kept as is, byte-stable; ids
    that are not valid UTF-8 escaped (see the module notes). The same line
    as :func:`span_line_py`, put together faster (:class:`SpanLines`)."""
    return SpanLines().line(span)


def span_line_py(span: Span) -> str:
    """:func:`span_line` by ``json.dumps`` of :func:`span_record`: the
    plain reference the fast path is held to (tests/io/test_jsonl.py)."""
    line = json.dumps(span_record(span), ensure_ascii=False, separators=(", ", ": "))
    return escape_surrogates(line) if _SURROGATE.search(line) else line


class SpanLines:
    """:func:`span_line` for many spans: each line put together from its
    fields, each document id encoded once (``json.dumps`` of a record per
    span, its dict and its encoder made anew each time, was 0.2 s of the
    English bench corpus's 10,000 lines, written after every other step).

    The pieces are those ``json.dumps`` writes: a string by the encoder it
    uses (``ensure_ascii=False``), an int and a float by ``int`` and
    ``float``'s ``repr``. A line with a score that is no float, or not
    finite (never made), is left to :func:`span_line_py`.
    """

    def __init__(self) -> None:
        self._ids: dict[str, str] = {}

    def line(self, span: Span) -> str:
        """One span's line, as :func:`span_line_py` writes it."""
        number = float.__repr__  # json's, for a float and its subclasses (NumPy's repr differs)
        try:
            score = number(round(span.score, 6))
            pairs = ", ".join([f"[{pair.a:d}, {pair.b:d}, {number(round(pair.score, 6))}]" for pair in span.pairs])
        except TypeError:  # a score that is no float: never made
            return span_line_py(span)
        if "n" in score or "n" in pairs:  # inf or nan, which json writes otherwise: never made
            return span_line_py(span)
        (a_first, a_last), (b_first, b_last) = span.a_sentences, span.b_sentences
        return (
            f'{{"a": {self._id(span.a)}, "b": {self._id(span.b)}, "a_start": {span.a_start:d}, "a_end": {span.a_end:d}, '
            f'"b_start": {span.b_start:d}, "b_end": {span.b_end:d}, "a_sentences": [{a_first:d}, {a_last:d}], '
            f'"b_sentences": [{b_first:d}, {b_last:d}], "score": {score}, "pairs": [{pairs}]}}'
        )

    def _id(self, doc_id: str) -> str:
        encoded = self._ids.get(doc_id)
        if encoded is None:
            # Only the ids hold text: escaping them escapes the line.
            encoded = encode_basestring(doc_id)
            encoded = self._ids[doc_id] = escape_surrogates(encoded) if _SURROGATE.search(encoded) else encoded
        return encoded


def write_jsonl(spans: Iterable[Span], stream: IO[str]) -> int:
    """Write one line per span; returns how many were written."""
    count = 0
    lines = SpanLines()
    for span in spans:
        stream.write(lines.line(span) + "\n")
        count += 1
    return count


def write_jsonl_bytes(spans: Iterable[Span], stream: IO[bytes]) -> int:
    """Write one UTF-8 line per span to a binary stream (standard output's
    buffer: UTF-8 whatever the locale says); returns how many were written."""
    count = 0
    lines = SpanLines()
    for span in spans:
        stream.write((lines.line(span) + "\n").encode("utf-8"))
        count += 1
    return count
