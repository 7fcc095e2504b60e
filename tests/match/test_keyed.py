"""KeyedMatches: a search's pairs kept as arrays read as the records made at once."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.match import keyed
from partialdup.match.keyed import KeyedMatches

_KEYS = [(d, s) for d in range(4) for s in range(5)]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, len(_KEYS) - 1), st.integers(0, len(_KEYS) - 1), st.floats(0, 1)), max_size=30),
    st.lists(st.tuples(st.sampled_from(_KEYS), st.sampled_from(_KEYS), st.floats(0, 1)), max_size=5),
    st.integers(1, 4),
    st.sampled_from([np.int32, np.int64]),
)
def test_the_records_are_those_made_at_once_in_order_however_often_read(rows, more, chunk, dtype):
    # The plain reference: the list of tuples the look-ups made before.
    # Positions given as int32 (detect's near misses) read as int64 ones.
    other = list(reversed(_KEYS))
    first = np.array([r[0] for r in rows], dtype)
    second = np.array([r[1] for r in rows], dtype)
    score = np.array([r[2] for r in rows], np.float64)
    plain = [(_KEYS[a], other[b], s) for a, b, s in rows] + more
    records = KeyedMatches(first, second, score, _KEYS, other).with_more(more)
    original = keyed._CHUNK
    keyed._CHUNK = chunk  # several chunks on small inputs
    try:
        assert list(records) == plain and list(records) == plain
    finally:
        keyed._CHUNK = original
    assert len(records) == len(plain)
    assert records == plain
    assert all(a.dtype == np.int64 and b.dtype == np.int64 for a, b, _ in records.array_rows(0, len(rows)))
    # Any positions, ascending: the records there, in order.
    wanted = np.array(sorted(set(range(0, len(plain), chunk)) | {len(plain) - 1} - {-1}), np.int64)
    assert records.at(wanted) == [plain[p] for p in wanted.tolist()]


def test_one_list_of_keys_serves_both_sides_of_a_search_of_an_index_against_itself():
    records = KeyedMatches(np.array([2, 1]), np.array([0, 0]), np.array([0.5, 0.25]), _KEYS)
    assert list(records) == [(_KEYS[2], _KEYS[0], 0.5), (_KEYS[1], _KEYS[0], 0.25)]
    assert list(KeyedMatches(np.empty(0), np.empty(0), np.empty(0), _KEYS)) == []


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, len(_KEYS) - 1), st.integers(0, len(_KEYS) - 1), st.floats(0, 1)), max_size=30),
    st.lists(st.tuples(st.sampled_from(_KEYS), st.sampled_from(_KEYS), st.floats(0, 1)), max_size=5),
    st.lists(st.integers(0, 40), max_size=6),
    st.integers(1, 4),
    st.booleans(),
)
def test_ranges_read_in_turn_give_the_records_kept_in_order(rows, more, cuts, chunk, as_list):
    # Pending.part over any cut of the positions, read in turn, gives what
    # the plain filter gives over every record (a list or the arrays).
    first = np.array([r[0] for r in rows], np.int64)
    second = np.array([r[1] for r in rows], np.int64)
    score = np.array([r[2] for r in rows], np.float64)
    plain = [(_KEYS[a], _KEYS[b], s) for a, b, s in rows] + more
    records = plain if as_list else KeyedMatches(first, second, score, _KEYS).with_more(more)

    def keep(a, b):
        return (a[1] + b[0]) % 3 != 0

    expected = [r for r in plain if keep(r[0], r[1])]
    pending = keyed.Pending(records, keep)
    bounds = [0, *sorted(min(c, len(plain)) for c in cuts), len(plain)]
    original = keyed._CHUNK
    keyed._CHUNK = chunk
    try:
        parts = [r for low, high in zip(bounds, bounds[1:]) for r in pending.part(low, high)]
    finally:
        keyed._CHUNK = original
    assert len(pending) == len(plain)
    assert parts == expected and list(pending) == expected


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, len(_KEYS) - 1), st.integers(0, len(_KEYS) - 1), st.floats(0, 1)), max_size=40),
    st.lists(st.tuples(st.sampled_from(_KEYS), st.sampled_from(_KEYS), st.floats(0, 1)), max_size=5),
    st.lists(st.tuples(st.sampled_from(_KEYS + [(9, 9)]), st.sampled_from(_KEYS + [(9, 9)])), max_size=25),
    st.one_of(st.none(), st.permutations(range(10))),
    st.integers(1, 4),
    st.booleans(),
    st.sampled_from([np.int32, np.int64]),
)
def test_records_not_found_by_positions_are_those_has_passes(rows, more, found_pairs, order, chunk, as_rows, dtype):
    # FoundPairs.found_rows through Pending.not_found against the plain
    # filter, FoundPairs.has record by record; pairs oriented by document
    # place or not, found pairs of sentences the search does not hold,
    # found pairs held as arrays or not.
    from partialdup.match.pair_rows import PairRows
    from partialdup.match.pairs import FoundPairs

    found = FoundPairs(order=order)
    if as_rows:
        columns = [np.array([pair[side][part] for pair in found_pairs], np.int64) for side in (0, 1) for part in (0, 1)]
        found.add_firm(PairRows.of(*columns, np.full(len(found_pairs), 0.5)))
    for a, b in found_pairs if not as_rows else ():
        found.add(a, b, 0.5)
    first = np.array([r[0] for r in rows], dtype)
    second = np.array([r[1] for r in rows], dtype)
    score = np.array([r[2] for r in rows], np.float64)
    records = KeyedMatches(first, second, score, _KEYS).with_more(more)
    expected = [r for r in records if not found.has(r[0], r[1])]
    original = keyed._CHUNK
    keyed._CHUNK = chunk
    try:
        pending = keyed.Pending.not_found(records, found)
        assert pending._drop is not None
        assert list(pending) == expected
        assert [r for low in range(0, len(records), 3) for r in pending.part(low, low + 3)] == expected
    finally:
        keyed._CHUNK = original


def test_found_rows_with_two_key_lists_and_no_order():
    from partialdup.match.pairs import FoundPairs

    queries, references = _KEYS[:6], _KEYS[6:]
    found = FoundPairs()
    found.add(queries[1], references[2], 1.0)
    test = found.found_rows(queries, references)
    assert test(np.array([1, 1, 2]), np.array([2, 3, 2])).tolist() == [True, False, False]
    assert FoundPairs(order=list(range(4))).found_rows(queries, references) is None  # oriented across two lists: by records


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, len(_KEYS) - 1), st.integers(0, len(_KEYS) - 1), st.floats(0, 1)), max_size=30),
    st.lists(st.tuples(st.sampled_from(_KEYS), st.sampled_from(_KEYS), st.floats(0, 1)), max_size=5),
    st.sets(st.sampled_from(_KEYS), max_size=6),
    st.sets(st.sampled_from(_KEYS), max_size=6),
    st.floats(0, 1),
    st.booleans(),
    st.integers(1, 4),
)
def test_the_records_touching_some_sentences_are_those_the_plain_filter_keeps(rows, more, first, second, least, one_list, chunk):
    # The plain reference: every record made, then filtered.
    other = _KEYS if one_list else list(reversed(_KEYS))
    arrays = [np.array([r[i] for r in rows], dtype) for i, dtype in ((0, np.int64), (1, np.int64), (2, np.float64))]
    records = KeyedMatches(*arrays, _KEYS, None if one_list else other).with_more(more)
    plain = [r for r in records if r[2] >= least and (r[0] in first or r[1] in second)]
    original = keyed._CHUNK
    keyed._CHUNK = chunk  # several chunks on small inputs
    try:
        assert list(records.touching(first, second, least)) == plain
        assert list(records.touching(first, first, least)) == [r for r in records if r[2] >= least and first & {r[0], r[1]}]
    finally:
        keyed._CHUNK = original


def test_released_records_are_gone_and_their_arrays_free():
    import weakref

    first = np.array([0, 1, 2], np.int64)
    matches = KeyedMatches(first, np.array([3, 4, 5], np.int64), np.array([0.5, 0.6, 0.7]), _KEYS, more=[(_KEYS[0], _KEYS[1], 1.0)])
    assert len(matches) == 4
    held = weakref.ref(first)
    del first
    matches.release()
    assert len(matches) == 0 and list(matches) == [] and held() is None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, len(_KEYS) - 1), st.integers(0, len(_KEYS) - 1), st.floats(0, 1)), max_size=20),
    st.lists(st.tuples(st.integers(0, len(_KEYS) - 1), st.integers(0, len(_KEYS) - 1), st.floats(0, 1)), max_size=20),
    st.sets(st.sampled_from(_KEYS), max_size=8),
    st.integers(1, 4),
)
def test_later_arrays_read_and_filter_as_the_same_records_in_a_list(rows, later_rows, crowded, chunk):
    # detect's word-set pairs held as a second search's arrays, keyed by
    # SentenceKeys, against the same records as a plain list.
    from partialdup.index.inverted import SentenceKeys

    held = SentenceKeys(np.array([d for d, _ in _KEYS]), np.array([s for _, s in _KEYS]))

    def arrays(columns, keys):
        first, second, score = (np.array([r[k] for r in columns], dtype) for k, dtype in enumerate((np.int64, np.int64, np.float64)))
        return KeyedMatches(first, second, score, keys)

    later = arrays(later_rows, held)
    later_plain = [(_KEYS[a], _KEYS[b], s) for a, b, s in later_rows]
    assert later == later_plain
    kept = later.outside(frozenset(crowded))
    assert kept == [r for r in later_plain if not (r[0] in crowded and r[1] in crowded)]
    records, plain = arrays(rows, _KEYS).with_more(kept), arrays(rows, _KEYS).with_more(list(kept))
    assert records == plain == [*((_KEYS[a], _KEYS[b], s) for a, b, s in rows), *kept]
    original = keyed._CHUNK
    keyed._CHUNK = chunk
    try:
        for low in range(0, len(plain) + 1, chunk):
            assert records.later_records(low, low + chunk) == plain.later_records(low, low + chunk)
        wanted = np.arange(0, len(plain), chunk, dtype=np.int64)
        assert records.at(wanted) == plain.at(wanted)
    finally:
        keyed._CHUNK = original
    for side in (0, 1):
        assert all(np.array_equal(a, b) for a, b in zip(records.key_columns(side), plain.key_columns(side)))
        assert [tuple(pair) for pair in zip(*(c.tolist() for c in records.key_columns(side)))] == [r[side] for r in plain]


def test_records_added_after_the_arrays_cannot_be_masked():
    import pytest

    records = KeyedMatches(np.zeros(1, np.int64), np.zeros(1, np.int64), np.ones(1), _KEYS).with_more([(_KEYS[1], _KEYS[0], 0.5)])
    with pytest.raises(ValueError, match="cannot be masked"):
        records.where(np.ones(1, bool))
