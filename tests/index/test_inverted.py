from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.bags import FlatBags
from partialdup.index.inverted import (
    FeatureIndex, FlatSentences, IndexedSentence, SentenceKeys, entry_documents, entry_keys, rarest_prefix,
)
from partialdup.index.plain import QueryStats, plain_query


def _index(*bags, max_postings=100):
    index = FeatureIndex(max_postings=max_postings)
    for number, bag in enumerate(bags):
        index.add(number, 0, Counter(bag))
    return index


def test_only_sentences_sharing_a_feature_are_compared():
    index = _index({1: 1, 2: 1}, {3: 1}, {1: 1, 2: 1, 4: 1})
    stats = QueryStats()
    found = list(plain_query(index, Counter({1: 1, 2: 1}), 0.5, stats=stats))
    assert [m.key for m in found] == [0, 2]
    assert stats.candidate_pairs == 2


def test_identical_sentences_are_scored_once_as_a_group():
    index = _index({1: 1, 2: 1}, {3: 1}, {1: 1, 2: 1})
    stats = QueryStats()
    found = list(plain_query(index, Counter({1: 1, 2: 1}), 0.5, stats=stats))
    assert [(m.key, m.score) for m in found] == [(0, 1.0), (2, 1.0)]
    assert stats.candidate_pairs == 1
    assert index.members == [[0, 2], [1]]


def test_a_repeated_sentence_does_not_make_its_features_frequent():
    # 50 copies of one sentence are one distinct bag: its features are held
    # by one bag, under the bound, and a copy in another document is found.
    index = _index(*[{0: 1, 7: 1}] * 50, max_postings=10)
    assert index.frequent_features() == 0
    assert [m.key for m in plain_query(index, Counter({0: 1, 7: 1}), 0.5, doc=3)] == [k for k in range(50) if k != 3]


def test_identical_copies_are_found_when_every_feature_is_frequent():
    # Feature 0 is in 12 distinct bags (over the bound 10); the two {0: 1}
    # sentences share no usual feature, yet are each other's copy.
    bags = [{0: 1, 100 + i: 1} for i in range(11)] + [{0: 1}, {0: 1}]
    index = _index(*bags, max_postings=10)
    assert index.frequent_features() == 1 and index.frequent_sentences() == 13
    assert [m.key for m in plain_query(index, Counter({0: 1}), 0.5, doc=11)] == [12]


def test_own_document_and_later_keys_are_excluded():
    index = _index({1: 1}, {1: 1}, {1: 1})
    assert [m.key for m in plain_query(index, Counter({1: 1}), 0.5, doc=0)] == [1, 2]
    assert [m.key for m in plain_query(index, Counter({1: 1}), 0.5, below_key=2)] == [0, 1]


def test_length_bound_prunes_before_counting():
    index = _index({1: 1}, dict.fromkeys(range(1, 11), 1))
    stats = QueryStats()
    assert [m.key for m in plain_query(index, Counter({1: 1}), 0.5, stats=stats)] == [0]
    assert stats.candidate_pairs == 1  # the ten-feature bag was never counted


def test_frequent_feature_is_bounded_and_reported():
    bags = [{0: 1, 100 + i: 1} for i in range(50)] + [{0: 1, 7: 1}, {0: 1, 7: 1}]
    index = _index(*bags, max_postings=10)
    stats = QueryStats()
    # At tau 0.3 a match needs one shared feature, so both features must be
    # read; feature 0 is over the bound: it is skipped and reported, and the
    # sentences sharing only it (Jaccard 1/3) are not found.
    found = list(plain_query(index, Counter({0: 1, 7: 1}), 0.3, stats=stats))
    assert [m.key for m in found] == [50, 51]
    assert all(m.score == 1.0 for m in found)  # scored on full bags, frequent feature included
    assert stats.skipped_postings == 52
    assert index.frequent_features() == 1


def test_prefix_filtering_reads_only_the_rarest_features():
    # Feature 0 is in every sentence; at tau 0.6 a match must share both
    # features, so only the rarer one (7) is read and nothing is skipped.
    bags = [{0: 1, 100 + i: 1} for i in range(50)] + [{0: 1, 7: 1}]
    index = _index(*bags, max_postings=10)
    stats = QueryStats()
    assert [m.key for m in plain_query(index, Counter({0: 1, 7: 1}), 0.6, stats=stats)] == [50]
    assert stats.candidate_pairs == 1 and stats.skipped_postings == 0


def test_rarest_prefix_holds_the_features_a_match_must_share_one_of():
    bag = Counter({10: 1, 20: 2, 30: 1, 40: 1})  # five features, multiplicities counted
    held = {10: 5, 20: 1, 30: 9, 40: 1}.__getitem__
    # tau 0.6: a match shares >= 3 of 5, so it holds one of the 5 - 3 + 1 = 3 rarest.
    assert rarest_prefix(bag, held, 0.6) == [20, 40]  # 20 counts twice
    assert rarest_prefix(bag, held, 1.0) == [20]
    assert rarest_prefix(bag, held, None) == [20, 40, 10, 30]  # containment: any of them


def test_flat_sentences_make_each_sentence_once_as_the_list_would_hold_it():
    bags = [{1: 2, 5: 1}, {}, {7: 1}]
    held = FlatSentences(np.array([0, 0, 3]), np.array([1, 4, 0]), FlatBags.of(bags))
    expected = [IndexedSentence(0, 1, bags[0], 3), IndexedSentence(0, 4, {}, 0), IndexedSentence(3, 0, bags[2], 1)]
    assert len(held) == 3 and held._made == {}
    assert held[2] == expected[2] and held[-1] is held[2] and len(held._made) == 1
    assert list(held) == expected and held[0:2] == expected[:2]
    assert entry_keys(held) == entry_keys(expected) == [(0, 1), (0, 4), (3, 0)]
    assert entry_documents(held).tolist() == entry_documents(expected).tolist() == [0, 0, 3]
    with pytest.raises(IndexError):
        held[3]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**40), st.integers(0, 5000)), max_size=20), st.data())
def test_sentence_keys_read_as_the_list_of_tuples(pairs, data):
    plain = list(pairs)  # the plain reference: the list entry_keys once made
    held = SentenceKeys(np.array([d for d, _ in pairs], np.int64), np.array([s for _, s in pairs], np.int64))
    assert held == plain and list(held) == plain and len(held) == len(plain)
    assert all(type(value) is int for key in held for value in key)
    if plain:
        index = data.draw(st.integers(-len(plain), len(plain) - 1))
        assert held[index] == plain[index]
    cut = slice(data.draw(st.none() | st.integers(-22, 22)), data.draw(st.none() | st.integers(-22, 22)))
    assert held[cut] == plain[cut]
    assert held != [list(key) for key in plain] or not plain  # lists are not the tuples it holds
    with pytest.raises(IndexError):
        held[len(plain)]
