"""Tests of partialdup.jobs.merge: thread pages merged, each repeat kept once, nothing else lost."""

from __future__ import annotations

import pytest

from partialdup.core.config import Config
from partialdup.core.types import Document
from partialdup.jobs.merge import Merge, merge_pages
from partialdup.pipeline.factory import make_detector
from tests.paths import SAMPLES

# Real documents of the samples, cut into "pages" the way a paginated thread
# repeats itself: consecutive pages overlap by a few lines, and every page
# after the first starts with the first page's opening lines (a first post
# or header shown on every page).
DOCUMENTS = ["debian-reference.debref_zhcn_ch01_s02_p0.txt", "installation-guide.appendix-F.en.txt", "man_ls.1.zh_TW.txt"]


@pytest.fixture(scope="module")
def detector(idf, tokenizer):
    return make_detector("low-idf-sig", idf, Config(boilerplate=0), tokenizer=tokenizer)


def paginated(text: str) -> list[Document]:
    lines = text.splitlines(keepends=True)
    third = len(lines) // 3
    return [
        Document("page1", "".join(lines[: third + 3])),
        Document("page2", "".join(lines[third : 2 * third + 2])),
        Document("page3", "".join(lines[:3] + lines[2 * third :])),
    ]


def assert_maps_back(merge: Merge, pages: list[Document]) -> None:
    texts = {page.id: page.text for page in pages}
    at = 0
    for piece in merge.pieces:
        assert piece.merged_start == at
        assert merge.text[piece.merged_start : piece.merged_end] == texts[piece.page][piece.page_start : piece.page_end]
        at = piece.merged_end
    assert at == len(merge.text)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_overlapping_pages_with_a_repeated_first_post_merge_back_to_the_document(detector, name):
    text = (SAMPLES / name).read_text(encoding="utf-8")
    pages = paginated(text)
    merge = merge_pages(pages, detector)
    assert merge.text == text
    assert_maps_back(merge, pages)
    assert {drop.page for drop in merge.dropped} == {"page2", "page3"}
    for drop in merge.dropped:  # every dropped passage names an earlier page holding it
        assert int(drop.source_page[-1]) < int(drop.page[-1])


def test_two_posts_sharing_a_template_sentence_are_both_kept(detector):
    lines = (SAMPLES / DOCUMENTS[0]).read_text(encoding="utf-8").splitlines(keepends=True)
    # 可读（r）权限允许所有者检查文件的内容 / 可读（r）权限允许所有者列出目录内的内容 and their neighbours.
    files, folders = "".join(lines[48:53]), "".join(lines[56:61])
    assert "检查文件的内容" in files and "列出目录内的内容" in folders
    pages = [Document("page1", files), Document("page2", folders)]
    merge = merge_pages(pages, detector)
    assert merge.text == files + folders and merge.dropped == ()


def test_a_quoted_earlier_post_is_dropped_and_logged(detector):
    lines = (SAMPLES / DOCUMENTS[1]).read_text(encoding="utf-8").splitlines(keepends=True)
    post, reply = "".join(lines[10:20]), "".join(lines[40:50])
    pages = [Document("page1", post), Document("page2", reply + post + reply)]
    merge = merge_pages(pages, detector)
    assert merge.text == post + reply + reply
    [drop] = merge.dropped
    assert (drop.page, drop.source_page, drop.source_start) == ("page2", "page1", 0)
    assert pages[1].text[drop.start : drop.end].strip() == post.strip()
    assert_maps_back(merge, pages)


def test_a_single_page_is_itself(detector):
    text = (SAMPLES / DOCUMENTS[2]).read_text(encoding="utf-8")
    merge = merge_pages([Document("only", text)], detector)
    assert merge.text == text and merge.dropped == ()
