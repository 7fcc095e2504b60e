"""The word table's codec and the word-set candidates of a check, against plain references."""

from __future__ import annotations

import sqlite3
from collections import Counter

import numpy as np
from hypothesis import given, settings, strategies as st

from partialdup.index.words import WORD_JACCARD, WORD_POSTINGS, prefix_words, word_jaccard
from partialdup.store import Store, codec
from partialdup.store.wordsearch import _rows, _word_set_places
from partialdup.store.wordtable import (
    _varints, merge_places, pack_many_places, pack_places, pack_titles, unpack_many_places, unpack_many_titles, unpack_places,
    unpack_titles,
)

places = st.sets(st.tuples(st.integers(0, 10**7), st.integers(0, 10**5), st.integers(0, 400)), max_size=20)


@settings(max_examples=100, deadline=None)
@given(st.lists(places, max_size=8))
def test_places_unpacked_at_once_equal_those_unpacked_one_by_one(lists) -> None:
    blobs = [pack_places(p) for p in lists]
    owner, values = unpack_many_places(blobs, 3)
    assert [(o, *v) for o, v in zip(owner.tolist(), values.tolist())] == [
        (i, *place) for i, blob in enumerate(blobs) for place in unpack_places(blob, 3)
    ]
    assert all(unpack_places(blob, 3) == sorted(p) for blob, p in zip(blobs, lists))


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 10**7), st.integers(0, 10**5)), st.lists(st.integers(0, 0xFFFF), max_size=15), max_size=20))
def test_titles_are_unpacked_as_packed(titles) -> None:
    assert unpack_titles(pack_titles(titles)) == {place: tuple(f) for place, f in titles.items()}


def _titles_py(blob: bytes) -> dict:
    """The plain reference of unpack_titles: one varint at a time."""
    flat, titles, at, doc = _varints(blob), {}, 0, 0
    while at < len(flat):
        doc += flat[at]
        titles[(doc, flat[at + 1])] = tuple(flat[at + 3:at + 3 + flat[at + 2]])
        at += 3 + flat[at + 2]
    return titles


@settings(max_examples=100, deadline=None)
@given(st.lists(st.dictionaries(
    st.tuples(st.integers(0, 10**7), st.integers(0, 10**5)), st.lists(st.integers(0, 0xFFFF), max_size=6), max_size=6,
), max_size=6))
def test_titles_of_many_blobs_unpacked_at_once_equal_those_unpacked_one_by_one(listings) -> None:
    blobs = [pack_titles(titles) for titles in listings]
    assert unpack_many_titles(blobs) == [_titles_py(blob) for blob in blobs]


def test_the_word_set_candidates_are_every_stored_sentence_a_prefix_word_can_pair(tmp_path, detector, idf, sources, suspicious) -> None:
    # Plain: every stored sentence of >= min_tokens words holding a query
    # sentence's prefix word (by the collection's counts) with a Jaccard of
    # at least WORD_JACCARD; the check's pruning by counts must not lose one.
    path = tmp_path / "s.db"
    with Store(path, detector, idf, create=True) as store:
        store.add(sources, batch=8)
    db = sqlite3.connect(str(path))
    stored = {}
    for number, doc_id, features, text in db.execute("SELECT d.doc, d.id, b.features, b.text FROM documents d JOIN bodies b USING (doc)"):
        stored[number] = codec.unpack_document(doc_id, codec.unpack_features(features), text).words
    least = detector.config.min_tokens
    queries = [detector.features(d) for d in suspicious[:12]]
    rows = _rows(db, {w for q in queries for words in q.words for w in words})
    found = _word_set_places(rows, least, queries, stored.__getitem__)
    db.close()
    query_sets = [set(words) for q in queries for words in q.words if len(words) >= least]
    collection = Counter(w for words in stored.values() for sentence in words if len(sentence) >= least for w in set(sentence))
    own = Counter(w for words in query_sets for w in words)
    held = {w: own[w] + collection[w] for w in own}
    prefixes = [set(prefix_words(list(words), held, WORD_JACCARD, WORD_POSTINGS)) for words in query_sets]
    expected = {
        (number, s) for number, words in stored.items() for s, sentence in enumerate(words) if len(sentence) >= least
        and any(prefix & set(sentence) and word_jaccard(q, sentence) >= WORD_JACCARD for q, prefix in zip(query_sets, prefixes))
    }
    assert expected and found == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(places, max_size=8))
def test_places_packed_at_once_equal_those_packed_one_by_one(lists) -> None:
    rows = [(i, *place) for i, p in enumerate(lists) for place in p]
    flat = np.array(rows, np.int64).reshape(-1, 4)
    assert pack_many_places(flat[:, 0], flat[:, 1:], len(lists)) == [pack_places(p) for p in lists]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(places, st.lists(st.tuples(st.integers(0, 30), st.integers(0, 5), st.integers(0, 3), st.sampled_from([-1, 1]))))))
def test_merged_places_are_the_stored_ones_with_the_nets_applied(lists) -> None:
    # Plain: per (list, place), the net of its changes; a positive net adds
    # it, a negative one removes it, zero leaves it as stored.
    old = [pack_places(p) for p, _ in lists]
    changes = [(i, *change) for i, (_, c) in enumerate(lists) for change in c]
    merged = merge_places(old, np.array(changes, np.int64).reshape(-1, 5), 3)
    expected = set()
    for i, (stored, c) in enumerate(lists):
        nets = Counter()
        for *place, sign in c:
            nets[tuple(place)] += sign
        expected |= {(i, *p) for p in stored if nets[p] >= 0} | {(i, *p) for p, net in nets.items() if net > 0}
    assert sorted(map(tuple, merged.tolist())) == sorted(expected)
