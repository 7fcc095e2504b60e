"""Tests of partialdup.match.boilerplate: one verdict per group of copies."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.match.boilerplate import (
    boilerplate_verdict,
    boilerplate_verdict_plain,
    _components,
    _smallest_linked,
    _groups,
    collection_boilerplate,
    reference_boilerplate,
)


def chain(*keys):
    return list(zip(keys, keys[1:]))


def every_pair(*keys):
    return [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :]]


#: One sentence copied verbatim in four documents: each copy in three others.
TEMPLATE = every_pair((0, 1), (1, 1), (2, 1), (3, 5))


def test_a_group_is_boilerplate_when_most_of_its_copies_are_in_enough_other_documents():
    odd = [((3, 5), (4, 0))]  # a fifth copy, found only beside one of them
    verdict = collection_boilerplate(TEMPLATE + odd, [TEMPLATE + odd], 3)
    assert set(verdict.first) == {(0, 1), (1, 1), (2, 1), (3, 5), (4, 0)}
    assert verdict.first[(4, 0)] == 4  # other documents holding a copy
    assert all(verdict.pair(a, b) for a, b in TEMPLATE + odd)


def test_one_widely_copied_sentence_does_not_make_its_copies_boilerplate():
    # (0,1) is found in three other documents, none of which finds the others:
    # one copy of four is widely copied; the passage stays a copy, for every pair.
    star = [((0, 1), (d, 1)) for d in (1, 2, 3)]
    assert len(collection_boilerplate(star, [star], 3)) == 0


def test_copies_counted_one_by_one_below_the_limit_stay_copies():
    # A chain of copies through four documents: no copy is in three others.
    pairs = chain((0, 0), (1, 0), (2, 0), (3, 0))
    assert len(collection_boilerplate(pairs, [pairs], 3)) == 0
    assert len(collection_boilerplate(pairs, [pairs], 2)) == 4  # (1,0) is in 0 and 2


def test_each_stage_counts_apart():
    # Copies in four documents, two found by whole matches and one by a near
    # miss for each: three others in no stage.
    whole = every_pair((0, 1), (1, 1), (2, 1))
    near = [((3, 1), (d, 1)) for d in (0, 1, 2)]
    assert len(collection_boilerplate(whole + near, [whole, near], 3)) == 0
    assert len(collection_boilerplate(whole + near, [whole + near], 3)) == 4


def test_pairs_that_do_not_count_still_join_the_group():
    edited = [((3, 5), (4, 7))]  # an edited copy: joins, counts nothing
    verdict = collection_boilerplate(TEMPLATE + edited, [TEMPLATE], 3)
    assert verdict.pair((3, 5), (4, 7)) and (4, 7) in verdict.first
    assert len(collection_boilerplate(TEMPLATE + edited, [], 3)) == 0


def test_the_rule_off_or_no_pairs():
    pairs = [((0, 0), (d, 0)) for d in range(1, 6)]
    assert len(collection_boilerplate(pairs, [pairs], 0)) == 0
    assert len(collection_boilerplate([], [], 3)) == 0


def test_check_counts_reference_documents_only():
    # Four queries share a sentence that one reference holds: not boilerplate.
    pairs = [((q, 0), (0, 3)) for q in range(4)]
    assert len(reference_boilerplate(pairs, [pairs], 3)) == 0
    # One query sentence in three references: boilerplate, with the references' sentences.
    pairs = [((0, 2), (r, 5)) for r in range(3)]
    verdict = reference_boilerplate(pairs, [pairs], 3)
    assert dict(verdict.first) == {(0, 2): 3} and verdict.second_keys() == {(0, 5), (1, 5), (2, 5)}
    # Query and reference numbers are apart: query 1 is not reference 1.
    assert not verdict.pair((1, 5), (3, 0))


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(0, 5), st.integers(0, 3)), max_size=25),
       st.integers(1, 4), st.booleans())
def test_a_verdict_is_the_same_for_both_sentences_of_every_pair(edges, limit, one_collection):
    pairs = [((a, i), (b, m)) for a, i, b, m in edges if a != b or not one_collection]
    verdict = boilerplate_verdict(pairs, [pairs], limit, one_collection=one_collection)
    for first, second in pairs:  # all or none: a pair's two sentences are copies of each other
        assert (first in verdict.first) == (second in verdict.second) == verdict.pair(first, second)


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 4), st.integers(0, 3), st.integers(0, 1), st.integers(0, 4),
                          st.integers(0, 3)), max_size=30))
def test_the_fast_groups_are_the_union_find_groups(edges):
    pairs = [((s, (a, i)), (t, (b, m))) for s, a, i, t, b, m in edges]
    plain, fast = _groups(pairs), _components(pairs)
    assert plain.keys() == fast.keys()
    for node in plain:  # the same partition: two nodes share a plain root exactly when they share a number
        for other in plain:
            assert (plain[node] == plain[other]) == (fast[node] == fast[other])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 300).flatmap(lambda size: st.tuples(st.just(size), st.lists(st.tuples(st.integers(0, size - 1), st.integers(0, size - 1)), max_size=400))))
def test_each_node_is_labelled_with_the_smallest_node_linked_to_it(graph):
    import numpy as np

    size, edges = graph
    # The plain reference: a union-find whose roots are the smallest nodes.
    parent = list(range(size))

    def root(node):
        while parent[node] != node:
            node = parent[node]
        return node

    for a, b in edges:
        ra, rb = root(a), root(b)
        parent[max(ra, rb)] = min(ra, rb)
    first, second = np.array([a for a, _ in edges], np.int64), np.array([b for _, b in edges], np.int64)
    assert _smallest_linked(first, second, size).tolist() == [root(node) for node in range(size)]


def test_a_long_chain_in_the_worst_order_is_one_group():
    import numpy as np

    size = 20_000  # edges from the far end first, nodes numbered against the chain
    first = np.arange(size - 1, 0, -1, dtype=np.int64)
    assert _smallest_linked(first, first - 1, size).tolist() == [0] * size
    shuffled = np.random.default_rng(7).permutation(size)
    assert set(_smallest_linked(shuffled[:-1], shuffled[1:], size).tolist()) == {0}


def test_crowded_sentences_count_as_widely_copied_though_their_pairs_are_not_given():
    # detect: sentences copied in CROWD_DOCUMENTS or more other documents
    # lose their pairs among themselves; the rule is told they are widely
    # copied, so their group is judged as with every pair made.
    a, b, c = (0, 0), (1, 0), (2, 0)
    pairs = [(a, b), (b, c)]
    assert not boilerplate_verdict(pairs, [pairs], 3, one_collection=True)
    verdict = boilerplate_verdict(pairs, [pairs], 3, one_collection=True, crowded=[a, b])
    assert set(verdict.first) == {a, b, c}


_KEYS = st.tuples(st.integers(0, 6), st.integers(0, 4))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_KEYS, _KEYS), max_size=40), st.lists(st.lists(st.tuples(_KEYS, _KEYS), max_size=20), max_size=4),
       st.lists(_KEYS, max_size=4), st.integers(0, 4), st.booleans(), st.integers(0, 1000))
def test_the_verdict_on_arrays_is_the_plain_one_in_the_same_order(pairs, counted, crowded, limit, one_collection, shift):
    # Stages hold some of the run's pairs and some of their own, as a run's do;
    # `shift` moves the sentence numbers, far from the documents' numbers.
    move = lambda key: (key[0], key[1] * shift)
    pairs = [(move(a), move(b)) for a, b in pairs]
    counted = [[(move(a), move(b)) for a, b in stage] + pairs[: len(stage)] for stage in counted]
    crowded = [move(key) for key in crowded]
    fast = boilerplate_verdict(iter(pairs), [iter(stage) for stage in counted], limit, one_collection=one_collection,
                               crowded=iter(crowded))
    plain = boilerplate_verdict_plain(pairs, counted, limit, one_collection=one_collection, crowded=crowded)
    assert list(fast.first.items()) == list(plain.first.items())
    assert list(fast.second.items()) == list(plain.second.items())
