"""Tests of partialdup.jobs.quotes: who quotes whom, the earliest source and the chain."""

from __future__ import annotations

import json

import pytest

from partialdup.core.config import Config
from partialdup.core.errors import InputError
from partialdup.core.types import Document
from partialdup.jobs.quotes import article_time, quotes
from partialdup.pipeline.factory import make_detector
from tests.paths import SAMPLES

# Real text: fortunes-zh quotes the Debian Reference (samples/README.md); a
# third "article" re-quotes a stretch of the fortunes file.
REFERENCE = (SAMPLES / "debian-reference.debref_zhcn_ch01_s02_p0.txt").read_text(encoding="utf-8")
FORTUNES = (SAMPLES / "fortunes-zh.fortuneszh_chinese_debref_ch01.txt").read_text(encoding="utf-8")


def requote() -> str:
    lines = FORTUNES.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if "权限允许所有者检查文件的内容" in line)
    return "".join(lines[start - 2 : start + 9])


@pytest.fixture(scope="module")
def found(idf, tokenizer):
    articles = [
        Document("c-requote", requote(), {"time": "2022-01-01T09:00:00+08:00", "outlet": "C"}),
        Document("a-reference", REFERENCE, {"time": "2020-01-01"}),
        Document("b-fortunes", FORTUNES, {"time": 1622505600}),  # 2021-06-01, as seconds
    ]
    detector = make_detector("low-idf-sig", idf, Config(boilerplate=0), tokenizer=tokenizer)
    return quotes(articles, detector.detect(articles).spans)


def test_the_later_article_quotes_the_earlier(found):
    pairs = {(q.quoting.id, q.quoted.id) for q in found}
    assert ("b-fortunes", "a-reference") in pairs and ("c-requote", "b-fortunes") in pairs
    assert not any(q.quoting.id == "a-reference" for q in found)


def test_a_requote_names_the_earliest_source_and_the_chain(found):
    requoted = [q for q in found if q.quoting.id == "c-requote" and q.quoted.id == "b-fortunes"]
    assert requoted
    for quote in requoted:
        assert quote.earliest.id == "a-reference"
        assert [a.id for a in quote.chain][:1] == ["a-reference"] and "b-fortunes" in [a.id for a in quote.chain]


def test_records_carry_direction_and_times(found):
    quoting, quoted = found[0].records()
    assert (quoting["direction"], quoted["direction"]) == ("quoting", "quoted")
    assert quoting["source"]["id"] == quoted["id"] and quoted["by"]["id"] == quoting["id"]
    json.dumps(quoting, ensure_ascii=False)  # JSON-ready


@pytest.mark.parametrize("time", [None, "yesterday", True])
def test_a_bad_time_names_the_article(time):
    with pytest.raises(InputError, match="^x: "):
        article_time(Document("x", "text", {} if time is None else {"time": time}))


def test_times_in_other_forms_order_alike():
    naive, zoned = Document("a", "", {"time": "2021-06-01T00:00:00"}), Document("b", "", {"time": "2021-06-01T08:00:00+08:00"})
    assert article_time(naive) == article_time(zoned) == 1622505600.0
