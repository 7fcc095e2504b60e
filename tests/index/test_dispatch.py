"""The index of a method: sentences handed as arrays search as a FeatureIndex does."""

from collections import Counter
from types import SimpleNamespace

from hypothesis import given, settings, strategies as st

from partialdup.index.dispatch import sentence_index_of
from partialdup.index.exact_first import ExactFirstIndex
from partialdup.index.inverted import FeatureIndex, FlatSentences, entry_keys
from partialdup.index.sparse import SparseIndex
from partialdup.methods.similarity import CopyRule

bags = st.dictionaries(st.integers(0, 12), st.integers(1, 3), max_size=8).map(Counter)
rules = st.builds(CopyRule, threshold=st.sampled_from([0.2, 0.5, 1.0]), containment=st.sampled_from([0.0, 0.8]),
                  min_contained=st.integers(1, 3))
BAG_KIND = SimpleNamespace(search_kind="bag")


def _triples(found):
    return list(zip(found.query.tolist(), found.key.tolist(), found.score.tolist(), found.shared.tolist()))


@settings(max_examples=200, deadline=None)
@given(st.lists(bags, min_size=1, max_size=14), st.lists(bags, max_size=5), rules, st.integers(1, 4), st.data())
def test_the_bag_index_of_arrays_finds_what_the_feature_index_finds(indexed, queries, rule, max_postings, data):
    documents = sorted(data.draw(st.lists(st.integers(0, 4), min_size=len(indexed), max_size=len(indexed))))
    positions = list(range(len(indexed)))
    plain = FeatureIndex(max_postings=max_postings)
    for document, position, bag in zip(documents, positions, indexed):
        plain.add(document, position, bag)
    reference = SparseIndex(plain)
    held = sentence_index_of(BAG_KIND, documents, positions, indexed, max_postings=max_postings)
    assert isinstance(held.index.sentences, FlatSentences)  # no object per sentence
    assert entry_keys(held.index.sentences) == entry_keys(plain.sentences)
    assert _triples(held.search_all(rule)) == _triples(reference.search_all(rule))
    query_docs = data.draw(st.lists(st.integers(-1, 4), min_size=len(queries), max_size=len(queries)))
    assert _triples(held.search(queries, rule, docs=query_docs)) == _triples(reference.search(queries, rule, docs=query_docs))
    assert (held.frequent_features(), held.frequent_sentences()) == (reference.frequent_features(), reference.frequent_sentences())
    assert [(e.doc, e.sentence, dict(e.bag), e.size) for e in held.index.sentences] == [
        (e.doc, e.sentence, dict(e.bag), e.size) for e in plain.sentences]


def test_an_exact_first_stage_still_reads_a_feature_index():
    bags_of = [Counter({1: 1, 2: 1}), Counter({1: 1, 2: 1}), Counter({3: 1})]
    built = sentence_index_of(BAG_KIND, [0, 1, 2], [0, 0, 0], bags_of, max_postings=5, exact="bloom")
    assert isinstance(built, ExactFirstIndex)
    rule = CopyRule(0.5, 0.0, 1)
    assert [(q, k) for q, k, *_ in _triples(built.search_all(rule))] == [(1, 0)]
