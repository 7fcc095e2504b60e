"""The word checks of edited copies, on real sentences edited by hand.

The sentences are real (samples/GPL-2.txt, samples/debian-reference.debref_zhcn_ch01_s02_p0.txt);
each edit is one kind of PAN random obfuscation applied to about a fifth of the
words: deletion, insertion of words of the same document, swaps of neighbours,
replacement by words of the same document.
"""

import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.types import SentencePair
from partialdup.match.edited import (
    TEMPLATE_PLACES, EditedCheck, SentenceNumbers, differing_places, is_number_word, numbers_agree_of, supported, word_ratio,
)

EN = "To protect your rights, we need to make restrictions that forbid anyone to deny you these rights or to ask you to surrender the rights."
EN_EDITS = {
    "deletion": "To protect rights, we need to make restrictions that forbid anyone to deny these rights or to ask you to surrender rights.",
    "insertion": "To protect your rights, we need to make free restrictions that forbid anyone to deny you these software rights or to ask you to surrender the rights.",
    "swap": "To protect rights your, we need make to restrictions that forbid anyone to deny you rights these or to ask you to surrender the rights.",
    "replacement": "To protect your freedom, we need to make restrictions that forbid anyone to deny you these copies or to ask you to distribute the rights.",
}
ZH = "mount(8)用于把某个设备上找到的文件系统附着到巨大的文件树上。"
ZH_EDITS = {
    "deletion": "mount(8)用于把设备上找到的文件系统附着到文件树上。",
    "insertion": "mount(8)用于把某个目录设备上找到的文件系统附着到巨大的分散文件树上。",
    "swap": "mount(8)把用于某个设备上找到的文件系统到附着巨大的文件树上。",
    "replacement": "mount(8)用于把某个目录上找到的文件系统组织到巨大的文件树上。",
}
# Two template sentences of one real document (files, then directories):
# every feature shared, the key words differ.
TEMPLATE = ("可读（r）权限允许所有者检查文件的内容。", "可读（r）权限允许所有者列出目录内的内容。")


@pytest.fixture(scope="module")
def check():
    return EditedCheck(80.0, 70.0)


@pytest.mark.parametrize("kind", sorted(EN_EDITS))
@pytest.mark.parametrize("source, edits", [(EN, EN_EDITS), (ZH, ZH_EDITS)], ids=["en", "zh"])
def test_a_fifth_of_the_words_edited_is_a_copy_on_its_own(tokenizer, check, source, edits, kind):
    first, second = tokenizer.words(edits[kind]), tokenizer.words(source)
    assert first != second
    ratio = check.score(first, second)
    assert check.whole(first, second)
    assert check.alone_at(ratio, first, second), (kind, ratio)
    assert check.numbers_agree(first, second)


def test_template_sentences_are_not_a_copy_on_their_own(tokenizer, check):
    first, second = (tokenizer.words(s) for s in TEMPLATE)
    ratio = check.score(first, second)
    assert 60 < ratio < check.ratio
    assert not check.alone_at(ratio, first, second)


def test_a_renumbered_heading_is_not_the_same_line(tokenizer, check):
    # Debian Reference 2.73 (quoted by fortunes-zh) against 2.100: the section moved.
    first = tokenizer.words("9.5.11. 使用 SMART 预测硬盘故障")
    second = tokenizer.words("9.6.11. 使用 SMART 预测硬盘故障")
    assert not check.numbers_agree(first, second)
    assert not check.beside(first, second)
    assert check.numbers_agree(first, tokenizer.words("使用 SMART 预测硬盘故障"))  # a number deleted


# A real line of Debian Reference (samples/) and the same line garbled at one
# character in five by the end-to-end test's PAN-style edits
# (tests/pipeline/test_edited_copies.py, start=298, share=0.2), as letters.
GARBLED = ("一些著名的由系统提供的组允许其成员不需要root权限访问某些特定的文件和设备",
           "一些著名的由系统供的组允p其成员e不需要root权限访某些实问特定的文件和设")
# Template twins of Debian Reference (goldenset/src) whose letters agree at 85.
TWINS = ("mounttext4devloop0p1mntloop0p1", "mounttext4devmapperloop0p2mntloop0p2")


def test_differing_places_counts_runs_of_edits_apart():
    assert differing_places("abc", "abc") == 0
    assert differing_places("", "abc") == 1
    assert differing_places("postrm", "preinst") == 1  # one word for another, aligned on p, s, t
    assert differing_places(*TWINS) == 3
    assert differing_places(*GARBLED) == 5


@given(st.text("abcde", max_size=30), st.text("abcde", max_size=30))
def test_differing_places_is_zero_only_for_equal_strings_and_at_most_the_edits(first, second):
    from rapidfuzz.distance import Indel

    places = differing_places(first, second)
    assert (places == 0) == (first == second)
    assert places <= Indel.distance(first, second)


def test_a_copy_garbled_in_many_places_is_not_a_template_twin(check):
    assert differing_places(*GARBLED) > TEMPLATE_PLACES
    assert check.scattered_edits(*GARBLED)
    assert not check.scattered_edits(*TWINS)  # three places: key words
    assert not check.scattered_edits(*(s.rstrip("。") for s in TEMPLATE))


def test_word_ratio_edges():
    assert word_ratio((), ("a",)) == 0.0
    assert word_ratio(("a", "b"), ("a", "b")) == 100.0
    assert word_ratio(("a", "b"), ("b", "a")) == 50.0


def test_a_run_of_tentative_pairs_stands_only_beside_a_firm_pair():
    run = [SentencePair(i, i + 3, 1.0) for i in range(3)]
    assert supported(run, lambda p: True, reach=4) == []
    firm = SentencePair(3, 6, 0.8)
    kept = supported([*run, firm], lambda p: p is not firm, reach=4)
    assert kept == [*run, firm]  # from the firm pair outwards, one after another


def test_a_tentative_pair_does_not_pair_a_sentence_twice():
    firm = [SentencePair(0, 0, 1.0), SentencePair(1, 1, 1.0)]
    beside = SentencePair(1, 2, 0.5)  # sentence 1 of A is paired already
    kept = supported([*firm, beside], lambda p: p is beside, reach=4)
    assert kept == firm


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30), st.booleans()), max_size=25), st.integers(1, 5))
def test_supported_keeps_every_firm_pair_and_only_given_pairs(entries, reach):
    pairs = sorted({SentencePair(a, b, 1.0) for a, b, _ in entries})
    tentative = {(a, b) for a, b, t in entries if t}
    flags = {(p.a, p.b): (p.a, p.b) in tentative for p in pairs}
    kept = supported(pairs, lambda p: flags[(p.a, p.b)], reach=reach)
    assert set(kept) <= set(pairs)
    assert {p for p in pairs if not flags[(p.a, p.b)]} <= set(kept)


def test_a_pair_found_on_words_only_yields_to_a_better_pair_of_its_sentence():
    # Revelation 7 (KJV): "…of Issachar were sealed twelve thousand." pairs with
    # its copy (ratio 100) and, on words alone, with the verse of Levi (89).
    copy, template, other = SentencePair(5, 5, 1.0), SentencePair(5, 6, 0.3), SentencePair(9, 9, 0.2)
    ratios = {copy: 100.0, template: 84.0, other: 81.0}
    kept = supported(
        [copy, template, other], lambda p: False, reach=4,
        words_only=lambda p: p is not copy, ratio=ratios.__getitem__,
    )
    assert kept == [copy, other]


def _numbers_agree_plain(first, second):
    # The multiset reference: one sentence's numbers all lie in the other's.
    from collections import Counter

    a = Counter(w for w in first if w[0].isdigit() and not any(c.isalpha() for c in w))
    b = Counter(w for w in second if w[0].isdigit() and not any(c.isalpha() for c in w))
    return not a or not b or not (a - b) or not (b - a)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["1", "2", "2", "9.5", "11", "2.6/3.x", "a", "使用"]), max_size=8),
       st.lists(st.sampled_from(["1", "2", "9.5", "9.6", "11", "b"]), max_size=8))
def test_numbers_agree_as_multisets_whatever_their_counts(first, second):
    assert EditedCheck.numbers_agree(first, second) == _numbers_agree_plain(first, second)
    assert EditedCheck.numbers_agree(second, first) == _numbers_agree_plain(second, first)


def test_a_number_begins_with_a_digit_and_holds_no_letter():
    assert [is_number_word(w) for w in ("9.3.2", "1024", "2.6/3.x", "x1", "使用", "")] == [True, True, False, False, False, False]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(*[st.lists(st.sampled_from(["1", "2", "9.5", "11", "2.6/3.x", "a", "使用"]), max_size=6)
                            .map(tuple)] * 2), max_size=12))
def test_numbers_remembered_by_sentence_agree_as_found_anew(pairs):
    # The edited copies' judge finds each sentence's numbers once
    # (SentenceNumbers); the verdicts are those of the plain check.
    numbers = SentenceNumbers()
    for first, second in pairs:
        assert numbers_agree_of(numbers[first], numbers[second]) == EditedCheck.numbers_agree(first, second)
    assert len(numbers) == len({words for pair in pairs for words in pair})


def test_a_lone_pair_stands_unless_tentative():
    # Nothing supports or outdoes a document pair's only pair, on its words alone or not.
    pair = SentencePair(2, 5, 0.4)
    for words_only in (None, lambda p: True):
        assert supported([pair], lambda p: False, reach=4, words_only=words_only, ratio=lambda p: 50.0) == [pair]
        assert supported([pair], lambda p: True, reach=4, words_only=words_only, ratio=lambda p: 50.0) == []
    assert supported([], lambda p: True, reach=4) == []


def test_words_beside_is_beside_with_the_numbers_aside():
    check = EditedCheck(80.0, 60.0)
    renumbered = (("9.2.5.", "safe", "network", "operations"), ("9.3.4.", "safe", "network", "operations"))
    assert check.words_beside(*renumbered) and not check.beside(*renumbered)
    same = (("safe", "low", "level", "network"), ("safe", "low", "level", "network", "operations"))
    assert check.words_beside(*same) == check.beside(*same) is True
    assert not check.words_beside(("a", "b", "c"), ("x", "y", "z"))
