import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.config import Config
from partialdup.pipeline import detector as detector_module
from partialdup.pipeline.factory import make_detector
from partialdup.match.refine import MAX_GROWTH_SENTENCES
from partialdup.core.types import Document

from tests.paths import REPO


@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, tokenizer=tokenizer)


PARAGRAPH = (
    "The quick brown fox jumps over the lazy dog near the river bank. "
    "It was the best of times, it was the worst of times, said the narrator. "
    "All happy families are alike; each unhappy family is unhappy in its own way. "
)


def test_empty_and_whitespace_documents_give_nothing(detector):
    found = detector.detect([Document("e", ""), Document("w", " \n\t\n"), Document("p", PARAGRAPH)])
    assert found.spans == ()
    assert found.stats.documents == 3


def test_same_document_twice_is_one_full_length_span(detector):
    text = PARAGRAPH + "\n\n" + "今天天气很好，我们去公园散步吧。这是第三句话，没有什么特别的。"
    [span] = detector.detect([Document("x", text), Document("y", text)]).spans
    first, last = span.pairs[0], span.pairs[-1]
    assert (span.a, span.b) == ("x", "y")
    assert span.a_start == span.b_start == 0 and span.a_end == span.b_end == len(text)
    assert first.a == first.b == 0 and last.a == last.b == span.a_sentences[1]


def test_a_run_forgets_the_tokenizers_memos_once_its_features_are_made(detector):
    # Its memos hold memory only after the features (40 MB on a Chinese run);
    # a process forked later would keep their pages too.
    text = PARAGRAPH + "今天天气很好，我们去公园散步吧。这是第三句话，没有什么特别的。"
    first = detector.detect([Document("x", text), Document("y", text)])
    assert detector.tokenizer.remembered == 0 and not detector._bags_of  # nor the bags of words met before
    assert detector.detect([Document("x", text), Document("y", text)]) == first
    detector.check([Document("q", text)], [Document("r", text)])
    assert detector.tokenizer.remembered == 0 and not detector._bags_of


def test_the_index_and_the_judged_arrays_are_gone_when_the_spans_are_made(detector, monkeypatch):
    # The tail forks its workers with the calling process's heap: what the
    # look-ups alone needed is freed before (docs/benchmark.md, session 24).
    import weakref

    from partialdup.pipeline.detector import Detector

    built, seen = [], []
    build_index, pair_spans = Detector.build_index, Detector.pair_spans

    def remembered(self, *args, **kwargs):
        index = build_index(self, *args, **kwargs)
        built.append(weakref.ref(index))
        return index

    def spans(self, *args):
        seen.append([ref() is None for ref in built])
        return pair_spans(self, *args)

    monkeypatch.setattr(Detector, "build_index", remembered)
    monkeypatch.setattr(Detector, "pair_spans", spans)
    text = PARAGRAPH + "The quick brown fox jumps over the lazy dog near a river bank."
    retained: list[object] = []
    found = detector.detect([Document("x", text), Document("y", PARAGRAPH + "An opening of its own.")], retain=retained)
    assert found.spans and seen and all(all(gone) for gone in seen) and built
    [lookups] = [item for item in retained if hasattr(item, "release_judged")]
    assert len(lookups.near) == len(lookups.loose) == 0
    # Their verdicts went too, once read: asked for again, they are not made anew.
    assert lookups.edited_verdicts is not None and lookups.edited_verdicts.done
    for verdicts in (lookups.near_verdicts, lookups.edited_verdicts):
        if verdicts is not None:
            with pytest.raises(RuntimeError):
                verdicts()
    assert found.stats.candidate_pairs > 0


def test_copies_inside_one_document_are_not_reported(detector):
    assert detector.detect([Document("x", PARAGRAPH + PARAGRAPH)]).spans == ()


def test_check_orients_query_then_reference(detector):
    query = Document("q", "Intro text of my own here. " + PARAGRAPH)
    found = detector.check([query], [Document("ref", PARAGRAPH)])
    [span] = found.spans
    assert (span.a, span.b) == ("q", "ref")
    assert query.text[span.a_start : span.a_end] == PARAGRAPH.strip()


def test_ten_thousand_copies_of_one_sentence_finish_in_bounded_work(tokenizer, idf):
    sentence = "Repeat after me this one sentence again. "
    detector = make_detector("low-idf-sig", idf, Config(max_postings=500), tokenizer=tokenizer)
    found = detector.detect([Document("many", sentence * 10_000), Document("one", sentence)])
    # The 10,001 copies are one distinct bag (partialdup.index.groups): its
    # features are not over the bound, the copies pair without being scored
    # one by one, and the copy is found (it used to be hidden).
    assert found.stats.frequent_features == 0 and found.stats.candidate_pairs == 0
    assert {(s.a, s.b) for s in found.spans} == {("many", "one")}


def test_one_huge_line_is_cut_and_processed(detector):
    # 50 times the longest sentence (1,000 characters): every piece pairs with
    # every piece of the other copy, so the run grows with the square.
    line = "字" * 50_000
    found = detector.detect([Document("a", line), Document("b", line)])
    assert found.stats.sentences >= 2 * 50
    assert {(span.a_start, span.a_end, span.b_start, span.b_end) for span in found.spans} == {(0, 50_000, 0, 50_000)}


def test_output_is_deterministic_and_sorted(detector):
    docs = [Document(n, PARAGRAPH) for n in ("c", "a", "b")]
    first = detector.detect(docs).spans
    assert first == detector.detect(list(reversed(docs))).spans
    assert [(s.a, s.b) for s in first] == [("a", "b"), ("a", "c"), ("b", "c")]


def test_a_run_retained_for_the_caller_gives_the_same_detection(detector):
    # The command line keeps a run's working state until its process ends
    # (freeing it object by object is wasted work then); the answer is the same.
    # The index of detect is not kept: its arrays go before the tail's workers.
    docs = [Document(n, PARAGRAPH) for n in ("c", "a", "b")]
    retained: list = []
    assert detector.detect(docs, retain=retained) == detector.detect(docs)
    assert len(retained) == 3 and [doc.id for doc in retained[0]] == ["c", "a", "b"]
    checked: list = []
    assert detector.check(docs[:1], docs[1:], retain=checked) == detector.check(docs[:1], docs[1:])
    assert len(checked) == 4


def test_a_retained_run_lets_the_dictionaries_go_and_the_next_loads_them_again(detector):
    # A caller that passes retain ends its process after the run: the
    # tokenizer's dictionaries are not needed once the features are made.
    text = "这是一个用于测试的中文句子，它被完整地复制了。另一句话说明文件的用途。"
    docs = [Document("a", text), Document("b", "开头不同的一句话。" + text)]
    detector.tokenizer.load()
    plain = detector.detect(docs)
    assert detector.tokenizer._segmenter.loaded and detector.tokenizer._common.loaded  # kept
    assert detector.detect(docs, retain=[]) == plain and plain.spans
    assert not detector.tokenizer._segmenter.loaded and not detector.tokenizer._common.loaded
    assert detector.detect(docs) == plain  # loaded again on the way
    assert detector.tokenizer._segmenter.loaded
    checked = detector.check(docs[:1], docs[1:], retain=[])
    assert not detector.tokenizer._segmenter.loaded
    assert checked == detector.check(docs[:1], docs[1:])


words = st.sampled_from("the of and to copy text 文本 复制 的 是 一个 句子 Alpha beta".split())
sentence = st.builds(
    lambda ws, end: " ".join(ws) + end,
    st.lists(words, min_size=1, max_size=12),
    st.sampled_from(["。", ". ", "！", "?\n"]),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(sentence, min_size=1, max_size=8), st.lists(sentence, max_size=5), st.integers(0, 8))
def test_span_offsets_round_trip(tokenizer, idf, detector, shared, extra, cut):
    a_text = "".join(extra[:cut % (len(extra) + 1)] + shared + extra)
    b_text = "".join(shared)
    docs = [Document("a", a_text), Document("b", b_text)]
    a_sentences = detector.splitter.split(a_text)
    b_sentences = detector.splitter.split(b_text)
    # Without refinement a span runs from its first sentence to its last.
    whole = make_detector("low-idf-sig", idf, Config(refine=False), tokenizer=tokenizer)
    for span in whole.detect(docs).spans:
        assert span.a_start == a_sentences[span.a_sentences[0]].start
        assert span.a_end == a_sentences[span.a_sentences[1]].end
        assert span.b_start == b_sentences[span.b_sentences[0]].start
        assert span.b_end == b_sentences[span.b_sentences[1]].end
        assert 0.0 < span.score <= 1.0
    # Refined edges stay within reach of those sentences and on text.
    for span in detector.detect(docs).spans:
        for text, sentences, (first, last), start, end in (
            (a_text, a_sentences, span.a_sentences, span.a_start, span.a_end),
            (b_text, b_sentences, span.b_sentences, span.b_start, span.b_end),
        ):
            low = sentences[max(0, first - MAX_GROWTH_SENTENCES)].start
            high = sentences[min(len(sentences) - 1, last + MAX_GROWTH_SENTENCES)].end
            assert low <= start < end <= high
            assert not text[start].isspace() and not text[end - 1].isspace()


def test_boilerplate_shared_by_many_documents_is_not_reported(tokenizer, idf):
    footer = "This page is part of release 6.03 of the Linux man-pages project. "
    docs = [Document(f"d{i}", f"Page {i} tells its own story number {i} here. " + footer) for i in range(5)]
    quiet = make_detector("low-idf-sig", idf, Config(boilerplate=3), tokenizer=tokenizer)
    loud = make_detector("low-idf-sig", idf, Config(boilerplate=0), tokenizer=tokenizer)
    assert quiet.detect(docs).spans == ()
    assert quiet.detect(docs).stats.boilerplate_sentences == 5
    assert len(loud.detect(docs).spans) == 10  # every pair of the five shares the footer
    # Two documents only: a shared sentence is a copy, not boilerplate.
    assert len(quiet.detect(docs[:2]).spans) == 1


def test_check_treats_a_sentence_in_many_references_as_boilerplate(tokenizer, idf):
    footer = "This page is part of release 6.03 of the Linux man-pages project. "
    references = [Document(f"r{i}", f"Reference {i} has a body of its own. " + footer) for i in range(3)]
    detector = make_detector("low-idf-sig", idf, Config(boilerplate=3), tokenizer=tokenizer)
    found = detector.check([Document("q", footer)], references)
    assert found.spans == () and found.stats.boilerplate_sentences == 1


# Genesis 1:3-4 and Exodus 20:3 (King James Version, public domain). In the
# source, verse 3 ends with a comma, so the splitter joins the two verse
# lines into one sentence; the copy takes verse 4 alone.
KJV_SOURCE = (
    "And God said, Let there be light: and there was light, and it shone upon the waters,\n"
    "And God saw the light, that it was good: and God divided the light from the darkness.\n"
)
KJV_COPY = "Thou shalt have no other gods before me.\n\nAnd God saw the light, that it was good: and God divided the light from the darkness.\n"


@pytest.mark.parametrize("containment, found", [(0.8, True), (0.0, False)])
def test_containment_finds_a_sentence_copied_out_of_a_longer_one(tokenizer, idf, containment, found):
    # Embedded copies are off: their character check would find this one too.
    config = Config(containment=containment, embedded_ratio=0.0)
    detector = make_detector("low-idf-sig", idf, config, tokenizer=tokenizer)
    spans = detector.check([Document("copy", KJV_COPY)], [Document("source", KJV_SOURCE)]).spans
    assert bool(spans) == found
    if found:
        [span] = spans
        assert KJV_COPY[span.a_start : span.a_end] == KJV_COPY.strip().split("\n\n")[1]
        assert span.pairs[0].score < 0.6  # found by containment, not by bag-Jaccard


# Genesis 1:1-5 and 1:6-9 (KJV, public domain); the reference repeats verse 3
# after four other verses, as a revised document repeats a paragraph.
GENESIS = (
    "In the beginning God created the heaven and the earth. "
    "And the earth was without form, and void; and darkness was upon the face of the deep. "
    "And the Spirit of God moved upon the face of the waters. "
    "And God said, Let there be light: and there was light. "
    "And God saw the light, that it was good: and God divided the light from the darkness."
)
GENESIS_ON = (
    "And God said, Let there be a firmament in the midst of the waters, and let it divide the waters from the waters. "
    "And God made the firmament, and divided the waters which were under the firmament from the waters which were above the firmament: and it was so. "
    "And God called the firmament Heaven. And the evening and the morning were the second day. "
    "And God said, Let the waters under the heaven be gathered together unto one place, and let the dry land appear: and it was so."
)
VERSE_3 = "And God said, Let there be light: and there was light."


@pytest.mark.parametrize("single_origin, expected", [(True, 1), (False, 2)])
def test_check_gives_a_query_passage_one_origin_per_reference(tokenizer, idf, single_origin, expected):
    reference = f"{GENESIS}\n\n{GENESIS_ON}\n\n{VERSE_3}\n"
    config = Config(single_origin=single_origin)
    detector = make_detector("low-idf-sig", idf, config, tokenizer=tokenizer)
    spans = detector.check([Document("copy", GENESIS)], [Document("reference", reference)]).spans
    assert len(spans) == expected
    assert (spans[0].a_start, spans[0].a_end, spans[0].b_start) == (0, len(GENESIS), 0)


def test_detect_keeps_both_quotes_of_a_repeated_passage(detector):
    # detect has no query side: the sentence quoted twice by B is two copies.
    spans = detector.detect([Document("a", GENESIS), Document("b", f"{GENESIS}\n\n{GENESIS_ON}\n\n{VERSE_3}\n")]).spans
    assert len(spans) == 2


@pytest.mark.parametrize("rejoin", [True, False])
def test_a_copy_with_a_line_break_inserted_mid_sentence_is_found(tokenizer, idf, rejoin):
    # The copy breaks verse 3 after "there" (a two-line block: the splitter
    # cuts there); read as one sentence the two pieces match the verse.
    # Refinement is off: it would also reach the unpaired piece from the other.
    copy = f"{GENESIS_ON}\n\nAnd God said, Let there\nbe light: and there was light.\n"
    detector = make_detector("low-idf-sig", idf, Config(rejoin=rejoin, refine=False), tokenizer=tokenizer)
    spans = detector.check([Document("copy", copy)], [Document("source", GENESIS)]).spans
    whole = "And God said, Let there\nbe light: and there was light."
    assert ([copy[s.a_start : s.a_end] for s in spans] == [whole]) == rejoin  # without: a piece at most
    # The other direction: the break is in the reference.
    spans = detector.check([Document("source", GENESIS)], [Document("copy", copy)]).spans
    assert ([copy[s.b_start : s.b_end] for s in spans] == [whole]) == rejoin


def test_a_line_before_a_copied_sentence_is_not_rejoined_to_it(detector):
    # The reference has an option line before the sentence: the sentence
    # matches on its own, so the option line is not drawn into the span.
    sentence = "And God saw the light, that it was good: and God divided the light from the darkness."
    reference = f"{GENESIS_ON}\n\n-a, --accept\n{sentence}\n"
    [span] = detector.check([Document("copy", f"{sentence}\n")], [Document("reference", reference)]).spans
    assert reference[span.b_start : span.b_end] == sentence


def test_detect_rejoins_in_both_directions(detector):
    copy = f"{GENESIS_ON}\n\nAnd God said, Let there\nbe light: and there was light.\n"
    spans = detector.detect([Document("a", GENESIS), Document("b", copy)]).spans
    assert [(GENESIS[s.a_start : s.a_end], copy[s.b_start : s.b_end]) for s in spans] == [
        (VERSE_3, "And God said, Let there\nbe light: and there was light.")
    ]


# Debian Reference 2.100, section 9.11 (GPL-2+), and a copy with one character
# replaced: jieba's words change and the sentence keeps two of its four features.
CHROOT = "chroot 提供基本的虚拟化环境,足够能在里面编译程序,运行控制台应用,运行后台守护程序 daemon."
CHROOT_EDITED = CHROOT.replace("基本", "后本")


@pytest.mark.parametrize("near_ratio, found", [(90.0, True), (0.0, False)])
def test_a_near_miss_is_a_copy_when_its_characters_agree(tokenizer, idf, near_ratio, found):
    detector = make_detector("low-idf-sig", idf, Config(near_ratio=near_ratio, edited_ratio=0), tokenizer=tokenizer)
    for spans in (
        detector.check([Document("copy", CHROOT_EDITED)], [Document("source", CHROOT)]).spans,
        detector.detect([Document("copy", CHROOT_EDITED), Document("source", CHROOT)]).spans,
    ):
        assert bool(spans) == found
        if found:
            [span] = spans
            assert span.pairs[0].score < 0.6  # below tau: accepted on characters


@pytest.mark.parametrize("boilerplate, expected", [(3, 0), (0, 3)])
def test_a_near_copy_of_many_documents_is_a_template(tokenizer, idf, boilerplate, expected):
    detector = make_detector("low-idf-sig", idf, Config(boilerplate=boilerplate), tokenizer=tokenizer)
    references = [Document(f"source{i}", f"{GENESIS_ON}\n\n{CHROOT}\n") for i in range(3)]
    spans = detector.check([Document("copy", CHROOT_EDITED)], references).spans
    assert len(spans) == expected


# debian-handbook (zh-CN), section 11.4, which leaves this sentence in English,
# with a sentence of manpages-zh systemd-escape(1) pasted after it in
# Traditional script and without a space: the splitter sees one sentence.
PRINTING = (
    "In essence, these printers are IPP printers and an excellent fit for a driverless printing system, "
    "reducing the system to CUPS plus cups-filters."
)
ESCAPE = "systemd-escape 可用于 转义单元名称中的特殊字符， 也可用于还原操作。"
ESCAPE_TW = "systemd-escape 可用於 轉義單元名稱中的特殊字符， 也可用於還原操作。"


@pytest.mark.parametrize("embedded_ratio, found", [(95.0, True), (0.0, False)])
def test_a_sentence_pasted_inside_another_is_found(tokenizer, idf, embedded_ratio, found):
    detector = make_detector("low-idf-sig", idf, Config(embedded_ratio=embedded_ratio), tokenizer=tokenizer)
    host = f"{PRINTING}{ESCAPE_TW}\n"
    spans = detector.check([Document("copy", host)], [Document("source", f"{GENESIS_ON}\n\n{ESCAPE}\n")]).spans
    assert [host[s.a_start : s.a_end] for s in spans] == ([ESCAPE_TW] if found else [])


# fortunes-zh (a Debian Reference excerpt) and manpages-zh ls(1): both
# sentences have one feature, the chain of their common opening 也可以使用.
OPENING_A = "也可以使用 CD-ROM/DVD 。\n"
OPENING_B = "也可以使用二进制前缀：KiB=K、MiB=M，以此类推。\n"


@pytest.mark.parametrize("min_shared, found", [(3, False), (1, True)])
def test_a_pair_sharing_one_feature_must_agree_on_characters(tokenizer, idf, min_shared, found):
    detector = make_detector("low-idf-sig", idf, Config(min_shared=min_shared), tokenizer=tokenizer)
    assert bool(detector.check([Document("a", OPENING_A)], [Document("b", OPENING_B)]).spans) == found
    assert bool(detector.detect([Document("a", OPENING_A), Document("b", OPENING_B)]).spans) == found
    # A copy of the short sentence has the same characters and is found.
    [span] = detector.check([Document("a", OPENING_A)], [Document("b", f"{GENESIS_ON}\n\n{OPENING_A}")]).spans
    assert span.score == 1.0


# manpages-zh od(1), zh_TW against zh_CN: option lines of one or two features
# whose words differ by Taiwan against mainland usage (位元組 / 字节, 型別 /
# 类型), so their characters do not agree; lined up pair after pair they are
# still evidence, and the passage stays one span.
OD_TW = (
    "-j, --skip-bytes=位元組數\n處理前先跳過指定數量的位元組\n\n-N, --read-bytes=位元組數\n限制要轉儲的輸入位元組為指定的位元組數\n\n"
    "-S 位元組數, --strings[=位元組數]\n輸出至少包含指定位元組數的可見字元；未指定具體數字時預設值取 3\n\n-t, --format=型別\n選取輸出格式型別\n\n"
    '-v, --output-duplicates\n不使用 "*" 字元標記遮蔽的行\n\n-w[位元組數], --width[=位元組數]\n每一行只輸出指定的位元組數；未指定具體數字時預設值取 32\n\n'
    "--traditional\n接受傳統格式（上述第三種格式）的輸入\n"
)
OD_CN = (
    "-j, --skip-bytes=字节数\n处理前先跳过指定数量的字节\n\n-N, --read-bytes=字节数\n限制要转储的输入字节为指定的字节数\n\n"
    "-S 字节数, --strings[=字节数]\n输出至少包含指定字节数的可见字符；未指定具体数字时默认值取 3\n\n-t, --format=类型\n选取输出格式类型\n\n"
    '-v, --output-duplicates\n不使用 "*" 字符标记屏蔽的行\n\n-w[字节数], --width[=字节数]\n每一行只输出指定的字节数；未指定具体数字时默认值取 32\n\n'
    "--traditional\n接受传统格式（上述第三种格式）的输入\n"
)


def test_weak_pairs_in_line_are_evidence(detector):
    [span] = detector.check([Document("tw", OD_TW)], [Document("cn", OD_CN)]).spans
    assert (OD_TW[span.a_start : span.a_end], OD_CN[span.b_start : span.b_end]) == (OD_TW.strip(), OD_CN.strip())


def test_a_verbatim_sentence_wins_over_its_template_siblings(detector):
    # file-hierarchy(7) (zh_TW, goldenset/src) says the same of $XDG_CACHE_HOME,
    # $XDG_CONFIG_HOME and $XDG_DATA_HOME, a word apart; a copy of the cache
    # paragraph pairs its last sentence with all three at bag-Jaccard 1.0.
    # The alignment keeps the verbatim one (its words agree best), not the
    # later sibling.
    source = (REPO / "goldenset" / "src" / "man_zhtw_file_hierarchy.7.txt").read_text(encoding="utf-8")
    copy = "\n".join(source.splitlines()[120:124]) + "\n"
    spans = detector.detect([Document("a", copy), Document("b", source)]).spans
    last = copy.rstrip().split("。 ")[-1]
    assert "$XDG_CACHE_HOME" in last
    [span] = [s for s in spans if s.a_sentences == (0, 4)]
    assert source[span.b_start : span.b_end].endswith(last)


def test_word_pairs_found_again_by_the_feature_search_are_read_once():
    # The loose candidates: the feature search's pairs, then the word
    # search's that it did not find (same first and second sentences).
    import numpy as np

    from partialdup.index.sparse import PairMatches
    from partialdup.pipeline.lookups import _not_found_in

    keys = [(0, 0), (0, 1), (1, 0), (1, 1)]
    found = PairMatches(np.array([2, 3]), np.array([0, 1]), np.array([0.3, 0.3]), np.array([1, 1]), 2, 0)
    words = [((1, 0), (0, 0), 0.2), ((0, 0), (1, 0), 0.2), ((1, 0), (0, 1), 0.1), ((1, 1), (0, 1), 0.4), ((9, 9), (0, 0), 0.1)]
    assert _not_found_in(words, found, keys) == [((0, 0), (1, 0), 0.2), ((1, 0), (0, 1), 0.1), ((9, 9), (0, 0), 0.1)]


def _not_found_in_plain(pairs, found, keys):
    # The plain reference: a dict from each key to its position.
    position = {key: number for number, key in enumerate(keys)}
    matched = set(zip(found.query.tolist(), found.key.tolist()))
    return [pair for pair in pairs if (position.get(pair[0], -1), position.get(pair[1], -1)) not in matched]


key_lists = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), unique=True, max_size=12)


@settings(max_examples=200, deadline=None)
@given(key_lists, st.data())
def test_word_pairs_not_found_agree_with_the_plain_dict(keys, data):
    # _not_found_in finds the keys' positions on arrays (KeyPositions), its
    # keys given as arrays (SentenceKeys) or a list; keys not indexed never match.
    import numpy as np

    from partialdup.index.inverted import SentenceKeys
    from partialdup.index.sparse import PairMatches
    from partialdup.pipeline.lookups import _not_found_in

    some_key = st.tuples(st.integers(0, 5), st.integers(0, 5))
    pairs = data.draw(st.lists(st.tuples(some_key, some_key, st.sampled_from([0.1, 0.5])), max_size=10))
    positions = range(len(keys))
    matched = sorted(data.draw(st.sets(st.tuples(st.sampled_from(positions), st.sampled_from(positions)) if keys else st.nothing())))
    query, key = (np.array([pair[k] for pair in matched], np.int64) for k in (0, 1))
    found = PairMatches(query, key, np.ones(len(matched)), np.ones(len(matched), np.int64), len(matched), 0)
    as_arrays = SentenceKeys(np.array([d for d, _ in keys], np.int64), np.array([s for _, s in keys], np.int64))
    expected = _not_found_in_plain(pairs, found, keys)
    assert _not_found_in(pairs, found, keys) == expected
    assert _not_found_in(pairs, found, as_arrays) == expected


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(list("ab 中文。「」“”\"'\n")), max_size=60),
    cuts=st.lists(st.integers(0, 60), max_size=8),
    gaps=st.booleans(),
)
def test_the_sentences_holding_quotation_marks_are_those_a_search_per_sentence_finds(text, cuts, gaps):
    # The plain reference: the opening marks searched sentence by sentence.
    from partialdup.core.types import Sentence
    from partialdup.pipeline.detector import _OPENERS, _holding_openers

    edges = sorted({0, len(text), *(min(c, len(text)) for c in cuts)})
    # Sentences in order, touching or (as the splitter leaves white space out) with gaps.
    sentences = [Sentence(i, lo + (1 if gaps and hi - lo > 1 else 0), hi) for i, (lo, hi) in enumerate(zip(edges, edges[1:]))]
    plain = [i for i, s in enumerate(sentences) if _OPENERS.search(text, s.start, s.end)]
    assert _holding_openers(text, sentences) == plain


def test_quotations_are_those_of_a_look_at_every_sentence(detector, sources, suspicious, monkeypatch):
    # Real text: the quotations found are those the loop over every sentence finds.
    from partialdup.pipeline import detector as module

    found = 0
    for document in [*sources, *suspicious]:
        tokenized = detector.tokenize(document)
        with monkeypatch.context() as patch:
            patch.setattr(module, "_holding_openers", lambda text, sentences: range(len(sentences)))
            plain = list(detector._quotations(tokenized.text, tokenized.sentences, tokenized.tokens))
        assert list(detector._quotations(tokenized.text, tokenized.sentences, tokenized.tokens)) == plain
        found += len(plain)
    assert found  # the texts hold quotations


def test_bags_of_repeated_words_are_made_once_and_equal_fresh_ones(detector, sources, monkeypatch):
    from partialdup.pipeline import detector as module

    tokenized = [detector.tokenize(document) for document in [*sources, *sources[:3]]]  # three documents twice
    for bound in (3, module.BAG_MEMO):  # the memo's bound changes no bag
        monkeypatch.setattr(module, "BAG_MEMO", bound)
        made = [detector.fingerprint(document) for document in tokenized]
        for document, features in zip(tokenized, made):
            # The plain reference: each sentence's bag made anew.
            assert features.bags == tuple(detector.method.bag(words) for words in document.tokens)
    # A document met again takes the bags made the first time: the memo
    # (which a bag made anew would enter) does not grow.
    held = len(detector._bags_of)
    again = detector.fingerprint(tokenized[len(sources)])
    assert len(detector._bags_of) == held and again.bags == made[0].bags


def test_documents_made_together_have_the_features_each_has_alone(detector, sources, suspicious):
    # features_many tokenizes its plain documents together (one segmenter
    # call and one conversion of new words): the same features as one at a
    # time, in order, whatever else the list holds (documents already
    # tokenized or with their features pass through their own stages).
    documents = [*sources[:6], *suspicious[:6], sources[0]]
    detector.tokenizer.clear_cache()
    alone = [detector.features(document) for document in documents]
    detector.tokenizer.clear_cache()
    assert detector.features_many(documents) == alone
    mixed = [alone[0], detector.tokenize(documents[1]), *documents[2:]]
    detector.tokenizer.clear_cache()
    assert detector.features_many(mixed) == alone and detector.features_many([]) == []
    assert detector.tokenize_many(documents[:3]) == [detector.tokenize(document) for document in documents[:3]]


def test_documents_made_in_parts_have_the_features_made_in_one(detector, sources, suspicious, monkeypatch):
    # features_many tokenizes at most TOKENIZED_TOGETHER characters at a time
    # (a bound on its working memory): parts of any size give the same features.
    documents = [*sources[:5], *suspicious[:5]]
    detector.tokenizer.clear_cache()
    whole = detector.features_many(documents)
    for chars in (1, 500, 5000):
        monkeypatch.setattr(detector_module, "TOKENIZED_TOGETHER", chars)
        detector.tokenizer.clear_cache()
        assert detector.features_many(documents) == whole


def test_matchable_sentences_from_the_arrays_are_those_told_one_by_one(detector, sources, suspicious):
    # The plain reference: matchable() asked of each sentence, its bag read as a dict.
    docs = [detector.features(document) for document in [*sources, *suspicious]]
    docs.append(detector.features(Document("short", "短句。")))  # sentences too short to be looked up
    keys, bags = detector._matchable_bags(docs)
    assert keys == [(d, s) for d, doc in enumerate(docs) for s in range(len(doc.bags)) if detector.matchable(doc, s)]
    assert bags == [docs[d].bags[s] for d, s in keys]
    assert len(keys) < sum(len(doc.bags) for doc in docs)
