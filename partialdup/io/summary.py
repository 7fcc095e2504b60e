"""A readable summary of the spans, for a terminal: one line per document pair.

Each line gives the two ids, how many passages, the share of each document
that was copied (characters inside a span, overlaps counted once, over the
document's characters) and the longest passage's beginning, cut to the
terminal's width (Chinese characters count two columns)::

    a.txt ↔ b.txt  3 passages, 62% / 40% copied: "The quick brown fox jumps…"

The pairs with the most copied come first. ``check`` writes ``query ← reference``
(A was copied from B). Offsets need JSONL (``-o FILE`` or ``--json``).
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from partialdup.core.types import Span
from partialdup.io.jsonl import printable
from partialdup.core.ranges import covered_chars

__all__ = ["PairSummary", "frequent_features_line", "summarise", "summary_lines"]


@dataclass(frozen=True)
class PairSummary:
    """What two documents share.

    Attributes:
        a: Id of document A (``check``: the query).
        b: Id of document B (``check``: the reference).
        passages: Spans between the two.
        a_share: Share of A's characters inside a span (0..1); None when
            A's text is not known (``check --db`` keeps no reference text).
        b_share: Share of B's characters inside a span, or None.
        excerpt: A's text of the longest span, white space runs made one space.
    """

    a: str
    b: str
    passages: int
    a_share: float | None
    b_share: float | None
    excerpt: str


def summarise(spans: Iterable[Span], texts: Mapping[str, str]) -> list[PairSummary]:
    """One summary per document pair, the most copied first.

    Args:
        spans: The run's spans.
        texts: Each document's text by id.
    """
    by_pair: dict[tuple[str, str], list[Span]] = defaultdict(list)
    for span in spans:
        by_pair[(span.a, span.b)].append(span)
    summaries = [_pair(a, b, pair_spans, texts) for (a, b), pair_spans in by_pair.items()]
    summaries.sort(key=lambda s: (-max(s.a_share or 0.0, s.b_share or 0.0), s.a, s.b))
    return summaries


def summary_lines(summaries: Sequence[PairSummary], documents: int, width: int = 100, *, arrow: str = "↔") -> list[str]:
    """The summary's lines, each at most ``width`` columns wide, and a last line of totals.

    Args:
        summaries: From :func:`summarise`.
        documents: How many documents were compared.
        width: The terminal's width in columns.
        arrow: Between the two ids: ``↔`` (detect) or ``←`` (check: A from B).
    """
    lines = []
    for s in summaries:
        head = (
            f"{printable(s.a)} {arrow} {printable(s.b)}  {s.passages} passage{'s' if s.passages != 1 else ''}, "
            f"{_percent(s.a_share)} / {_percent(s.b_share)} copied: "
        )
        room = width - _columns(head) - 2
        lines.append(f'{head}"{_cut(s.excerpt, room)}"' if room >= 10 else _cut(head.rstrip(": "), width))
    passages = sum(s.passages for s in summaries)
    if summaries:
        lines.append(
            f"{len(summaries)} document pair(s) share {passages} copied passage(s) among {documents} documents; "
            "-o FILE or --json gives them as JSONL with offsets"
        )
    else:
        lines.append(f"no copied passages among {documents} documents")
    return lines


def frequent_features_line(frequent_features: int, frequent_sentences: int, max_postings: int) -> str:
    """The run's note on the features too common to look up, in words a user reads.

    Args:
        frequent_features: Features held by more than ``max_postings``
            different sentences (identical sentences count once).
        frequent_sentences: Sentences holding one of them (0: not known).
        max_postings: The bound (``--max-postings``).
    """
    holding = f"the {frequent_sentences:,} sentence(s) holding them" if frequent_sentences else "sentences holding them"
    return (
        f"partialdup: {frequent_features:,} very common feature(s) (each in more than {max_postings:,} different "
        f"sentences) were not used to find copies; {holding} were matched only through their other features "
        "and to identical sentences (--max-postings N raises the bound, at more work)"
    )


def _pair(a: str, b: str, spans: Sequence[Span], texts: Mapping[str, str]) -> PairSummary:
    longest = max(spans, key=lambda s: (s.a_end - s.a_start, s.score))
    text_a, text_b = texts.get(a), texts.get(b)
    if text_a is not None:
        excerpt = " ".join(text_a[longest.a_start : longest.a_end].split())
    else:
        excerpt = " ".join((text_b or "")[longest.b_start : longest.b_end].split())
    return PairSummary(
        a, b, len(spans),
        _share([(s.a_start, s.a_end) for s in spans], text_a),
        _share([(s.b_start, s.b_end) for s in spans], text_b),
        excerpt,
    )


def _percent(share: float | None) -> str:
    return "?" if share is None else f"{share:.0%}"


def _share(intervals: list[tuple[int, int]], text: str | None) -> float | None:
    """Share of the text covered by the intervals (None when the text is unknown)."""
    if text is None:
        return None
    return min(1.0, covered_chars(intervals) / len(text)) if text else 0.0


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _cut(text: str, room: int) -> str:
    """The text, or its beginning and "…", in at most ``room`` columns."""
    if _columns(text) <= room:
        return text
    used, kept = 0, []
    for char in text:
        used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used > room - 1:
            break
        kept.append(char)
    return "".join(kept) + "…"
