"""Character ranges: unions of ``[start, end)`` offsets, counted once.

A copied share is the union of passages, not their sum: a stretch copied
from three sources, or covered by two overlapping spans, counts once. The
terminal summary, the HTML report and the plagiarism job all measure it
here.
"""

from __future__ import annotations

from typing import Iterable

__all__ = ["merged", "covered_chars", "solid_chars"]


def merged(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The union of ``[start, end)`` ranges as sorted, disjoint ranges (empty ones dropped)."""
    union: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if end <= start:
            continue
        if union and start <= union[-1][1]:
            union[-1] = (union[-1][0], max(union[-1][1], end))
        else:
            union.append((start, end))
    return union


def covered_chars(ranges: Iterable[tuple[int, int]]) -> int:
    """Characters covered by the union of the ranges (overlaps counted once)."""
    return sum(end - start for start, end in merged(ranges))


def solid_chars(text: str, ranges: Iterable[tuple[int, int]]) -> int:
    """Characters of ``text`` that are not white space inside the union of the ranges."""
    return sum(len(text[start:end]) - sum(1 for char in text[start:end] if char.isspace()) for start, end in merged(ranges))
