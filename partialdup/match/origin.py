"""One origin per query passage: drop spans that re-explain an explained passage.

When a reference document holds a passage twice, or two near-identical
passages (a paragraph revised in a later section, a command line repeated
with another argument), a copied passage of the query matches each of them.
Only one of those can be where the query's text came from, and reporting the
others would double-count the query's characters. Within each (query,
reference) document pair this stage keeps the longest span first and drops a
span whose query side lies mostly inside spans already kept.

It only makes sense where A is the query (``check``, ``pan``): in ``detect``
the two sides of a pair have no direction, and a passage of A quoted twice by B
is two real copies.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Sequence

from sortedcontainers import SortedList

from partialdup.core.types import Span

__all__ = ["single_origin", "DEFAULT_MAX_EXPLAINED"]

#: A span is dropped when more than this share of its query-side characters
#: is already covered by longer spans of the same document pair.
DEFAULT_MAX_EXPLAINED = 0.5


def single_origin(spans: Iterable[Span], *, max_explained: float = DEFAULT_MAX_EXPLAINED) -> list[Span]:
    """Keep, per (a, b) document pair, spans whose A side is not already explained.

    Args:
        spans: Spans of any number of document pairs, A being the query side.
        max_explained: Largest share (0..1) of a span's A-side characters that
            may lie inside longer kept spans of the same pair before it is
            dropped.

    Returns:
        The kept spans, in the order they were given.
    """
    if not 0.0 <= max_explained <= 1.0:
        raise ValueError("max_explained must lie in [0, 1]")
    by_pair: dict[tuple[str, str], list[int]] = defaultdict(list)
    span_list = list(spans)
    for position, span in enumerate(span_list):
        by_pair[(span.a, span.b)].append(position)
    kept: set[int] = set()
    for positions in by_pair.values():
        covered = _Coverage()
        for position in sorted(positions, key=lambda p: _strength(span_list[p])):
            span = span_list[position]
            length = span.a_end - span.a_start
            if length and covered.overlap(span.a_start, span.a_end) > max_explained * length:
                continue
            covered.add(span.a_start, span.a_end)
            kept.add(position)
    return [span for position, span in enumerate(span_list) if position in kept]


def _strength(span: Span) -> tuple:
    # Longest query side first, then the best score, then the reference side
    # closest in length (a verbatim copy over a revised repeat); the offsets make
    # the order total, so the result never depends on input order.
    a_length = span.a_end - span.a_start
    return (-a_length, -span.score, abs(span.b_end - span.b_start - a_length), span.a_start, span.b_start, span.b_end)


class _Coverage:
    """A union of half-open intervals kept as disjoint, sorted intervals."""

    def __init__(self) -> None:
        self._intervals: SortedList = SortedList()

    def _touching(self, start: int, end: int) -> Sequence[tuple[int, int]]:
        # Disjoint intervals sorted by start are also sorted by end, so those
        # touching [start, end) form one run beginning just before `start`.
        first = max(0, self._intervals.bisect_left((start, start)) - 1)
        found = []
        for interval in self._intervals.islice(first):
            if interval[0] > end:
                break
            if interval[1] >= start:
                found.append(interval)
        return found

    def overlap(self, start: int, end: int) -> int:
        """Characters of [start, end) already covered."""
        return sum(max(0, min(end, e) - max(start, s)) for s, e in self._touching(start, end))

    def add(self, start: int, end: int) -> None:
        """Cover [start, end), merging with the intervals it touches."""
        touching = self._touching(start, end)
        for interval in touching:
            self._intervals.remove(interval)
        low = min([start, *(s for s, _ in touching)])
        high = max([end, *(e for _, e in touching)])
        self._intervals.add((low, high))
