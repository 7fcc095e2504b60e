"""A pool's workers: the detector a spawned worker builds, and the work
functions run in a real pool (fork and spawn) against the calling process."""

from __future__ import annotations

import multiprocessing

import pytest

from partialdup.core.config import Config
from partialdup.pipeline.factory import make_detector
from partialdup.pipeline.packing import pack_features
from partialdup.pipeline.pool import DetectorRecipe, WorkerPool, features_chunk, features_piece, sent_documents


@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(jobs=1), tokenizer=tokenizer)


def test_the_recipe_turns_workers_off_inside_workers(detector):
    recipe = DetectorRecipe.of(detector)
    assert recipe.config.jobs == 1
    rebuilt = recipe.build()
    assert rebuilt.config == recipe.config and rebuilt.tokenizer.segmenter == detector.tokenizer.segmenter


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_pools_workers_pack_the_features_the_caller_makes(detector, sources, method):
    # fork: the caller's detector inherited; spawn: one built from its recipe.
    chunks = [sources[:2], sources[2:4]]
    here = [features_chunk(chunk, detector) for chunk in chunks]
    with WorkerPool(multiprocessing.get_context(method), 2, detector, (), ()) as pool:
        assert list(pool.imap(features_chunk, chunks)) == here
    assert here[0] == [pack_features(detector.features(d), text=True) for d in sources[:2]]  # the texts sent packed


def test_documents_sent_to_a_helper_give_the_features_and_words_they_give_here(detector, sources):
    from dataclasses import replace

    from partialdup.index.word_columns import PieceWords

    # A JSONL record's fields stay here: the features never read them.
    documents = [replace(sources[0], fields={"url": "https://example.org/a"}), *sources[1:3], detector.tokenize(sources[3])]
    sent = sent_documents(documents)
    assert sent[:3] == [(d.id, d.text.encode("utf-8")) for d in documents[:3]] and sent[3] is documents[3]
    made = detector.features_many(documents)
    packed, words = features_piece(detector, ([sent], True), 0)
    assert packed == [pack_features(doc, words=False, text=True) for doc in made]  # the words go numbered (unpack_piece)
    plain = PieceWords.of(made)
    assert words.words == plain.words and words.columns.tolist() == plain.columns.tolist()
    assert features_piece(detector, ([sent], False), 0) == [pack_features(doc, text=True) for doc in made]


def test_a_text_sent_to_a_helper_comes_back_as_it_was_and_stays_its_size(detector):
    import pickle
    import sys

    from partialdup.core.types import Document
    from partialdup.pipeline.pool import _received

    # A lone surrogate (a str may hold one) and text beyond ASCII.
    text = "中文的句子。Une phrase \udc80 après."
    document = Document("d", text)
    size = sys.getsizeof(text)
    sent = pickle.loads(pickle.dumps(sent_documents([document])))
    # Pickling the str itself would have cached its UTF-8 form in it for as
    # long as the caller keeps it (CPython).
    assert sys.getsizeof(text) == size
    assert _received(sent) == [document]
