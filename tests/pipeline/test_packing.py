"""Features packed for the way back from a helper: a piece's documents sent
without their words come back with them, taken from the piece's numbered words."""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

from partialdup.core.config import Config
from partialdup.core.packed_words import PackedWords
from partialdup.core.types import Document
from partialdup.core.word_lines import WordLines
from partialdup.index.word_columns import PieceWords
from partialdup.pipeline.factory import make_detector
from partialdup.pipeline.packing import held_as_numbers, pack_features, unpack_features, unpack_piece
from partialdup.pipeline.pool import features_piece, sent_documents


@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(jobs=1), tokenizer=tokenizer)


def _sent_back(packed, words):
    # As a helper's piece arrives: pickled, every word a new string.
    return pickle.loads(pickle.dumps((packed, words), protocol=pickle.HIGHEST_PROTOCOL))


def test_a_piece_sent_without_its_words_comes_back_equal_with_one_string_per_word_read(detector, sources):
    documents = sources[:8]
    made = detector.features_many(documents)
    packed, words = _sent_back(*features_piece(detector, ([sent_documents(documents)], True), 0))
    assert all(item[5] is None for item in packed)  # the words went once, numbered
    vocabulary: dict[str, str] = {}
    docs, numbered = unpack_piece(packed, [d.text for d in documents], words, vocabulary)
    assert docs == made
    assert all(isinstance(doc.words, WordLines) for doc in docs)  # held as the piece's numbers
    assert numbered.words == PieceWords.of(made).words and numbered.columns.tolist() == words.columns.tolist()
    assert numbered is words and isinstance(words.words, PackedWords)  # held as sent: one string
    every = [word for doc in docs for sentence in doc.words for word in sentence]
    again = [word for doc in docs for sentence in doc.words for word in sentence]
    assert all(a is b for a, b in zip(every, again))  # a word read again: the string made before
    assert len({id(word) for word in every}) == len(set(every)) < len(every)
    assert not vocabulary  # for documents sent with their words only


def test_documents_whose_words_go_as_strings_keep_the_others_in_place(detector, sources):
    # A document without words, one with an empty sentence, and one whose
    # words do not match its token counts (sent as strings, numbered all the
    # same) between documents sent without theirs.
    plain = detector.features_many([*sources[:2], Document("e", "标题\n\n。\n\nThe quick brown fox jumps over the lazy dog.")])
    odd = replace(plain[1], tokens=tuple(count + 1 for count in plain[1].tokens))
    bare = replace(plain[0], id="bare", words=())
    made = [plain[0], odd, bare, plain[2], plain[1]]
    assert any(not words for words in plain[2].words)
    packed = [pack_features(doc, words=False) for doc in made]
    assert [item[5] is None for item in packed] == [True, False, False, True, True]
    back, words = _sent_back(packed, PieceWords.of(made))
    docs, _ = unpack_piece(back, [doc.text for doc in made], words, {})
    assert docs == made


def test_features_packed_with_their_words_ignore_the_piece(detector, sources):
    features = detector.features(sources[0])
    assert unpack_features(pack_features(features, words=True), features.text) == features
    assert pack_features(features, words=False)[5] is None


def test_a_piece_made_here_holds_its_words_as_numbers(detector, sources):
    plain = detector.features_many([*sources[:3], Document("e", "标题\n\n。\n\nThe quick brown fox jumps over the lazy dog.")])
    bare = replace(plain[0], id="bare", words=())
    made = [*plain, bare]
    held, numbered = held_as_numbers(made)
    assert held == made
    assert [isinstance(doc.words, WordLines) for doc in held] == [True] * len(plain) + [False]
    piece = PieceWords.of(made)
    assert numbered.words == piece.words and numbered.columns.tolist() == piece.columns.tolist()


def test_a_worker_sends_the_texts_packed_and_the_caller_holds_what_it_sent(detector, sources):
    from partialdup.core.packed_text import PACK_FROM, PackedText
    from partialdup.core.types import held_text

    documents = [Document(d.id, str(d.text)) for d in sources[:8]]
    made = detector.features_many(documents)
    packed, words = _sent_back(*features_piece(detector, ([sent_documents(documents)], True), 0))
    texts = [d.text for d in documents]
    assert any(len(t) >= PACK_FROM for t in texts)
    for item, text in zip(packed, texts):
        assert isinstance(item[7], PackedText) if len(text) >= PACK_FROM else item[7] is None
        if item[7] is not None:
            assert str(item[7]) == text
    docs, _ = unpack_piece(packed, texts, words, {})
    assert docs == made and [doc.text for doc in docs] == texts
    assert all(held_text(doc) is item[7] for doc, item in zip(docs, packed) if item[7] is not None)
    # Without ``text`` the features go as before: seven fields, the text the caller's.
    assert all(len(pack_features(doc)) == 7 for doc in made)
    assert unpack_features(pack_features(made[0]), texts[0]) == made[0]
