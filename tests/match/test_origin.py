import pytest
from hypothesis import given, strategies as st

from partialdup.match.origin import single_origin
from partialdup.core.types import SentencePair, Span


def span(a_start, a_end, b_start, b_end, score=1.0, a="q", b="r"):
    return Span(a, b, a_start, a_end, b_start, b_end, (0, 0), (0, 0), score, (SentencePair(0, 0, score),))


def test_a_passage_matching_a_repeat_in_the_reference_keeps_one_origin():
    # The query's sentence at 100..180 is in the reference twice: once inside
    # the long copied passage, once on its own further down.
    passage = span(0, 400, 1000, 1400)
    repeat = span(100, 180, 3000, 3080)
    assert single_origin([repeat, passage]) == [passage]


def test_equal_lengths_prefer_the_better_score_then_the_closer_length():
    revised = span(0, 80, 500, 580, score=0.7)
    verbatim = span(0, 80, 100, 180, score=1.0)
    assert single_origin([revised, verbatim]) == [verbatim]
    longer_source = span(0, 80, 500, 640)
    same_length = span(0, 80, 100, 180)
    assert single_origin([longer_source, same_length]) == [same_length]


def test_spans_overlapping_a_little_are_both_kept():
    first, second = span(0, 100, 0, 100), span(90, 190, 300, 400)
    assert single_origin([first, second]) == [first, second]


def test_a_passage_quoted_twice_by_the_query_is_two_origins():
    # Two query passages from the same reference passage: nothing explained twice.
    spans = [span(0, 100, 500, 600), span(300, 400, 500, 600)]
    assert single_origin(spans) == spans


def test_other_document_pairs_do_not_explain_each_other():
    spans = [span(0, 100, 0, 100, b="r1"), span(0, 100, 0, 100, b="r2"), span(0, 100, 0, 100, a="q2")]
    assert single_origin(spans) == spans


def test_the_share_is_checked():
    with pytest.raises(ValueError):
        single_origin([], max_explained=1.5)


def reference_single_origin(spans, max_explained=0.5):
    # Plain version: character sets instead of merged intervals.
    # Ties broken by the offsets, b_end last, as in the library: the order is total.
    strength = lambda s: (-(s.a_end - s.a_start), -s.score, abs(s.b_end - s.b_start - (s.a_end - s.a_start)), s.a_start, s.b_start, s.b_end)
    covered, kept = {}, set()
    for position in sorted(range(len(spans)), key=lambda p: strength(spans[p])):
        s = spans[position]
        chars = covered.setdefault((s.a, s.b), set())
        inside = len(chars & set(range(s.a_start, s.a_end)))
        if s.a_end > s.a_start and inside > max_explained * (s.a_end - s.a_start):
            continue
        chars.update(range(s.a_start, s.a_end))
        kept.add(position)
    return [s for p, s in enumerate(spans) if p in kept]


span_lists = st.lists(
    st.builds(
        lambda a0, alen, b0, blen, score, b: span(a0, a0 + alen, b0, b0 + blen, score, b=b),
        st.integers(0, 200), st.integers(0, 60), st.integers(0, 200), st.integers(0, 60),
        st.sampled_from([0.6, 0.8, 1.0]), st.sampled_from(["r1", "r2"]),
    ),
    max_size=25,
)


@given(span_lists, st.sampled_from([0.0, 0.3, 0.5, 1.0]))
def test_agrees_with_the_plain_reference(spans, share):
    assert single_origin(spans, max_explained=share) == reference_single_origin(spans, share)


@given(span_lists, st.randoms())
def test_the_kept_set_does_not_depend_on_input_order(spans, rng):
    shuffled = list(spans)
    rng.shuffle(shuffled)
    key = lambda s: (s.b, s.a_start, s.a_end, s.b_start, s.b_end, s.score)
    assert sorted(single_origin(spans), key=key) == sorted(single_origin(shuffled), key=key)
