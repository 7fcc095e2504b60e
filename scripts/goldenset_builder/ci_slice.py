"""The CI slice: a small subset of the set (smallest pairs of each kind), same layout."""
from __future__ import annotations

import os
import random

from .labels import GoldSet
from .write import render, write_file, write_set

__all__ = ["EDIT_SLICE_MAX_BYTES", "EDIT_SLICE_QUOTA", "SLICE_MAX_BYTES", "SLICE_QUOTA", "choose_slice",
           "make_slice"]

SLICE_QUOTA = {"man zh_TW/zh_CN": 5, "debian-reference zh-tw/zh-cn": 2,
               "fortunes-zh/debian-reference-zh-cn": 1, "installation-guide/GPL-2": 1,
               "negative-hard": 5, "negative-random": 3}
PLANTED_QUOTA = 3
SLICE_MAX_BYTES = 900_000   # the slice must stay quick to run in CI
# The slice of a set built with --obfuscation: its planted (randomly obfuscated)
# pairs and a few negatives; the natural copies are the committed slice's.
EDIT_SLICE_QUOTA = {"planted-random": 14, "negative-hard": 3, "negative-random": 2}
EDIT_SLICE_MAX_BYTES = 450_000


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


def choose_slice(gold: GoldSet, seed: int, edits: bool = False) -> list:
    """Pairs of the slice: per kind, a random few of its smallest pairs, within the byte budget.

    Args:
        gold: The finished set.
        seed: The build's seed (the slice draws with seed + 1).
        edits: The set was built with ``--obfuscation``: its slice holds
            :data:`EDIT_SLICE_QUOTA` within :data:`EDIT_SLICE_MAX_BYTES`.

    Returns:
        The chosen pairs, smallest first.
    """
    rng = random.Random(seed + 1)
    chosen = []
    groups = _kinds(gold)
    budget = EDIT_SLICE_MAX_BYTES if edits else SLICE_MAX_BYTES
    for kind in sorted(groups):
        lst = sorted(groups[kind], key=lambda p: (_size(gold, p), p))
        if edits:
            q = EDIT_SLICE_QUOTA.get(kind, 0)
        else:
            q = SLICE_QUOTA.get(kind, PLANTED_QUOTA if kind.startswith("planted-") else 0)
        small = lst[:max(q * 3, q)]
        rng.shuffle(small)
        chosen += small[:q]
    total = 0
    final = []
    for p in sorted(chosen, key=lambda p: (_size(gold, p), p)):
        if total + _size(gold, p) > budget:
            continue
        total += _size(gold, p)
        final.append(p)
    return final


def make_slice(out_dir: str, gold: GoldSet, seed: int, obfuscation: float = 0.0) -> list:
    """Write ``OUT/slice/`` with its README.

    Args:
        out_dir: The gold set folder.
        gold: The finished set.
        seed: The build's seed.
        obfuscation: The set's random obfuscation level (0: the committed mix).

    Returns:
        The pairs of the slice.
    """
    final = choose_slice(gold, seed, edits=bool(obfuscation))
    write_set(os.path.join(out_dir, "slice"), gold, only=final)
    if obfuscation:
        text = render("edits_slice_README.md", n_pairs=len(final), level=f"{obfuscation:g}", seed=seed)
    else:
        text = render("slice_README.md", n_pairs=len(final))
    write_file(os.path.join(out_dir, "slice", "README.md"), text)
    return final
