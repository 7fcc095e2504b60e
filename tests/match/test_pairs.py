import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from partialdup.match.pair_rows import PairRows
from partialdup.match.pairs import FoundPairs, evident, rejoined_hits
from partialdup.index.sparse import PairMatches
from partialdup.core.types import SentencePair


def test_pairs_are_kept_per_document_pair_highest_score_whatever_the_order():
    found = FoundPairs()
    found.add((0, 3), (1, 7), 0.8)
    found.add((0, 4), (2, 1), 1.0)
    found.add((0, 3), (1, 7), 0.9)  # found again: its best score stays
    found.add((0, 1), (1, 2), 0.5)
    assert found.distinct((0, 1)) == [SentencePair(1, 2, 0.5), SentencePair(3, 7, 0.9)]
    assert found.distinct((0, 2)) == [SentencePair(4, 1, 1.0)]
    again = FoundPairs()  # the same records in the other order: the same pairs
    again.add((0, 1), (1, 2), 0.5)
    again.add((0, 3), (1, 7), 0.9)
    again.add((0, 3), (1, 7), 0.8)
    assert again.distinct((0, 1)) == found.distinct((0, 1))


def test_tentative_only_when_never_recorded_firmly():
    found = FoundPairs()
    found.add((0, 1), (1, 1), 1.0, tentative=True)
    found.add((0, 2), (1, 2), 1.0, tentative=True)
    found.add((0, 2), (1, 2), 0.7)
    assert found.is_tentative((0, 1), (1, 1))
    assert not found.is_tentative((0, 2), (1, 2))


def test_the_order_orients_every_pair_the_same_way():
    found = FoundPairs(order=range(10))
    found.add((5, 1), (2, 9), 0.7)
    assert found.distinct((2, 5)) == [SentencePair(9, 1, 0.7)]


def test_rejoined_parts_both_pair_with_the_whole_sentence():
    found = FoundPairs()
    found.add_rejoined(((0, 3), (0, 4)), (1, 7), 0.9)
    assert found.distinct((0, 1)) == [SentencePair(3, 7, 0.9), SentencePair(4, 7, 0.9)]


def test_a_part_matching_as_well_on_its_own_keeps_its_neighbour_out():
    found = FoundPairs()
    found.add((0, 4), (1, 7), 1.0)  # the sentence after an option line
    found.add_rejoined(((0, 3), (0, 4)), (1, 7), 0.7)
    assert found.distinct((0, 1)) == [SentencePair(4, 7, 1.0)]


def test_a_part_matching_exactly_as_well_keeps_its_neighbour_out_held_as_rows_or_not():
    # The tail's way: whole matches held as rows, the rejoined records at once.
    for held in (False, True):
        found = FoundPairs()
        whole = [((0, 4), (1, 7), 0.7, False)]
        found.add_firm(PairRows.of_records(whole) if held else whole)
        found.add_rejoined_many([(((0, 3), (0, 4)), (1, 7), 0.7, True), (((0, 5), (0, 6)), (1, 8), 0.6, True)])
        assert found.distinct((0, 1)) == [SentencePair(4, 7, 0.7), SentencePair(5, 8, 0.6), SentencePair(6, 8, 0.6)]


def test_rejoined_parts_on_the_second_side():
    found = FoundPairs()
    found.add((2, 0), (1, 6), 0.5)  # a part that matched worse on its own
    found.add_rejoined(((1, 6), (1, 7)), (2, 0), 0.9, parts_first=False)
    assert found.distinct((2, 1)) == [SentencePair(0, 6, 0.5), SentencePair(0, 7, 0.9)]


def matches(rows, keys, scores):
    return PairMatches(np.array(rows), np.array(keys), np.array(scores, dtype=float), np.full(len(rows), 3), len(rows), 0)


def test_rejoined_hits_keep_every_row_by_row():
    # Boilerplate is no longer decided here: a row matching three documents stays.
    keys = [(doc, sentence) for doc, sentence in ((0, 4), (1, 0), (2, 0), (2, 1))]
    hits = list(rejoined_hits(matches([1, 1, 0, 0, 0], [2, 3, 0, 1, 2], [1.0] * 5), keys))
    assert [(row, key) for row, key, _ in hits] == [(0, (0, 4)), (0, (1, 0)), (0, (2, 0)), (1, (2, 0)), (1, (2, 1))]


def test_split_off_moves_the_pairs_apart_with_their_records():
    found = FoundPairs()
    found.add((0, 1), (1, 1), 0.9, weak=True)
    found.add((0, 2), (1, 2), 0.8)
    found.add((0, 3), (2, 3), 0.7)
    apart = found.split_off(lambda first, second: first == (0, 2) or second[0] == 2)
    assert sorted(found.pairs()) == [((0, 1), (1, 1))]
    assert sorted(apart.pairs()) == [((0, 2), (1, 2)), ((0, 3), (2, 3))]
    assert found.is_weak((0, 1), (1, 1)) and apart.distinct((0, 1)) == [SentencePair(2, 2, 0.8)]
    assert list(found.by_documents) == [(0, 1)]


def test_has_sees_a_pair_in_either_order_when_swapped():
    found = FoundPairs(order=range(10))
    found.add((5, 1), (2, 9), 0.7)
    assert found.has((2, 9), (5, 1)) and found.has((5, 1), (2, 9)) and not found.has((5, 2), (2, 9))
    found.add_rejoined(((3, 0), (3, 1)), (2, 9), 0.9)
    assert not found.has((3, 0), (2, 9))  # rejoined pairs are not whole-sentence copies


def pair_list(*positions):
    return [SentencePair(a, b, 1.0) for a, b in positions]


def test_a_weak_pair_alone_needs_agreeing_characters():
    pairs = pair_list((3, 7), (10, 2))
    weak = {(3, 7)}
    kept = evident(pairs, lambda p: (p.a, p.b) in weak, lambda p: False, reach=4)
    assert [(p.a, p.b) for p in kept] == [(10, 2)]
    kept = evident(pairs, lambda p: (p.a, p.b) in weak, lambda p: True, reach=4)
    assert [(p.a, p.b) for p in kept] == [(3, 7), (10, 2)]


@pytest.mark.parametrize(
    "neighbour, kept",
    [
        ((4, 8), True),  # the next pair on both sides
        ((7, 11), True),  # within reach (4) on both sides
        ((8, 8), False),  # too far in A
        ((2, 6), True),  # the pair before
        ((4, 6), False),  # after in A, before in B: they cannot chain
        ((3, 9), False),  # the same A sentence
    ],
)
def test_a_weak_pair_with_a_pair_it_could_chain_with_is_kept(neighbour, kept):
    pairs = pair_list((3, 7), neighbour)
    asked = []
    result = evident(pairs, lambda p: (p.a, p.b) == (3, 7), lambda p: asked.append(p) or False, reach=4)
    assert ((3, 7) in [(p.a, p.b) for p in result]) == kept
    assert bool(asked) != kept  # characters are looked at only without a neighbour


def test_weak_pairs_are_marked_in_their_stored_orientation():
    # detect stores a pair with the smaller document first, whichever came first.
    found = FoundPairs(order=range(10))
    found.add((2, 5), (1, 9), 0.7, weak=True)
    found.add((1, 3), (2, 4), 0.9)
    assert found.is_weak((1, 9), (2, 5)) and not found.is_weak((1, 3), (2, 4))


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
                          st.sampled_from([0.0, 0.3, 0.5, 1.0]), st.booleans()), max_size=20))
def test_adding_firm_records_at_once_is_adding_them_one_by_one(records):
    records = [((a, i), (b, m), score, weak) for a, i, b, m, score, weak in records if a != b]
    one, many = FoundPairs(order=[2, 0, 3, 1]), FoundPairs(order=[2, 0, 3, 1])
    for first, second, score, weak in records:
        one.add(first, second, score, weak=weak)
    many.add_firm(records)
    assert dict(one.by_documents) == dict(many.by_documents)
    for first, second, _, _ in records:
        a, b = one.oriented(first, second)
        assert one.is_weak(a, b) == many.is_weak(a, b) and one.has(first, second) and many.has(first, second)
        assert one.distinct((a[0], b[0])) == many.distinct((a[0], b[0]))


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
                          st.sampled_from([0.0, 0.3, 0.5, 1.0]), st.booleans()), max_size=20),
       st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
                          st.sampled_from([0.0, 0.4, 0.7, 1.0])), max_size=20),
       st.one_of(st.none(), st.permutations(range(4))))
def test_adding_records_at_once_is_adding_them_one_by_one(firm, records, order):
    # add_all after whole matches put off (add_firm) or not, pairs met twice,
    # oriented by document place or not: what add gives, record by record.
    firm = [((a, i), (b, m), score, weak) for a, i, b, m, score, weak in firm if a != b]
    records = [((a, i), (b, m), score) for a, i, b, m, score in records if a != b]
    one, many = FoundPairs(order=order), FoundPairs(order=order)
    for found in (one, many):
        found.add_firm(firm)
    for first, second, score in records:
        one.add(first, second, score)
    many.add_all(records)
    assert list(one.by_documents.items()) == list(many.by_documents.items())
    assert one._direct == many._direct and one._firm == many._firm and one._weak == many._weak
    assert one._tentative == many._tentative == set() and one._words_only == many._words_only == set()


def test_marks_set_after_adding_change_how_a_pair_was_found():
    found = FoundPairs(order=[1, 0])
    found.add_firm([((0, 3), (1, 4), 1.0, True), ((0, 5), (1, 6), 1.0, False)])
    a, b = found.oriented((0, 3), (1, 4))
    assert (a, b) == ((1, 4), (0, 3)) and found.is_weak(a, b) and not found.is_tentative(a, b)
    found.mark_strong((0, 3), (1, 4))
    found.mark_tentative((0, 5), (1, 6))
    assert not found.is_weak(a, b)
    assert found.is_tentative(*found.oriented((0, 5), (1, 6)))


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
                          st.sampled_from([0.0, 0.5, 1.0]), st.booleans()), max_size=12),
       st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)), max_size=6),
       st.booleans(), st.booleans())
def test_whole_matches_put_off_read_as_if_recorded_at_once(records, others, firm_first, split):
    # add_firm's records are made into pairs only when read: whatever the
    # order of the calls and a split_off between, the same lists, same order.
    records = [((a, i), (b, m), score, weak) for a, i, b, m, score, weak in records if a != b]
    others = [((a, i), (b, m)) for a, i, b, m in others if a != b]
    lazy, eager = FoundPairs(order=[2, 0, 3, 1]), FoundPairs(order=[2, 0, 3, 1])
    calls = [lambda f: f.add_firm(records), lambda f: [f.add(x, y, 0.4) for x, y in others]]
    for call in calls if firm_first else calls[::-1]:
        call(lazy)
    for call in calls if firm_first else calls[::-1]:
        call(eager)
        eager.by_documents  # made at once
    apart = (lambda a, b: (a[1] + b[1]) % 2 == 0) if split else (lambda a, b: False)
    lazy_apart, eager_apart = lazy.split_off(apart), eager.split_off(apart)
    assert sorted(lazy.pairs()) == sorted(eager.pairs())
    assert list(lazy.by_documents.items()) == list(eager.by_documents.items())
    assert list(lazy_apart.by_documents.items()) == list(eager_apart.by_documents.items())


def _rows(records, weak=True):
    # PairRows of (first, second, score[, weak]) records.
    columns = [[first[0] for first, *_ in records], [first[1] for first, *_ in records],
               [second[0] for _, second, *_ in records], [second[1] for _, second, *_ in records]]
    return PairRows.of(*(np.array(column, np.int64) for column in columns), np.array([r[2] for r in records], np.float64),
                       np.array([r[3] for r in records], bool) if weak else None)


_KEYS = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3))


@settings(deadline=None, max_examples=200)
@given(st.lists(st.tuples(_KEYS, st.sampled_from([0.2, 0.5, 1.0]), st.booleans()), max_size=14),
       st.lists(st.tuples(_KEYS, st.sampled_from([0.3, 0.6, 1.0])), max_size=10),
       st.lists(st.tuples(_KEYS, st.sampled_from([0.4, 0.7]), st.booleans()), max_size=6),
       st.lists(st.tuples(_KEYS, st.integers(0, 3), st.integers(0, 3), st.sampled_from([0.5, 0.8])), max_size=4),
       st.one_of(st.none(), st.permutations(range(4))), st.integers(0, 3), st.booleans())
def test_records_held_as_rows_read_as_if_added_one_by_one(whole, near, edited, rejoined, order, boilerplate, spans_apart):
    # The detect tail's calls, with the whole matches and the near misses
    # given as rows or as records: every answer the same, before and after
    # a split_off (by masks or one by one), on both sides.
    whole = [((a, i), (b, m), score, weak) for (a, i, b, m), score, weak in whole if a != b]
    near = [((a, i), (b, m), score) for (a, i, b, m), score in near if a != b]
    edited = [((a, i), (b, m), score, tentative) for (a, i, b, m), score, tentative in edited if a != b]
    rejoined = [(((a, i), (a, i + 1)), (b, m), score, side < 2) for (a, i, b, _), m, side, score in rejoined if a != b]
    plain, held = FoundPairs(order=order), FoundPairs(order=order)
    plain.add_firm(whole)
    plain.add_all(near)
    held.add_firm(_rows(whole))
    held.add_all(_rows(near, weak=False))
    queries = [((a, i), (b, m)) for a in range(4) for b in range(4) if a != b for i in range(3) for m in range(3)]
    keys = sorted({key for pair in queries for key in pair})
    assert plain.found_rows(keys, keys)(*_positions(keys, queries)).tolist() == held.found_rows(keys, keys)(
        *_positions(keys, queries)).tolist()
    for found in (plain, held):
        for first, second, score, tentative in edited:
            if not found.has(first, second):
                found.add(first, second, score, tentative=tentative, words_only=not tentative)
    # One by one (plain), all at once (held: the tail's way).
    for parts, other, score, parts_first in rejoined:
        plain.add_rejoined(parts, other, score, parts_first=parts_first)
    held.add_rejoined_many(rejoined)
    assert plain.edited() == held.edited()
    assert held.has_many(queries) == [plain.has(*pair) for pair in queries] == plain.has_many(queries)
    from_rows = sorted(((a, i), (b, m)) for (a, i), (b, m) in held.key_rows().reshape(-1, 2, 2).tolist())
    assert sorted(plain.pairs()) == sorted(held.pairs()) == from_rows
    apart = lambda a, b: a[0] == boilerplate or b[1] == boilerplate  # noqa: E731
    plain_apart = plain.split_off(apart)
    held_apart = held.split_off(apart, (lambda rows: np.array([apart(a, b) for a, b in rows], bool)) if spans_apart else None)
    for one, other in ((plain, held), (plain_apart, held_apart)):
        # Each document pair's records in the same order (the document pairs
        # may come in another: a pair whose whole matches all went to the
        # other side is not placed by them).
        assert dict(one.by_documents) == dict(other.by_documents)
        assert [one.has(*pair) for pair in queries] == [other.has(*pair) for pair in queries] == other.has_many(queries)
        for (a, b), pairs in list(one.by_documents.items()):  # how each pair a side holds was found
            for pair in pairs:
                first, second = (a, pair.a), (b, pair.b)
                assert (one.is_weak(first, second), one.is_tentative(first, second), one.is_words_only(first, second)) == (
                    other.is_weak(first, second), other.is_tentative(first, second), other.is_words_only(first, second))
            assert one.distinct((a, b)) == other.distinct((a, b))


def _positions(keys, pairs):
    at = {key: position for position, key in enumerate(keys)}
    return np.array([at[a] for a, _ in pairs], np.int64), np.array([at[b] for _, b in pairs], np.int64)


def test_rows_after_other_records_are_added_one_by_one_in_their_place():
    found, plain = FoundPairs(), FoundPairs()
    for one in (found, plain):
        one.add((0, 1), (1, 1), 0.5)
    found.add_firm(_rows([((1, 2), (0, 3), 1.0, True), ((0, 1), (1, 1), 0.9, False)]))
    plain.add_firm([((1, 2), (0, 3), 1.0, True), ((0, 1), (1, 1), 0.9, False)])
    assert not found._rows and list(found.by_documents.items()) == list(plain.by_documents.items())
    assert found.is_weak((1, 2), (0, 3)) and found.distinct((0, 1)) == [SentencePair(1, 1, 0.9)]


@pytest.mark.parametrize("weak", [False, True])
@pytest.mark.parametrize("agrees", [False, True])
def test_a_lone_pair_stands_unless_weak_and_its_characters_disagree(weak, agrees):
    # Nothing can chain with a document pair's only pair: a weak one stands on its characters.
    pair = SentencePair(4, 9, 0.7)
    kept = evident([pair], lambda p: weak, lambda p: agrees, reach=4)
    assert kept == ([pair] if not weak or agrees else [])
    assert evident([], lambda p: True, lambda p: True, reach=4) == []
