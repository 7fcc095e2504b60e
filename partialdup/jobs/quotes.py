"""Quotes in news: which earlier articles each article quotes, and where.

Articles come with a time (a JSONL ``time`` field). Every copied passage
between two articles is read as the later one *quoting* the earlier one
(equal times: the smaller id is taken as the earlier). For each quoted
passage the job names the **earliest** article holding it and the **chain**
of articles that carried it before, in time order, so that a statement
re-quoted by outlet after outlet traces back to where it first appeared.

The detector's boilerplate rule must be off here (``Config(boilerplate=0)``):
a statement quoted by many outlets is what this job is for, not noise.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from partialdup.core.errors import InputError
from partialdup.core.types import Document, Span

__all__ = ["Article", "Quote", "quotes", "article_time"]


@dataclass(frozen=True, slots=True)
class Article:
    """Where a passage stands in one article.

    Attributes:
        id: The article's id.
        time: Its ``time`` field as read.
        start: Offset of the passage in the article.
        end: One past its end.
        fields: The article's other fields (outlet, URL, ...), as read.
    """

    id: str
    time: Any
    start: int
    end: int
    fields: Mapping[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Quote:
    """A passage of a later article copied from an earlier one.

    Attributes:
        quoting: The later article's passage.
        quoted: The earlier article's passage it copies.
        score: The span's score.
        earliest: The earliest article holding the passage (``quoted`` when
            no earlier one does).
        chain: Every article holding the passage before ``quoting``, earliest
            first (``quoted`` among them).
    """

    quoting: Article
    quoted: Article
    score: float
    earliest: Article
    chain: tuple[Article, ...]

    def records(self) -> list[dict[str, Any]]:
        """The two JSONL records of this quote: seen from the quoting article, and from the quoted one."""
        def side(article: Article) -> dict[str, Any]:
            extra = {key: value for key, value in article.fields.items() if key != "time"}
            return {"id": article.id, "time": article.time, "start": article.start, "end": article.end, "fields": extra}

        chain = [side(a) for a in self.chain]
        return [
            {"direction": "quoting", **side(self.quoting), "source": side(self.quoted), "score": round(self.score, 6),
             "earliest": side(self.earliest), "chain": chain},
            {"direction": "quoted", **side(self.quoted), "by": side(self.quoting), "score": round(self.score, 6),
             "earliest": side(self.earliest), "chain": chain},
        ]


def article_time(document: Document) -> float:
    """A document's ``time`` field as seconds since the epoch, for ordering.

    Accepts a number (seconds) or an ISO 8601 string (``2024-05-01``,
    ``2024-05-01T08:30:00+08:00``; a time without a zone is taken as UTC).

    Raises:
        InputError: The field is missing or not a time (names the article).
    """
    value = document.fields.get("time")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value)
        except ValueError:
            raise InputError(f"{document.id}: 'time' is not an ISO 8601 time: {value[:40]!r}") from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=dt.timezone.utc)
        return moment.timestamp()
    raise InputError(f"{document.id}: expected a 'time' field (ISO 8601 or seconds), got {value!r}")


def quotes(articles: Sequence[Document], spans: Iterable[Span]) -> list[Quote]:
    """Every quote among the articles, by the quoting article's time, id and offset.

    Args:
        articles: The articles, each with a ``time`` field.
        spans: The spans of ``detect`` over them.

    Raises:
        InputError: An article has no usable time.
    """
    order = {doc.id: (article_time(doc), doc.id) for doc in articles}
    fields = {doc.id: doc.fields for doc in articles}
    found = []
    for span in spans:
        a = Article(span.a, fields[span.a].get("time"), span.a_start, span.a_end, fields[span.a])
        b = Article(span.b, fields[span.b].get("time"), span.b_start, span.b_end, fields[span.b])
        later, earlier = (a, b) if order[span.a] > order[span.b] else (b, a)
        found.append((later, earlier, span.score))
    result = [_traced(later, earlier, score, found, order) for later, earlier, score in found]
    result.sort(key=lambda q: (order[q.quoting.id], q.quoting.start, order[q.quoted.id], q.quoted.start))
    return result


def _traced(
    quoting: Article, quoted: Article, score: float, found: list[tuple[Article, Article, float]], order: dict[str, tuple[float, str]]
) -> Quote:
    """The chain of a quote: the articles earlier than ``quoting`` that share
    its passage (a copy of an overlapping stretch of ``quoting``)."""
    holders = {(quoted.id, quoted.start): quoted}
    for later, earlier, _ in found:
        for mine, other in ((later, earlier), (earlier, later)):
            if mine.id == quoting.id and mine.start < quoting.end and quoting.start < mine.end and order[other.id] < order[quoting.id]:
                holders.setdefault((other.id, other.start), other)
    chain = tuple(sorted(holders.values(), key=lambda article: (order[article.id], article.start)))
    return Quote(quoting, quoted, score, chain[0], chain)
