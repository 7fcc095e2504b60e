"""Sequence matching: chain copied sentence pairs into duplicated spans.

Within one document pair, a pair (i, m) continues a chain whose last pair is
(i', m') when both documents advance by at most ``gap + 1`` sentences (one
side may stay put, so a sentence split in two still chains). A passage whose
middle sentence was edited beyond recognition, inserted or dropped therefore
stays one span instead of two fragments.

Steps are counted in *matchable* sentences: a sentence that has no features
(too short to be matched on its own, such as an option line or a heading)
cannot be an unmatched copy, so any number of them may lie inside a span.
The chaining and the merging of chains that overlap are in
:mod:`partialdup.match.chains`; here, the spans: their alignment, the
sentences filled in between, further copies.
"""

from __future__ import annotations

import math
from functools import partial
from operator import sub
from typing import Callable, Sequence, overload

from partialdup.match.chains import ORDER as _ORDER, chain_pairs, merge_overlapping as _merge_overlapping
from partialdup.methods.similarity import bag_jaccard
from partialdup.core.types import Bag, Sentence, SentencePair, Span, sentence_offsets

__all__ = ["SPLIT_RATIO", "monotone_alignment", "spans_for_documents"]

#: A word check of two sentences (see :mod:`partialdup.match.edited`): True
#: or False, or None when it cannot judge them (the features decide).
Beside = Callable[[int, int], "bool | None"]

#: How well two sentences' words agree, 0-100 (a word ratio, see
#: :mod:`partialdup.match.edited`): breaks ties in the alignment.
Agreement = Callable[[int, int], float]

# The weight in the alignment of a pair whose bag-Jaccard is 0 (an edited
# sentence paired on its words, sharing no feature): it counts, barely.
_TINY = 1e-9

#: A sentence paired with two neighbours of the other side is taken for one
#: sentence split in two only when it holds this many times the characters of
#: each half: a split sentence is longer than its parts, while two template
#: lines of one length (``$XDG_CACHE_HOME`` / ``$XDG_DATA_HOME``) beside the
#: copy of one of them are no split. (Any factor from 1.1 to 2 gave the same
#: results on the gold set and the edit sets.)
SPLIT_RATIO = 1.2

# The weight of a pair's word agreement (0-100) in the alignment: at most
# 0.01, it decides only between alignments whose bag-Jaccards tie or nearly
# tie, for the pair whose words agree best (a verbatim twin, not the
# template sibling the features cannot tell from it).
_AGREEMENT_WEIGHT = 1e-4


def spans_for_documents(
    a_id: str,
    b_id: str,
    a_sentences: Sequence[Sentence],
    b_sentences: Sequence[Sentence],
    pairs: Sequence[SentencePair],
    *,
    gap: int = 3,
    a_ranks: Sequence[int] | None = None,
    b_ranks: Sequence[int] | None = None,
    fill: tuple[Sequence[Bag], Sequence[Bag], float] | None = None,
    beside: Beside | None = None,
    agreement: Agreement | None = None,
) -> list[Span]:
    """Turn the copied sentence pairs of documents A and B into spans.

    Args:
        a_id: Id of document A.
        b_id: Id of document B.
        a_sentences: A's sentences (indexed by ``SentencePair.a``).
        b_sentences: B's sentences (indexed by ``SentencePair.b``).
        pairs: Copied sentence pairs between them.
        gap: See :func:`chain_pairs`.
        a_ranks: See :func:`chain_pairs`.
        b_ranks: See :func:`chain_pairs`.
        fill: A's bags, B's bags and the threshold: when given, the sentences
            lying between two chained pairs and those just before and after a
            chain are paired up too (in order, when their bag-Jaccard reaches
            half the threshold), so that short lines and edited sentences of a
            copied passage appear among its pairs.
        beside: With ``fill``: the word check of two such sentences; where it
            judges (True or False), it decides instead of the bag-Jaccard, so
            that an edited sentence sharing no feature is paired and a
            template sentence sharing every one is not.
        agreement: How well the words of A's sentence i and B's sentence m
            agree (0-100), to break ties in the alignment (see
            :func:`monotone_alignment`); None: the later pair wins a tie.

    Returns:
        One span per chain, sorted by position in A then B.
    """
    align = _Memo(partial(
        monotone_alignment,
        lengths=(_Lengths(a_sentences), _Lengths(b_sentences)),  # no sentence made
        agreement=agreement,
    ))
    chained = partial(chain_pairs, gap=gap, a_ranks=a_ranks, b_ranks=b_ranks)
    chains = _merge_overlapping(_further_copies(_merge_overlapping(chained(pairs)), align, chained))
    if fill is not None:
        # Filling runs along the passage's alignment (a crossing stray pair
        # would hide the gap it lies in); the strays stay in the chain only to
        # hold the chains of one passage together while merging.
        chains = _merge_overlapping(
            [sorted(set(chain).union(_fill_between(align(chain), *fill, beside)), key=_ORDER) for chain in chains]
        )
    spans = []
    for chain in map(align, chains):
        first_a, last_a = min(p.a for p in chain), max(p.a for p in chain)
        first_b, last_b = min(p.b for p in chain), max(p.b for p in chain)
        spans.append(
            Span(
                a=a_id,
                b=b_id,
                a_start=a_sentences[first_a].start,
                a_end=a_sentences[last_a].end,
                b_start=b_sentences[first_b].start,
                b_end=b_sentences[last_b].end,
                a_sentences=(first_a, last_a),
                b_sentences=(first_b, last_b),
                score=math.fsum(p.score for p in chain) / len(chain),  # statistics.fmean, without its counting wrapper
                pairs=tuple(chain),
            )
        )
    spans.sort(key=lambda s: (s.a_start, s.b_start, s.a_end, s.b_end))
    return spans


def _further_copies(
    chains: list[list[SentencePair]], align: Callable[[list[SentencePair]], list[SentencePair]],
    chained: Callable[[list[SentencePair]], list[list[SentencePair]]],
) -> list[list[SentencePair]]:
    """The chains, less the pairs their alignment leaves out that lie beyond
    its passage in one document, which are chained on their own.

    A sentence of A copied twice into B a few sentences apart pairs with both
    copies, and both pairs may join one chain (within ``gap`` ranks of each
    other, and the ranks skip the boilerplate sentences between, which other
    documents decide). The alignment keeps one of them: the other is a
    further copy, outside the passage in B, and gets a span of its own (a
    stray inside the passage in both documents stays left out). So whether a
    repeated line is reported twice does not hang on the documents around.
    """
    out: list[list[SentencePair]] = []
    further: list[SentencePair] = []
    for pairs in chains:
        if _forward(pairs):  # the alignment keeps every pair (most chains)
            out.append(pairs)
            continue
        kept = align(pairs)
        a0, a1 = min(p.a for p in kept), max(p.a for p in kept)
        b0, b1 = min(p.b for p in kept), max(p.b for p in kept)
        beyond = {p for p in pairs if not (a0 <= p.a <= a1 and b0 <= p.b <= b1)}
        out.append([p for p in pairs if p not in beyond] if beyond else pairs)
        further.extend(beyond)
    return out + chained(sorted(further, key=_ORDER)) if further else out


class _Memo:
    """An alignment made once per chain: :func:`_further_copies` and the
    filling align the same chains (the alignment weighs each pair's words
    where the pairs cross)."""

    def __init__(self, align: Callable[[list[SentencePair]], list[SentencePair]]) -> None:
        self._align = align
        self._made: dict[tuple[SentencePair, ...], list[SentencePair]] = {}

    def __call__(self, chain: list[SentencePair]) -> list[SentencePair]:
        key = tuple(chain)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._align(chain)
        return made


def _forward(pairs: Sequence[SentencePair]) -> bool:
    """Whether pairs sorted by (a, b) go forward in both documents."""
    return all(p.a < q.a and p.b < q.b for p, q in zip(pairs, pairs[1:]))


_FILL_WINDOW = 32


def _fill_between(
    chain: list[SentencePair], a_bags: Sequence[Bag], b_bags: Sequence[Bag], threshold: float, beside: Beside | None = None
) -> list[SentencePair]:
    """Pair the unpaired sentences between consecutive pairs of a chain, in order,
    and the sentences just before and after the chain.

    Next to copied sentences, a sentence sharing half the features a copy
    needs is an edited copy, not a chance resemblance: inside a chain and at
    its two ends the threshold is halved. Where ``beside`` judges a pair on
    its words, its verdict decides instead.
    """
    threshold = threshold / 2
    chain = _extend_ends(chain, a_bags, b_bags, threshold, beside)
    filled = list(chain)
    for before, after in zip(chain, chain[1:]):
        next_b = before.b + 1
        for i in range(before.a + 1, after.a):
            # Look a bounded way ahead, so a long run of short lines stays linear.
            for m in range(next_b, min(after.b, next_b + _FILL_WINDOW)):
                score = _paired(a_bags, b_bags, i, m, threshold, beside)
                if score is not None:
                    filled.append(SentencePair(i, m, score))
                    next_b = m + 1
                    break
    return sorted(filled, key=_ORDER)


def _paired(a_bags: Sequence[Bag], b_bags: Sequence[Bag], i: int, m: int, threshold: float, beside: Beside | None) -> float | None:
    """The rounded bag-Jaccard of sentences i and m when they pair beside a
    span's pairs, else None."""
    score = bag_jaccard(a_bags[i], b_bags[m])
    verdict = beside(i, m) if beside is not None else None
    if verdict is None:
        verdict = score >= threshold
    return round(score, 6) if verdict else None


def _extend_ends(
    chain: list[SentencePair], a_bags: Sequence[Bag], b_bags: Sequence[Bag], threshold: float, beside: Beside | None = None
) -> list[SentencePair]:
    first, last = chain[0], chain[-1]
    before: list[SentencePair] = []  # collected backwards, reversed once
    while first.a > 0 and first.b > 0:
        score = _paired(a_bags, b_bags, first.a - 1, first.b - 1, threshold, beside)
        if score is None:
            break
        first = SentencePair(first.a - 1, first.b - 1, score)
        before.append(first)
    after: list[SentencePair] = []
    while last.a + 1 < len(a_bags) and last.b + 1 < len(b_bags):
        score = _paired(a_bags, b_bags, last.a + 1, last.b + 1, threshold, beside)
        if score is None:
            break
        last = SentencePair(last.a + 1, last.b + 1, score)
        after.append(last)
    return before[::-1] + chain + after


def monotone_alignment(
    pairs: Sequence[SentencePair],
    *,
    lengths: tuple[Sequence[int], Sequence[int]] | None = None,
    agreement: Agreement | None = None,
) -> list[SentencePair]:
    """The in-order subset of a passage's pairs with the highest total score.

    A sentence that recurs in a passage ("exit(EXIT_FAILURE);", a template
    line differing in one word) pairs with every occurrence on the other
    side; merged into one span, those pairs cross the passage's own pairs.
    The alignment of a copied passage goes forward in both documents, so only
    a chain of pairs is kept in which each pair follows the one before it in
    both documents, or repeats one of its sentences with the neighbour of the
    other (a sentence split in two: (i, m) then (i, m + 1), or (i, m) then
    (i + 1, m)); of those chains, the one with the largest sum of scores.
    A weighted longest increasing subsequence, O(n log n) with a Fenwick tree
    over b.

    Args:
        pairs: The pairs of one passage.
        lengths: The characters of each sentence of A and of B: when given, a
            split step needs the shared sentence to hold
            :data:`SPLIT_RATIO` times the characters of each half.
        agreement: How well the words of A's sentence i and B's sentence m
            agree (0-100): added to each pair's score, scaled down to at most
            0.01, so that of two alignments whose scores tie the one whose
            words agree better wins (else the one ending later).

    Returns:
        The kept pairs, sorted by (a, b).
    """
    ordered = sorted(set(pairs), key=_ORDER)
    splits = _SplitRule(*lengths) if lengths is not None else _ANY_SPLIT
    if _in_order(ordered, splits):
        return ordered  # already one chain: with positive scores, all of it is the best
    weights = [(p.score or _TINY) + (_AGREEMENT_WEIGHT * agreement(p.a, p.b) if agreement else 0.0) for p in ordered]
    return _best_alignment(ordered, splits, weights)


class _SplitRule:
    """Whether a sentence paired with two neighbouring sentences may be one
    sentence split in two (see :data:`SPLIT_RATIO`); any may when no lengths
    are known."""

    __slots__ = ("a_lengths", "b_lengths")

    def __init__(self, a_lengths: Sequence[int] | None, b_lengths: Sequence[int] | None) -> None:
        self.a_lengths, self.b_lengths = a_lengths, b_lengths

    def a_split(self, a: int, b: int) -> bool:
        """A's sentence ``a`` split over B's ``b - 1`` and ``b``."""
        return self.b_lengths is None or _holds_halves(self.a_lengths, a, self.b_lengths, b)

    def b_split(self, a: int, b: int) -> bool:
        """B's sentence ``b`` split over A's ``a - 1`` and ``a``."""
        return self.a_lengths is None or _holds_halves(self.b_lengths, b, self.a_lengths, a)


def _holds_halves(whole: Sequence[int] | None, at: int, halves: Sequence[int], second: int) -> bool:
    # Sentence `at` of one side holds SPLIT_RATIO times each of sentences
    # second - 1 and second of the other.
    return whole is None or whole[at] >= SPLIT_RATIO * max(halves[second - 1], halves[second])


_ANY_SPLIT = _SplitRule(None, None)


def _in_order(ordered: Sequence[SentencePair], splits: _SplitRule = _ANY_SPLIT) -> bool:
    """Whether sorted pairs form one chain as they stand (each follows the
    one before it, or splits one of its sentences), all with positive scores:
    most spans' pairs do, and need no search."""
    if any(p.score < 0 for p in ordered):
        return False
    return all(
        (p.a < q.a and p.b < q.b)
        or (q.a == p.a and q.b == p.b + 1 and splits.a_split(q.a, q.b))
        or (q.a == p.a + 1 and q.b == p.b and splits.b_split(q.a, q.b))
        for p, q in zip(ordered, ordered[1:])
    )


def _best_alignment(
    ordered: list[SentencePair], splits: _SplitRule = _ANY_SPLIT, weights: Sequence[float] | None = None
) -> list[SentencePair]:
    """:func:`monotone_alignment` of sorted, distinct pairs: the weighted
    longest increasing subsequence, O(n log n) with a Fenwick tree over b.
    ``weights``: each pair's weight (its score, or a tiny one for 0, when None)."""
    if len(ordered) < 2:
        return ordered
    if weights is None:
        weights = [p.score or _TINY for p in ordered]
    ranks = {b: rank for rank, b in enumerate(sorted({p.b for p in ordered}), 1)}
    tree: list[tuple[float, int]] = [(0.0, -1)] * (len(ranks) + 1)  # best (total, pair) ending at b <= rank
    ending: dict[tuple[int, int], tuple[float, int]] = {}  # best (total, pair) ending exactly at (a, b)
    previous: list[int] = [-1] * len(ordered)
    totals: list[float] = [0.0] * len(ordered)
    start = 0
    while start < len(ordered):  # one sentence of A at a time: its pairs see only earlier sentences in the tree
        stop = start
        while stop < len(ordered) and ordered[stop].a == ordered[start].a:
            stop += 1
        for k in range(start, stop):
            pair = ordered[k]
            best, i = (0.0, -1), ranks[pair.b] - 1  # strictly earlier in both documents
            while i > 0:
                best, i = max(best, tree[i]), i - (i & -i)
            # One sentence split in two: A's over B's b - 1 and b, or B's over A's a - 1 and a.
            if (pair.a, pair.b - 1) in ending and splits.a_split(pair.a, pair.b):
                best = max(best, ending[(pair.a, pair.b - 1)])
            if (pair.a - 1, pair.b) in ending and splits.b_split(pair.a, pair.b):
                best = max(best, ending[(pair.a - 1, pair.b)])
            totals[k], previous[k] = best[0] + weights[k], best[1]
            ending[(pair.a, pair.b)] = (totals[k], k)
        for k in range(start, stop):
            i = ranks[ordered[k].b]
            while i < len(tree):
                tree[i], i = max(tree[i], (totals[k], k)), i + (i & -i)
        start = stop
    k = max(range(len(ordered)), key=lambda j: (totals[j], j))
    kept = []
    while k >= 0:
        kept.append(ordered[k])
        k = previous[k]
    return kept[::-1]


class _Lengths(Sequence[int]):
    """Each sentence's length, read from its offsets when asked: made for
    every document pair, read only where its pairs cross or split a
    sentence (a list of every length, made for each pair, cost about as
    much as the alignments it served: 0.21 against 0.24 s of the English
    bench corpus's spans, cProfile)."""

    __slots__ = ("_starts", "_ends")

    def __init__(self, sentences: Sequence[Sentence]) -> None:
        self._starts, self._ends = sentence_offsets(sentences)

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return list(map(sub, self._ends[index], self._starts[index]))
        return self._ends[index] - self._starts[index]
