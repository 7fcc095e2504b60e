"""Reading spans back from the JSONL that ``detect`` and ``check`` write.

The report needs the spans as :class:`~partialdup.core.types.Span` objects;
the JSONL (schema in the README, *Output (JSONL)*) holds exactly their
fields. Every malformed line is a user error naming ``file:line``, so a
hand-edited or truncated file is reported in one line, never a traceback.
Keys the schema does not know are ignored (a later version may add some).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from partialdup.core.errors import InputError
from partialdup.core.types import SentencePair, Span

__all__ = ["read_spans", "read_span_lines", "span_from_record"]

_OFFSETS = ("a_start", "a_end", "b_start", "b_end")


def read_spans(path: str | Path) -> tuple[Span, ...]:
    """The spans of a JSONL file, in file order.

    Args:
        path: A JSONL file written by ``partialdup detect`` or ``check``.

    Returns:
        One span per non-blank line.

    Raises:
        InputError: The file cannot be read, or a line is not a span (the
            message names ``file:line``).
    """
    return tuple(span for _, span in read_span_lines(path))


def read_span_lines(path: str | Path) -> tuple[tuple[str, Span], ...]:
    """Like :func:`read_spans`, each span with its ``file:line`` for later messages."""
    text = _read_utf8(Path(path))
    located = []
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(f"{where}: not valid JSON ({error.msg})") from None
        located.append((where, span_from_record(record, where)))
    return tuple(located)


def _read_utf8(path: Path) -> str:
    # Decoded here, not by partialdup.io's document reader: that one guesses
    # encodings for documents, while a JSONL of spans is always UTF-8.
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})") from None


def span_from_record(record: Any, where: str) -> Span:
    """A span from one decoded JSONL record.

    Args:
        record: The decoded JSON value of one line.
        where: ``file:line``, for the error message.

    Raises:
        InputError: A key is missing or has the wrong type or range.
    """
    if not isinstance(record, dict):
        raise InputError(f"{where}: expected a JSON object (a span), got {type(record).__name__}")
    a, b = (_string(record, key, where) for key in ("a", "b"))
    a_start, a_end, b_start, b_end = (_count(record, key, where) for key in _OFFSETS)
    for side, start, end in (("a", a_start, a_end), ("b", b_start, b_end)):
        if start > end:
            raise InputError(f"{where}: {side}_start {start} is after {side}_end {end}")
    return Span(
        a=a, b=b, a_start=a_start, a_end=a_end, b_start=b_start, b_end=b_end,
        a_sentences=_sentence_range(record, "a_sentences", where),
        b_sentences=_sentence_range(record, "b_sentences", where),
        score=_number(record.get("score"), "score", where),
        pairs=_pairs(record, where),
    )


def _string(record: dict[str, Any], key: str, where: str) -> str:
    value = record.get(key)
    if not isinstance(value, str):
        raise InputError(f"{where}: {key!r} must be a string (a document id), got {value!r}")
    return value


def _is_count(value: Any) -> bool:
    # bool is an int in Python, but true/false in the JSON is no offset
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _count(record: dict[str, Any], key: str, where: str) -> int:
    value = record.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"{where}: {key!r} must be a non-negative integer, got {value!r}")
    return value


def _number(value: Any, name: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{where}: {name} must be a number, got {value!r}")
    return float(value)


def _sentence_range(record: dict[str, Any], key: str, where: str) -> tuple[int, int]:
    value = record.get(key)
    if not (isinstance(value, list) and len(value) == 2 and all(map(_is_count, value)) and value[0] <= value[1]):
        raise InputError(f"{where}: {key!r} must be [first, last] sentence indices, got {value!r}")
    return value[0], value[1]


def _pairs(record: dict[str, Any], where: str) -> tuple[SentencePair, ...]:
    value = record.get("pairs")
    if not isinstance(value, list):
        raise InputError(f"{where}: 'pairs' must be a list of [i, m, score], got {value!r}")
    pairs = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 3 and _is_count(item[0]) and _is_count(item[1])):
            raise InputError(f"{where}: each pair must be [i, m, score] with sentence indices i, m; got {item!r}")
        pairs.append(SentencePair(item[0], item[1], _number(item[2], "a pair's score", where)))
    return tuple(pairs)
