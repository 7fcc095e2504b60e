"""Word-set candidates (index/words.py): the prefix-filtered search against the plain reference."""

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.packed_words import PackedWords
from partialdup.index import words as words_module
from partialdup.index.words import (
    WORD_JACCARD, WordNumbering, WordSets, distinct_sizes, distinct_words, plain_word_pairs, prefix_words, word_jaccard,
    word_numbers,
)

from tests.paths import SAMPLES

# Real sentences: lines of the GPL (samples/), split on spaces.
GPL_LINES = [line.split() for line in (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8").splitlines() if len(line.split()) >= 3]

words = st.lists(st.sampled_from("a b c d e f g h i j k l".split()), max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.lists(words, max_size=12), st.lists(words, max_size=12), st.sampled_from([0.2, 0.4, 0.5, 0.75, 1.0]))
def test_the_search_finds_what_comparing_every_pair_finds(left, right, threshold):
    found = list(WordSets(left, right, threshold, max_postings=10**9).pairs())
    assert found == sorted(plain_word_pairs(left, right, threshold))


@settings(max_examples=100, deadline=None)
@given(st.lists(words, max_size=14), st.sampled_from([0.3, 0.4, 0.6]))
def test_a_collection_against_itself_gives_each_pair_once(sentences, threshold):
    found = list(WordSets(sentences, None, threshold, max_postings=10**9).pairs())
    assert found == sorted(plain_word_pairs(sentences, None, threshold))
    assert all(query > key for query, key, _ in found)



@settings(max_examples=60, deadline=None)
@given(st.lists(words, max_size=14), st.integers(1, 4))
def test_capped_postings_only_leave_pairs_out(sentences, cap):
    capped = set(WordSets(sentences, None, 0.4, max_postings=cap).pairs())
    assert capped <= set(plain_word_pairs(sentences, None, 0.4))


def test_real_lines_agree_with_the_reference():
    lines = GPL_LINES[:150]
    found = list(WordSets(lines, None, WORD_JACCARD, max_postings=10**9).pairs())
    assert found == sorted(plain_word_pairs(lines, None, WORD_JACCARD))
    assert found  # the GPL repeats its phrasing


@settings(max_examples=60, deadline=None)
@given(st.lists(words, max_size=14), st.lists(words, max_size=8), st.sampled_from([0.3, 0.5]))
def test_the_pairs_as_arrays_are_the_pairs(left, right, threshold):
    for sets in (WordSets(left, None, threshold, max_postings=3), WordSets(left, right, threshold, max_postings=3)):
        query, key, score = sets.pair_arrays()
        assert query.dtype == key.dtype == np.int64 and score.dtype == np.float64
        assert list(zip(query.tolist(), key.tolist(), score.tolist())) == list(sets.pairs())


def test_word_jaccard_and_bad_arguments():
    assert word_jaccard(["a", "b"], ["b", "c"]) == pytest.approx(1 / 3)
    assert word_jaccard([], []) == 0.0
    with pytest.raises(ValueError):
        WordSets([], None, 0.0)


@settings(max_examples=300, deadline=None)
@given(st.lists(words, min_size=1, max_size=14), st.integers(1, 3), st.randoms(use_true_random=False))
def test_the_pairs_do_not_depend_on_the_input_order(sentences, cap, random):
    order = list(range(len(sentences)))
    random.shuffle(order)
    shuffled = [sentences[i] for i in order]
    found = {frozenset((i, j)) for i, j, _ in WordSets(sentences, None, 0.4, max_postings=cap).pairs()}
    again = {frozenset((order[i], order[j])) for i, j, _ in WordSets(shuffled, None, 0.4, max_postings=cap).pairs()}
    assert found == again


def _held(sentences):
    # Sentences holding each word (each sentence once), as WordSets counts them.
    held = {}
    for words in sentences:
        for word in set(words):
            held[word] = held.get(word, 0) + 1
    return held


@settings(max_examples=100, deadline=None)
@given(st.lists(words, max_size=10), st.lists(words, max_size=14), st.data(), st.integers(1, 4))
def test_a_part_searched_with_the_collections_counts_pairs_as_the_whole(left, right, data, cap):
    # The store hands WordSets the candidates only, with the whole
    # collection's counts: the pairs are those of the whole, restricted.
    part = sorted(data.draw(st.sets(st.integers(0, max(len(right) - 1, 0)))) & set(range(len(right))))
    whole = WordSets(left, right, 0.4, max_postings=cap).pairs()
    expected = [(q, part.index(k), score) for q, k, score in whole if k in part]
    found = WordSets(left, [right[k] for k in part], 0.4, max_postings=cap, right_held=_held(right)).pairs()
    assert list(found) == expected


@settings(max_examples=150, deadline=None)
@given(st.lists(words, max_size=10), st.lists(words, max_size=12), st.sampled_from([0.3, 0.4, 0.6]), st.integers(1, 5))
def test_two_sentences_pair_exactly_when_their_prefix_words_meet(left, right, threshold, cap):
    # prefix_words restates the search's prefixes: the store finds its
    # candidates through them (partialdup.store.wordsearch).
    held = _held(left + right)
    prefixes = [set(prefix_words(w, held, threshold, cap)) for w in left], [set(prefix_words(w, held, threshold, cap)) for w in right]
    expected = [
        (q, k) for q, first in enumerate(left) for k, second in enumerate(right)
        if prefixes[0][q] & prefixes[1][k] and word_jaccard(first, second) >= threshold
    ]
    assert [(q, k) for q, k, _ in WordSets(left, right, threshold, max_postings=cap).pairs()] == expected



many_words = st.lists(st.integers(0, 300).map(str), max_size=40)


@settings(max_examples=200, deadline=None)
@given(st.lists(many_words, min_size=1, max_size=8), st.lists(many_words, min_size=1, max_size=8))
def test_the_filters_bound_never_falls_below_the_shared_words(left, right):
    # Up to 40 words of 301 on 64 bits: words share bits, the bound holds.
    from partialdup.core.arrays import popcount

    sets = WordSets(left, right, 0.4)
    a, b = sets._left, sets._right
    for i, first in enumerate(left):
        for j, second in enumerate(right):
            most = popcount(a.filters[i] & b.filters[j]) + min(a.spare[i], b.spare[j])
            assert most >= len(set(first) & set(second))
            assert a.spare[i] == len(set(first)) - bin(int(a.filters[i])).count("1") >= 0


def test_the_filters_rule_pairs_out_without_losing_one(monkeypatch):
    # GPL lines: with the filters' bound fewer pairs have their words
    # compared, and the pairs are those of comparing every pair.
    from partialdup.index import words as module

    def scored_and_found():
        scored = []
        shared_with = module._SideSets.shared_with
        monkeypatch.setattr(module._SideSets, "shared_with", lambda self, rows, *rest: scored.append(len(rows)) or shared_with(self, rows, *rest))
        found = list(WordSets(GPL_LINES, None, 0.15).pairs())
        monkeypatch.setattr(module._SideSets, "shared_with", shared_with)
        return sum(scored), found

    filtered, found = scored_and_found()
    monkeypatch.setattr(module, "overlap_bound", lambda first, *rest: np.full(np.shape(first), 1 << 30, np.int64))  # a bound that rules nothing out
    every, unfiltered = scored_and_found()
    assert found == unfiltered == plain_word_pairs(GPL_LINES, None, 0.15) and len(found) > 100
    assert filtered < every


@settings(max_examples=200, deadline=None)
@given(st.lists(words, max_size=14), st.sampled_from([0.3, 0.4, 0.6]), st.integers(1, 4),
       st.lists(st.sampled_from("m n o p".split()), max_size=4, unique=True), st.randoms(use_true_random=False))
def test_sentences_already_numbered_pair_as_their_words_do(sentences, threshold, cap, unused, random):
    # Numbered in any order, with words none of the sentences holds: the
    # numbering changes no pair (ties go by the word, bits by the column).
    vocabulary = sorted(set(w for s in sentences for w in s)) + unused
    random.shuffle(vocabulary)
    column = {w: i for i, w in enumerate(vocabulary)}
    lengths = np.array([len(s) for s in sentences], np.int64)
    numbers = np.array([column[w] for s in sentences for w in s], np.int32)
    numbered = list(WordSets.of_columns(lengths, numbers, vocabulary, threshold, max_postings=cap).pairs())
    assert numbered == list(WordSets(sentences, None, threshold, max_postings=cap).pairs())
    # The words held packed (as a run holds them, core/packed_words.py): the same ties, the same pairs.
    packed = PackedWords.of(vocabulary)
    assert list(WordSets.of_columns(lengths, numbers, packed, threshold, max_postings=cap).pairs()) == numbered


def test_real_lines_numbered_pair_as_their_words_do():
    lines = GPL_LINES[:300]
    vocabulary = list(dict.fromkeys(w for line in lines for w in line))
    column = {w: i for i, w in enumerate(vocabulary)}
    lengths = np.array([len(line) for line in lines], np.int64)
    numbers = np.array([column[w] for line in lines for w in line], np.int32)
    numbered = list(WordSets.of_columns(lengths, numbers, vocabulary, WORD_JACCARD, max_postings=20).pairs())
    assert numbered and numbered == list(WordSets(lines, None, WORD_JACCARD, max_postings=20).pairs())
    # Their distinct words made first (as detect's word-set search does), the same pairs.
    rows, columns = distinct_words(lengths, numbers)
    assert rows.dtype == columns.dtype == np.int32
    assert [set(vocabulary[c] for c in columns[rows == r].tolist()) for r in range(len(lines))] == [set(line) for line in lines]
    assert list(WordSets.of_sets(rows, columns, len(lines), vocabulary, WORD_JACCARD, max_postings=20).pairs()) == numbered


@settings(max_examples=150, deadline=None)
@given(st.lists(words, max_size=12), st.integers(1, 6))
def test_distinct_words_are_each_rows_set_whatever_the_stretch(sentences, at_once):
    # The plain reference: each row's set of columns, sorted; the same when
    # the keys are sorted a few words at a time (a stretch of whole rows),
    # and as each row's count (distinct_sizes).
    vocabulary = sorted({w for s in sentences for w in s})
    column = {w: i for i, w in enumerate(vocabulary)}
    lengths = np.array([len(s) for s in sentences], np.int64)
    numbers = np.array([column[w] for s in sentences for w in s], np.int32)
    expected = [(r, c) for r, s in enumerate(sentences) for c in sorted({column[w] for w in s})]
    for stretch in (1 << 18, at_once):
        with mock.patch.object(words_module, "_DISTINCT_AT_ONCE", stretch):
            rows, columns = distinct_words(lengths, numbers)
            sizes, kept = distinct_sizes(lengths, numbers)
        assert rows.dtype == columns.dtype == kept.dtype == np.int32 and sizes.dtype == np.int64
        assert list(zip(rows.tolist(), columns.tolist())) == expected
        assert sizes.tolist() == [len(set(s)) for s in sentences] and kept.tolist() == columns.tolist()


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from("ab cd ef gh ij".split()), max_size=6), max_size=8),
    st.lists(st.sampled_from(["cd", "xy"]), unique=True),
)
def test_word_numbers_number_new_words_on_in_order_of_first_occurrence(sentences, held):
    # The plain reference: every word looked up in a dict numbered on as it goes.
    plain = {word: number for number, word in enumerate(held)}
    for word in (word for sentence in sentences for word in sentence):
        plain.setdefault(word, len(plain))
    columns = WordNumbering((word, number) for number, word in enumerate(held))
    lengths, numbers = word_numbers(sentences, columns)
    assert dict(columns) == plain and list(columns) == list(plain)
    assert lengths.tolist() == [len(sentence) for sentence in sentences]
    assert numbers.dtype == np.int32 and numbers.tolist() == [plain[word] for sentence in sentences for word in sentence]


def test_the_filters_made_a_few_rows_at_a_time_are_the_same(monkeypatch):
    # GPL lines (empty ones among them): each set's filter is the OR of its
    # words' bits whatever the block of rows it is made in.
    from partialdup.index import words as module

    lines = [line.split() for line in (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8").splitlines()]
    whole = WordSets(lines, None, WORD_JACCARD)
    monkeypatch.setattr(module, "_FILTER_ROWS", 7)
    blocks = WordSets(lines, None, WORD_JACCARD)
    assert np.array_equal(whole._left.filters, blocks._left.filters) and 0 < int(np.count_nonzero(whole._left.filters)) < len(lines)
    assert list(blocks.pairs()) == list(whole.pairs()) == plain_word_pairs(lines, None, WORD_JACCARD)



def _ranks_in_one_sort(rows, cols, rank):
    # The plain reference of _ranks_by_row: every word's (row, rank) key sorted at once.
    key = rows.astype(np.int64) << 32 | rank[cols].astype(np.int64)
    return (np.sort(key) & 0xFFFFFFFF).astype(np.int32)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.integers(0, 40), max_size=30, unique=True), max_size=20), st.integers(1, 25), st.randoms())
def test_ranks_sorted_a_stretch_of_rows_at_a_time_are_those_of_one_sort(sets, at_once, random):
    # Rows of any length (empty ones, and rows longer than a stretch, which is then the row).
    from partialdup.index import words as module

    width = 41
    rank = np.array(random.sample(range(width), width), np.int32)
    sizes = np.array([len(words) for words in sets], np.int64)
    rows = np.repeat(np.arange(len(sets)), sizes).astype(np.int32)
    cols = np.array([c for words in sets for c in sorted(words)], np.int32)
    saved = module._RANKED_AT_ONCE
    module._RANKED_AT_ONCE = at_once
    try:
        assert np.array_equal(module._ranks_by_row(sizes, cols, rank), _ranks_in_one_sort(rows, cols, rank))
    finally:
        module._RANKED_AT_ONCE = saved


def test_real_lines_ranked_a_few_rows_at_a_time_pair_the_same(monkeypatch):
    # GPL lines: the prefixes, and so the pairs, whatever the stretch of rows ranked at once.
    from partialdup.index import words as module

    lines = [line.split() for line in (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8").splitlines()]
    whole = WordSets(lines, None, WORD_JACCARD)
    monkeypatch.setattr(module, "_RANKED_AT_ONCE", 5)
    stretches = WordSets(lines, None, WORD_JACCARD)
    assert (stretches._left.prefix != whole._left.prefix).nnz == 0
    assert list(stretches.pairs()) == list(whole.pairs()) == plain_word_pairs(lines, None, WORD_JACCARD)
