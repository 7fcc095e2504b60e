"""Evaluation measures: PAN character-level scores and sentence-pair scores.

Pure functions, no I/O. Two families:

* :func:`pan_score` -- the character-level macro recall, macro precision,
  granularity and plagdet of the PAN text-alignment task (Potthast et al.,
  "An Evaluation Framework for Plagiarism Detection", COLING 2010; used
  unchanged by PAN 2012-2015). Follows the behaviour of the official PAN
  evaluation script, including its conventions for empty inputs.
* :func:`pair_score` -- precision, recall and F1 of predicted copied sentence
  pairs against gold pairs, tolerant of slightly different sentence
  boundaries.

All offsets are character (code point) offsets.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Sequence

from partialdup.core.types import Case

__all__ = [
    "PanScore",
    "pan_score",
    "plagdet",
    "PairRange",
    "PairScore",
    "pair_score",
    "ranges_match",
]


# --------------------------------------------------------------------------
# PAN character-level measures
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PanScore:
    """The PAN text-alignment scores of one run.

    Attributes:
        recall: Macro-averaged character recall over cases, 0..1.
        precision: Macro-averaged character precision over detections, 0..1.
        granularity: Mean number of detections per detected case, >= 1.
        plagdet: ``F1 / log2(1 + granularity)``, 0..1.
    """

    recall: float
    precision: float
    granularity: float
    plagdet: float


def plagdet(recall: float, precision: float, granularity: float) -> float:
    """Combine recall, precision and granularity into the PAN plagdet score.

    Args:
        recall: Macro recall, 0..1.
        precision: Macro precision, 0..1.
        granularity: Detections per detected case, >= 1.

    Returns:
        ``F1 / log2(1 + granularity)``; 0 when recall and precision are both 0.
    """
    if recall + precision == 0:
        return 0.0
    f1 = 2 * recall * precision / (recall + precision)
    return f1 / math.log2(1 + granularity)


def pan_score(cases: Iterable[Case], detections: Iterable[Case]) -> PanScore:
    """Score detections against gold cases with the PAN character measures.

    A detection *detects* a case when both name the same suspicious and source
    documents and their passages overlap in the suspicious document AND in the
    source document. A case's recall is the number of its characters (suspicious
    side plus source side) covered by the union of the detections that detect
    it, divided by ``this_length + source_length``; recall is the mean over all
    cases. Precision is the same with the roles of cases and detections
    swapped. Granularity is the mean, over cases detected at least once, of the
    number of detections that detect the case.

    Conventions (those of the official PAN script): when there are neither
    cases nor detections, recall and precision are 1 (nothing to find, nothing
    wrongly found); when only one of the two is empty, recall and precision are
    both 0. Granularity is 1 when no case is detected. Cases and detections are
    pooled over all documents, so a detection in a document pair without cases
    lowers precision.

    Args:
        cases: The gold plagiarism cases of the whole corpus.
        detections: The system's detections of the whole corpus.

    Returns:
        The four scores.

    Raises:
        ValueError: A case or detection has no characters on either side (its
            score would be 0/0; the PAN script fails on it too).
    """
    cases = list(cases)
    detections = list(detections)
    for annotation in (*cases, *detections):
        if annotation.this_length + annotation.source_length == 0:
            raise ValueError(f"PAN measures are undefined for an empty annotation: {annotation}")
    if not cases and not detections:
        return PanScore(recall=1.0, precision=1.0, granularity=1.0, plagdet=1.0)
    if not cases or not detections:
        return PanScore(recall=0.0, precision=0.0, granularity=1.0, plagdet=0.0)
    detections_of_case = _overlapping(cases, detections)
    cases_of_detection = _overlapping(detections, cases)
    recall = _mean_coverage(cases, detections_of_case)
    precision = _mean_coverage(detections, cases_of_detection)
    granularity = _granularity(detections_of_case)
    return PanScore(recall, precision, granularity, plagdet(recall, precision, granularity))


def _detects(first: Case, second: Case) -> bool:
    """PAN's overlap test: same document pair, overlapping on both sides."""
    return (
        first.susp_doc == second.susp_doc
        and first.src_doc == second.src_doc
        and second.this_offset < first.this_end
        and first.this_offset < second.this_end
        and second.source_offset < first.source_end
        and first.source_offset < second.source_end
    )


def _overlapping(targets: Sequence[Case], others: Sequence[Case]) -> list[list[Case]]:
    """For each target, the annotations of ``others`` that overlap it (PAN sense)."""
    groups: dict[tuple[str, str], list[Case]] = defaultdict(list)
    for other in others:
        groups[(other.susp_doc, other.src_doc)].append(other)
    index = {key: _StartIndex(group) for key, group in groups.items()}
    found: list[list[Case]] = []
    for target in targets:
        group_index = index.get((target.susp_doc, target.src_doc))
        candidates = group_index.near(target) if group_index else []
        found.append([other for other in candidates if _detects(target, other)])
    return found


class _StartIndex:
    """Annotations of one document pair sorted by suspicious-side offset.

    An annotation that overlaps ``[start, end)`` starts before ``end`` and after
    ``start - longest``, so only that slice of the sorted list is examined.
    """

    def __init__(self, annotations: list[Case]) -> None:
        self.annotations = sorted(annotations, key=lambda ann: ann.this_offset)
        self.starts = [ann.this_offset for ann in self.annotations]
        self.longest = max(ann.this_length for ann in self.annotations)

    def near(self, target: Case) -> list[Case]:
        lo = bisect_right(self.starts, target.this_offset - self.longest)
        hi = bisect_left(self.starts, target.this_end)
        return self.annotations[lo:hi]


def _mean_coverage(targets: Sequence[Case], overlapping: Sequence[list[Case]]) -> float:
    """Mean over targets of the share of their characters the overlapping ones cover."""
    total = 0.0
    for target, others in zip(targets, overlapping):
        covered = _covered_chars(
            target.this_offset, target.this_end, [(o.this_offset, o.this_end) for o in others]
        ) + _covered_chars(
            target.source_offset, target.source_end, [(o.source_offset, o.source_end) for o in others]
        )
        total += covered / (target.this_length + target.source_length)
    return total / len(targets)


def _covered_chars(start: int, end: int, ranges: Iterable[tuple[int, int]]) -> int:
    """Number of characters of ``[start, end)`` inside the union of ``ranges``."""
    clipped = sorted((max(lo, start), min(hi, end)) for lo, hi in ranges if lo < end and hi > start)
    covered = 0
    reached = start  # everything before ``reached`` has already been counted
    for lo, hi in clipped:
        lo = max(lo, reached)
        if hi > lo:
            covered += hi - lo
            reached = hi
    return covered


def _granularity(detections_of_case: Sequence[list[Case]]) -> float:
    """Mean number of detections over the cases detected at least once (1 if none)."""
    counts = [len(found) for found in detections_of_case if found]
    return sum(counts) / len(counts) if counts else 1.0


# --------------------------------------------------------------------------
# Sentence-pair measures
# --------------------------------------------------------------------------

#: A copied sentence pair as character ranges:
#: ``(doc_a, a_start, a_end, doc_b, b_start, b_end)``, ends exclusive.
PairRange = tuple[str, int, int, str, int, int]


@dataclass(frozen=True, slots=True)
class PairScore:
    """Sentence-pair precision, recall and F1.

    Attributes:
        precision: ``tp_pred / n_pred``, 0..1.
        recall: ``tp_gold / n_gold``, 0..1.
        f1: Harmonic mean of precision and recall, 0..1.
        tp_pred: Predicted pairs that match at least one gold pair.
        tp_gold: Gold pairs matched by at least one predicted pair.
        n_pred: Predicted pairs (duplicates counted).
        n_gold: Gold pairs (duplicates counted).
    """

    precision: float
    recall: float
    f1: float
    tp_pred: int
    tp_gold: int
    n_pred: int
    n_gold: int


def ranges_match(first: PairRange, second: PairRange) -> bool:
    """Whether two sentence pairs denote the same copy.

    They match when they name the same two documents (in the same order) and,
    on each side, their ranges overlap by more than half of the shorter range,
    which tolerates sentence boundaries that differ by a few characters but
    never lets a sentence match its neighbour. An empty range matches nothing.

    Args:
        first: One pair, ``(doc_a, a_start, a_end, doc_b, b_start, b_end)``.
        second: The other pair, same layout.

    Returns:
        True when the pairs match.
    """
    return (
        first[0] == second[0]
        and first[3] == second[3]
        and _half_overlap(first[1], first[2], second[1], second[2])
        and _half_overlap(first[4], first[5], second[4], second[5])
    )


def pair_score(
    gold: Iterable[PairRange],
    predicted: Iterable[PairRange],
    *,
    ordered: bool = True,
) -> PairScore:
    """Score predicted copied sentence pairs against gold pairs.

    Matching is many-to-many (see :func:`ranges_match`): a gold pair counts as
    recalled when any predicted pair matches it, and a predicted pair counts as
    correct when it matches any gold pair.

    Conventions (the same as :func:`pan_score`): with no gold and no predicted
    pairs every score is 1; when only one of the two is empty every score is 0.

    Args:
        gold: The true copied sentence pairs.
        predicted: The detector's sentence pairs.
        ordered: When False, a pair's two sides may come in either order: each
            pair is first put in canonical order, the side with the smaller
            ``(doc, start)`` first.

    Returns:
        The scores and the counts behind them.

    Raises:
        ValueError: A range has a negative start or ends before it starts.
    """
    gold = [_checked_pair(pair, ordered) for pair in gold]
    predicted = [_checked_pair(pair, ordered) for pair in predicted]
    if not gold and not predicted:
        return PairScore(1.0, 1.0, 1.0, 0, 0, 0, 0)
    pred_matched, gold_matched = _pair_matches(gold, predicted)
    tp_pred, tp_gold = sum(pred_matched), sum(gold_matched)
    precision = tp_pred / len(predicted) if predicted else 0.0
    recall = tp_gold / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return PairScore(precision, recall, f1, tp_pred, tp_gold, len(predicted), len(gold))


def _checked_pair(pair: PairRange, ordered: bool) -> PairRange:
    doc_a, a_start, a_end, doc_b, b_start, b_end = pair
    if not 0 <= a_start <= a_end or not 0 <= b_start <= b_end:
        raise ValueError(f"invalid sentence pair ranges: {pair!r}")
    if not ordered and (doc_b, b_start) < (doc_a, a_start):
        return (doc_b, b_start, b_end, doc_a, a_start, a_end)
    return (doc_a, a_start, a_end, doc_b, b_start, b_end)


def _half_overlap(start1: int, end1: int, start2: int, end2: int) -> bool:
    """Overlap of two ranges exceeds half of the shorter one (in characters)."""
    overlap = min(end1, end2) - max(start1, start2)
    return 2 * overlap > min(end1 - start1, end2 - start2)


def _pair_matches(gold: Sequence[PairRange], predicted: Sequence[PairRange]) -> tuple[list[bool], list[bool]]:
    """Which predicted and which gold pairs are matched, by sort + interval search.

    Gold pairs are grouped by document pair and sorted by ``a_start``; a gold
    pair that overlaps a predicted A-range ``[s, e)`` starts before ``e`` and
    after ``s - longest``, so only that slice is tested.

    Returns:
        ``(pred_matched, gold_matched)``: one flag per input pair, in input order.
    """
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, pair in enumerate(gold):
        groups[(pair[0], pair[3])].append(index)
    sorted_groups: dict[tuple[str, str], tuple[list[int], list[int], int]] = {}
    for key, members in groups.items():
        members.sort(key=lambda i: gold[i][1])
        starts = [gold[i][1] for i in members]
        longest = max(gold[i][2] - gold[i][1] for i in members)
        sorted_groups[key] = (members, starts, longest)

    pred_matched = [False] * len(predicted)
    gold_matched = [False] * len(gold)
    for p_index, pair in enumerate(predicted):
        group = sorted_groups.get((pair[0], pair[3]))
        if group is None:
            continue
        members, starts, longest = group
        lo = bisect_right(starts, pair[1] - longest)
        hi = bisect_left(starts, pair[2])
        for g_index in members[lo:hi]:
            if ranges_match(pair, gold[g_index]):
                pred_matched[p_index] = True
                gold_matched[g_index] = True
    return pred_matched, gold_matched
