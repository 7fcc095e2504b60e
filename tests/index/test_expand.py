"""A real sentence repeated tens of thousands of times: found, without quadratic work.

The sentence is the GPL-2 copyright line of samples/GPL-2.txt (real Debian
text, licence in samples/LICENSE.md), its bag made by the bundled method.
"""

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.core.config import Config
from partialdup.core.types import Document
from partialdup.index.expand import narrowed, sorted_pairs
from partialdup.index.inverted import FeatureIndex
from partialdup.index.sparse import SparseIndex
from partialdup.match.boilerplate import _groups
from partialdup.pipeline.factory import make_detector

COPIES = 30_000
GPL = Path(__file__).resolve().parents[2] / "samples" / "GPL-2.txt"


@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(), tokenizer=tokenizer)


@pytest.fixture(scope="module")
def bag(detector):
    doc = detector.features(Document("gpl", GPL.read_text(encoding="utf-8")))
    first = next(i for i in range(len(doc.bags)) if detector.matchable(doc, i) and doc.tokens[i] > 12)
    assert doc.text[doc.sentences[first].start :].startswith("Copyright (C) 1989, 1991 Free Software Foundation")
    return doc.bags[first]


def _index(bag, docs):
    index = FeatureIndex(max_postings=Config().max_postings)
    for key, doc in enumerate(docs):
        index.add(doc, key, bag)
    return SparseIndex(index)


def test_a_sentence_repeated_in_one_document_is_found_in_another(detector, bag):
    # 30,000 copies in document 0, one in document 1: 30,000 pairs, and the
    # features are not over the bound (the copies are one distinct bag).
    index = _index(bag, [0] * COPIES + [1])
    found = index.search_all(detector.rule)
    assert index.frequent_features() == 0 and found.candidates == 0
    assert len(found.key) == COPIES
    assert bool((found.query == COPIES).all()) and found.key.tolist() == list(range(COPIES))
    assert bool((found.score == 1.0).all()) and bool((found.shared == sum(bag.values())).all())
    queried = index.search([bag], detector.rule, docs=[1])
    assert queried.key.tolist() == list(range(COPIES))


def test_a_sentence_in_thirty_thousand_documents_is_boilerplate_without_its_pairs(detector, bag):
    # Its n (n - 1) / 2 = 450 million pairs are never made: each copy is
    # matched in 3 or more other documents, which one group tells.
    index = _index(bag, range(COPIES))
    found = index.search_all(detector.rule, boilerplate=3)
    assert len(found.key) == 0 and found.candidates == 0
    assert np.array_equal(found.boilerplate, np.arange(COPIES))
    assert len(index.search_all(detector.rule, crowded=np.arange(COPIES)).key) == 0


def test_below_the_boilerplate_bound_every_pair_is_given(detector, bag):
    # Three documents of 1,000 copies each: every copy matches 2 other
    # documents, under 3; the pairs are those of different documents (the
    # answer itself is quadratic here, 3 million pairs, and is given whole).
    index = _index(bag, [k // 1000 for k in range(3000)])
    found = index.search_all(detector.rule, boilerplate=3)
    assert len(found.boilerplate) == 0
    assert len(found.key) == 3 * 1000**2
    assert bool((found.query // 1000 != found.key // 1000).all())


# Bags from a small pool, so that sentences are identical (one group) or
# near (groups matched with each other) or apart.
_POOL = (
    Counter({1: 1, 2: 1, 3: 1}),
    Counter({1: 1, 2: 1, 3: 1, 4: 1}),
    Counter({1: 1, 2: 1, 3: 1, 4: 1, 9: 1}),
    Counter({5: 1, 6: 1, 7: 1}),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, len(_POOL) - 1)), min_size=2, max_size=40),
       st.integers(1, 4))
def test_the_links_of_crowded_sentences_are_left_out_pairs_linking_them_as_all_would(detector, sentences, limit):
    # The plain reference: every pair between two crowded sentences, made by
    # the search without the boilerplate option.
    index = FeatureIndex(max_postings=Config().max_postings)
    for key, (doc, which) in enumerate(sentences):
        index.add(doc, key, _POOL[which])
    searched = SparseIndex(index)
    crowded = searched.search_all(detector.rule, boilerplate=limit)
    every = searched.search_all(detector.rule)
    common = set(crowded.boilerplate.tolist())
    left_out = {(q, k) for q, k in zip(every.query.tolist(), every.key.tolist()) if q in common and k in common}
    links = {(max(a, b), min(a, b)) for a, b in crowded.links.tolist()}
    assert links <= left_out
    nodes = {key for pair in left_out for key in pair}
    assert {key for pair in links for key in pair} <= nodes
    # The plain union-find of the boilerplate rule (roots: the smallest node).
    assert _groups(links) == _groups(left_out)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40), st.integers(0, 5), st.integers(-3, 2**40)),
                         max_size=12), max_size=5))
def test_sorted_pairs_of_narrowed_parts_equal_a_plain_sort_of_the_wide_ones(part_rows):
    # sorted_pairs' reference: every pair as a row, sorted by (query, key)
    # stably (the parts' order among equal pairs); integer columns come back
    # int64 whether they were narrowed (a count past int32 stays wide).
    width = 41
    parts = [
        narrowed((np.array([r[0] for r in rows], np.int64), np.array([r[1] for r in rows], np.int64),
                  np.array([r[2] / 4 for r in rows], np.float64), np.array([r[3] for r in rows], np.int64)))
        for rows in part_rows
    ]
    if not parts:
        return
    query, key, score, shared = sorted_pairs(parts, width)
    assert not parts and all(column.dtype == np.int64 for column in (query, key, shared)) and score.dtype == np.float64
    plain = sorted((r for rows in part_rows for r in rows), key=lambda r: (r[0], r[1]))
    assert list(zip(query.tolist(), key.tolist(), score.tolist(), shared.tolist())) == [
        (q, k, s / 4, n) for q, k, s, n in plain]
