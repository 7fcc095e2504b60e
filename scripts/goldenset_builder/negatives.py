"""Negative pairs: a suspicious document and a source that share no copy."""
from __future__ import annotations

import random

from .corpus import Corpus, unlabelled_overlap
from .labels import GoldSet

__all__ = ["add_negatives"]

NEG_CANDIDATES = 40     # candidates looked at per negative (overlap checks are costly)
RANDOM_NEG_P = 0.5      # chance that a document with copies gets a random negative too


def _try_neg(rng: random.Random, corpus: Corpus, gold: GoldSet, sd: dict, cands, kind: str) -> None:
    """Add the first candidate of a shuffled list that shares nothing with sd."""
    cands = sorted(cands, key=lambda d: d["stem"])
    rng.shuffle(cands)
    for c in cands[:NEG_CANDIDATES]:
        key = (sd["stem"], c["stem"])
        if key in gold.features or key in gold.negatives or c["key"] == sd["key"]:
            continue
        if unlabelled_overlap(corpus, sd["text"], c["text"], []):
            continue
        gold.negatives[key] = kind
        return


def add_negatives(rng: random.Random, corpus: Corpus, gold: GoldSet, fortune_neg_cands) -> None:
    """Give every suspicious document a hard negative and, for some, a random one.

    A hard negative is a source of the same language and the same group or
    package (another man page of the section, another section of the book);
    documents without copies and half of those with copies also get a
    random source of the same language.  Fortune chapters get the
    same-chapter Debian Reference sections the alignment matched nothing in.

    Args:
        rng: The build's random generator.
        corpus: The collection (overlap checks).
        gold: The set being built; negatives are added.
        fortune_neg_cands: (fortune, section) pairs from the natural step.
    """
    src_list = sorted(gold.src_docs.values(), key=lambda d: d["stem"])
    positives = {s for (s, r) in gold.features}
    for sst in sorted(gold.susp_docs):
        sd = gold.susp_docs[sst]
        mine = {r for (s, r) in gold.features if s == sst}
        lang_srcs = [d for d in src_list if d["lang"] == sd["lang"] and d["stem"] not in mine]
        hard = [d for d in lang_srcs if d["group"] == sd["group"] or d["pkg"] == sd["pkg"]]
        _try_neg(rng, corpus, gold, sd, hard, "hard")
        if sst in positives and rng.random() < RANDOM_NEG_P:
            continue
        _try_neg(rng, corpus, gold, sd, lang_srcs, "random")
    for fd, d in fortune_neg_cands:
        if fd["stem"] in gold.susp_docs and d["stem"] in gold.src_docs \
                and (fd["stem"], d["stem"]) not in gold.features \
                and not unlabelled_overlap(corpus, fd["text"], d["text"], []):
            gold.negatives[(fd["stem"], d["stem"])] = "hard"
