"""Edited copies: sentence pairs judged on their words, seeded and extended.

A copy whose words were edited (PAN's random obfuscation: per sentence, a
share of the words deleted, replaced, inserted or swapped with a neighbour)
breaks the feature chains: with one word in five changed, about half of a
Low-IDF-Sig sentence's chains are gone and its bag-Jaccard falls to about
1/3, below τ and often below the second look at τ / 2. Its words, though,
still agree: the rapidfuzz ``ratio`` (normalised Indel similarity) of the two
sentences' normalised token sequences stays at 80-90 for one word in five,
while unrelated sentences that share a chain score 20-50.

This stage works on candidates from two searches: the feature index at
:data:`CANDIDATE_JACCARD` (any shared feature) and the word-set search of
:mod:`partialdup.index.words` (sentences sharing a large part of their
words, for edited copies of which no feature chain survives):

* **seeds**: every such sentence pair of similar length is scored on its words; a
  pair reaching :attr:`~partialdup.core.config.Config.edited_ratio` (less
  :data:`LONG_RATIO_DROP` for long sentences) is a copy on its own when both
  sentences have :data:`MIN_ALONE_TOKENS` tokens and its numbers agree, unless
  one of its sentences pairs better with another (one sentence for one);
* **extension**: a pair scoring at least
  :attr:`~partialdup.core.config.Config.edited_neighbour_ratio` is a copy only
  beside a copied pair (within ``gap + 1`` sentences, in order on both sides:
  :func:`supported`); and between and around the pairs of a span, sentences
  that share no feature at all are paired on their words
  (:mod:`partialdup.match.spans`, ``fill``).

The same word check guards the pairs the features accept (*verification*):
Low-IDF-Sig chains start only at the *n* lowest-IDF tokens, so words between
chains are never compared, and two template sentences that differ in their
key words (可读（r）权限允许所有者检查文件的内容 / 可读（r）权限允许所有者列出目录内的内容,
word ratio 76) share every feature (bag-Jaccard 1.0). A pair of whole
sentences of similar length whose words agree below ``edited_ratio`` is
therefore kept only beside a pair that reaches it: a copied passage has such
pairs, a run of template sentences has none. Pairs whose sentence boundaries
differ (containment, embedded copies, rejoined sentences) have their own
checks on characters and are not judged here.

Words are the tokenizer's normalised tokens (NFKC, case folding, Traditional
to Simplified, one form for Taiwan and mainland wording: 位元組 and 字节 are
one word), so script and regional wording do not count as edits.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Sequence

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from partialdup.core.types import SentencePair

__all__ = [
    "CANDIDATE_JACCARD",
    "LONG_RATIO_DROP",
    "LONG_TOKENS",
    "MIN_ALONE_TOKENS",
    "PLACE_GAP",
    "TEMPLATE_PLACES",
    "WHOLE_LENGTH_RATIO",
    "EditedCheck",
    "SentenceNumbers",
    "differing_places",
    "is_number_word",
    "numbers_agree_of",
    "sentence_numbers",
    "supported",
    "word_ratio",
]

#: Candidates of the stage: pairs the index finds with at least this
#: bag-Jaccard (any shared feature of two sentences of up to 9 features).
CANDIDATE_JACCARD = 0.1

#: A pair is a copy on its words alone only when both sentences have at
#: least this many tokens: a line of three or four words agrees at 80 with
#: another that differs in one of them, and is a copy only beside another
#: pair.
MIN_ALONE_TOKENS = 5

#: A pair of long sentences (this many tokens or more on both sides), whose
#: words agree by chance far less often, is a copy on its own at
#: ``edited_ratio`` less :data:`LONG_RATIO_DROP` points: one word in three
#: changed leaves a 20-word sentence at 70-75.
LONG_TOKENS = 15
LONG_RATIO_DROP = 10.0

#: Two sentences are judged as whole copies of each other (and verified on
#: their words) when neither has this many times the other's tokens; beyond
#: it one side holds more than the copy (see :mod:`partialdup.match.refine`).
WHOLE_LENGTH_RATIO = 1.5


#: Two template sentences differ in their key words: in one to three places
#: of their letters (postrm / preinst; isolate rescue / start kexec;
#: /dev/loop0p1 /mnt/loop0p1 against /dev/mapper/loop0p2 /mnt/loop0p2). A
#: copy edited by hand, or garbled, differs in more places, scattered
#: (一些著名的由系统供的组允p其成员e不需要root… against …提供的组允许其成员
#: 不需要root…: five places). Of the 422 whole matches the word check vetoes
#: on the gold set, none whose letters agree at ``edited_ratio`` differs in
#: more than three places.
TEMPLATE_PLACES = 3

#: Differences fewer than this many equal letters apart are one place: a
#: word replaced by another aligns on the few letters they share by chance
#: (p·r·e·i·n·s·t against p·o·s·t·r·m).
PLACE_GAP = 3


def differing_places(first: str, second: str) -> int:
    """In how many places two strings differ: the runs of Indel edits that
    turn one into the other, those fewer than :data:`PLACE_GAP` equal
    characters apart counted as one."""
    places, last_end = 0, -PLACE_GAP
    for op in Indel.opcodes(first, second):
        if op.tag == "equal":
            continue
        if op.src_start - last_end >= PLACE_GAP:
            places += 1
        last_end = op.src_end
    return places


def word_ratio(first: Sequence[str], second: Sequence[str]) -> float:
    """rapidfuzz ``ratio`` (0-100) of two token sequences, each token one symbol."""
    if not first or not second:
        return 0.0
    if first == second:
        return 100.0
    return fuzz.ratio(first, second)


class EditedCheck:
    """Judges sentence pairs on their words (see the module notes).

    Args:
        ratio: Least word ratio of a pair that is a copy on its own, 0-100.
        neighbour_ratio: Least word ratio of a pair beside a copied pair.
    """

    def __init__(self, ratio: float, neighbour_ratio: float, min_alone: int = 0) -> None:
        if not (0.0 < ratio <= 100.0 and 0.0 <= neighbour_ratio <= 100.0):
            raise ValueError("ratio must lie in (0, 100] and neighbour_ratio in [0, 100]")
        self.ratio = ratio
        self.neighbour_ratio = min(neighbour_ratio, ratio)
        self.min_alone = min_alone or MIN_ALONE_TOKENS

    @staticmethod
    def whole(first: Sequence[str], second: Sequence[str]) -> bool:
        """Whether two sentences are of similar length (judged as wholes)."""
        shorter, longer = sorted((len(first), len(second)))
        return shorter > 0 and longer < WHOLE_LENGTH_RATIO * shorter

    def score(self, first: Sequence[str], second: Sequence[str]) -> float:
        """The word ratio of two sentences."""
        return word_ratio(first, second)

    def alone(self, first: Sequence[str], second: Sequence[str]) -> bool:
        """Whether two sentences' words agree enough for a copy on its own."""
        return word_ratio(first, second) >= self.ratio

    def alone_at(self, ratio: float, first: Sequence[str], second: Sequence[str]) -> bool:
        """Whether a pair whose words agree at ``ratio`` is a copy on its own:
        ``ratio`` reaches the threshold and both sentences are long enough;
        long sentences (:data:`LONG_TOKENS` tokens or more), whose chance
        agreement is lower, need :data:`LONG_RATIO_DROP` points less."""
        shorter = min(len(first), len(second))
        if shorter < self.min_alone:
            return False
        return ratio >= self.ratio - (LONG_RATIO_DROP if shorter >= LONG_TOKENS else 0.0)

    def alone_at_many(self, ratios: np.ndarray, shorter: np.ndarray) -> np.ndarray:
        """:meth:`alone_at` of many pairs, given each one's word ratio and the
        words of its shorter sentence (arrays): a boolean array."""
        least = np.where(shorter >= LONG_TOKENS, self.ratio - LONG_RATIO_DROP, self.ratio)
        return (shorter >= self.min_alone) & (ratios >= least)  # type: ignore[no-any-return]

    @staticmethod
    def numbers_agree(first: Sequence[str], second: Sequence[str]) -> bool:
        """Whether the numbers of one sentence all lie in the other (as a
        multiset): words may be deleted or inserted, but a sentence whose
        number was replaced by another (a section heading renumbered,
        "9.5.11. 使用 SMART 预测硬盘故障" / "9.6.11. …") says something else."""
        return numbers_agree_of(sentence_numbers(first), sentence_numbers(second))

    def beside(self, first: Sequence[str], second: Sequence[str]) -> bool:
        """Whether two sentences' words agree enough for a copy beside another."""
        return self.words_beside(first, second) and self.numbers_agree(first, second)

    def words_beside(self, first: Sequence[str], second: Sequence[str]) -> bool:
        """:meth:`beside`, the numbers left aside (for a caller that has
        checked them already: reading a sentence's numbers is most of it)."""
        return word_ratio(first, second) >= self.neighbour_ratio

    def scattered_edits(self, first: str, second: str) -> bool:
        """Whether two sentences' letters, which agree too little for a near
        miss, read as a copy edited in many places rather than template
        twins: they agree at ``ratio`` and differ in more than
        :data:`TEMPLATE_PLACES` places."""
        return fuzz.ratio(first, second, score_cutoff=self.ratio) >= self.ratio and (
            differing_places(first, second) > TEMPLATE_PLACES
        )


def _outdone(
    firm: Sequence[SentencePair], alone: Sequence[SentencePair], ratio: Callable[[SentencePair], float]
) -> set[tuple[int, int]]:
    """The pairs of ``alone`` one of whose sentences pairs, among ``firm``,
    with another sentence at a higher word ratio."""
    a_side, b_side = {p.a for p in alone}, {p.b for p in alone}
    best_a: dict[int, float] = {}
    best_b: dict[int, float] = {}
    scores: dict[tuple[int, int], float] = {}
    for pair in firm:
        if pair.a in a_side or pair.b in b_side:
            score = scores[(pair.a, pair.b)] = ratio(pair)
            best_a[pair.a] = max(best_a.get(pair.a, 0.0), score)
            best_b[pair.b] = max(best_b.get(pair.b, 0.0), score)
    return {
        (p.a, p.b) for p in alone if scores[(p.a, p.b)] < best_a[p.a] or scores[(p.a, p.b)] < best_b[p.b]
    }


def sentence_numbers(words: Sequence[str]) -> tuple[str, ...]:
    """The numbers among a sentence's words, sorted: the multiset that
    :meth:`EditedCheck.numbers_agree` compares."""
    return tuple(sorted(filter(is_number_word, words)))


def is_number_word(word: str) -> bool:
    """Whether a word is a number for :func:`sentence_numbers`: it begins
    with a digit and holds no letter ("9.3.2", "1024"; not "2.6/3.x")."""
    return word[:1].isdigit() and not any(c.isalpha() for c in word)


def numbers_agree_of(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """:meth:`EditedCheck.numbers_agree` of two sentences given their
    numbers (:func:`sentence_numbers`, sorted)."""
    if not a or not b:  # no numbers on one side: they lie in the other (most sentences; no Counter)
        return True
    if len(a) == len(b):  # as many: one lies in the other only when they are the same
        return a == b
    fewer, more = (a, b) if len(a) < len(b) else (b, a)
    left = Counter(more)
    for number in fewer:  # the fewer numbers, each taken from the more
        if not left[number]:
            return False
        left[number] -= 1
    return True


class SentenceNumbers(dict):
    """Each sentence's :func:`sentence_numbers`, by its words, found once:
    the edited-copy candidates name few sentences many times (133,872 on
    the English bench corpus reach the numbers check, naming 8,451
    sentences: reading each sentence's words for numbers again was two
    thirds of judging them)."""

    __slots__ = ()

    def __missing__(self, words: tuple[str, ...]) -> tuple[str, ...]:
        numbers = self[words] = sentence_numbers(words)
        return numbers


def supported(
    pairs: Sequence[SentencePair],
    tentative: Callable[[SentencePair], bool],
    *,
    reach: int,
    words_only: Callable[[SentencePair], bool] | None = None,
    ratio: Callable[[SentencePair], float] | None = None,
) -> list[SentencePair]:
    """The pairs of two documents that stand, in their order.

    A pair found on its features that is not ``tentative`` stands. A pair
    found on its ``words_only`` (an edited copy on its own) stands unless one
    of its sentences pairs with another sentence whose words agree better
    (its ``ratio``): an edited copy is one sentence for one, and a template
    verse, "Of the tribe of Levi were sealed twelve thousand.", does not pair
    with the copy of "…of Issachar…" beside that copy's own pair. A
    tentative pair stands when a
    standing pair lies within ``reach`` sentences after it on both sides or
    before it on both sides, and neither of its sentences is paired already
    (an edited copy is one sentence for one: a template sentence beside its
    copy, "Of the tribe of Levi were sealed twelve thousand." beside "…of
    Issachar…", does not pair with the copy's sentence too); a pair that
    comes to stand supports others in turn, so a passage stands from any of
    its pairs outwards, while a run of tentative pairs with no standing pair
    among them (template sentences) does not.

    Args:
        pairs: The pairs found between two documents.
        tentative: Whether a pair needs support.
        reach: How far, in sentences on each side, a supporting pair may lie.
        words_only: Whether a pair was found on its words only (None: none was).
        ratio: The word ratio of a pair (needed with ``words_only``).
    """
    firm = [p for p in pairs if not tentative(p)]
    if len(pairs) < 2:  # most document pairs: nothing to outdo a pair or support it
        return firm
    standing = {(p.a, p.b) for p in firm}
    if words_only is not None and ratio is not None:
        alone = [p for p in firm if words_only(p)]
        if alone:
            standing -= _outdone(firm, alone, ratio)
    used_a, used_b = {a for a, _ in standing}, {b for _, b in standing}
    pending = sorted(p for p in pairs if tentative(p))
    steps = range(1, reach + 1)
    grew = True
    while pending and grew:
        grew = False
        rest = []
        for pair in pending:
            a, b = pair.a, pair.b
            if a in used_a or b in used_b:
                continue  # for good: the sentence is paired
            if any((a + side * i, b + side * m) in standing for side in (1, -1) for i in steps for m in steps):
                standing.add((a, b))
                used_a.add(a)
                used_b.add(b)
                grew = True
            else:
                rest.append(pair)
        pending = rest
    return [p for p in pairs if (p.a, p.b) in standing]
