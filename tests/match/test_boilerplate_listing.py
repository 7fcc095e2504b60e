"""Tests of partialdup.match.boilerplate_listing: the boilerplate sentences named."""

from __future__ import annotations

import pickle
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.core.types import DocumentFeatures, Sentence
from partialdup.match.boilerplate import Boilerplate, collection_boilerplate
from partialdup.match.boilerplate_listing import BoilerplateListing, BoilerplateSentence, boilerplate_sentences


def every_pair(*keys):
    return [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :]]


def test_sentences_are_named_with_offsets_and_an_excerpt():
    text = "One.  A template   line here.\n"
    doc = DocumentFeatures("d", (Sentence(0, 0, 4), Sentence(1, 6, 29)), ({}, {}), (1, 4), text)
    pairs = every_pair((0, 1), (1, 0), (2, 0), (3, 0))
    verdict = collection_boilerplate(pairs, [pairs], 3)
    others = [DocumentFeatures(f"o{d}", (Sentence(0, 0, 1),), ({},), (1,), None) for d in range(1, 4)]
    listed = boilerplate_sentences(verdict, [doc, *others])
    assert listed[0] == BoilerplateSentence("d", 1, 6, 29, 3, "A template line here.")
    assert listed[0].record()["kind"] == "boilerplate" and listed[1].excerpt == ""


def test_a_listing_is_the_list_made_when_first_read():
    text = "One.  A template   line here.\n"
    doc = DocumentFeatures("d", (Sentence(0, 0, 4), Sentence(1, 6, 29)), ({}, {}), (1, 4), text)
    others = [DocumentFeatures(f"o{d}", (Sentence(0, 0, 1),), ({},), (1,), None) for d in range(1, 4)]
    pairs = every_pair((0, 1), (1, 0), (2, 0), (3, 0))
    docs = [doc, *others]
    listing = BoilerplateListing(collection_boilerplate(pairs, [pairs], 3), docs)
    docs[0] = replace(doc, id="renamed")  # the documents are read when the listing first is
    assert {s.doc for s in listing} == {"renamed", "o1", "o2", "o3"}
    listing = BoilerplateListing(collection_boilerplate(pairs, [pairs], 3), [doc, *others])
    expected = boilerplate_sentences(collection_boilerplate(pairs, [pairs], 3), [doc, *others])
    assert listing == expected and expected == listing and list(listing) == list(expected) and listing[1:] == expected[1:]
    assert pickle.loads(pickle.dumps(listing)) == expected and type(pickle.loads(pickle.dumps(listing))) is tuple
    assert hash(listing) == hash(expected) and repr(listing) == repr(expected)


@settings(deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 3), st.integers(0, 2)), st.integers(3, 5), max_size=12),
       st.lists(st.sampled_from(["a", "b", "b "]), min_size=4, max_size=4))
def test_boilerplate_sentences_come_in_the_dataclass_order(first, ids):
    # The plain reference: the objects sorted by their own comparison
    # (equal ids in several documents, ties broken by the later fields).
    text = "One line. Two  lines\there. Three."
    sentences = (Sentence(0, 0, 9), Sentence(1, 10, 26), Sentence(2, 27, 33))
    docs = [DocumentFeatures(ids[d], sentences, ({},) * 3, (1,) * 3, text if d % 2 else None) for d in range(4)]
    listed = boilerplate_sentences(Boilerplate(first, first), docs)
    plain = sorted(
        BoilerplateSentence(docs[d].id, i, sentences[i].start, sentences[i].end, n,
                            " ".join(text[sentences[i].start : sentences[i].end].split()) if d % 2 else "")
        for (d, i), n in first.items())
    assert list(listed) == plain
