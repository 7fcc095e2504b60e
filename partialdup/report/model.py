"""What the HTML report shows, computed in plain Python (no HTML here).

Spans come grouped by document pair. Per pair: the share of A's characters
that lies in some copied passage (the *union* of the spans' A ranges, since
spans may overlap: a repeated line matches many places), the passages, and
a score. Per passage, *rows* that put the two sides next to each other:

* a *paired* row holds the sentences of one alignment step (one sentence
  pair, or the two halves of a sentence split in two on one side and the
  whole sentence on the other) with the character-level differences marked;
* an *unpaired* row holds text between them that the span covers but no pair
  names (a gap sentence, or an edge grown by *refine*).

The rows of a passage cover its text exactly on both sides, so the report
can highlight precisely ``text[a_start:a_end]``. Whitespace between sentences
joins the row before it (the report shows a row break there instead).

Character differences are taken on *folded* text, one character for one
(NFKC, case folding, Traditional to Simplified, every whitespace a space):
the same per-character normalisation as matching, so that a copy converted
to the other script or re-wrapped is not all marked as changed. Characters
that differ only by folding are marked as *variants*, the rest as *edits*.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Mapping, Sequence

from rapidfuzz.distance import Levenshtein

from partialdup.core.errors import InputError
from partialdup.core.types import Sentence, SentencePair, Span
from partialdup.text.sentences import SentenceSplitter
from partialdup.text.tokens import normalise_char
from partialdup.core.ranges import covered_chars

__all__ = [
    "Mark",
    "Row",
    "Passage",
    "PairReport",
    "Report",
    "build_report",
    "char_marks",
    "fold_text",
    "DEFAULT_TITLE",
    "CONTEXT_CHARS",
    "MAX_DIFF_CHARS",
]

DEFAULT_TITLE = "partialdup report"
#: At most this many characters of context around a passage, each side.
CONTEXT_CHARS = 200
#: Longer paired texts get no character marks: the diff is quadratic in the
#: worst case, and a row this long is no longer one sentence pair anyway.
MAX_DIFF_CHARS = 20_000
#: How far back (or on) a cut context may move to fall on whitespace.
_WORD_REACH = 20


@dataclass(frozen=True, slots=True)
class Mark:
    """Characters ``start..end`` (end exclusive) that differ from the other side.

    Attributes:
        start: First character (offset into the document text).
        end: One past the last character.
        kind: ``"edit"`` (inserted, deleted or replaced) or ``"variant"``
            (the same once folded: script, case, width).
    """

    start: int
    end: int
    kind: str


@dataclass(frozen=True, slots=True)
class Row:
    """One step of a passage's alignment, both sides (offsets into the texts).

    Attributes:
        a_start: First character of the row in A.
        a_end: One past its last character in A.
        b_start: First character of the row in B.
        b_end: One past its last character in B.
        pairs: The sentence pairs of the row; ``()`` for unpaired text.
        a_marks: Differing characters of A's side, sorted, not overlapping.
        b_marks: Differing characters of B's side.
    """

    a_start: int
    a_end: int
    b_start: int
    b_end: int
    pairs: tuple[SentencePair, ...] = ()
    a_marks: tuple[Mark, ...] = ()
    b_marks: tuple[Mark, ...] = ()


@dataclass(frozen=True, slots=True)
class Passage:
    """One span, as rows, with some context around it.

    Attributes:
        span: The span.
        rows: Rows covering ``span.a_start..a_end`` and ``span.b_start..b_end``.
        a_context: Where the context before the passage starts in A and where
            the context after it ends: ``text[a_context[0]:span.a_start]`` and
            ``text[span.a_end:a_context[1]]``.
        b_context: The same for B.
    """

    span: Span
    rows: tuple[Row, ...]
    a_context: tuple[int, int]
    b_context: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PairReport:
    """Everything copied between two documents.

    Attributes:
        a: Id of document A.
        b: Id of document B.
        a_length: Characters of A.
        b_length: Characters of B.
        a_copied: Characters of A inside some passage (union of the ranges).
        b_copied: Characters of B inside some passage.
        score: The passages' scores, each weighted by its length in A.
        passages: The passages, in the JSONL's order (by offsets).
    """

    a: str
    b: str
    a_length: int
    b_length: int
    a_copied: int
    b_copied: int
    score: float
    passages: tuple[Passage, ...]

    @property
    def a_share(self) -> float:
        """Share of A's characters copied, 0..1."""
        return self.a_copied / self.a_length if self.a_length else 0.0

    @property
    def b_share(self) -> float:
        """Share of B's characters copied, 0..1."""
        return self.b_copied / self.b_length if self.b_length else 0.0


@dataclass(frozen=True, slots=True)
class Report:
    """A whole report: the document pairs, most copied first.

    Attributes:
        pairs: One entry per document pair with spans, sorted by A's share
            copied (descending), then by the two ids.
        texts: The text of every document a pair names.
        title: The report's title.
    """

    pairs: tuple[PairReport, ...]
    texts: Mapping[str, str] = field(repr=False)
    title: str = DEFAULT_TITLE

    @property
    def passages(self) -> int:
        """Number of passages (spans) in the report."""
        return sum(len(pair.passages) for pair in self.pairs)


def build_report(
    spans: Sequence[Span],
    texts: Mapping[str, str],
    *,
    labels: Sequence[str] | None = None,
    splitter: SentenceSplitter | None = None,
    title: str = DEFAULT_TITLE,
) -> Report:
    """Group spans by document pair and work out what the report shows.

    Args:
        spans: The spans (from a detection or :func:`partialdup.report.read_spans`).
        texts: Document id -> text, the same texts the spans were found in.
        labels: Where each span came from, for error messages (e.g.
            ``"matches.jsonl:3"``); by default ``"span N"``.
        splitter: The sentence splitter of the run (its ``max_chars``
            decides the sentence indices that ``pairs`` refer to).
        title: The report's title.

    Returns:
        The report.

    Raises:
        InputError: A span names a document not in ``texts``, has offsets
            outside its text or a sentence index past its last sentence
            (the message starts with the span's label).
    """
    names = labels if labels is not None else [f"span {n}" for n in range(1, len(spans) + 1)]
    sentences = _SentenceCache(texts, splitter or SentenceSplitter())
    groups: dict[tuple[str, str], list[Span]] = defaultdict(list)
    for span, label in zip(spans, names, strict=True):
        _check(span, texts, sentences, label)
        groups[span.a, span.b].append(span)
    pairs = [_pair(a, b, group, texts, sentences) for (a, b), group in groups.items()]
    pairs.sort(key=lambda p: (-p.a_share, -p.b_share, p.a, p.b))
    used = {doc: texts[doc] for pair in pairs for doc in (pair.a, pair.b)}
    return Report(tuple(pairs), dict(sorted(used.items())), title)


#: A document's sentences, their starts and their ends (for bisection).
_Split = tuple[Sequence[Sentence], list[int], list[int]]


class _SentenceCache:
    """Each document's sentences and their offsets, split once, when first needed."""

    def __init__(self, texts: Mapping[str, str], splitter: SentenceSplitter) -> None:
        self._texts, self._splitter = texts, splitter
        self._done: dict[str, _Split] = {}

    def __call__(self, doc: str) -> _Split:
        """``(sentences, their starts, their ends)`` of a document."""
        found = self._done.get(doc)
        if found is None:
            split = self._splitter.split(self._texts[doc])
            found = self._done[doc] = (split, [s.start for s in split], [s.end for s in split])
        return found


def _check(span: Span, texts: Mapping[str, str], sentences: _SentenceCache, label: str) -> None:
    for side, doc, start, end in (("a", span.a, span.a_start, span.a_end), ("b", span.b, span.b_start, span.b_end)):
        if doc not in texts:
            raise InputError(
                f"{label}: no document {doc!r} among the {len(texts)} given "
                "(give the paths the run was given, so that the ids agree)"
            )
        length = len(texts[doc])
        if not 0 <= start <= end <= length:
            raise InputError(
                f"{label}: {side}_start..{side}_end {start}..{end} lies outside {doc!r} ({length} characters); "
                "are these the documents of the run?"
            )
    for pair in span.pairs:
        for doc, index in ((span.a, pair.a), (span.b, pair.b)):
            count = len(sentences(doc)[0])
            if index >= count:
                raise InputError(
                    f"{label}: sentence {index} of {doc!r} does not exist (it has {count}); "
                    "are these the documents and the --max-sentence-chars of the run?"
                )


def _pair(a: str, b: str, spans: list[Span], texts: Mapping[str, str], sentences: _SentenceCache) -> PairReport:
    # the JSONL's order, then anything else, so that any input order gives the same report
    spans.sort(key=lambda s: (s.a_start, s.b_start, s.a_end, s.b_end, -s.score, s.pairs))
    passages = tuple(_passage(s, texts[a], texts[b], sentences(a), sentences(b)) for s in spans)
    return PairReport(
        a=a, b=b, a_length=len(texts[a]), b_length=len(texts[b]),
        a_copied=covered_chars((s.a_start, s.a_end) for s in spans),
        b_copied=covered_chars((s.b_start, s.b_end) for s in spans),
        score=_weighted_score(spans),
        passages=passages,
    )


def _weighted_score(spans: Sequence[Span]) -> float:
    # by length: a long passage copied with edits says more than a short line copied whole
    weights = [max(s.a_end - s.a_start, 1) for s in spans]
    return sum(w * s.score for w, s in zip(weights, spans)) / sum(weights)



def _passage(span: Span, text_a: str, text_b: str, split_a: _Split, split_b: _Split) -> Passage:
    return Passage(
        span=span,
        rows=_rows(span, text_a, text_b, split_a[0], split_b[0]),
        a_context=_context(text_a, split_a, span.a_start, span.a_end),
        b_context=_context(text_b, split_b, span.b_start, span.b_end),
    )


def _groups(pairs: Sequence[SentencePair]) -> list[list[SentencePair]]:
    """Pairs in alignment steps: a new step starts where both sides move past the last.

    A sentence split in two on one side pairs twice with one sentence on the
    other, (5, 7) and (6, 7): one step, so that the whole sentence faces both
    halves.
    """
    groups: list[list[SentencePair]] = []
    last_a = last_b = -1
    for pair in sorted(pairs, key=lambda p: (p.a, p.b)):
        if groups and not (pair.a > last_a and pair.b > last_b):
            groups[-1].append(pair)
        else:
            groups.append([pair])
        last_a, last_b = max(last_a, pair.a), max(last_b, pair.b)
    return groups


def _rows(span: Span, text_a: str, text_b: str, sents_a: Sequence[Sentence], sents_b: Sequence[Sentence]) -> tuple[Row, ...]:
    rows: list[Row] = []
    at_a, at_b = span.a_start, span.b_start
    for group in _groups(span.pairs):
        a0, a1 = _clip(sents_a[min(p.a for p in group)].start, sents_a[max(p.a for p in group)].end, at_a, span.a_end)
        b0, b1 = _clip(sents_b[min(p.b for p in group)].start, sents_b[max(p.b for p in group)].end, at_b, span.b_end)
        _add_unpaired(rows, Row(at_a, a0, at_b, b0), text_a, text_b)
        marks_a, marks_b = char_marks(text_a[a0:a1], text_b[b0:b1])
        rows.append(Row(a0, a1, b0, b1, tuple(group), _shift(marks_a, a0), _shift(marks_b, b0)))
        at_a, at_b = a1, b1
    _add_unpaired(rows, Row(at_a, span.a_end, at_b, span.b_end), text_a, text_b)
    return tuple(rows)


def _clip(start: int, end: int, low: int, high: int) -> tuple[int, int]:
    """``start..end`` moved inside ``low..high`` (the span's edges may cut a sentence)."""
    start = min(max(start, low), high)
    return start, min(max(end, start), high)


def _add_unpaired(rows: list[Row], row: Row, text_a: str, text_b: str) -> None:
    if row.a_start == row.a_end and row.b_start == row.b_end:
        return
    blank = not text_a[row.a_start : row.a_end].strip() and not text_b[row.b_start : row.b_end].strip()
    if blank and rows:  # whitespace between sentences: the end of the row before
        rows[-1] = replace(rows[-1], a_end=row.a_end, b_end=row.b_end)
    else:
        rows.append(row)


def _shift(marks: Sequence[Mark], offset: int) -> tuple[Mark, ...]:
    return tuple(Mark(m.start + offset, m.end + offset, m.kind) for m in marks)


def _context(text: str, split: _Split, start: int, end: int) -> tuple[int, int]:
    """The sentence before a passage and the one after it, each cut to CONTEXT_CHARS.

    Where an edge of the passage cuts a sentence (refine trimmed it), the
    context is the rest of that sentence.
    """
    sentences, starts, ends = split
    before = bisect_left(starts, start) - 1  # the last sentence that starts before the passage
    first = sentences[before].start if before >= 0 else 0
    after = bisect_right(ends, end)  # the first sentence that ends after it
    last = sentences[after].end if after < len(sentences) else len(text)
    if start - first > CONTEXT_CHARS:
        first = _word_start(text, start - CONTEXT_CHARS)
    if last - end > CONTEXT_CHARS:
        last = _word_end(text, end + CONTEXT_CHARS)
    return first, last


def _word_start(text: str, at: int) -> int:
    """``at``, or just after a nearby whitespace so that no word is cut."""
    space = text.find(" ", at, at + _WORD_REACH)
    return space + 1 if space >= 0 else at


def _word_end(text: str, at: int) -> int:
    space = text.rfind(" ", at - _WORD_REACH, at)
    return space if space >= 0 else at


class _FoldTable(dict[int, str]):
    """``str.translate`` table folding one character to one, filled on first use."""

    def __init__(self) -> None:
        super().__init__()
        import opencc  # imported here: only a report with a diff to show needs it

        self._converter = opencc.OpenCC("t2s")

    def __missing__(self, code: int) -> str:
        char = chr(code)
        if char.isspace():
            folded = " "
        else:
            folded = normalise_char(char, self._converter)
            if len(folded) != 1:  # a ligature or a format character: compare it as it is
                folded = char
        self[code] = folded
        return folded


_FOLD: list[_FoldTable] = []


def fold_text(text: str) -> str:
    """``text`` folded for comparison, one character for each character of ``text``.

    NFKC, case folding and Traditional to Simplified (as in matching, see
    :func:`partialdup.text.tokens.normalise_char`), and every whitespace
    character a space, so that a re-wrapped line is no difference.
    """
    if not _FOLD:
        _FOLD.append(_FoldTable())
    return text.translate(_FOLD[0])


def char_marks(a: str, b: str, fold: Callable[[str], str] = fold_text) -> tuple[tuple[Mark, ...], tuple[Mark, ...]]:
    """The characters in which two texts differ, on each side.

    The Levenshtein opcodes of the folded texts (rapidfuzz) give the edits;
    inside equal stretches, characters that differ before folding are
    variants. Differences in whitespace alone are not marked.

    Args:
        a: A's text (a sentence, or the sentences of one alignment step).
        b: B's text.
        fold: The one-for-one folding (:func:`fold_text`).

    Returns:
        ``(marks of a, marks of b)``, offsets into ``a`` and ``b``, sorted,
        adjacent marks of one kind merged.
    """
    if a == b or len(a) > MAX_DIFF_CHARS or len(b) > MAX_DIFF_CHARS:
        return (), ()
    marks_a: list[Mark] = []
    marks_b: list[Mark] = []
    for op in Levenshtein.opcodes(fold(a), fold(b)):
        if op.tag == "equal":
            _variants(a, b, op.src_start, op.dest_start, op.src_end - op.src_start, marks_a, marks_b)
        else:
            _add(marks_a, a, op.src_start, op.src_end, "edit")
            _add(marks_b, b, op.dest_start, op.dest_end, "edit")
    return tuple(marks_a), tuple(marks_b)


def _variants(a: str, b: str, i: int, j: int, length: int, marks_a: list[Mark], marks_b: list[Mark]) -> None:
    if a[i : i + length] == b[j : j + length]:
        return  # the common case: nothing to look at character by character
    for k in range(length):
        if a[i + k] != b[j + k]:
            _add(marks_a, a, i + k, i + k + 1, "variant")
            _add(marks_b, b, j + k, j + k + 1, "variant")


def _add(marks: list[Mark], text: str, start: int, end: int, kind: str) -> None:
    if start == end or text[start:end].isspace():
        return
    if marks and marks[-1].end == start and marks[-1].kind == kind:
        marks[-1] = Mark(marks[-1].start, end, kind)
    else:
        marks.append(Mark(start, end, kind))
