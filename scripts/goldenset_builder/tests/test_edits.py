"""Edits of planted copies, checked against edited pairs of the committed set."""
import random

import pytest

from goldenset_builder.edits import LIGHT_OPS, edit_passage, light_edit, script_edit, width_op
from goldenset_builder.verify import pair_ok

# Light pairs of goldenset/sentence_pairs.jsonl whose edit was full-width -> ASCII:
# (source sentence, planted sentence).
WIDTH_PAIRS = [
    # handbook_zhcn_sect.quotas_p00.txt 9-30 -> handbook_zhcn_conclusion_p00.txt 930-951
    ("配额系统可以限制用户与群组可用的磁盘空间。", "配额系统可以限制用户与群组可用的磁盘空间."),
    # handbook_zhcn_sect.apt_frontends_p00.txt 780-815 -> handbook_zhcn_sect.apparmor_p00.txt 758-793
    ("g 切换摘要查看模式(再次键入 g 则应用更改)，q 离开现在的视图。",
     "g 切换摘要查看模式(再次键入 g 则应用更改),q 离开现在的视图."),
]
# Script pairs: instguide_zhcn_ch03s06.txt -> handbook_zhcn_advanced_administration_p00.txt.
SCRIPT_PAIRS = [
    ("有些系统完全不能从 U 盘介质进行引导；", "有些系統完全不能從 U 盤介質進行引導；"),
    ("您会需要配置您的 BIOS/UEFI，来允许“USB 旧版支持”。", "您會需要配置您的 BIOS/UEFI，來允許“USB 舊版支持”。"),
]
# Sentences of goldenset/src documents, to be lightly edited.
SENTENCES = [
    ("zh", "配额系统可以限制用户与群组可用的磁盘空间。"),
    ("zh", "如果没有指定文件，或者指定文件为\"-\"，则从标准输入读取。"),
    ("en", "By contrast, the GNU General Public License is intended to guarantee your freedom to share "
           "and change free software--to make sure the software is free for all its users."),
]


@pytest.mark.parametrize("src,planted", WIDTH_PAIRS)
def test_width_edit_gives_the_committed_sentence(src, planted):
    assert width_op(random.Random(0), src, "zh") == planted
    assert pair_ok(planted, src, "light")


@pytest.mark.parametrize("src,planted", SCRIPT_PAIRS)
def test_script_edit_gives_the_committed_sentence(src, planted):
    assert script_edit(src, "s") == planted
    assert script_edit(planted, "t") == src
    assert pair_ok(planted, src, "script")


@pytest.mark.parametrize("lang,s", SENTENCES)
@pytest.mark.parametrize("seed", range(12))
def test_light_edit_changes_once_and_passes_verification(lang, s, seed):
    t, op = light_edit(random.Random(seed), s, lang)
    assert op in LIGHT_OPS
    assert t != s and t == t.strip()
    assert pair_ok(t, s, "light")


def test_light_edit_is_deterministic():
    lang, s = SENTENCES[0]
    assert light_edit(random.Random(5), s, lang) == light_edit(random.Random(5), s, lang)


def test_edit_passage_keeps_the_text_between_sentences():
    # goldenset/src/handbook_zhcn_sect.quotas_p00.txt, offsets 9-105 (three sentences).
    text = ("9.9.\xa0配额\n\n配额系统可以限制用户与群组可用的磁盘空间。设置时，必须内核支持 (以 CONFIG_QUOTA "
            "选项编译) — 使用 Debian 内核时。配额管理软件在 quota Debian 软件包内。\n")
    src = {"text": text, "script": "s"}
    spans = [(9, 30), (30, 79), (79, 105)]
    pieces = edit_passage(random.Random(0), src, spans, "verbatim", "zh")
    assert [p[0] for p in pieces] == ["sent", "sep", "sent", "sep", "sent"]
    assert "".join(p[1] for p in pieces) == text[9:105]
    assert [p[2] for p in pieces if p[0] == "sent"] == spans


def test_edit_passage_refuses_a_script_edit_that_changes_nothing():
    src = {"text": "use STYLE for numbering body lines\n", "script": "s"}
    assert edit_passage(random.Random(0), src, [(0, 34)], "script", "zh") is None
