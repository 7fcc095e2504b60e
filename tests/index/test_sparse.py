from collections import Counter

import numpy as np

from hypothesis import given, settings, strategies as st

from partialdup.index.inverted import FeatureIndex
from partialdup.index.plain import plain_query
from partialdup.methods.similarity import CopyRule, shared_count
from partialdup.index.sparse import SparseIndex

bags = st.dictionaries(st.integers(0, 12), st.integers(1, 3), max_size=8).map(Counter)
rules = st.builds(
    CopyRule,
    threshold=st.sampled_from([0.2, 0.5, 0.6, 1.0]),
    containment=st.sampled_from([0.0, 0.5, 0.8, 1.0]),
    min_contained=st.integers(1, 4),
)


def _index(indexed, docs, max_postings):
    index = FeatureIndex(max_postings=max_postings)
    for position, (doc, bag) in enumerate(zip(docs, indexed)):
        index.add(doc, position, bag)
    return index


def _assert_search_agrees(index, queries, rule, query_docs) -> None:
    # The vectorised search gives the plain query's matches, in its order, with their shared counts.
    expected = [
        (q, m.key, m.score) for q, bag in enumerate(queries) for m in plain_query(index, bag, rule, doc=query_docs[q])
    ]
    found = SparseIndex(index).search(queries, rule, docs=query_docs)
    assert list(zip(found.query.tolist(), found.key.tolist(), found.score.tolist())) == expected
    shared = [shared_count(queries[q], index.sentences[k].bag) for q, k in zip(found.query.tolist(), found.key.tolist())]
    assert found.shared.tolist() == shared


@settings(max_examples=300, deadline=None)
@given(st.lists(bags, min_size=1, max_size=12), st.lists(bags, max_size=6), rules, st.integers(1, 4), st.data())
def test_search_agrees_with_reference_query(indexed, queries, rule, max_postings, data):
    docs = data.draw(st.lists(st.integers(0, 3), min_size=len(indexed), max_size=len(indexed)))
    query_docs = data.draw(st.lists(st.integers(-1, 3), min_size=len(queries), max_size=len(queries)))
    _assert_search_agrees(_index(indexed, docs, max_postings), queries, rule, query_docs)


@settings(max_examples=300, deadline=None)
@given(st.lists(bags, min_size=1, max_size=14), rules, st.integers(1, 4), st.data())
def test_search_all_agrees_with_reference_all_pairs(indexed, rule, max_postings, data):
    docs = sorted(data.draw(st.lists(st.integers(0, 3), min_size=len(indexed), max_size=len(indexed))))
    index = _index(indexed, docs, max_postings)
    expected = [
        (key, m.key, m.score)
        for key, entry in enumerate(index.sentences)
        for m in plain_query(index, entry.bag, rule, doc=entry.doc, below_key=key)
    ]
    found = SparseIndex(index).search_all(rule)
    assert list(zip(found.query.tolist(), found.key.tolist(), found.score.tolist())) == expected
    entries = index.sentences
    assert found.shared.tolist() == [shared_count(entries[q].bag, entries[k].bag) for q, k in zip(found.query.tolist(), found.key.tolist())]


def test_frequent_features_count_in_the_score_but_find_nothing():
    bags = [Counter({0: 1, 100 + i: 1}) for i in range(50)] + [Counter({0: 1, 7: 1}), Counter({0: 1, 7: 1})]
    index = _index(bags, list(range(len(bags))), max_postings=10)
    found = SparseIndex(index).search([Counter({0: 1, 7: 1})], CopyRule(0.3))
    assert found.key.tolist() == [50, 51] and found.score.tolist() == [1.0, 1.0]
    assert found.skipped_postings == 52


def test_containment_finds_a_short_sentence_inside_a_long_one():
    short, long = Counter({1: 1, 2: 1, 3: 1}), Counter(dict.fromkeys(range(1, 10), 1))
    index = _index([long], [0], max_postings=10)
    assert SparseIndex(index).search([short], CopyRule(0.6)).key.tolist() == []
    found = SparseIndex(index).search([short], CopyRule(0.6, containment=0.8, min_contained=3))
    assert found.key.tolist() == [0] and found.score.tolist() == [3 / 9]


def test_empty_index_and_empty_queries():
    index = FeatureIndex()
    assert SparseIndex(index).search([Counter({1: 1})], CopyRule(0.5)).key.tolist() == []
    index.add(0, 0, Counter({1: 1}))
    assert SparseIndex(index).search([], CopyRule(0.5)).key.tolist() == []
    assert SparseIndex(index).search_all(CopyRule(0.5)).key.tolist() == []


@settings(max_examples=100, deadline=None)
@given(st.lists(bags, max_size=12), st.integers(1, 4))
def test_counts_agree_with_the_plain_index(indexed, max_postings):
    index = _index(indexed, [0] * len(indexed), max_postings)
    fast = SparseIndex(index)
    assert fast.feature_count() == index.feature_count()
    assert fast.posting_count() == index.posting_count()
    assert fast.frequent_features() == index.frequent_features()


def test_blocks_bound_the_postings_reached(monkeypatch):
    import partialdup.index.sparse as module

    bags = [Counter({1: 1, 2: 1, 100 + i: 1}) for i in range(40)]
    index = _index(bags, list(range(40)), max_postings=100)
    whole = SparseIndex(index).search_all(CopyRule(0.5))
    monkeypatch.setattr(module, "BLOCK_POSTINGS", 10)
    fast = SparseIndex(index)
    # Every row reaches 2 features x 40 sentences + 1 = 81 postings, over the bound: one row a block.
    assert fast._block_bounds(fast._usual) == [(row, row + 1) for row in range(40)]
    small = fast.search_all(CopyRule(0.5))
    assert (small.query.tolist(), small.key.tolist()) == (whole.query.tolist(), whole.key.tolist())
    assert len(whole.key) == 40 * 39 // 2


@settings(max_examples=100, deadline=None)
@given(st.lists(bags, min_size=2, max_size=16), rules, st.integers(1, 6), st.data())
def test_search_all_expanded_in_small_slices_finds_the_same(indexed, rule, bound, data):
    # Each slice of group pairs is scored as it is expanded: as many slices
    # as pairs give the pairs, scores and shared counts of one slice.
    import partialdup.index.sparse as module

    docs = sorted(data.draw(st.lists(st.integers(0, 4), min_size=len(indexed), max_size=len(indexed))))
    index = _index(indexed, docs, 4)
    whole = SparseIndex(index).search_all(rule)
    default, module.EXPAND_PAIRS = module.EXPAND_PAIRS, bound
    try:
        sliced = SparseIndex(index).search_all(rule)
    finally:
        module.EXPAND_PAIRS = default
    for name in ("query", "key", "score", "shared"):
        assert getattr(sliced, name).tolist() == getattr(whole, name).tolist()


def test_sharing_keeps_the_pairs_with_enough_shared_features():
    index = FeatureIndex()
    for doc, bag in enumerate([Counter({1: 1, 2: 1, 3: 1}), Counter({1: 1, 9: 1})]):
        index.add(doc, 0, bag)
    found = SparseIndex(index).search([Counter({1: 1, 2: 1, 3: 1})], CopyRule(0.2), docs=[5])
    assert found.shared.tolist() == [3, 1]
    strong = found.sharing(2)
    assert (strong.key.tolist(), strong.shared.tolist(), strong.candidates) == ([0], [3], found.candidates)


# Few distinct bags, drawn again and again: groups of identical sentences,
# and (with a small max_postings) features over the bound.
pools = st.lists(bags.filter(len), min_size=1, max_size=5)


def _repeated(data, pool, most):
    picks = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=most))
    return [Counter(pool[p]) for p in picks]


def _plain_all_pairs(index, rule):
    return [
        (key, m.key, m.score)
        for key, entry in enumerate(index.sentences)
        for m in plain_query(index, entry.bag, rule, doc=entry.doc, below_key=key)
    ]


@settings(max_examples=300, deadline=None)
@given(pools, rules, st.integers(1, 3), st.data())
def test_search_all_with_duplicate_groups_agrees_with_the_plain_search(pool, rule, max_postings, data):
    indexed = _repeated(data, pool, 24)
    docs = sorted(data.draw(st.lists(st.integers(0, 5), min_size=len(indexed), max_size=len(indexed))))
    index = _index(indexed, docs, max_postings)
    found = SparseIndex(index).search_all(rule)
    assert list(zip(found.query.tolist(), found.key.tolist(), found.score.tolist())) == _plain_all_pairs(index, rule)
    entries = index.sentences
    assert found.shared.tolist() == [shared_count(entries[q].bag, entries[k].bag) for q, k in zip(found.query.tolist(), found.key.tolist())]


@settings(max_examples=300, deadline=None)
@given(pools, rules, st.integers(1, 3), st.data())
def test_search_with_duplicate_groups_agrees_with_the_plain_search(pool, rule, max_postings, data):
    indexed = _repeated(data, pool, 20)
    queries = _repeated(data, pool + [Counter({99: 1})], 6)
    docs = data.draw(st.lists(st.integers(0, 4), min_size=len(indexed), max_size=len(indexed)))
    query_docs = data.draw(st.lists(st.integers(-1, 4), min_size=len(queries), max_size=len(queries)))
    _assert_search_agrees(_index(indexed, docs, max_postings), queries, rule, query_docs)


@settings(max_examples=300, deadline=None)
@given(pools, rules, st.integers(1, 3), st.integers(1, 4), st.data())
def test_boilerplate_and_crowded_keys_drop_exactly_the_pairs_among_them(pool, rule, max_postings, limit, data):
    indexed = _repeated(data, pool, 24)
    docs = sorted(data.draw(st.lists(st.integers(0, 6), min_size=len(indexed), max_size=len(indexed))))
    crowded = data.draw(st.sets(st.integers(0, len(indexed) - 1), max_size=4))
    index = _index(indexed, docs, max_postings)
    pairs = _plain_all_pairs(index, rule)
    # As the detector's per-sentence rule: a key matched in `limit` or more other documents.
    documents: dict = {}
    for key, other, _ in pairs:
        documents.setdefault(key, set()).add(docs[other])
        documents.setdefault(other, set()).add(docs[key])
    common = {key for key, seen in documents.items() if len(seen) >= limit}
    apart = common | crowded
    found = SparseIndex(index).search_all(rule, boilerplate=limit, crowded=sorted(crowded))
    assert found.boilerplate.tolist() == sorted(common)
    expected = [(k, o, s) for k, o, s in pairs if not (k in apart and o in apart)]
    assert list(zip(found.query.tolist(), found.key.tolist(), found.score.tolist())) == expected


def test_members_of_a_large_group_pair_once_each():
    # The triangle of a 2,000-member group, 20 documents: every pair of
    # different documents once, larger key first.
    index = _index([Counter({1: 1, 2: 1})] * 2000, [k // 100 for k in range(2000)], max_postings=10)
    found = SparseIndex(index).search_all(CopyRule(0.5))
    assert len(found.key) == 2000 * 1999 // 2 - 20 * (100 * 99 // 2)
    assert bool((found.query > found.key).all()) and bool((found.query // 100 != found.key // 100).all())
    codes = found.query * 2000 + found.key
    assert len(np.unique(codes)) == len(codes) and bool((np.diff(codes) > 0).all())


@settings(max_examples=200, deadline=None)
@given(pools, rules, st.sampled_from([2, 50]), st.integers(1, 3), st.data())
def test_a_filter_applied_as_pairs_are_made_keeps_what_filtering_afterwards_keeps(pool, rule, max_postings, step, data):
    # search_all(keep=f) against the plain way: every pair made, then f; made
    # a few sentence pairs at a time (EXPAND_PAIRS), with crowded keys too;
    # and without the filter, every pair made a few at a time as made at once.
    import partialdup.index.sparse as module

    indexed = _repeated(data, pool, 24)
    docs = sorted(data.draw(st.lists(st.integers(0, 5), min_size=len(indexed), max_size=len(indexed))))
    crowded = data.draw(st.lists(st.integers(0, len(indexed) - 1), max_size=6)) if indexed else []
    searched = SparseIndex(_index(indexed, docs, max_postings))
    lengths = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(indexed), max_size=len(indexed))), np.int64)

    def keep(query, key, score):
        return (lengths[query] + lengths[key]) % 2 == 0

    every = searched.search_all(rule, crowded=crowded)
    mask = keep(every.query, every.key, every.score)
    original = module.EXPAND_PAIRS
    module.EXPAND_PAIRS = step
    try:
        kept = searched.search_all(rule, crowded=crowded, keep=keep)
        every_in_parts = searched.search_all(rule, crowded=crowded)
    finally:
        module.EXPAND_PAIRS = original
    for name in ("query", "key", "score", "shared"):
        assert getattr(kept, name).tolist() == getattr(every, name)[mask].tolist()
        assert getattr(every_in_parts, name).tolist() == getattr(every, name).tolist()
    assert kept.candidates == every.candidates


def _triples(found):
    return list(zip(found.query.tolist(), found.key.tolist(), found.score.tolist(), found.shared.tolist()))


@settings(max_examples=200, deadline=None)
@given(pools, st.lists(rules, min_size=1, max_size=4), st.integers(1, 3), st.data())
def test_searches_sharing_one_product_find_what_each_finds_alone(pool, expected, max_postings, data):
    # sharing_candidates: each expected rule's search_all (in any order,
    # with a rule expected twice, and one not expected) as on its own.
    indexed = _repeated(data, pool, 24)
    docs = sorted(data.draw(st.lists(st.integers(0, 5), min_size=len(indexed), max_size=len(indexed))))
    index = SparseIndex(_index(indexed, docs, max_postings))
    asked = data.draw(st.permutations(expected)) + [data.draw(rules)]
    crowded = data.draw(st.lists(st.integers(0, len(indexed) - 1), max_size=3))
    shared = index.sharing_candidates(expected)
    for rule in asked:
        alone, together = index.search_all(rule, crowded=crowded), shared.search_all(rule, crowded=crowded)
        assert _triples(together) == _triples(alone)
        assert together.candidates == alone.candidates


def test_a_shared_product_is_made_once_and_let_go_with_its_last_search(monkeypatch):
    index = SparseIndex(_index([Counter({1: 1, 2: 1, 3: 1}), Counter({1: 1, 2: 1, 4: 1}), Counter({1: 1, 5: 1})], [0, 1, 2], 5))
    products = []
    original = SparseIndex._products
    monkeypatch.setattr(SparseIndex, "_products", lambda self, *a: products.append(1) or original(self, *a))
    loose, strict = CopyRule(0.1), CopyRule(0.5)
    shared = index.sharing_candidates([strict, loose, loose])
    assert _triples(shared.search_all(loose)) == _triples(index.search_all(loose))
    assert len(products) == 2  # the shared one, then the plain search's own
    shared.search_all(strict), shared.search_all(loose)
    assert len(products) == 2 and shared._shared.found == {}  # no product more; nothing held


@settings(max_examples=200, deadline=None)
@given(pools, st.lists(rules, min_size=1, max_size=3), st.integers(1, 3), st.data())
def test_a_search_for_several_rules_finds_what_each_finds_alone(pool, several, max_postings, data):
    # search_each: one product for the same query bags, every rule's matches
    # as its own search gives them (pairs, scores, shared counts, counters).
    indexed = _repeated(data, pool, 20)
    queries = _repeated(data, pool + [Counter({99: 1})], 6)
    docs = data.draw(st.lists(st.integers(0, 4), min_size=len(indexed), max_size=len(indexed)))
    query_docs = data.draw(st.lists(st.integers(-1, 4), min_size=len(queries), max_size=len(queries)))
    index = SparseIndex(_index(indexed, docs, max_postings))
    together = index.search_each(queries, several, docs=query_docs)
    for rule, found in zip(several, together, strict=True):
        alone = index.search(queries, rule, docs=query_docs)
        assert _triples(found) == _triples(alone)
        assert (found.candidates, found.skipped_postings) == (alone.candidates, alone.skipped_postings)


@settings(max_examples=100, deadline=None)
@given(st.lists(bags, max_size=12), st.integers(1, 4))
def test_the_index_own_matrices_are_those_its_groups_would_have_as_queries(indexed, max_postings):
    # The build numbers its own occurrences once (own_columns, rows_matrix);
    # the queries' general path (search, search_each) looks each one up.
    from partialdup.core.bags import FlatBags
    from partialdup.index.matrix import expand_flat

    index = _index(indexed, list(range(len(indexed))), max_postings)
    fast = SparseIndex(index)
    groups = FlatBags.of([entry.bag for entry in index.sentences]).take(fast._groups.first)
    usual, frequent, _ = fast._query_matrices(*expand_flat(groups), len(fast._groups))
    for own, general in ((fast._usual, usual), (fast._frequent, frequent)):
        assert own.shape == general.shape
        for part in ("indptr", "indices", "data"):
            assert getattr(own, part).tolist() == getattr(general, part).tolist()
