"""Planting copies: passages of real sources inserted, maybe edited, into real hosts.

Offsets of every planted sentence are computed while the suspicious text is
assembled, so the labels need no search afterwards.
"""
from __future__ import annotations

import random
import re

from .corpus import Corpus, unlabelled_overlap
from .edits import edit_passage
from .labels import GoldSet
from .normalise import eligible_sentence, short_key
from .text import CLOSERS, ZH_END

__all__ = ["EDIT_WEIGHTS", "LENGTH_WEIGHTS", "PASSAGE_WEIGHTS", "assemble_host", "pick_passage",
           "plant_host", "weighted"]

PASSAGE_WEIGHTS = [6, 20, 26, 22, 16, 10]              # passages per host: 0..5
LENGTH_WEIGHTS = [15, 18, 17, 14, 11, 9, 8, 8]         # sentences per passage: 1..8
EDIT_WEIGHTS = {"zh": (["verbatim", "light", "script"], [45, 30, 25]),
                "en": (["verbatim", "light"], [55, 45])}
REUSE_SOURCE_P = 0.3    # a host's later passage comes again from a source it already quotes
SAME_SCRIPT_P = 0.75    # a Chinese host quotes a source of its own script
TRIES = 25              # draws of a passage before a host gets one passage fewer
MAX_SENTENCE = 600      # characters: longer "sentences" are tables or code runs
SENTENCE_ENDS = ZH_END + ".!?" + CLOSERS


def weighted(rng: random.Random, items, weights):
    """One item drawn with the given weights.

    Args:
        rng: The build's random generator.
        items: The choices.
        weights: Their relative weights.

    Returns:
        The drawn item.
    """
    return rng.choices(items, weights=weights, k=1)[0]


def _plantable_sentence(corpus: Corpus, t: str) -> bool:
    k = short_key(t)  # boilerplate at any length >= 2, as documented
    return eligible_sentence(t) and not (k and corpus.boiler(k)) and len(t) <= MAX_SENTENCE


def pick_passage(rng: random.Random, corpus: Corpus, src: dict, max_len: int):
    """Consecutive plantable sentences of a source, starting at a random one.

    Args:
        rng: The build's random generator.
        corpus: The collection (sentence spans, boilerplate).
        src: Source document.
        max_len: Most sentences in the passage.

    Returns:
        A list of 1..max_len sentence spans, or None when none is plantable.
    """
    sp = corpus.sents[src["stem"]]
    ok = [_plantable_sentence(corpus, src["text"][a:b]) for a, b in sp]
    starts = [i for i in range(len(sp)) if ok[i]]
    if not starts:
        return None
    i = rng.choice(starts)
    n = 1
    while n < max_len and i + n < len(sp) and ok[i + n]:
        n += 1
    return sp[i:i + n]


def _paragraph_breaks(htext: str) -> list:
    """Offsets of blank lines of a host, or of its line breaks if it has none."""
    return [m.start() for m in re.finditer(r"\n\n", htext)] or \
        [m.start() for m in re.finditer(r"\n", htext)]


def _insertion_point(rng: random.Random, htext: str, hsents, used_pos: set):
    """(offset, mode) where a passage goes: ``"para"`` at a blank line, ``"sent"`` after a sentence.

    Points within 2 characters of an earlier insertion are not used, so two
    passages never touch.  Returns None when no point is left.
    """
    mode = "para" if rng.random() < 0.5 else "sent"
    if mode == "sent":
        cand_pos = [b for (a, b) in hsents if b < len(htext) and htext[b] != "\n"
                    and htext[b - 1] in SENTENCE_ENDS]
        if not cand_pos:
            mode = "para"
    if mode == "para":
        cand_pos = _paragraph_breaks(htext)
    cand_pos = [p for p in cand_pos if all(abs(p - q) > 2 for q in used_pos)]
    if not cand_pos:
        return None
    return rng.choice(cand_pos), mode


def _draw_source(rng: random.Random, lang: str, host: dict, chosen: list, role_src: dict) -> dict:
    """A source for the next passage: one already quoted, or a new one (Chinese: by script)."""
    if chosen and rng.random() < REUSE_SOURCE_P:
        return rng.choice(chosen)
    if lang == "zh":
        same = rng.random() < SAME_SCRIPT_P
        return rng.choice([d for d in role_src["zh"] if (d["script"] == host["script"]) == same])
    return rng.choice(role_src["en"])


def _draw_passage(rng, corpus, host, lang, chosen, role_src, used_pos, obfuscation=0.0):
    """One try at a passage for a host: (offset, mode, passage) or None.

    With ``obfuscation`` > 0 every passage is edited by random obfuscation at
    that level (the edit level is still drawn, so the draws before the edit
    are those of the set without it)."""
    src = _draw_source(rng, lang, host, chosen, role_src)
    psp = pick_passage(rng, corpus, src, weighted(rng, list(range(1, 9)), LENGTH_WEIGHTS))
    if not psp:
        return None
    edit = weighted(rng, *EDIT_WEIGHTS[lang])
    if obfuscation:
        edit = "random"
    pieces = edit_passage(rng, src, psp, edit, lang, obfuscation)
    if pieces is None:
        return None
    point = _insertion_point(rng, host["text"], corpus.sents[host["stem"]], used_pos)
    if point is None:
        return None
    used_pos.add(point[0])
    return point[0], point[1], dict(src=src, edit=edit, pieces=pieces, level=obfuscation)


def _draw_inserts(rng, corpus, host, lang, role_src, obfuscation=0.0) -> list:
    """The passages of one host with their insertion points, sorted by offset."""
    k = weighted(rng, list(range(len(PASSAGE_WEIGHTS))), PASSAGE_WEIGHTS)
    inserts = []
    used_pos: set = set()
    chosen: list = []
    for _ in range(k):
        for _attempt in range(TRIES):
            ins = _draw_passage(rng, corpus, host, lang, chosen, role_src, used_pos, obfuscation)
            if ins is None:
                continue
            inserts.append(ins)
            if ins[2]["src"] not in chosen:
                chosen.append(ins[2]["src"])
            break
    inserts.sort(key=lambda x: x[0])
    return inserts


class _Text:
    """A text assembled from pieces, with its running length (the next offset)."""

    def __init__(self):
        self.parts: list = []
        self.len = 0

    def add(self, s: str) -> None:
        self.parts.append(s)
        self.len += len(s)


def _put_passage(out: _Text, htext: str, pos: int, mode: str, lang: str, p: dict) -> dict:
    """Write one passage at ``pos`` of the host; return its labels."""
    if mode == "para":
        out.add("\n\n" if htext.startswith("\n\n", pos) else "\n")
    elif lang == "en":
        out.add(" ")
    pstart = out.len
    spairs = []
    for kind, t, ssp in p["pieces"]:
        if kind == "sent":
            spairs.append(((out.len, out.len + len(t)), ssp))
        out.add(t)
    pend = out.len
    if mode == "sent" and lang == "en" and not htext[pos:pos + 1].isspace():
        out.add(" ")
    label = dict(obf=p["edit"], this=(pstart, pend), source=(spairs[0][1][0], spairs[-1][1][1]), pairs=spairs)
    if p.get("level"):
        label["level"] = p["level"]
    return label


def assemble_host(htext: str, inserts, lang: str) -> tuple:
    """Insert passages into a host text and label them on the way.

    A passage at a blank line (``"para"``) becomes its own paragraph; after a
    sentence (``"sent"``) it continues the line, with a space in English.

    Args:
        htext: The host text.
        inserts: (offset, mode, passage) sorted by offset; a passage has
            ``src`` (doc), ``edit`` and ``pieces`` (from :func:`edit_passage`).
        lang: Language of the host.

    Returns:
        (suspicious text, {src stem: [labels]}); labels have ``obf``,
        ``this``, ``source`` and ``pairs`` (susp span, src span per sentence).
    """
    out = _Text()
    cur = 0
    feats_by_src: dict = {}
    for pos, mode, p in inserts:
        out.add(htext[cur:pos])
        cur = pos
        feats_by_src.setdefault(p["src"]["stem"], []).append(
            _put_passage(out, htext, pos, mode, lang, p))
    out.add(htext[cur:])
    return "".join(out.parts), feats_by_src


def plant_host(rng: random.Random, corpus: Corpus, host: dict, lang: str, role_src: dict,
               gold: GoldSet, log, obfuscation: float = 0.0) -> None:
    """Plant 0-5 passages into one host and record it as a suspicious document.

    A host whose result shares a non-boilerplate sentence with one of its
    sources outside the planted spans keeps no planted copies: that copy
    could be neither labelled nor ruled out.

    Args:
        rng: The build's random generator.
        corpus: The collection.
        host: The host document.
        lang: Its language.
        role_src: ``{lang: [source doc, ...]}``.
        gold: The set being built.
        log: ``print``-like progress logger.
        obfuscation: When > 0, every passage is edited by random obfuscation
            at this level (see :func:`goldenset_builder.edits.random_edit`).
    """
    htext = host["text"]
    inserts = _draw_inserts(rng, corpus, host, lang, role_src, obfuscation)
    text, feats_by_src = assemble_host(htext, inserts, lang)
    bad_src = {sst for sst, feats in feats_by_src.items()
               if unlabelled_overlap(corpus, text, gold.src_docs[sst]["text"], [f["this"] for f in feats])}
    gold.stats["hosts"] += 1
    if bad_src:
        gold.stats["hosts_dropped"] += 1
        log(f"  host {host['stem']}: unplanned overlap with {sorted(bad_src)}; kept without those")
        feats_by_src, text = {}, htext
    susp = dict(host)
    susp["text"] = text
    susp["host_text_len"] = len(htext)
    gold.add_planted(susp, feats_by_src)
