"""A run's words numbered (index/word_columns.py): every array against the words it numbers."""

from collections import Counter
from types import SimpleNamespace
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from partialdup.index import word_columns
from partialdup.index.word_columns import PieceWords, WordColumns

from tests.paths import SAMPLES

# Real sentences: lines of the GPL (samples/), split on spaces, a document per ten lines.
GPL_LINES = [tuple(line.split()) for line in (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8").splitlines()]


def _doc(sentences, words_known=True):
    # What WordColumns reads of a document: its sentences, token counts and words.
    return SimpleNamespace(sentences=sentences, tokens=tuple(map(len, sentences)), words=tuple(sentences) if words_known else ())


words = st.lists(st.sampled_from("a b c d e f g h".split()), max_size=6).map(tuple)
documents = st.lists(st.tuples(st.lists(words, max_size=5), st.booleans()), max_size=6)


@settings(max_examples=200, deadline=None)
@given(documents)
def test_every_sentence_reads_back_its_words_and_its_place(spec):
    docs = [_doc(sentences, known) for sentences, known in spec]
    columns = WordColumns.of(docs)
    keys = [(d, s) for d, doc in enumerate(docs) for s in range(len(doc.sentences))]
    numbers = np.arange(len(keys), dtype=np.int64)
    assert columns.keys(numbers) == keys
    for number, (d, s) in enumerate(keys):
        assert columns.sentence(d, s) == number
        expected = docs[d].sentences[s] if docs[d].words else ()
        assert columns.words_of(number) == expected
        assert columns.known[number] == bool(docs[d].words)
        assert columns.tokens[number] == len(docs[d].sentences[s])
    # Numbered in order of first occurrence, each word once.
    seen = list(dict.fromkeys(w for d, s in keys if docs[d].words for w in docs[d].sentences[s]))
    assert columns.words == seen
    # A few words' columns, looked up: the word's place in order of first occurrence, absent words left out.
    asked = [*seen[::2], "never-a-word"]
    assert columns.columns_of(asked) == {w: i for i, w in enumerate(seen) if w in asked}


@settings(max_examples=200, deadline=None)
@given(documents, st.randoms(use_true_random=False), st.lists(st.tuples(*[st.sampled_from("a b c x".split())] * 2)))
def test_chosen_rows_and_the_rows_holding_words_agree_with_their_words(spec, random, wanted):
    docs = [_doc(sentences, known) for sentences, known in spec]
    columns = WordColumns.of(docs)
    total = len(columns.lengths)
    numbers = np.array(sorted(random.sample(range(total), random.randint(0, total))), np.int64)
    lengths, chosen = columns.rows_columns(numbers)
    expected = [columns.words_of(n) for n in numbers.tolist()]
    assert lengths.tolist() == [len(w) for w in expected]
    assert [columns.words[c] for c in chosen.tolist()] == [w for ws in expected for w in ws]
    holding = columns.holding_pairs(numbers, wanted).tolist()
    assert holding == [row for row, ws in enumerate(expected) if any(a in ws and b in ws for a, b in wanted)]
    counted = Counter(w for ws in expected for w in ws)
    assert columns.column_counts(numbers).tolist() == [counted[w] for w in columns.words]
    with mock.patch.object(word_columns, "_WORDS_AT_ONCE", random.randint(1, 4)):  # many stretches of rows
        assert columns.holding_pairs(numbers, wanted).tolist() == holding
        assert columns.column_counts(numbers).tolist() == [counted[w] for w in columns.words]


def test_real_lines_read_back():
    docs = [_doc([line for line in GPL_LINES[i : i + 10] if line]) for i in range(0, 200, 10)]
    columns = WordColumns.of(docs)
    assert len(columns.columns) == sum(len(s) for doc in docs for s in doc.sentences)
    assert all(columns.words_of(columns.sentence(d, s)) == sentence
               for d, doc in enumerate(docs) for s, sentence in enumerate(doc.sentences))
    assert columns.columns.dtype == np.int32 and len(columns.words) < len(columns.columns)


def test_the_rows_holding_words_asked_a_few_places_at_a_time_are_the_same(monkeypatch):
    docs = [_doc([line for line in GPL_LINES[i : i + 10] if line]) for i in range(0, 340, 10)]
    columns = WordColumns.of(docs)
    numbers = np.arange(0, len(columns.lengths), 2, dtype=np.int64)
    words = [columns.words_of(n) for n in numbers.tolist()]
    wanted = [("the", "of"), ("Program", "the"), ("software", "free"), ("you", "may"), ("GNU", "License")]
    expected = [row for row, ws in enumerate(words) if any(a in ws and b in ws for a, b in wanted)]
    assert columns.holding_pairs(numbers, wanted).tolist() == expected and len(expected) > 20
    monkeypatch.setattr(word_columns, "_PLACES_AT_ONCE", 3)
    assert columns.holding_pairs(numbers, wanted).tolist() == expected
    # The second words' places held a stretch of rows at a time, down to a row a stretch.
    for words_at_once in (1, 7, 50):
        monkeypatch.setattr(word_columns, "_WORDS_AT_ONCE", words_at_once)
        assert columns.holding_pairs(numbers, wanted).tolist() == expected


def test_a_stretch_of_rows_reads_its_own_rows_words_only(monkeypatch):
    # Row 1 holds the first word only, row 0 (in the stretch before) the
    # second: read from the wrong place, row 0's words would be row 1's.
    columns = WordColumns.of([_doc([("b", "c"), ("a", "x"), ("a", "b")])])
    monkeypatch.setattr(word_columns, "_WORDS_AT_ONCE", 2)
    assert columns.holding_pairs(np.arange(3, dtype=np.int64), [("a", "b")]).tolist() == [2]


def test_no_documents():
    columns = WordColumns.of([])
    assert len(columns.lengths) == 0 and columns.words == [] and columns.doc_starts.tolist() == [0]
    assert columns.holding_pairs(np.empty(0, np.int64), [("a", "a")]).tolist() == []


def _same(first: WordColumns, second: WordColumns) -> bool:
    return first.words == second.words and all(
        np.array_equal(getattr(first, name), getattr(second, name)) and getattr(first, name).dtype == getattr(second, name).dtype
        for name in ("doc_starts", "known", "tokens", "lengths", "starts", "columns"))


def _pieces(docs, cuts):
    # The documents cut where ``cuts`` say (in any order), each piece's words numbered.
    bounds = [0, *sorted(min(cut, len(docs)) for cut in cuts), len(docs)]
    return bounds, [PieceWords.of(docs[low:high]) for low, high in zip(bounds, bounds[1:])]


@settings(max_examples=200, deadline=None)
@given(documents, st.lists(st.integers(0, 6), max_size=4))
def test_words_numbered_piece_by_piece_are_numbered_as_in_one_pass(spec, cuts):
    docs = [_doc(sentences, known) for sentences, known in spec]
    _, pieces = _pieces(docs, cuts)
    assert _same(WordColumns.of(docs, pieces), WordColumns.of(docs))


def test_real_lines_numbered_by_pieces_read_back():
    docs = [_doc([line for line in GPL_LINES[i : i + 10] if line]) for i in range(0, 200, 10)]
    pieces = [PieceWords.of(docs[i : i + 3]) for i in range(0, len(docs), 3)]
    assert _same(WordColumns.of(docs, pieces), WordColumns.of(docs))


def test_pieces_that_are_not_the_documents_words_are_refused():
    docs = [_doc([line for line in GPL_LINES[i : i + 10] if line]) for i in range(0, 40, 10)]
    with pytest.raises(ValueError, match="not those of the documents"):
        WordColumns.of(docs, [PieceWords.of(docs[:2])])


@settings(max_examples=200, deadline=None)
@given(documents, st.randoms(use_true_random=False))
def test_rows_in_any_order_and_columns_laid_out_in_any_order_read_the_same_words(spec, random):
    # rows_columns reads each row's words where its sentence's start says,
    # in the rows' order, repeated rows too, whatever the columns' layout.
    from dataclasses import replace

    docs = [_doc(sentences, known) for sentences, known in spec]
    columns = WordColumns.of(docs)
    total = len(columns.lengths)
    rows = np.array([random.randrange(total) for _ in range(random.randint(0, 2 * total))] if total else [], np.int64)
    # The same words, the sentences laid out in reverse in the columns.
    order = list(range(total))[::-1]
    pieces = [columns.columns[columns.starts[n] : columns.starts[n] + columns.lengths[n]] for n in order]
    laid = np.concatenate([np.zeros(0, np.int32), *pieces]).astype(np.int32)
    starts = np.zeros(total, np.int64)
    at = 0
    for n in order:
        starts[n], at = at, at + int(columns.lengths[n])
    reversed_layout = replace(columns, starts=starts, columns=laid)
    for table in (columns, reversed_layout):
        for asked in (rows, np.unique(rows)):
            expected = [w for n in asked.tolist() for w in columns.words_of(n)]
            lengths, chosen = table.rows_columns(asked)
            assert lengths.tolist() == [int(columns.lengths[n]) for n in asked.tolist()]
            assert [table.words[c] for c in chosen.tolist()] == expected


@settings(max_examples=200, deadline=None)
@given(documents, st.lists(st.integers(0, 6), max_size=4))
def test_documents_words_held_by_the_columns_read_the_same_words(spec, cuts):
    from partialdup.core.word_lines import WordLines

    docs = [_doc(sentences, known) for sentences, known in spec]
    bounds, pieces = _pieces(docs, cuts)
    for piece, low, high in zip(pieces, bounds, bounds[1:]):  # held as numbers into their piece (pipeline/packing.py)
        at = 0
        for doc in docs[low:high]:
            count = sum(map(len, word_columns.aligned_words(doc)))
            if doc.words:
                doc.words = WordLines(piece.words, piece.columns, doc.tokens, at)
            at += count
    plain = [tuple(map(tuple, doc.words)) for doc in docs]
    columns = WordColumns.of(docs, pieces)
    columns.hold_words(docs)
    assert [tuple(doc.words) for doc in docs] == plain
    assert all(doc.words._words is columns.words for doc in docs if isinstance(doc.words, WordLines) and len(doc.words))
    with pytest.raises(ValueError, match="documents for columns of"):
        columns.hold_words([*docs, docs[0]] if docs else [_doc([])])
