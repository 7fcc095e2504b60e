"""Refinement: move the edges of a span to the characters that were copied.

A span is made of whole sentences: it starts where its first paired sentence
starts and ends where its last one ends. When the two sentences paired at an
edge differ much in length, the longer one holds the copy plus foreign text (a
heading pasted inline before a paragraph, one verse copied out of a sentence
running over two verse lines). This stage aligns the shorter sentence inside
the longer one, character by character, and moves the longer side's edge to
the aligned characters, so that character-level measures (PAN's plagdet) and
readers see the copied text only.

Alignment runs on normalised text (the tokenizer's NFKC, case folding and
Traditional to Simplified, see :meth:`partialdup.text.tokens.Tokenizer.normalise`)
with white space removed, so full/half width, script changes and re-wrapped
lines do not defeat it; every aligned character maps back to the offset of
its original character. Only the two edge pairs of a span are aligned, with
:func:`rapidfuzz.fuzz.partial_ratio_alignment` (the best-matching substring
of the longer text, scored 0..100 by normalised Indel similarity).

Two guards keep copied text in: text that would be cut off but continues the
copy in the other side's neighbouring sentence (a sentence of the other side
cut in two, of which only one half was paired) stays, and that neighbour
joins the span as far as it matches (this is looked at even when the two edge
sentences are of similar length, where nothing is trimmed); an edge that
would cut a Latin word moves to the nearer end of that word.

Edges that were not trimmed may grow outwards instead, over text of the
unpaired neighbouring sentences that is the same on both sides (see
:func:`_grown`): a heading copied without its section number, a line too short
to be paired. A refined span starts and ends on non-white-space characters
and is never empty. Its sentence indices, pairs and score are unchanged:
they still describe the copied sentence pairs. The stage is deterministic and cheap: two alignments
per span, of sentences of at most ``max_sentence_chars`` characters.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping, Sequence

from rapidfuzz import fuzz

from partialdup.core.types import Sentence, SentencePair, Span
from partialdup.match.compact import Compact, Normaliser, compact

__all__ = ["Normaliser", "DEFAULT_MIN_RATIO", "DEFAULT_MIN_SCORE", "refine_span", "refine_spans"]

#: The longer edge sentence must be at least this many times the shorter
#: (normalised, white space removed) for its edge to be trimmed. Below 1.5 the
#: extra text is under a third of the longer sentence: the size of the edits
#: of a light or natural copy (a reworded clause, an added word), which are
#: part of the copy; and since the aligned window has the shorter sentence's
#: length, trimming an edited copy of similar length would only shave off
#: its edited edge characters. From 1.5 on, a third or more of the longer
#: sentence has no counterpart: that is foreign text.
DEFAULT_MIN_RATIO = 1.5

#: Minimum ``partial_ratio`` (0..100, normalised Indel similarity of the best
#: window) of the shorter sentence inside the longer. Copies differing in
#: punctuation or a word score above 90 (width, script and line breaks are
#: normalised away); below 80, one character in five differs and the best
#: window's position no longer says where the copy lies.
DEFAULT_MIN_SCORE = 80.0

#: An edge grows over the common text of the neighbouring sentences only when
#: it has at least this many letters and digits (a few words of English, a
#: phrase of Chinese: shorter common endings, "的命令。" or "the system.", are
#: chance; symbols do not count, a rule line of "____" or "----" is layout
#: that any two documents share) ...
MIN_GROWTH = 12

#: ... and it goes at most this many sentences beyond the paired ones.
MAX_GROWTH_SENTENCES = 3

#: Edge sentences of similar length (below ``min_ratio``) are never cut, but
#: the longer one's text beyond the aligned window may still continue in the
#: other side's neighbouring sentence, which then joins the span; that text
#: needs at least this many letters and digits, since a shorter tail is only
#: the slack of aligning an edited copy.
MIN_REACH_LETTERS = 3


@dataclass(frozen=True, slots=True)
class _Cut:
    """Where the shorter sentence of an edge pair lies inside the longer one.

    Attributes:
        side: ``"a"`` or ``"b"``: the document holding the longer sentence.
        start: Document offset of the first aligned original character.
        end: Document offset one past the last aligned original character.
    """

    side: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class _Reach:
    """An edge that moves outwards: the longer sentence of an edge pair goes
    on beyond the shorter, and the shorter side's neighbouring sentence holds
    the copy of that excess (a sentence cut in two by a line break, of which
    only one half was paired).

    Attributes:
        side: ``"a"`` or ``"b"``: the document holding the shorter sentence.
        offset: Its new start (at a span's start) or end (at its end).
    """

    side: str
    offset: int


@dataclass(frozen=True, slots=True)
class _Side:
    """One document of a span: its name in the span (``"a"``/``"b"``), text and sentences.

    A side serves every span of its document within one refinement (one
    normaliser), so each sentence is made compact once, however many spans'
    edges look at it: a long document has thousands of spans.
    """

    name: str
    text: str
    sentences: Sequence[Sentence]
    memo: dict[int, Compact] = field(default_factory=dict, compare=False, repr=False)

    def compact(self, index: int, normalise: Normaliser) -> Compact:
        """The compact form of sentence ``index`` ('' outside the document)."""
        if not 0 <= index < len(self.sentences):
            return Compact("", ())
        if index not in self.memo:
            self.memo[index] = compact(self.text, self.sentences[index], normalise)
        return self.memo[index]


def refine_span(
    span: Span,
    text_a: str,
    text_b: str,
    a_sentences: Sequence[Sentence],
    b_sentences: Sequence[Sentence],
    normalise: Normaliser,
    *,
    min_ratio: float = DEFAULT_MIN_RATIO,
    min_score: float = DEFAULT_MIN_SCORE,
) -> Span:
    """Trim a span's edges to the characters aligned with the other side.

    At the span's first pair (smallest sentence of A) and its last pair, when
    one sentence is at least ``min_ratio`` times as long as the other and the
    shorter aligns inside it with a score of at least ``min_score``, the
    longer side's start (first pair) or end (last pair) moves to the aligned
    characters. A span of one pair may have both edges trimmed.

    Args:
        span: The span, as made by sequence matching.
        text_a: The text of document ``span.a``.
        text_b: The text of document ``span.b``.
        a_sentences: A's sentences (indexed by ``SentencePair.a``).
        b_sentences: B's sentences (indexed by ``SentencePair.b``).
        normalise: ``Tokenizer.normalise`` (see :data:`Normaliser`).
        min_ratio: Length ratio (longer / shorter, normalised, without white
            space) from which an edge pair is aligned.
        min_score: Minimum alignment score (0..100) for an edge to move.

    Returns:
        The refined span; ``span`` itself when no edge moves.
    """
    return _refined(span, _Side("a", text_a, a_sentences), _Side("b", text_b, b_sentences), normalise, min_ratio, min_score)


def _refined(span: Span, a: _Side, b: _Side, normalise: Normaliser, min_ratio: float, min_score: float) -> Span:
    # refine_span for a span whose two sides are given (and may be shared).
    if not span.pairs:
        return span
    text_a, text_b = a.text, b.text
    first, last = min(span.pairs), max(span.pairs)
    edges = {"a": [span.a_start, span.a_end], "b": [span.b_start, span.b_end]}
    head = _edge_cut(first, a, b, normalise, min_ratio, min_score, from_end=False)
    if isinstance(head, _Cut):
        _move_start(edges[head.side], head.start, _sentence_of(head.side, first, a, b))
    tail = _edge_cut(last, a, b, normalise, min_ratio, min_score, from_end=True)
    if isinstance(tail, _Cut):
        _move_end(edges[tail.side], tail.end, _sentence_of(tail.side, last, a, b))
    a_edges = _settled(edges["a"], (span.a_start, span.a_end), text_a)
    b_edges = _settled(edges["b"], (span.b_start, span.b_end), text_b)
    if isinstance(head, _Reach):
        a_edges, b_edges = _reached(head, a_edges, b_edges, from_end=False)
    if isinstance(tail, _Reach):
        a_edges, b_edges = _reached(tail, a_edges, b_edges, from_end=True)
    starts = _grown(span, a, b, normalise, from_end=False) if a_edges[0] == span.a_start and b_edges[0] == span.b_start else None
    ends = _grown(span, a, b, normalise, from_end=True) if a_edges[1] == span.a_end and b_edges[1] == span.b_end else None
    if starts is not None:
        a_edges, b_edges = (starts[0], a_edges[1]), (starts[1], b_edges[1])
    if ends is not None:
        a_edges, b_edges = (a_edges[0], ends[0]), (b_edges[0], ends[1])
    if a_edges == (span.a_start, span.a_end) and b_edges == (span.b_start, span.b_end):
        return span
    return replace(span, a_start=a_edges[0], a_end=a_edges[1], b_start=b_edges[0], b_end=b_edges[1])


def _reached(
    reach: _Reach, a_edges: tuple[int, int], b_edges: tuple[int, int], *, from_end: bool
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (A, B) edges with ``reach`` applied: its side's start or end moved
    outwards to ``reach.offset`` (never inwards)."""
    start, end = a_edges if reach.side == "a" else b_edges
    moved = (start, max(end, reach.offset)) if from_end else (min(start, reach.offset), end)
    return (moved, b_edges) if reach.side == "a" else (a_edges, moved)


def _grown(span: Span, a: _Side, b: _Side, normalise: Normaliser, *, from_end: bool) -> tuple[int, int] | None:
    """New (A, B) start, or end, taking in copied text of the unpaired neighbours.

    A copied passage often begins or ends with a sentence that was not
    paired: a heading that lost its number ("5.4.2. Safe low level network
    operations" / "Safe low level network operations"), a line too short to
    match, a first sentence whose host text runs into it. When the sentences
    just outside the span end alike (before a start) or begin alike (after
    an end), character for character in normalised form, over at least
    :data:`MIN_GROWTH` letters or digits and half of the shorter of the two, that
    common text is part of the copy and the edge moves out over it. A
    neighbour copied whole lets the edge go on to the next one, at most
    :data:`MAX_GROWTH_SENTENCES` sentences out.

    Returns:
        The moved (A, B) offsets, or None when nothing grows.
    """
    step = 1 if from_end else -1
    i, m = (span.a_sentences[1], span.b_sentences[1]) if from_end else (span.a_sentences[0], span.b_sentences[0])
    moved = None
    for _ in range(MAX_GROWTH_SENTENCES):
        i, m = i + step, m + step
        ca, cb = a.compact(i, normalise), b.compact(m, normalise)
        common = _common_length(ca.text, cb.text, from_end=not from_end)
        shared = ca.text[len(ca.text) - common :] if not from_end else ca.text[:common]
        if sum(map(str.isalnum, shared)) < MIN_GROWTH or 2 * common < min(len(ca.text), len(cb.text)):
            break
        if from_end:
            moved = (ca.origin[common - 1] + 1, cb.origin[common - 1] + 1)
        else:
            moved = (ca.origin[len(ca.text) - common], cb.origin[len(cb.text) - common])
        if common < len(ca.text) or common < len(cb.text):
            break
    return moved


def _common_length(x: str, y: str, *, from_end: bool) -> int:
    """Length of the common prefix of x and y (common suffix with ``from_end``)."""
    if from_end:
        x, y = x[::-1], y[::-1]
    count = 0
    for p, q in zip(x, y):
        if p != q:
            break
        count += 1
    return count


def refine_spans(
    spans: Iterable[Span],
    texts: Mapping[str, str],
    sentences: Mapping[str, Sequence[Sentence]],
    normalise: Normaliser,
    *,
    b_texts: Mapping[str, str] | None = None,
    b_sentences: Mapping[str, Sequence[Sentence]] | None = None,
    min_ratio: float = DEFAULT_MIN_RATIO,
    min_score: float = DEFAULT_MIN_SCORE,
) -> tuple[Span, ...]:
    """Refine every span (see :func:`refine_span`) and sort them again.

    Args:
        spans: Spans between the documents.
        texts: Document texts by id (both sides, unless ``b_texts`` is given).
        sentences: Document sentences by id (both sides, unless
            ``b_sentences`` is given).
        normalise: ``Tokenizer.normalise``.
        b_texts: Texts of the B documents when they form a separate
            collection (``check``: the references), whose ids may repeat A's.
        b_sentences: Sentences of the B documents, likewise.
        min_ratio: See :func:`refine_span`.
        min_score: See :func:`refine_span`.

    Returns:
        The refined spans, sorted by ``(a, b, a_start, b_start, a_end, b_end)``.
    """
    b_texts = texts if b_texts is None else b_texts
    b_sentences = sentences if b_sentences is None else b_sentences
    a_sides: dict[str, _Side] = {}
    b_sides: dict[str, _Side] = {}
    refined = []
    for span in spans:
        if span.a not in a_sides:
            a_sides[span.a] = _Side("a", texts[span.a], sentences[span.a])
        if span.b not in b_sides:
            b_sides[span.b] = _Side("b", b_texts[span.b], b_sentences[span.b])
        refined.append(_refined(span, a_sides[span.a], b_sides[span.b], normalise, min_ratio, min_score))
    refined.sort(key=lambda s: (s.a, s.b, s.a_start, s.b_start, s.a_end, s.b_end))
    return tuple(refined)


def _edge_cut(
    pair: SentencePair,
    a: _Side,
    b: _Side,
    normalise: Normaliser,
    min_ratio: float,
    min_score: float,
    *,
    from_end: bool,
) -> _Cut | _Reach | None:
    """Align the shorter sentence of an edge pair inside the longer one.

    ``from_end`` marks a span's last pair. Both texts are then reversed before
    aligning (the Indel score does not change), so that of equally good
    positions the last one wins at a span's end, as the first one does at its
    start: a repeated phrase never makes an edge trim more than it must.

    Returns a :class:`_Cut` of the longer sentence; a :class:`_Reach` when
    the text that would be cut off continues the copy in the shorter side's
    next sentence outwards (see :func:`_continues`), which then joins the
    span as far as it matches that text; None when the alignment is too
    weak, or the lengths are too close to cut (below ``min_ratio``) and
    nothing reaches.
    """
    a_text, b_text = a.compact(pair.a, normalise), b.compact(pair.b, normalise)
    if not a_text.text or not b_text.text:
        return None
    if len(a_text.text) >= len(b_text.text):
        longer_side, shorter, longer, other, other_index = a, b_text, a_text, b, pair.b
    else:
        longer_side, shorter, longer, other, other_index = b, a_text, b_text, a, pair.a
    trim = len(longer.text) >= min_ratio * len(shorter.text)
    found = _align(shorter.text, longer.text, min_score, from_end=from_end)
    if found is None:
        return None
    lo, hi = found
    cut_off = longer.text[hi:] if from_end else longer.text[:lo]
    if not trim and sum(map(str.isalnum, cut_off)) < MIN_REACH_LETTERS:
        return None
    outwards = other_index + 1 if from_end else other_index - 1
    beyond = other.compact(outwards, normalise)
    if _continues(cut_off, beyond.text, min_score, from_end=from_end):
        size = min(len(cut_off), len(beyond.text))
        offset = beyond.origin[size - 1] + 1 if from_end else beyond.origin[len(beyond.text) - size]
        return _Reach(other.name, _outer_edge(other.text, offset, other.sentences[outwards], from_end=from_end))
    if not trim:
        return None
    return _Cut(longer_side.name, longer.origin[lo], longer.origin[hi - 1] + 1)


def _outer_edge(text: str, offset: int, sentence: Sentence, *, from_end: bool) -> int:
    """An edge moved out to ``offset`` inside ``sentence``, finished off.

    The matched length is that of the other side's text, which an edit may
    have made a few characters shorter: an edge that cuts a Latin word moves
    on to the word's outer end, and one that leaves only punctuation and
    white space of the sentence outside takes them in.
    """
    if from_end:
        while offset < sentence.end and _in_word(text[offset - 1]) and _in_word(text[offset]):
            offset += 1
        return sentence.end if not any(map(str.isalnum, text[offset : sentence.end])) else offset
    while offset > sentence.start and _in_word(text[offset - 1]) and _in_word(text[offset]):
        offset -= 1
    return sentence.start if not any(map(str.isalnum, text[sentence.start : offset])) else offset


def _align(needle: str, haystack: str, min_score: float, *, from_end: bool) -> tuple[int, int] | None:
    """``[lo, hi)`` of the best match of ``needle`` in ``haystack`` scoring ``min_score``."""
    if from_end:
        needle, haystack = needle[::-1], haystack[::-1]
    found = fuzz.partial_ratio_alignment(needle, haystack, score_cutoff=min_score)
    if found is None or found.score < min_score or found.dest_end <= found.dest_start:
        return None
    if from_end:
        return len(haystack) - found.dest_end, len(haystack) - found.dest_start
    return found.dest_start, found.dest_end


def _continues(cut_off: str, beyond: str, min_score: float, *, from_end: bool) -> bool:
    """Whether the text to cut off is a copy of the adjoining neighbour sentence.

    The longer sentence may hold the copy of two sentences of the other side
    of which only one was paired (a verse line split off, a sentence cut at a
    changed punctuation mark). Then the cut-off text is copied too and the
    edge stays. The two are compared where they adjoin the copy: the first
    characters of the cut-off tail with the first of the next sentence (or
    the last characters of the cut-off head with the last of the previous
    one), over the length of the shorter of the two.
    """
    size = min(len(cut_off), len(beyond))
    if not size:
        return False
    if from_end:
        return fuzz.ratio(cut_off[:size], beyond[:size]) >= min_score
    return fuzz.ratio(cut_off[-size:], beyond[-size:]) >= min_score


def _sentence_of(side: str, pair: SentencePair, a: _Side, b: _Side) -> Sentence:
    return a.sentences[pair.a] if side == "a" else b.sentences[pair.b]


def _move_start(edges: list[int], start: int, sentence: Sentence) -> None:
    # Only a start lying in this sentence is its to move, and only inwards.
    if sentence.start <= edges[0] < sentence.end and start > edges[0]:
        edges[0] = start


def _move_end(edges: list[int], end: int, sentence: Sentence) -> None:
    if sentence.start < edges[1] <= sentence.end and end < edges[1]:
        edges[1] = end


def _settled(edges: list[int], original: tuple[int, int], text: str) -> tuple[int, int]:
    """Moved edges cleaned up (see :func:`_clean_start`), or the original ones
    if nothing moved or they would cross."""
    start, end = edges
    if start != original[0]:
        start = _clean_start(text, start, end, original[0])
    if end != original[1]:
        end = _clean_end(text, start, end, original[1])
    return (start, end) if original[0] <= start < end <= original[1] else original


def _clean_start(text: str, start: int, end: int, floor: int) -> int:
    """A moved start at the nearer end of a Latin word it cuts, past white space.

    The aligned window has the shorter sentence's length, so it may reach a
    character into the neighbouring text ("I|t seemed good") or stop short
    of the copy's first word ("C|opy"): the nearer word boundary (inwards on
    a tie, never before ``floor``) is taken. Han characters are words of
    their own and never moved over.
    """
    if floor < start < end and _in_word(text[start - 1]) and _in_word(text[start]):
        back, ahead = start, start
        while back > floor and _in_word(text[back - 1]):
            back -= 1
        while ahead < end and _in_word(text[ahead]):
            ahead += 1
        start = back if start - back < ahead - start or ahead == end else ahead
    while start < end and text[start].isspace():
        start += 1
    return start


def _clean_end(text: str, start: int, end: int, ceiling: int) -> int:
    """A moved end at the nearer end of a Latin word it cuts, before white space."""
    if start < end < ceiling and _in_word(text[end - 1]) and _in_word(text[end]):
        back, ahead = end, end
        while back > start and _in_word(text[back - 1]):
            back -= 1
        while ahead < ceiling and _in_word(text[ahead]):
            ahead += 1
        end = ahead if ahead - end < end - back or back == start else back
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _in_word(char: str) -> bool:
    # A letter or digit of an alphabetic script (Han characters are words of
    # their own; full-width Latin letters and digits count as Latin).
    return char.isalnum() and (char < "\u2e80" or "\uff10" <= char <= "\uff5a")
