"""Tests of partialdup.index.fingerprints and dispatch: each method's sentence
index returns exactly the pairs a brute-force comparison of every pair with
the method's own similarity accepts (LSH: those among the pairs sharing a band)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.index.dispatch import sentence_index
from partialdup.index.fingerprints import HammingSentenceIndex, LshSentenceIndex, RescoredIndex, lsh_bands
from partialdup.index.inverted import FeatureIndex
from partialdup.methods.minhash import MinHash
from partialdup.methods.setsim import WordSetScore
from partialdup.methods.similarity import CopyRule
from partialdup.methods.simhash import SimHash, SimHashCosine

WORDS = [f"w{i}" for i in range(12)]
sentences = st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8), min_size=2, max_size=25)


def _index(method, token_lists, docs):
    index = FeatureIndex(max_postings=10**9)
    bags = []
    for key, tokens in enumerate(token_lists):
        bag = method.bag(tokens)
        bags.append(bag)
        if bag:
            index.add(docs[key], key, bag)
    return index, bags


def _brute_all(method, index, threshold):
    entries = index.sentences
    return {
        (j, i)
        for j in range(len(entries))
        for i in range(j)
        if entries[i].doc != entries[j].doc and method.similarity(entries[i].bag, entries[j].bag) >= threshold - 1e-9
    }


def _found(matches):
    return set(zip(matches.query.tolist(), matches.key.tolist()))


@settings(max_examples=40, deadline=None)
@given(sentences, st.integers(0, 3), st.sampled_from(["simhash", "simhash-cosine", "short-jaccard", "cosine", "minhash-one"]))
def test_every_pair_the_method_accepts_is_found_and_no_other(token_lists, docs_seed, name):
    method = {
        "simhash": SimHash(hamming_bound=8),
        "simhash-cosine": SimHashCosine(hamming_bound=63 - 1),
        "short-jaccard": WordSetScore("short-jaccard"),
        "cosine": WordSetScore("cosine"),
        "minhash-one": MinHash(permutations=4, variant="one", shingle=1),
    }[name]
    docs = [(i * (docs_seed + 1)) % 4 for i in range(len(token_lists))]
    index, _ = _index(method, token_lists, docs)
    threshold = 1 - 8 / 64 if name == "simhash" else 0.6
    searched = sentence_index(method, index)
    found = searched.search_all(CopyRule(threshold))
    assert _found(found) == _brute_all(method, index, threshold)
    for q, k, score in zip(found.query.tolist(), found.key.tolist(), found.score.tolist()):
        assert abs(score - method.similarity(index.sentences[q].bag, index.sentences[k].bag)) < 1e-9
    # a search of the indexed bags as queries finds the same pairs in both directions
    bags = [e.bag for e in index.sentences]
    queried = searched.search(bags, CopyRule(threshold), docs=[e.doc for e in index.sentences])
    both = {(q, k) for q, k in _found(queried)}
    assert both == {(q, k) for q, k in _found(found)} | {(k, q) for q, k in _found(found)}


def test_simhash_at_distance_3_is_found_through_the_tables_and_4_is_not():
    method = SimHash(hamming_bound=3)
    index = FeatureIndex()
    base = 0x0123_4567_89AB_CDEF
    for doc, fingerprint in enumerate([base, base ^ 0b111, base ^ (0b1111 << 40)]):
        index.add(doc, 0, {fingerprint: 1})
    searched = sentence_index(method, index)
    assert isinstance(searched, HammingSentenceIndex)
    found = searched.search_all(CopyRule(1 - 3 / 64))
    assert _found(found) == {(1, 0)} and found.shared.tolist() == [61]


@settings(max_examples=25, deadline=None)
@given(sentences, st.sampled_from([0.5, 0.7, 0.9]))
def test_lsh_finds_the_pairs_sharing_a_band_at_or_above_tau(token_lists, threshold):
    method = MinHash(permutations=32, shingle=1)
    index, _ = _index(method, token_lists, list(range(len(token_lists))))
    searched = sentence_index(method, index)
    assert isinstance(searched, LshSentenceIndex)
    bands, rows = lsh_bands(threshold, 32)
    signatures = method.signatures([e.bag for e in index.sentences])
    expected = set()
    for j in range(len(signatures)):
        for i in range(j):
            share = any((signatures[i, b * rows:(b + 1) * rows] == signatures[j, b * rows:(b + 1) * rows]).all() for b in range(bands))
            if share and (signatures[i] == signatures[j]).mean() >= threshold - 1e-9:
                expected.add((j, i))
    assert _found(searched.search_all(CopyRule(threshold))) == expected


def test_short_jaccard_of_a_contained_sentence_is_one_in_the_index():
    method = WordSetScore("short-jaccard")
    index = FeatureIndex()
    index.add(0, 0, method.bag("the quick brown fox jumps".split()))
    index.add(1, 0, method.bag("the quick brown fox".split()))
    searched = sentence_index(method, index)
    assert isinstance(searched, RescoredIndex)
    found = searched.search_all(CopyRule(0.8))
    assert _found(found) == {(1, 0)} and found.score.tolist() == [1.0]


def test_a_signature_bag_holds_the_signature():
    method = MinHash(permutations=16, shingle=2)
    tokens = "a b c d e f".split()
    bag = method.bag(tokens)
    assert len(bag) == 16 and set(bag.values()) == {1}
    assert (method.signatures([bag])[0] == method.fingerprint(tokens) % np.uint64(1 << 56)).all()
    assert method.bag([]) == {}
