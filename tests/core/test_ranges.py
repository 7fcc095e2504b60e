"""Tests of partialdup.core.ranges: unions of character ranges, against a plain reference."""

from __future__ import annotations

from hypothesis import given, strategies as st

from partialdup.core.ranges import covered_chars, merged, solid_chars

ranges = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), max_size=12)


def test_hand_checked_unions():
    assert covered_chars([(5, 15), (0, 10), (2, 3), (20, 25), (24, 24), (25, 25), (30, 31)]) == 21
    assert covered_chars([(0, 4), (4, 8)]) == 8 and covered_chars([]) == 0
    assert merged([(4, 8), (0, 4), (10, 9)]) == [(0, 8)]
    assert solid_chars("ab cd\n ef", [(0, 5), (3, 9)]) == 6


@given(ranges)
def test_the_union_covers_exactly_the_covered_positions(given_ranges):
    positions = {i for start, end in given_ranges for i in range(start, end)}
    union = merged(given_ranges)
    assert covered_chars(given_ranges) == len(positions)
    assert {i for start, end in union for i in range(start, end)} == positions
    assert all(a_end < b_start for (_, a_end), (b_start, _) in zip(union, union[1:]))  # disjoint, not touching


@given(st.text(alphabet="ab \n字", max_size=60), ranges)
def test_solid_chars_counts_what_is_not_white_space(text, given_ranges):
    positions = {i for start, end in given_ranges for i in range(start, min(end, len(text)))}
    assert solid_chars(text, given_ranges) == sum(1 for i in positions if not text[i].isspace())
