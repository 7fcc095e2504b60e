"""The candidate product cut by feature gives the blocked product's answers, for any number of parts."""

from collections import Counter
from unittest import mock

import numpy as np
from hypothesis import given, settings, strategies as st

from partialdup.index.inverted import FeatureIndex
from partialdup.index.partitioned import (
    PartitionedProduct, ProductRequest, feature_parts, part_columns, sum_by_pair, task_blocks,
)
import partialdup.index.sparse as sparse_module
from partialdup.index.matrix import expand_bags
from partialdup.index.sparse import ReferenceIndex, SparseIndex
from partialdup.methods.similarity import CopyRule

# Features spread over the uint64 range (as the methods' hashed features are) and small ones.
features = st.one_of(st.integers(0, 12), st.integers(0, 2**64 - 1))
bags = st.dictionaries(features, st.integers(1, 3), max_size=8).map(Counter)
rules = st.builds(
    CopyRule,
    threshold=st.sampled_from([0.2, 0.5, 0.6, 1.0]),
    containment=st.sampled_from([0.0, 0.5, 0.8, 1.0]),
    min_contained=st.integers(1, 4),
)
parts = st.sampled_from([1, 2, 7])
# Postings a task's group of blocks may reach: one block a task, a few, all.
reaches = st.sampled_from([0, 6, 10**9])


def _index(indexed, docs, max_postings) -> SparseIndex:
    index = FeatureIndex(max_postings=max_postings)
    for position, (doc, bag) in enumerate(zip(docs, indexed)):
        index.add(doc, position, bag)
    return SparseIndex(index)


def _sorted(found) -> list[tuple[int, int, float, int]]:
    return sorted(zip(found.query.tolist(), found.group.tolist(), found.score.tolist(), found.shared.tolist()))


def _same(a, b) -> bool:
    fields = ("query", "key", "score", "shared", "boilerplate")
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in fields) and (a.candidates, a.skipped_postings) == (
        b.candidates, b.skipped_postings,
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(bags, min_size=1, max_size=14), st.lists(bags, max_size=8), rules, st.integers(1, 4), parts, reaches, st.data())
def test_partitioned_and_reduced_is_the_blocked_product(indexed, queries, rule, max_postings, count, reach, data):
    docs = sorted(data.draw(st.lists(st.integers(0, 3), min_size=len(indexed), max_size=len(indexed))))
    plain = _index(indexed, docs, max_postings)
    cut = plain.using(PartitionedProduct(count, reach))
    with mock.patch.object(sparse_module, "BLOCK_ROWS", 3):  # several blocks
        _assert_blocks_agree(plain, cut, queries, rule)


def _assert_blocks_agree(plain, cut, queries, rule) -> None:
    # The index against itself (detect) and query rows (check): the same group pairs, scores, shared counts and candidates.
    for usual, frequent, sizes, below_self in (
        (plain._usual, plain._frequent, plain._group_sizes, True),
        (*plain._query_matrices(*expand_bags(queries), len(queries))[:2], np.array([sum(b.values()) for b in queries], np.int64), False),
    ):
        expected = plain._matched(plain._blocks(usual, frequent, sizes, [rule], below_self=below_self)[0], sizes, rule)
        found = cut._matched(cut._blocks(usual, frequent, sizes, [rule], below_self=below_self)[0], sizes, rule)
        assert _sorted(found) == _sorted(expected) and found.candidates == expected.candidates


@settings(max_examples=100, deadline=None)
@given(st.lists(bags, min_size=1, max_size=14), st.lists(bags, max_size=6), rules, st.integers(1, 4), parts, st.data())
def test_searches_through_the_parts_answer_as_the_index(indexed, queries, rule, max_postings, count, data):
    docs = sorted(data.draw(st.lists(st.integers(0, 3), min_size=len(indexed), max_size=len(indexed))))
    query_docs = data.draw(st.lists(st.integers(-1, 3), min_size=len(queries), max_size=len(queries)))
    plain = _index(indexed, docs, max_postings)
    cut = plain.using(PartitionedProduct(count, 10))
    with mock.patch.object(sparse_module, "BLOCK_ROWS", 3):
        assert _same(cut.search_all(rule, boilerplate=2), plain.search_all(rule, boilerplate=2))
        assert _same(cut.search(queries, rule, docs=query_docs), plain.search(queries, rule, docs=query_docs))


def test_blocks_of_a_request_come_back_in_order_one_per_block():
    plain = _index([Counter({1: 1, 2: 1, 100 + i: 1}) for i in range(9)], list(range(9)), max_postings=100)
    features = np.repeat(plain._columns.features[~plain._columns.frequent], plain._columns.width[~plain._columns.frequent])
    request = ProductRequest(plain._usual, plain._usual_t, features, [(0, 4), (4, 5), (5, 9)], True)
    # Each row reaches 2 features x 9 sentences + 1 = 19 postings: 76, 19, 76 a block.
    assert task_blocks(request, 95) == [[(0, 4), (4, 5)], [(5, 9)]]
    assert task_blocks(request, 0) == [[(0, 4)], [(4, 5)], [(5, 9)]] and task_blocks(request, 10**9) == [request.bounds]
    blocks = list(PartitionedProduct(3, 0)(request))
    assert len(blocks) == 3
    grouped = list(PartitionedProduct(3, 95)(request))
    assert [[a.tolist() for a in block] for block in grouped] == [[a.tolist() for a in block] for block in blocks]
    for (low, high), (query, group, shared) in zip(request.bounds, blocks):
        assert ((query >= low) & (query < high) & (group < query)).all()
        assert shared.tolist() == [2] * len(shared) and len(shared) == sum(range(low, high))


def test_a_feature_lies_in_one_part_whatever_the_run():
    columns = np.array([5, 5, 9, 2**63 + 1, 2**63 + 1, 7], np.uint64)
    cut = part_columns(columns, 4)
    assert sorted(np.concatenate(cut).tolist()) == list(range(6))
    owner = {int(column): part for part, held in enumerate(cut) for column in held}
    assert owner[0] == owner[1] and owner[3] == owner[4]
    # A fixed function of the feature (splitmix64, no salted hash): these values hold on every machine and run.
    assert feature_parts(np.array([0, 1, 2**64 - 1, 12345], np.uint64), 7).tolist() == [2, 2, 0, 5]
    assert len(set(feature_parts(np.arange(1000, dtype=np.uint64), 7).tolist())) == 7


def test_reduce_sums_the_parts_by_pair():
    one = (np.array([3, 1]), np.array([0, 0]), np.array([1, 2]))
    two = (np.array([1, 3, 2]), np.array([0, 0, 1]), np.array([1, 1, 4]))
    query, group, shared = sum_by_pair([one, two])
    assert list(zip(query.tolist(), group.tolist(), shared.tolist())) == [(1, 0, 3), (2, 1, 4), (3, 0, 2)]
    assert [len(a) for a in sum_by_pair([])] == [0, 0, 0]


def test_a_reference_index_passes_the_product_to_its_sparse_indexes():
    sentences = _index([Counter({1: 1})], [0], max_postings=10)
    index = ReferenceIndex(sentences, sentences)
    assert index.using(None) is index
    product = PartitionedProduct(2, 10)
    view = index.using(product)
    assert view.sentences._product is product and view.joins._product is product and sentences._product is None
