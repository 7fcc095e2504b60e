"""Tests of partialdup.index.exact_first: the exact stage loses nothing and counts its false positives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.index.dispatch import sentence_index
from partialdup.index.exact_first import ExactFirstIndex
from partialdup.index.inverted import FeatureIndex
from partialdup.methods.setsim import WordJaccard
from partialdup.methods.similarity import CopyRule
from partialdup.methods.simhash import SimHash

WORDS = [f"w{i}" for i in range(6)]
sentences = st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), min_size=2, max_size=30)


def _pairs(matches):
    return list(zip(matches.query.tolist(), matches.key.tolist(), matches.score.tolist(), matches.shared.tolist()))


@settings(max_examples=40, deadline=None)
@given(sentences, st.sampled_from(["bloom", "trie"]), st.sampled_from(["jaccard", "simhash"]))
def test_the_exact_stage_returns_exactly_what_the_plain_search_returns(token_lists, kind, name):
    method = WordJaccard() if name == "jaccard" else SimHash(hamming_bound=6)
    index = FeatureIndex(max_postings=10**9)
    for key, tokens in enumerate(token_lists):
        index.add(key % 3, key, method.bag(tokens))  # few words, three documents: many exact duplicates
    rule = CopyRule(0.5 if name == "jaccard" else 1 - 6 / 64)
    plain = sentence_index(method, index)
    exact = sentence_index(method, index, exact=kind, rate=0.01)
    assert isinstance(exact, ExactFirstIndex)
    assert _pairs(exact.search_all(rule)) == _pairs(plain.search_all(rule))
    bags = [method.bag(tokens) for tokens in token_lists]
    docs = [key % 3 for key in range(len(bags))]
    assert _pairs(exact.search(bags, rule, docs=docs)) == _pairs(plain.search(bags, rule, docs=docs))
    stats = exact.stats
    assert stats.removed == len(token_lists) - len({tuple(sorted(b.items())) for b in bags})
    if kind == "trie":
        assert stats.false_positives == 0 and stats.design_rate == 0.0


def test_a_crowded_bloom_filter_reports_false_positives_near_its_design_rate():
    # 3,000 distinct real-looking keys in a filter sized at 10 %: the
    # measured rate over the look-ups of new keys is near the design rate.
    method = WordJaccard()
    index = FeatureIndex()
    for key in range(3000):
        index.add(key, 0, method.bag([f"k{key}", f"j{key % 7}"]))
    stats = ExactFirstIndex(index, lambda left: sentence_index(method, left), "bloom", 0.1).stats
    assert stats.probes == 3000 and stats.removed == 0
    assert 0.5 * stats.design_rate <= stats.measured_rate <= 2 * stats.design_rate
