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


# --- random obfuscation -----------------------------------------------------

from goldenset_builder.edits import RANDOM_OPS, random_edit, word_pool, word_tokens  # noqa: E402

# goldenset/src/handbook_zhcn_sect.quotas_p00.txt, offsets 9-105 (as above), its words the pool.
QUOTAS = ("9.9.\xa0配额\n\n配额系统可以限制用户与群组可用的磁盘空间。设置时，必须内核支持 (以 CONFIG_QUOTA "
          "选项编译) — 使用 Debian 内核时。配额管理软件在 quota Debian 软件包内。\n")


@pytest.mark.parametrize("lang,s", SENTENCES)
def test_word_tokens_cut_a_sentence_without_losing_a_character(lang, s):
    tokens = word_tokens(s)
    assert "".join(tokens) == s
    assert sum(1 for t in tokens if any(c.isalnum() for c in t)) >= 5


def test_word_pool_holds_the_documents_words():
    pool = word_pool(QUOTAS, "zh")
    assert "配额" in pool and "用户" in pool and all(any("\u4e00" <= c <= "\u9fff" for c in w) for w in pool)
    assert word_pool(SENTENCES[2][1], "en")[:3] == ["By", "contrast", "the"]


@pytest.mark.parametrize("lang,s", SENTENCES)
@pytest.mark.parametrize("level", [0.1, 0.2, 0.3])
@pytest.mark.parametrize("seed", range(6))
def test_random_edit_edits_about_the_share_asked_and_passes_verification(lang, s, level, seed):
    pool = word_pool(QUOTAS, "zh") if lang == "zh" else word_pool(SENTENCES[2][1], "en")
    t = random_edit(random.Random(seed), s, level, pool, lang)
    assert t == t.strip() and t
    assert pair_ok(t, s, "random")
    words = [w for w in word_tokens(s) if any(c.isalnum() for c in w)]
    # At most ceil(level * words) operations, each changing at most two words.
    edited = [w for w in word_tokens(t) if any(c.isalnum() for c in w)]
    assert abs(len(edited) - len(words)) <= int(level * len(words)) + 1


def test_random_edit_is_deterministic_and_uses_every_operation():
    lang, s = SENTENCES[2]
    pool = word_pool(s, "en")
    assert random_edit(random.Random(3), s, 0.2, pool, lang) == random_edit(random.Random(3), s, 0.2, pool, lang)
    outcomes = {random_edit(random.Random(seed), s, 0.05, pool, lang) for seed in range(60)}
    assert len(outcomes) > 20 and len(RANDOM_OPS) == 4


def test_edit_passage_random_keeps_the_text_between_sentences():
    src = {"text": QUOTAS, "script": "s", "stem": "handbook_zhcn_sect.quotas_p00"}
    spans = [(9, 30), (30, 79), (79, 105)]
    pieces = edit_passage(random.Random(0), src, spans, "random", "zh", 0.2)
    assert [p[0] for p in pieces] == ["sent", "sep", "sent", "sep", "sent"]
    assert [p[1] for p in pieces if p[0] == "sep"] == ["", ""]
    assert all(pair_ok(p[1], QUOTAS[a:b], "random") for p, (a, b) in zip(pieces[::2], spans))


def test_word_tokens_cut_latin_words_off_han_text():
    # man_zhtw_perlnumber.7 (manpages-zh): a Latin word glued to Han text is
    # one word, the Han text jieba's (the seed-7 build once deleted the rest
    # of this sentence as one "word").
    tokens = word_tokens("總而言之，Perl中的數是有限位數的十進位制數或者說是足夠短的二進位制數。")
    assert "Perl" in tokens and max(map(len, tokens)) <= 4
