"""Tests of partialdup.eval.metrics: PAN character measures and sentence-pair scores."""

from __future__ import annotations

import math
from typing import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.core.types import Case
from partialdup.eval.metrics import (
    PairRange,
    PanScore,
    PairScore,
    _pair_matches,
    pair_score,
    pan_score,
    plagdet,
    ranges_match,
)

CASE = Case("susp.txt", 0, 100, "src.txt", 0, 100)


def det(
    this_offset: int, this_length: int, source_offset: int, source_length: int, *, susp="susp.txt", src="src.txt"
) -> Case:
    """A detection; by default in the same document pair as CASE."""
    return Case(susp, this_offset, this_length, src, source_offset, source_length)


# --------------------------------------------------------------- PAN: by hand


def test_case_detected_by_two_halves_has_granularity_two():
    score = pan_score([CASE], [det(0, 50, 0, 50), det(50, 50, 50, 50)])
    assert score.recall == 1.0
    assert score.precision == 1.0
    assert score.granularity == 2.0
    assert score.plagdet == pytest.approx(0.6309, abs=1e-4)
    assert score.plagdet == pytest.approx(1 / math.log2(3))


def test_detection_covering_half_a_case():
    score = pan_score([CASE], [det(0, 50, 0, 50)])
    assert score == PanScore(recall=0.5, precision=1.0, granularity=1.0, plagdet=pytest.approx(2 / 3))


def test_false_positive_in_negative_document_halves_precision():
    stray = det(0, 10, 0, 10, susp="other.txt", src="src.txt")
    score = pan_score([CASE], [det(0, 100, 0, 100), stray])
    assert score.recall == 1.0
    assert score.precision == 0.5
    assert score.granularity == 1.0
    assert score.plagdet == pytest.approx(2 / 3)


def test_overlap_on_suspicious_side_only_does_not_detect():
    score = pan_score([CASE], [det(0, 100, 500, 100)])
    assert score == PanScore(0.0, 0.0, 1.0, 0.0)


def test_characters_of_both_sides_are_counted():
    case = Case("susp.txt", 0, 100, "src.txt", 0, 300)
    score = pan_score([case], [det(0, 100, 0, 100)])
    assert score.recall == pytest.approx(200 / 400)
    assert score.precision == 1.0


def test_detection_reaching_past_the_case_loses_precision():
    score = pan_score([CASE], [det(50, 100, 50, 100)])
    assert score.recall == pytest.approx(0.5)  # 50 + 50 of 200 case chars
    assert score.precision == pytest.approx(0.5)  # 50 + 50 of 200 detected chars


def test_overlapping_detections_are_not_counted_twice():
    score = pan_score([CASE], [det(0, 60, 0, 60), det(40, 60, 40, 60)])
    assert score.recall == 1.0
    assert score.granularity == 2.0


def test_empty_inputs_follow_the_pan_script():
    assert pan_score([], []) == PanScore(1.0, 1.0, 1.0, 1.0)
    assert pan_score([CASE], []) == PanScore(0.0, 0.0, 1.0, 0.0)
    assert pan_score([], [CASE]) == PanScore(0.0, 0.0, 1.0, 0.0)


def test_empty_annotation_is_rejected():
    with pytest.raises(ValueError, match="empty annotation"):
        pan_score([CASE], [det(10, 0, 10, 0)])


def test_negative_offset_is_rejected():
    with pytest.raises(ValueError, match="this_offset"):
        Case("s", -1, 3, "r", 0, 3)


def test_plagdet_formula():
    assert plagdet(1.0, 1.0, 1.0) == 1.0
    assert plagdet(0.0, 0.0, 1.0) == 0.0
    assert plagdet(1.0, 1.0, 2.0) == pytest.approx(0.6309, abs=1e-4)


# ------------------------------------------------------ PAN: brute force check


def _reference_pan(cases: list[Case], detections: list[Case]) -> tuple[float, float, float]:
    """Character sets, all pairs: the definition, without any indexing."""

    def detects(x: Case, y: Case) -> bool:
        return (
            x.susp_doc == y.susp_doc
            and x.src_doc == y.src_doc
            and y.this_offset < x.this_end
            and x.this_offset < y.this_end
            and y.source_offset < x.source_end
            and x.source_offset < y.source_end
        )

    def coverage(x: Case, others: list[Case]) -> float:
        found = [y for y in others if detects(x, y)]
        this = set(range(x.this_offset, x.this_end))
        source = set(range(x.source_offset, x.source_end))
        this_hit = this & {c for y in found for c in range(y.this_offset, y.this_end)}
        source_hit = source & {c for y in found for c in range(y.source_offset, y.source_end)}
        return (len(this_hit) + len(source_hit)) / (len(this) + len(source))

    rec = sum(coverage(c, detections) for c in cases) / len(cases)
    prec = sum(coverage(d, cases) for d in detections) / len(detections)
    counts = [n for n in (sum(detects(c, d) for d in detections) for c in cases) if n]
    gran = sum(counts) / len(counts) if counts else 1.0
    return rec, prec, gran


annotations = st.builds(
    Case,
    st.sampled_from(["s1", "s2"]),
    st.integers(0, 60),
    st.integers(1, 30),
    st.sampled_from(["r1", "r2"]),
    st.integers(0, 60),
    st.integers(1, 30),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(annotations, min_size=1, max_size=6), st.lists(annotations, min_size=1, max_size=6))
def test_pan_score_agrees_with_brute_force(cases, detections):
    score = pan_score(cases, detections)
    rec, prec, gran = _reference_pan(cases, detections)
    assert score.recall == pytest.approx(rec)
    assert score.precision == pytest.approx(prec)
    assert score.granularity == pytest.approx(gran)


@settings(max_examples=150, deadline=None)
@given(st.lists(annotations, max_size=6), st.lists(annotations, max_size=6))
def test_pan_scores_are_bounded(cases, detections):
    score = pan_score(cases, detections)
    assert 0.0 <= score.recall <= 1.0
    assert 0.0 <= score.precision <= 1.0
    assert 0.0 <= score.plagdet <= 1.0
    assert score.granularity >= 1.0
    total = score.recall + score.precision
    f1 = 2 * score.recall * score.precision / total if total else 0.0
    assert score.plagdet <= f1 + 1e-12


# --------------------------------------------------------------- sentence pairs


def test_exact_and_shifted_boundaries_match():
    gold = ("A", 0, 100, "B", 200, 300)
    assert ranges_match(gold, gold)
    assert ranges_match(gold, ("A", 5, 102, "B", 198, 297))


def test_neighbouring_sentence_does_not_match():
    gold = ("A", 0, 100, "B", 200, 300)
    assert not ranges_match(gold, ("A", 60, 160, "B", 200, 300))  # 40 of 100 on side A
    assert not ranges_match(gold, ("A", 50, 150, "B", 200, 300))  # exactly half is not more


def test_half_of_the_shorter_range_suffices():
    # a short predicted sentence inside a long gold one: overlap = the whole short range
    assert ranges_match(("A", 0, 100, "B", 0, 100), ("A", 10, 30, "B", 0, 100))


def test_other_documents_do_not_match():
    assert not ranges_match(("A", 0, 10, "B", 0, 10), ("A", 0, 10, "C", 0, 10))
    assert not ranges_match(("A", 0, 10, "B", 0, 10), ("B", 0, 10, "A", 0, 10))


def test_pair_score_many_to_one():
    gold = [("A", 0, 100, "B", 0, 100), ("A", 100, 200, "B", 100, 200)]
    predicted = [("A", 0, 100, "B", 0, 100), ("A", 2, 99, "B", 1, 100), ("A", 500, 600, "B", 0, 100)]
    score = pair_score(gold, predicted)
    assert score == PairScore(
        precision=pytest.approx(2 / 3),
        recall=0.5,
        f1=pytest.approx(4 / 7),
        tp_pred=2,
        tp_gold=1,
        n_pred=3,
        n_gold=2,
    )


def test_pair_score_unordered_sides():
    gold = [("A", 0, 100, "B", 0, 100)]
    predicted = [("B", 0, 100, "A", 0, 100)]
    assert pair_score(gold, predicted).f1 == 0.0
    assert pair_score(gold, predicted, ordered=False).f1 == 1.0


def test_pair_score_empty_conventions():
    assert pair_score([], []) == PairScore(1.0, 1.0, 1.0, 0, 0, 0, 0)
    assert pair_score([("A", 0, 1, "B", 0, 1)], []) == PairScore(0.0, 0.0, 0.0, 0, 0, 0, 1)
    assert pair_score([], [("A", 0, 1, "B", 0, 1)]) == PairScore(0.0, 0.0, 0.0, 0, 0, 1, 0)


def test_pair_score_rejects_reversed_range():
    with pytest.raises(ValueError, match="invalid sentence pair"):
        pair_score([("A", 10, 5, "B", 0, 1)], [])


pair_ranges = st.builds(
    lambda doc_a, a_start, a_len, doc_b, b_start, b_len: (
        doc_a, a_start, a_start + a_len, doc_b, b_start, b_start + b_len
    ),
    st.sampled_from(["A", "B"]),
    st.integers(0, 80),
    st.integers(0, 40),
    st.sampled_from(["B", "C"]),
    st.integers(0, 80),
    st.integers(0, 40),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(pair_ranges, max_size=12), st.lists(pair_ranges, max_size=12))
def test_interval_matching_agrees_with_quadratic_reference(gold, predicted):
    assert _pair_matches(gold, predicted) == pair_matches_reference(gold, predicted)


@settings(max_examples=150, deadline=None)
@given(st.lists(pair_ranges, max_size=12), st.lists(pair_ranges, max_size=12), st.booleans())
def test_pair_scores_are_bounded(gold, predicted, ordered):
    score = pair_score(gold, predicted, ordered=ordered)
    for value in (score.precision, score.recall, score.f1):
        assert 0.0 <= value <= 1.0
    assert score.tp_pred <= score.n_pred and score.tp_gold <= score.n_gold


def pair_matches_reference(
    gold: Sequence[PairRange], predicted: Sequence[PairRange]
) -> tuple[list[bool], list[bool]]:
    """Plain all-pairs version of :func:`_pair_matches`: the reference it must equal."""
    pred_matched = [any(ranges_match(p, g) for g in gold) for p in predicted]
    gold_matched = [any(ranges_match(p, g) for p in predicted) for g in gold]
    return pred_matched, gold_matched
