"""The headline candidates read from the words numbered: the same as read from the words."""

import dataclasses

import pytest

from partialdup.core.config import Config
from partialdup.pipeline.factory import make_detector


@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(jobs=1), tokenizer=tokenizer)


def test_headline_candidates_from_numbered_words_are_those_from_the_words(detector, sources, suspicious):
    docs = [detector.features(d) for d in [*sources, *suspicious]]
    docs[5] = dataclasses.replace(docs[5], words=())  # a document whose words are unknown
    expected = detector._headline_candidates(docs, docs)
    assert expected  # the slice's man pages repeat their section titles
    assert detector._headline_candidates(docs, docs, detector._word_columns(docs)) == expected


def test_headline_candidates_of_real_text_with_only_headlines_on(tokenizer, idf, sources, suspicious):
    # Without edited copies the words are numbered for the headlines alone.
    only = make_detector("low-idf-sig", idf, Config(jobs=1, edited_ratio=0), tokenizer=tokenizer)
    docs = [only.features(d) for d in [*sources, *suspicious]]
    columns = only._word_columns(docs)
    assert columns is not None
    assert only._headline_candidates(docs, docs, columns) == only._headline_candidates(docs, docs)


def test_headline_hits_from_whole_matches_as_rows_are_those_from_their_records(detector, sources, suspicious):
    # detect hands the whole matches as arrays; the hits are those of the same matches as records.
    from partialdup.match.pair_rows import PairRows

    docs = [detector.features(d) for d in [*sources, *suspicious]]
    lookups = detector._self_lookups(docs, detector.build_index(docs, joins=False))
    rows = lookups.whole
    assert isinstance(rows, PairRows) and len(rows)
    records = [(first, second, score, weak) for (first, second, score), weak in zip(rows.records(), rows.weak.tolist())]
    candidates = detector._headline_candidates(docs, docs)
    hits = detector._headline_hits(docs, docs, rows, lookups.near, candidates)
    assert hits == detector._headline_hits(docs, docs, records, lookups.near, candidates)
    # Some candidate is passed over for a whole match of its document's: the matches count.
    assert len(hits) < len(detector._headline_hits(docs, docs, [], [], candidates))


def test_title_keys_read_from_numbered_words_are_the_plain_title_rows(detector, sources, suspicious):
    from partialdup.core.types import Document
    from partialdup.pipeline.headlines import _title_rows

    # Section numbers (第 5 章, 2.4.3) before titles of every length around the bounds.
    lines = [
        "第 5 章 安装 系统 之前 需要 准备 的 硬件 设备",
        "2.4.3 Configuring the network interfaces of the installed system",
        "3 Partitioning for Debian",
        "10 things to check before the upgrade of a stable release of Debian begins today at once",
        "第五章 系统 的 管理",
    ]
    made = [detector.features(Document("titles", "\n\n".join(lines)))]
    docs = [detector.features(d) for d in [*sources, *suspicious[:4]]] + made
    assert detector._title_keys(docs, detector._word_columns(docs)) == _title_rows(docs)
    assert any(d == len(docs) - 1 for d, _ in _title_rows(docs))
