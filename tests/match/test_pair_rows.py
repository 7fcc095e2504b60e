import numpy as np
from hypothesis import given, settings, strategies as st

from partialdup.index.inverted import SentenceKeys
from partialdup.match.boilerplate import Boilerplate
from partialdup.match.pair_rows import (
    KeyPositions, PairRows, PairsByDocuments, RowsLookup, codes_of, key_code, key_codes, pair_key_rows, pair_rows_of,
)
from partialdup.match.pairs import FoundPairs

_RECORDS = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.integers(0, 4), st.integers(0, 3),
                              st.sampled_from([0.25, 0.5, 1.0]), st.booleans()), max_size=25)


def _rows(records):
    columns = list(zip(*records)) if records else [()] * 6
    return PairRows.of(*(np.array(column, np.int64) for column in columns[:4]), np.array(columns[4], np.float64),
                       np.array(columns[5], bool))


@settings(deadline=None)
@given(_RECORDS)
def test_rows_give_their_records_and_key_rows_in_order(records):
    rows = _rows(records)
    assert list(rows.records()) == [((a, i), (b, m), score) for a, i, b, m, score, _ in records]
    assert list(rows) == [((a, i), (b, m)) for a, i, b, m, _, _ in records]
    assert rows.key_rows().tolist() == [list(key) for a, i, b, m, _, _ in records for key in ((a, i), (b, m))]
    assert pair_rows_of(list(rows)).tolist() == rows.key_rows().tolist() == pair_rows_of(rows).tolist()


@settings(deadline=None)
@given(_RECORDS, st.lists(st.booleans(), min_size=25, max_size=25))
def test_grouped_is_a_dictionary_filled_in_order_even_after_a_take(records, mask):
    rows = _rows(records)
    expected: dict = {}
    for a, i, b, m, score, _ in records:
        expected.setdefault((a, b), []).append((i, m, score))
    assert list(rows.grouped()) == list(expected.items())
    chosen = np.array(mask[: len(records)], bool)
    taken = {documents: [row for row, keep in zip(made, kept) if keep] for documents, made, kept in _by_pair(records, chosen)}
    assert list(rows.take(chosen).grouped()) == [(documents, made) for documents, made in taken.items() if made]


def _by_pair(records, chosen):
    # (document pair, its records, whether each is chosen), by first appearance.
    grouped: dict = {}
    for (a, i, b, m, score, _), keep in zip(records, chosen.tolist()):
        made, kept = grouped.setdefault((a, b), ([], []))
        made.append((i, m, score))
        kept.append(keep)
    return [(documents, made, kept) for documents, (made, kept) in grouped.items()]


@settings(deadline=None)
@given(_RECORDS, _RECORDS)
def test_rows_ranked_after_others_come_after_their_document_pairs(first, second):
    earlier, later = _rows(first), _rows(second).ranked_after([_rows(first)])
    joined = PairRows.joined([earlier, later])
    expected: dict = {}
    for a, i, b, m, score, _ in (*first, *second):
        expected.setdefault((a, b), []).append((i, m, score))
    assert list(joined.grouped()) == list(expected.items())


@settings(deadline=None)
@given(_RECORDS, st.permutations(range(5)))
def test_oriented_rows_are_stored_as_found_pairs_store_them(records, order):
    found = FoundPairs(order=order)
    expected = [found.oriented((a, i), (b, m)) for a, i, b, m, _, _ in records]
    assert list(_rows(records).oriented(order)) == expected
    assert list(_rows(records).oriented(None)) == [((a, i), (b, m)) for a, i, b, m, _, _ in records]


@settings(deadline=None)
@given(_RECORDS, st.one_of(st.none(), st.permutations(range(5))), st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5))))
def test_rows_by_document_pair_are_the_dictionary_of_their_records_as_stored(records, order, asked):
    # The plain way (the tail's before): every record in a dictionary, by its oriented document pair.
    found = FoundPairs(order=order)
    expected: dict = {}
    for a, i, b, m, _, weak in records:
        first, second = found.oriented((a, i), (b, m))
        expected.setdefault((first[0], second[0]), []).append(((a, i), (b, m), weak))
    by_documents = PairsByDocuments(_rows(records), order)
    for documents in [*expected, *asked]:
        assert by_documents.get(documents) == expected.get(documents, ())
    whole = [((a, i), (b, m), score, weak) for a, i, b, m, score, weak in records]
    assert list(PairRows.of_records(whole).records()) == [record[:3] for record in whole]
    assert PairRows.of_records(whole).weak.tolist() == [record[3] for record in whole]


@settings(deadline=None)
@given(_RECORDS, st.sets(st.tuples(st.integers(0, 4), st.integers(0, 3))), st.sets(st.tuples(st.integers(0, 4), st.integers(0, 3))))
def test_rows_touching_some_sentences_are_those_holding_one_in_its_place(records, firsts, seconds):
    expected = [((a, i), (b, m)) for a, i, b, m, _, _ in records if (a, i) in firsts or (b, m) in seconds]
    assert list(_rows(records).touching(firsts, seconds)) == expected


@settings(deadline=None)
@given(_RECORDS, st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.integers(0, 4), st.integers(0, 3)), max_size=10))
def test_the_lookup_gives_the_best_score_of_a_pair(records, asked):
    lookup = RowsLookup([_rows(records[:5]), _rows(records[5:])])
    for a, i, b, m in asked + [record[:4] for record in records]:
        scores = [score for a2, i2, b2, m2, score, _ in records if (a2, i2, b2, m2) == (a, i, b, m)]
        assert lookup.best((a, i), (b, m)) == (max(scores) if scores else None)
        assert lookup.contains((a, i), (b, m)) == bool(scores)
    pairs = [((a, i), (b, m)) for a, i, b, m in asked + [record[:4] for record in records]]
    assert lookup.contains_many(pairs).tolist() == [lookup.contains(*pair) for pair in pairs]
    best = lookup.best_many(pairs).tolist()
    assert [None if np.isnan(score) else score for score in best] == [lookup.best(*pair) for pair in pairs]
    assert RowsLookup([]).contains_many(pairs).tolist() == [False] * len(pairs)


@given(st.lists(st.tuples(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1)), unique=True, max_size=20),
       st.lists(st.tuples(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1)), max_size=10))
def test_key_positions_are_a_dictionary_of_the_keys(keys, others):
    at = {key: position for position, key in enumerate(keys)}
    wanted = keys + others
    codes = key_codes(np.array([d for d, _ in wanted], np.int64), np.array([s for _, s in wanted], np.int64))
    assert KeyPositions(keys).of(codes).tolist() == [at.get(key, -1) for key in wanted]


def test_pair_key_rows_joins_every_kind_of_source():
    rows = _rows([(0, 1, 2, 3, 1.0, False)])
    found = FoundPairs()
    found.add((4, 5), (6, 7), 0.5)
    joined = pair_key_rows(rows, found, [((8, 9), (1, 1))], np.array([[2, 2], [3, 3]], np.int32))
    assert joined.dtype == np.int32
    assert joined.tolist() == [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [1, 1], [2, 2], [3, 3]]
    assert pair_key_rows().shape == (0, 2)


@settings(deadline=None)
@given(_RECORDS, st.sets(st.tuples(st.integers(0, 4), st.integers(0, 3))), st.sets(st.tuples(st.integers(0, 4), st.integers(0, 3))))
def test_a_verdict_judges_rows_as_it_judges_each_pair(records, first, second):
    verdict = Boilerplate(dict.fromkeys(first, 2), dict.fromkeys(second, 3))
    rows = _rows(records)
    assert verdict.pairs_of(rows).tolist() == [verdict.pair(a, b) for a, b in rows]
    same = Boilerplate(dict.fromkeys(first, 2), dict.fromkeys(first, 2))
    assert same.pairs_of(rows).tolist() == [same.pair(a, b) for a, b in rows]


@given(st.lists(st.tuples(st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1)), max_size=20))
def test_one_key_is_coded_as_the_arrays_code_it(keys):
    documents = np.array([d for d, _ in keys], np.int64)
    sentences = np.array([s for _, s in keys], np.int64)
    assert [key_code(d, s) for d, s in keys] == key_codes(documents, sentences).tolist()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**20), st.integers(0, 5000)), max_size=20))
def test_codes_of_keys_held_as_arrays_are_those_of_the_tuples(pairs):
    held = SentenceKeys(np.array([d for d, _ in pairs], np.int64), np.array([s for _, s in pairs], np.int64))
    assert codes_of(held).tolist() == codes_of(pairs).tolist() == [key_code(d, s) for d, s in pairs]
    assert KeyPositions(held).of(codes_of(pairs)).tolist() == KeyPositions(pairs).of(codes_of(pairs)).tolist()
