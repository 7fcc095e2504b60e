"""Natural copies: pairs of real documents where one is a copy of the other.

zh_TW vs zh_CN man pages, Debian Reference zh-tw vs zh-cn sections,
fortunes-zh quotations vs Debian Reference, and the GPL appendix of the
installation guide vs common-licenses/GPL-2.  The steps run in this order and
draw from the build's ``rng`` in this order.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .align import natural_align
from .docs import MAX_DOC, MIN_DOC
from .labels import GoldSet
from .sources import Sources

__all__ = ["FORTUNE_KIND", "NaturalInfo", "add_natural_copies", "n_pairs",
           "same_chapter_sections"]

MAN_KIND = "man zh_TW/zh_CN"
DEBREF_KIND = "debian-reference zh-tw/zh-cn"
FORTUNE_KIND = "fortunes-zh/debian-reference-zh-cn"
GPL_KIND = "installation-guide/GPL-2"
N_MAN = 60             # man page pairs in the set
N_DEBREF = 6           # Debian Reference zh-tw/zh-cn pairs in the set
DEBREF_MAX = 25000     # characters: bigger sections make slow PAN pairs
# zh_TW pages with this share of their anchors matched are conversions of zh_CN.
CONVERSION_LIKE = 0.8


@dataclass
class NaturalInfo:
    """What the natural steps found, for the later steps and the README.

    Attributes:
        n_man: Man page pairs in the set.
        n_debref: Debian Reference zh-tw/zh-cn pairs in the set.
        fortune_pairs: fortunes-zh/Debian Reference pairs in the set.
        fortune_srcs: The Debian Reference sections paired with fortunes.
        fortune_neg_cands: (fortune, section) pairs of one chapter that share nothing.
    """

    n_man: int = 0
    n_debref: int = 0
    fortune_pairs: int = 0
    fortune_srcs: list = field(default_factory=list)
    fortune_neg_cands: list = field(default_factory=list)


def n_pairs(spans) -> int:
    """Number of sentence pairs in aligned spans."""
    return sum(len(s["pairs"]) for s in spans)


def _in_size(*docs, hi: int = MAX_DOC) -> bool:
    return all(MIN_DOC <= len(d["text"]) <= hi for d in docs)


def same_chapter_sections(fortune: dict, debref) -> list:
    """The zh-cn Debian Reference sections of a fortune document's chapter.

    Args:
        fortune: A fortunes-zh chapter document (work key ``fortunes:N``).
        debref: Debian Reference documents.

    Returns:
        The matching documents, in the order of ``debref``.
    """
    chap = "ch%02d" % int(fortune["key"].split(":")[1])
    return [d for d in debref
            if d["stem"].startswith("debref_zhcn_ch") and d["key"].split(":")[1] == chap]


def _man_pairs(rng: random.Random, man: dict, gold: GoldSet) -> int:
    cands = []
    for name in sorted(man):
        tw, cn = man[name]["zh_TW"], man[name]["zh_CN"]
        spans, n_el, npairs = natural_align(tw["text"], cn["text"])
        gold.stats["man_pages_compared"] += 1
        if n_el and npairs / n_el >= CONVERSION_LIKE:
            gold.stats["man_conversion_like"] += 1
        if npairs >= 3 and _in_size(tw, cn):
            cands.append((name, spans, npairs, n_el))
    rng.shuffle(cands)
    chosen = sorted(cands[:N_MAN])
    for name, spans, _, _ in chosen:
        gold.add_natural(man[name]["zh_TW"], man[name]["zh_CN"], spans, MAN_KIND)
        gold.used_keys.add("man:" + name)
    return len(chosen)


def _debref_pairs(rng: random.Random, debref, gold: GoldSet) -> int:
    # (work key, part) -> {"zhcn": doc, "zhtw": doc, "en": doc}
    dr: dict = {}
    for d in debref:
        dr.setdefault((d["key"], d["stem"].split("_")[-1]), {})[d["stem"].split("_")[1]] = d
    cands = [key for key in sorted(dr) if "zhtw" in dr[key] and "zhcn" in dr[key]
             and _in_size(dr[key]["zhtw"], dr[key]["zhcn"], hi=DEBREF_MAX)]
    rng.shuffle(cands)
    n = 0
    for key in cands:
        if n >= N_DEBREF:
            break
        if key[0] in gold.used_keys:
            continue
        e = dr[key]
        spans, _, n_anchor = natural_align(e["zhtw"]["text"], e["zhcn"]["text"])
        if n_anchor >= 3:
            gold.add_natural(e["zhtw"], e["zhcn"], spans, DEBREF_KIND)
            gold.used_keys.add(key[0])
            n += 1
    return n


def _fortune_pairs(fortunes, debref, gold: GoldSet, info: NaturalInfo) -> None:
    for fd in fortunes:
        hits = []
        for d in same_chapter_sections(fd, debref):
            spans, _, n_anchor = natural_align(fd["text"], d["text"])
            if n_anchor >= 2 and d["key"] not in gold.used_keys:
                hits.append((d, spans))
            elif n_pairs(spans) == 0:
                info.fortune_neg_cands.append((fd, d))
        for d, spans in hits:
            gold.add_natural(fd, d, spans, FORTUNE_KIND)
            info.fortune_pairs += 1
    for fd in fortunes:
        if fd["stem"] in gold.susp_docs:
            gold.used_keys.add(fd["key"])
    for (s, r) in sorted(gold.features):
        if gold.natural_kind.get((s, r)) == FORTUNE_KIND:
            gold.used_keys.add(gold.src_docs[r]["key"])
            if gold.src_docs[r] not in info.fortune_srcs:
                info.fortune_srcs.append(gold.src_docs[r])


def _gpl_pairs(src: Sources, gold: GoldSet) -> None:
    for sd in src.gpl_susp:
        spans, _, n_anchor = natural_align(sd["text"], src.gpl_src["text"])
        if n_anchor >= 3:
            gold.add_natural(sd, src.gpl_src, spans, GPL_KIND)
    # The guide's appendix F pages (work key install:apf.html) and GPL-2 hold
    # this natural copy: as a planted host or source they would carry an
    # unlabelled one.
    gold.used_keys.add("install:apf.html")
    gold.used_keys.add("gpl2")


def add_natural_copies(rng: random.Random, src: Sources, gold: GoldSet, log) -> NaturalInfo:
    """Find and record the natural copies of the collection.

    Args:
        rng: The build's random generator.
        src: The collected documents.
        gold: The set being built; pairs, labels and used work keys are added.
        log: ``print``-like progress logger.

    Returns:
        What was found, for planting, negatives and the README.
    """
    info = NaturalInfo()
    log("aligning man pages ...")
    info.n_man = _man_pairs(rng, src.man, gold)
    info.n_debref = _debref_pairs(rng, src.debref, gold)
    log("aligning fortunes ...")
    _fortune_pairs(src.fortunes, src.debref, gold, info)
    _gpl_pairs(src, gold)
    return info
