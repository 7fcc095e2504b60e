"""The report's model: shares as a union of ranges, rows that cover each passage, character marks."""

import pytest

from partialdup.core.errors import InputError
from partialdup.core.types import Document, SentencePair, Span
from partialdup.pipeline.factory import make_detector
from partialdup.report.model import Mark, build_report, char_marks, fold_text
from partialdup.text.sentences import SentenceSplitter
from tests.paths import SAMPLES

SAMPLE_FILES = ("GPL-2.txt", "installation-guide.appendix-F.en.txt", "man_chmod.1.zh_CN.txt", "man_chmod.1.zh_TW.txt")


def span(a="a", b="b", a_range=(0, 1), b_range=(0, 1), pairs=(), score=1.0):
    sentences = (min((p.a for p in pairs), default=0), max((p.a for p in pairs), default=0))
    b_sentences = (min((p.b for p in pairs), default=0), max((p.b for p in pairs), default=0))
    return Span(a, b, *a_range, *b_range, sentences, b_sentences, score, tuple(pairs))


# --- shares -----------------------------------------------------------------


def test_share_of_a_pair_counts_overlapping_spans_once():
    text_a, text_b = "x" * 100, "y" * 40
    spans = [
        span(a_range=(10, 30), b_range=(0, 20), score=0.8),
        span(a_range=(20, 50), b_range=(10, 30), score=0.6),  # overlaps the first on both sides
        span(a_range=(80, 90), b_range=(0, 5), score=1.0),
    ]
    [pair] = build_report(spans, {"a": text_a, "b": text_b}).pairs
    assert (pair.a_copied, pair.a_length, pair.a_share) == (50, 100, 0.5)  # 10..50 + 80..90
    assert (pair.b_copied, pair.b_share) == (30, 0.75)  # 0..30 of 40
    assert pair.score == pytest.approx((20 * 0.8 + 30 * 0.6 + 10 * 1.0) / 60)  # weighted by length in A


def test_pairs_are_sorted_by_share_then_ids_and_unused_texts_left_out():
    texts = {"a": "x" * 10, "b": "y" * 10, "c": "z" * 10, "unused": "w"}
    spans = [span("a", "c", (0, 2), (0, 2)), span("a", "b", (0, 8), (0, 8)), span("b", "c", (0, 2), (0, 2))]
    report = build_report(spans, texts)
    assert [(p.a, p.b) for p in report.pairs] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert list(report.texts) == ["a", "b", "c"] and report.passages == 3


def test_the_score_of_a_pair_weighs_its_passages_by_length():
    text = "One sentence here. Another sentence there. A third one."
    spans = [
        span(a_range=(0, 18), b_range=(0, 18), pairs=[SentencePair(0, 0, 1.0)], score=1.0),
        span(a_range=(19, 55), b_range=(19, 55), pairs=[SentencePair(1, 1, 0.5), SentencePair(2, 2, 0.3)], score=0.4),
    ]
    [pair] = build_report(spans, {"a": text, "b": text}).pairs
    assert pair.score == pytest.approx(0.6)  # (18 * 1.0 + 36 * 0.4) / 54


# --- character marks --------------------------------------------------------


def texts(text, marks):
    return [(text[m.start : m.end], m.kind) for m in marks]


def test_marks_edits_and_case_variants():
    a, b = "The GNU licence.", "The gnu license."
    marks_a, marks_b = char_marks(a, b)
    assert marks_a == (Mark(4, 7, "variant"), Mark(13, 14, "edit"))
    assert texts(b, marks_b) == [("gnu", "variant"), ("s", "edit")]


def test_traditional_to_simplified_is_a_variant_other_words_an_edit():
    # 變/变 is one character in two scripts; 檔案/文件 are the Taiwan and mainland words
    marks_a, marks_b = char_marks("改变文件模式", "改變檔案模式")
    assert marks_a == (Mark(1, 2, "variant"), Mark(2, 4, "edit"))
    assert texts("改變檔案模式", marks_b) == [("變", "variant"), ("檔案", "edit")]


def test_full_width_is_a_variant_and_whitespace_alone_no_difference():
    assert char_marks("ＡＢＣ，", "ABC,") == ((Mark(0, 4, "variant"),), (Mark(0, 4, "variant"),))
    assert char_marks("free\nsoftware", "free  software") == ((), ())
    assert char_marks("same", "same") == ((), ())


def test_an_insertion_is_marked_on_its_side_only():
    a, b = "to share and change software.", "to share <script>alert(1)</script> and change software."
    marks_a, marks_b = char_marks(a, b)
    assert marks_a == ()
    assert texts(b, marks_b) == [("<script>alert(1)</script> ", "edit")]


def test_fold_keeps_one_character_for_one():
    text = "Ｆｕｌｌ 檔案\tﬁ\u200b."
    folded = fold_text(text)
    assert len(folded) == len(text)
    assert folded == "full 档案 ﬁ\u200b."  # a ligature and a format character stay as they are


# --- rows ---------------------------------------------------------------------


SPLIT_A = "Alpha beta gamma delta.\nEpsilon zeta eta theta iota.\nKappa lambda mu.\nNu xi omicron pi.\n"
SPLIT_B = "Alpha beta gamma delta.\nEpsilon zeta eta theta iota kappa lambda mu.\nNu xi omicron rho.\n"


def test_a_sentence_split_in_two_faces_the_whole_in_one_row():
    sentences_a = SentenceSplitter().split(SPLIT_A)
    assert len(sentences_a) == 4
    pairs = [SentencePair(0, 0, 1.0), SentencePair(1, 1, 0.7), SentencePair(2, 1, 0.4), SentencePair(3, 2, 0.8)]
    passage = span(a_range=(0, len(SPLIT_A) - 1), b_range=(0, len(SPLIT_B) - 1), pairs=pairs)
    [pair] = build_report([passage], {"a": SPLIT_A, "b": SPLIT_B}).pairs
    rows = pair.passages[0].rows
    assert [[(p.a, p.b) for p in row.pairs] for row in rows] == [[(0, 0)], [(1, 1), (2, 1)], [(3, 2)]]
    assert SPLIT_A[rows[1].a_start : rows[1].a_end].strip() == "Epsilon zeta eta theta iota.\nKappa lambda mu."
    assert SPLIT_B[rows[1].b_start : rows[1].b_end].strip() == "Epsilon zeta eta theta iota kappa lambda mu."
    # the line break and "K" of the split are differences; the whole sentence is not
    assert texts(SPLIT_B, rows[2].b_marks) == [("rho", "edit")]


def test_unpaired_text_inside_a_span_gets_its_own_row_and_context_around():
    text_a = "Before it.\nFirst copied sentence here.\nMy own words only.\nSecond copied sentence here.\nAfter it.\n"
    text_b = "First copied sentence here.\nSecond copied sentence here.\n"
    start, end = text_a.index("First"), text_a.index("After") - 1
    pairs = [SentencePair(1, 0, 1.0), SentencePair(3, 1, 1.0)]
    [pair] = build_report([span(a_range=(start, end), b_range=(0, len(text_b) - 1), pairs=pairs)], {"a": text_a, "b": text_b}).pairs
    [passage] = pair.passages
    assert [bool(row.pairs) for row in passage.rows] == [True, False, True]
    assert text_a[passage.rows[1].a_start : passage.rows[1].a_end].strip() == "My own words only."
    assert not text_b[passage.rows[1].b_start : passage.rows[1].b_end].strip()  # B: the line break between
    assert text_a[passage.a_context[0] : start].strip() == "Before it."
    assert text_a[end : passage.a_context[1]].strip() == "After it."


@pytest.fixture(scope="module")
def sample_report(idf):
    documents = [Document(name, (SAMPLES / name).read_text(encoding="utf-8")) for name in SAMPLE_FILES]
    detection = make_detector("low-idf-sig", idf).detect(documents)
    return detection, build_report(detection.spans, {d.id: d.text for d in documents})


def test_rows_cover_every_passage_exactly_on_real_text(sample_report):
    detection, report = sample_report
    assert report.passages == len(detection.spans) > 0
    for pair in report.pairs:
        for passage in pair.passages:
            s, rows = passage.span, passage.rows
            for side in ("a", "b"):
                starts = [getattr(r, f"{side}_start") for r in rows]
                ends = [getattr(r, f"{side}_end") for r in rows]
                assert starts[0] == getattr(s, f"{side}_start") and ends[-1] == getattr(s, f"{side}_end")
                assert starts[1:] == ends[:-1]  # contiguous, no gap and no overlap
                for row in rows:
                    marks = getattr(row, f"{side}_marks")
                    assert all(getattr(row, f"{side}_start") <= m.start < m.end <= getattr(row, f"{side}_end") for m in marks)
                    assert all(x.end <= y.start for x, y in zip(marks, marks[1:]))
            assert sorted(p for r in rows for p in r.pairs) == sorted(s.pairs)


def test_chinese_man_pages_show_script_variants_and_word_edits(sample_report):
    _, report = sample_report
    [pair] = [p for p in report.pairs if p.a == "man_chmod.1.zh_CN.txt" and p.b == "man_chmod.1.zh_TW.txt"]
    text_b = report.texts[pair.b]
    marked = {(text_b[m.start : m.end], m.kind) for r in pair.passages[0].rows for m in r.b_marks}
    assert ("檔案", "edit") in marked  # 文件 in zh_CN: another word
    assert ("稱", "variant") in marked  # 名称 / 名稱: the same word in another script


# --- errors -------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad, message",
    [
        (span(b="missing"), "m.jsonl:7: no document 'missing' among the 2 given"),
        (span(a_range=(5, 12)), "m.jsonl:7: a_start..a_end 5..12 lies outside 'a' (10 characters)"),
        (span(pairs=[SentencePair(0, 5, 1.0)]), "m.jsonl:7: sentence 5 of 'b' does not exist (it has 1)"),
    ],
)
def test_a_span_that_does_not_fit_the_documents_names_its_line(bad, message):
    with pytest.raises(InputError) as caught:
        build_report([bad], {"a": "Some text.", "b": "Other text"}, labels=["m.jsonl:7"])
    assert str(caught.value).startswith(message)
