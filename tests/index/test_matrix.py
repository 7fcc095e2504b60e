"""The sparse index's matrices (partialdup.index.matrix): each fast path against its plain reference."""

import numpy as np
from hypothesis import given, settings, strategies as st

from partialdup.core.bags import FlatBags
from partialdup.index.matrix import (
    binary_matrix, expand_bags, expand_flat, index_columns, numbered_features, own_columns, rows_matrix,
)

_bags = st.lists(st.dictionaries(st.integers(0, 40), st.integers(1, 4), max_size=6), max_size=25)


def _plain_expansion(bags):
    """(row, feature, occurrence) of every copy of every feature, bag after bag, in each bag's order."""
    entries = [(row, feature, k) for row, bag in enumerate(bags) for feature, count in bag.items() for k in range(count)]
    return [np.array(column, dtype=np.int64).reshape(-1) for column in zip(*entries)] if entries else [np.zeros(0, np.int64)] * 3


@settings(max_examples=200, deadline=None)
@given(_bags)
def test_expand_flat_lists_every_copy_of_every_feature(bags):
    rows, features, occurrences = expand_flat(FlatBags.of(bags))
    assert rows.dtype == occurrences.dtype == np.int32 and features.dtype == np.uint64
    for made, plain in zip((rows, features, occurrences), _plain_expansion(bags)):
        assert made.tolist() == plain.tolist()
    assert [a.tolist() for a in expand_bags(bags)] == [rows.tolist(), features.tolist(), occurrences.tolist()]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1) | st.integers(0, 30), max_size=60))
def test_numbered_features_are_numpys_unique_with_its_inverse(values):
    features = np.array(values, dtype=np.uint64)
    distinct, inverse = numbered_features(features)
    plain, plain_inverse = np.unique(features, return_inverse=True)
    assert distinct.tolist() == plain.tolist() and inverse.tolist() == plain_inverse.reshape(-1).tolist()


def _plain_columns(bags, members, max_postings):
    """Per distinct feature, sorted: (width, frequent, sentences), and each
    feature's first column in its matrix, counted bag by bag in dicts."""
    width, holders = {}, {}
    for row, bag in enumerate(bags):
        for feature, count in bag.items():
            width[feature] = max(width.get(feature, 0), count)
            holders.setdefault(feature, []).append(row)
    features = sorted(width)
    frequent = {f: len(holders[f]) > max_postings for f in features}
    start, taken = {}, {False: 0, True: 0}
    for f in features:  # each matrix numbers its own columns from 0
        start[f], taken[frequent[f]] = taken[frequent[f]], taken[frequent[f]] + width[f]
    return features, width, frequent, {f: sum(members[r] for r in holders[f]) for f in features}, start


@settings(max_examples=200, deadline=None)
@given(_bags, st.integers(1, 4), st.data())
def test_index_columns_count_each_feature_as_the_bags_do(bags, max_postings, data):
    members = np.array(data.draw(st.lists(st.integers(1, 5), min_size=len(bags), max_size=len(bags))), np.int64)
    rows, features, occurrences = expand_flat(FlatBags.of(bags))
    distinct, where = numbered_features(features)
    columns = index_columns(distinct, where, occurrences, rows, max_postings, members)
    plain, width, frequent, sentences, start = _plain_columns(bags, members.tolist(), max_postings)
    assert columns.features.tolist() == plain
    assert columns.width.tolist() == [width[f] for f in plain]
    assert columns.frequent.tolist() == [frequent[f] for f in plain]
    assert columns.sentences.tolist() == [sentences[f] for f in plain]
    assert columns.start.tolist() == [start[f] for f in plain]
    assert columns.width.dtype == columns.start.dtype == columns.sentences.dtype == np.int32  # all fit
    column, held_frequent = own_columns(columns, where, occurrences)
    assert column.tolist() == [start[int(f)] + int(k) for f, k in zip(features, occurrences)]
    assert held_frequent.tolist() == [frequent[int(f)] for f in features]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_rows_matrix_is_the_coo_built_matrix(data):
    # Rows in ascending order, each holding distinct columns in any order
    # (a bag lists its features in its own order), some rows empty.
    height = data.draw(st.integers(0, 12))
    width = data.draw(st.integers(0, 20))
    rows, columns = [], []
    for row in range(height):
        held = data.draw(st.lists(st.integers(0, max(width - 1, 0)), unique=True, max_size=width)) if width else []
        rows += [row] * len(held)
        columns += held
    rows_array, columns_array = np.array(rows, np.int32), np.array(columns, np.int64)
    made, plain = rows_matrix(rows_array, columns_array, height, width), binary_matrix(rows_array, columns_array, height, width)
    assert made.shape == plain.shape and made.dtype == plain.dtype
    for part in ("indptr", "indices", "data"):
        assert getattr(made, part).dtype == getattr(plain, part).dtype, part
        assert getattr(made, part).tolist() == getattr(plain, part).tolist(), part
    assert made.has_sorted_indices and plain.has_sorted_indices
