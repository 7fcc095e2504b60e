"""The word filters' bound: never below rapidfuzz's ratio; a plain reference for the filters and the bit counts."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from partialdup.core.hashing import stable_hash
from partialdup.core.packed_words import PackedWords
from partialdup.match.edited import word_ratio
from partialdup.match.word_filter import BITS, FilterRows, WordFilters, ratios_may_reach

WORDS = st.sampled_from(["a", "b", "c", "copy", "的", "是", "文件", "用户", "1", "9.2", "x", "使用"])
SENTENCES = st.lists(st.lists(WORDS, max_size=14), min_size=1, max_size=8)


def plain_filter(words) -> int:
    mask = 0
    for word in words:
        mask |= 1 << (stable_hash((word,)) % BITS)
    return mask


@settings(max_examples=200, deadline=None)
@given(SENTENCES)
def test_filters_equal_the_plain_reference(sentences) -> None:
    filters = WordFilters()
    assert filters.of_sentences(sentences).tolist() == [plain_filter(words) for words in sentences]
    assert filters.of_sentences(sentences).tolist() == [plain_filter(words) for words in sentences]  # remembered bits


@settings(max_examples=200, deadline=None)
@given(SENTENCES, st.randoms(use_true_random=False))
def test_filters_of_numbered_words_equal_the_plain_reference(sentences, random) -> None:
    vocabulary = list(set(w for words in sentences for w in words)) + ["unused"]
    random.shuffle(vocabulary)
    column = {w: i for i, w in enumerate(vocabulary)}
    lengths = np.array([len(words) for words in sentences], np.int64)
    numbers = np.array([column[w] for words in sentences for w in words], np.int32)
    filters = WordFilters()
    plain = [plain_filter(words) for words in sentences]
    for _ in range(2):  # the second time, after other words' bits were remembered
        assert filters.of_columns(vocabulary, lengths, numbers).tolist() == plain
        assert filters.of_columns(PackedWords.of(vocabulary), lengths, numbers).tolist() == plain  # a run's words, packed
        filters.of_sentences(sentences)


@settings(max_examples=300, deadline=None)
@given(SENTENCES, st.floats(0.0, 100.0))
def test_a_pair_ruled_out_never_reaches_the_ratio(sentences, least) -> None:
    rows = FilterRows.of(np.array([len(s) for s in sentences], np.int64), WordFilters().of_sentences(sentences))
    first, second = np.divmod(np.arange(len(sentences) ** 2), len(sentences))
    may = ratios_may_reach(rows, first, rows, second, least)
    for i, j, ok in zip(first.tolist(), second.tolist(), may.tolist()):
        if not ok:
            assert word_ratio(sentences[i], sentences[j]) < least
        if sentences[i] == sentences[j] and sentences[i]:
            assert ok


def test_a_filter_that_admits_every_word_is_ruled_out_by_its_spare_words() -> None:
    # A stored sentence whose words were not kept has every bit set: its
    # spare words are negative and its pairs are passed over, which changes
    # nothing, since the edited-copy stage never judges a sentence without words.
    query = [["使用", "文件", "的", "使用"]]
    rows = FilterRows.of(np.array([4]), WordFilters().of_sentences(query))
    every = FilterRows.of(np.array([5]), np.array([2**64 - 1], np.uint64))
    assert every.spare.tolist() == [5 - 64]
    assert ratios_may_reach(rows, np.array([0]), every, np.array([0]), 70.0).tolist() == [False]
    assert ratios_may_reach(rows, np.array([0]), rows, np.array([0]), 100.0).tolist() == [True]


def count_ruled_out(monkeypatch) -> list[int]:
    """Patches the edited-copy stage's bound to count, per call, the pairs it rules out."""
    from partialdup.pipeline import edits

    ruled_out: list[int] = []
    may_reach = edits.ratios_may_reach

    def counted(*args):
        may = may_reach(*args)
        ruled_out.append(int((~may).sum()))
        return may

    monkeypatch.setattr(edits, "ratios_may_reach", counted)
    return ruled_out


def judge_every_pair(monkeypatch) -> None:
    """Patches the edited-copy stage's bound to rule no pair out."""
    from partialdup.pipeline import edits

    monkeypatch.setattr(edits, "ratios_may_reach", lambda first, first_rows, *rest: np.ones(len(first_rows), bool))
