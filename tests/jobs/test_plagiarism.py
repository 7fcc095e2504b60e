"""Tests of partialdup.jobs.plagiarism: shares as unions, regions listing every source."""

from __future__ import annotations

import pytest

from partialdup.core.config import Config
from partialdup.core.types import Document, SentencePair, Span
from partialdup.jobs.plagiarism import plagiarism_reports
from partialdup.pipeline.factory import make_detector
from tests.paths import SAMPLES


def span(b: str, a_start: int, a_end: int, score: float = 1.0) -> Span:
    return Span("q", b, a_start, a_end, 0, a_end - a_start, (0, 0), (0, 0), score, (SentencePair(0, 0, score),))


QUERY = Document("q", "0123456789 abcdefghij")  # 20 non-space characters


def test_the_share_is_a_union_of_characters_not_a_sum():
    refs = [Document("s1", QUERY.text), Document("s2", QUERY.text)]
    [report] = plagiarism_reports([QUERY], refs, [span("s1", 0, 10), span("s2", 5, 15)])
    assert report.share == 14 / 20  # 0-15 holds 14 non-space characters
    assert [(r.start, r.end, r.sources) for r in report.regions] == [(0, 15, ("s1", "s2"))]
    assert [(s.source, s.share) for s in report.sources] == [("s1", 0.5), ("s2", 9 / 20)]


def test_one_passage_from_identical_sources_is_one_region_with_all_of_them():
    refs = [Document(f"s{i}", QUERY.text) for i in range(3)]
    [report] = plagiarism_reports([QUERY], refs, [span(f"s{i}", 11, 21) for i in (2, 0, 1)])
    [region] = report.regions
    assert region.sources == ("s0", "s1", "s2") and report.share == 0.5


def test_common_text_is_listed_not_counted():
    refs = [Document(f"s{i}", QUERY.text) for i in range(3)]
    spans = [span(f"s{i}", 11, 21) for i in range(3)] + [span("s0", 0, 10)]
    [report] = plagiarism_reports([QUERY], refs, spans, common=3)
    assert [r.common for r in report.regions] == [False, True]
    assert report.share == 0.5 and [(s.source, s.passages) for s in report.sources] == [("s0", 1)]


def test_a_query_with_no_copy_reports_zero():
    [report] = plagiarism_reports([QUERY], [], [])
    assert (report.share, report.regions, report.sources) == (0.0, (), ())


def test_the_gpl_appendix_is_copied_from_the_gpl(idf, tokenizer):
    # Real text: the installation guide's appendix F is the GPL-2 with a heading.
    detector = make_detector("low-idf-sig", idf, Config(boilerplate=0), tokenizer=tokenizer)
    query = Document("appendix", (SAMPLES / "installation-guide.appendix-F.en.txt").read_text(encoding="utf-8"))
    refs = [Document(name, (SAMPLES / name).read_text(encoding="utf-8")) for name in ("GPL-2.txt", "man_ls.1.zh_CN.txt")]
    [report] = plagiarism_reports([query], refs, detector.check([query], refs).spans)
    assert report.share > 0.95
    assert [s.source for s in report.sources] == ["GPL-2.txt"]
    passage = report.regions[0].passages[0]
    copied = " ".join(query.text[passage.query_start : passage.query_end].split())
    assert copied.startswith(passage.query_excerpt.rstrip("…")) and len(passage.query_excerpt) <= 80


def test_boilerplate_spans_are_common_regions_listed_not_counted():
    refs = [Document(f"s{i}", QUERY.text) for i in range(3)]
    template = [span(f"s{i}", 11, 21) for i in range(3)]  # set apart by the detector's rule
    [report] = plagiarism_reports([QUERY], refs, [span("s0", 0, 10)], boilerplate=template)
    assert [(r.start, r.common, r.sources) for r in report.regions] == [(0, False, ("s0",)), (11, True, ("s0", "s1", "s2"))]
    assert report.share == 0.5 and report.common_share == 0.5
    assert [(s.source, s.passages) for s in report.sources] == [("s0", 1)]


def test_a_licence_paragraph_in_four_sources_is_template_text(idf, tokenizer):
    # Real text: a GPL-2 paragraph appended to three man pages; the sources
    # are those and the GPL-2 itself, so the paragraph is in four sources.
    detector = make_detector("low-idf-sig", idf, Config(), tokenizer=tokenizer)
    gpl = (SAMPLES / "GPL-2.txt").read_text(encoding="utf-8")
    paragraph = next(p for p in gpl.split("\n\n") if len(p) > 400)
    hosts = ("man_ls.1.zh_CN.txt", "man_cp.1.zh_CN.txt", "man_chmod.1.zh_CN.txt")
    refs = [Document("GPL-2.txt", gpl)] + [
        Document(name, (SAMPLES / name).read_text(encoding="utf-8") + "\n\n" + paragraph + "\n") for name in hosts
    ]
    # A query of its own text and the paragraph: the paragraph is listed, not counted.
    own = (SAMPLES / "fortunes-zh.fortuneszh_chinese_debref_ch01.txt").read_text(encoding="utf-8")
    query = Document("essay", own + "\n\n" + paragraph + "\n")
    found = detector.check([query], refs, boilerplate_spans=True)
    [report] = plagiarism_reports([query], refs, found.spans, boilerplate=found.boilerplate_spans)
    templates = [r for r in report.regions if r.common]
    assert templates and all(r.sources == ("GPL-2.txt", *sorted(hosts)) and r.start >= len(own) for r in templates)
    covered = sum(r.end - r.start for r in templates)
    assert covered >= 0.8 * len(paragraph) and report.common_share > 0.01
    assert report.share < 0.01  # the rest of the query is its own
    # The appendix copies the whole GPL-2: the paragraph is part of a longer
    # copied passage, which counts whole; the template region is still listed.
    appendix = Document("appendix", (SAMPLES / "installation-guide.appendix-F.en.txt").read_text(encoding="utf-8"))
    found = detector.check([appendix], refs, boilerplate_spans=True)
    [report] = plagiarism_reports([appendix], refs, found.spans, boilerplate=found.boilerplate_spans)
    assert report.share > 0.95 and any(r.common for r in report.regions)
