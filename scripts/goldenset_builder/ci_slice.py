"""The CI slice: a small subset of the set (smallest pairs of each kind), same layout."""
from __future__ import annotations

import os
import random

from .labels import GoldSet
from .write import render, write_file, write_set

__all__ = ["SLICE_MAX_BYTES", "SLICE_QUOTA", "choose_slice", "make_slice"]

SLICE_QUOTA = {"man zh_TW/zh_CN": 5, "debian-reference zh-tw/zh-cn": 2,
               "fortunes-zh/debian-reference-zh-cn": 1, "installation-guide/GPL-2": 1,
               "negative-hard": 5, "negative-random": 3}
PLANTED_QUOTA = 3
SLICE_MAX_BYTES = 900_000   # the slice must stay quick to run in CI


def _size(gold: GoldSet, p) -> int:
    return len(gold.susp_docs[p[0]]["text"].encode()) + len(gold.src_docs[p[1]]["text"].encode())


def _kinds(gold: GoldSet) -> dict:
    """{kind: [pair, ...]}: natural kinds, planted-EDITS, negative-hard/random."""
    groups: dict = {}
    for p in sorted(gold.features):
        kind = gold.natural_kind.get(p)
        if kind is None:
            kind = "planted-" + "-".join(sorted({f["obf"] for f in gold.features[p]}))
        groups.setdefault(kind, []).append(p)
    for p in sorted(gold.negatives):
        groups.setdefault("negative-" + gold.negatives[p], []).append(p)
    return groups


def choose_slice(gold: GoldSet, seed: int) -> list:
    """Pairs of the slice: per kind, a random few of its smallest pairs, within the byte budget.

    Args:
        gold: The finished set.
        seed: The build's seed (the slice draws with seed + 1).

    Returns:
        The chosen pairs, smallest first.
    """
    rng = random.Random(seed + 1)
    chosen = []
    groups = _kinds(gold)
    for kind in sorted(groups):
        lst = sorted(groups[kind], key=lambda p: (_size(gold, p), p))
        q = SLICE_QUOTA.get(kind, PLANTED_QUOTA if kind.startswith("planted-") else 0)
        small = lst[:max(q * 3, q)]
        rng.shuffle(small)
        chosen += small[:q]
    total = 0
    final = []
    for p in sorted(chosen, key=lambda p: (_size(gold, p), p)):
        if total + _size(gold, p) > SLICE_MAX_BYTES:
            continue
        total += _size(gold, p)
        final.append(p)
    return final


def make_slice(out_dir: str, gold: GoldSet, seed: int) -> None:
    """Write ``OUT/slice/`` with its README.

    Args:
        out_dir: The gold set folder.
        gold: The finished set.
        seed: The build's seed.
    """
    final = choose_slice(gold, seed)
    write_set(os.path.join(out_dir, "slice"), gold, only=final)
    write_file(os.path.join(out_dir, "slice", "README.md"), render("slice_README.md", n_pairs=len(final)))
