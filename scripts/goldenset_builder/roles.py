"""Which documents are planted sources and which are hosts.

Documents are drawn per package and language by :data:`PLANT_PLAN`; each work
key takes one role only, so a host never holds an unplanned translation-copy
of one of its sources.
"""
from __future__ import annotations

import random

from .corpus import Corpus
from .docs import MAX_DOC, MIN_DOC
from .labels import GoldSet
from .normalise import eligible_sentence
from .sources import Sources

__all__ = ["PLANT_PLAN", "assign_roles", "plantable"]

PLANT_PLAN = [  # (lang, pool, n_src, n_host), drawn in this order
    ("zh", "maint", 4, 7), ("zh", "install", 6, 14), ("zh", "debref", 0, 2),
    ("zh", "handbook", 20, 40), ("zh", "man", 55, 170),
    ("en", "install", 8, 20), ("en", "kjv", 30, 75), ("en", "debref", 8, 12),
    ("en", "handbook", 10, 30),
]
MIN_ELIGIBLE = 10   # eligible sentences a planted source or host needs


def plantable(corpus: Corpus, d: dict) -> bool:
    """A document that may be a planted source or host.

    Args:
        corpus: The collection (sentence spans).
        d: A document.

    Returns:
        True when it is 1.5-60 kB and has >= 10 eligible sentences.
    """
    return MIN_DOC <= len(d["text"]) <= MAX_DOC and sum(
        1 for a, b in corpus.sents[d["stem"]] if eligible_sentence(d["text"][a:b])) >= MIN_ELIGIBLE


def _of_lang(docs, lang: str) -> list:
    return [d for d in docs if d["lang"] == lang]


def _pools(src: Sources) -> dict:
    man_pool = [d for n in sorted(src.man) for d in src.man[n].values()]
    return {
        "zh": {"man": man_pool, "debref": _of_lang(src.debref, "zh"),
               "handbook": _of_lang(src.handbook, "zh"), "maint": src.maint,
               "install": _of_lang(src.install, "zh")},
        "en": {"debref": _of_lang(src.debref, "en"),
               "handbook": _of_lang(src.handbook, "en"), "kjv": src.bible,
               "install": _of_lang(src.install, "en")},
    }


def _draw(cands, n: int, used_keys: set) -> list:
    """Up to n documents of distinct, unused work keys, in shuffled order."""
    taken = []
    for d in cands:
        if d["key"] in used_keys:
            continue
        used_keys.add(d["key"])
        taken.append(d)
        if len(taken) >= n:
            break
    return taken


def assign_roles(rng: random.Random, src: Sources, corpus: Corpus, gold: GoldSet,
                 fortune_srcs, log) -> tuple:
    """Draw the planted sources and hosts and register the sources in ``gold``.

    Args:
        rng: The build's random generator.
        src: The collected documents.
        corpus: The collection (sentence spans).
        gold: The set being built; used work keys and source documents are added.
        fortune_srcs: Debian Reference sections paired with fortunes (also sources).
        log: ``print``-like progress logger.

    Returns:
        (role_src, role_host): ``{lang: [doc, ...]}`` each.
    """
    pools = _pools(src)
    role_src: dict = {"zh": [], "en": []}
    role_host: dict = {"zh": [], "en": []}
    for lang, pool, n_src, n_host in PLANT_PLAN:
        cands = [d for d in pools[lang][pool] if plantable(corpus, d) and d["key"] not in gold.used_keys]
        cands.sort(key=lambda d: d["stem"])
        rng.shuffle(cands)
        taken = _draw(cands, n_src + n_host, gold.used_keys)
        log(f"  plan {lang}/{pool}: {len(cands)} candidates, {len(taken)} taken")
        role_src[lang] += taken[:n_src]
        role_host[lang] += taken[n_src:]
    role_src["zh"] += fortune_srcs   # also usable as planted sources
    # the English sections of those Debian Reference sections: same work key, same role
    fkeys = {d["key"] for d in fortune_srcs}
    en_fsrc = [d for d in src.debref if d["lang"] == "en" and d["key"] in fkeys and plantable(corpus, d)]
    role_src["en"] += en_fsrc
    log(f"  {len(en_fsrc)} English Debian Reference sections of fortune-source keys added as sources")
    for lang in role_src:
        for d in role_src[lang]:
            gold.src_docs[d["stem"]] = d
    return role_src, role_host
