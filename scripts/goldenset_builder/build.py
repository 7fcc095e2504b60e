"""The top-level order of the build steps.

The order matters: every step draws from one ``random.Random(seed)`` and the
committed files depend on the exact sequence of draws.
"""
from __future__ import annotations

import os
import random
import sys

from .ci_slice import make_slice
from .corpus import Corpus
from .labels import GoldSet
from .natural import add_natural_copies
from .negatives import add_negatives
from .packages import package_versions
from .plant import plant_host
from .readme import write_edits_readme, write_readme
from .roles import assign_roles
from .samples import make_samples
from .sources import collect_sources
from .verify import verify
from .write import copy_licences, copy_slice, write_set

__all__ = ["SEED", "build"]

SEED = 20261122


def _log(*a) -> None:
    print(*a, file=sys.stderr)


def _pass_per_host(gold: GoldSet, role_host: dict) -> dict:
    """{number of planted passages: number of hosts} (dropped hosts count 0)."""
    counts: dict = {}
    for lang in ("zh", "en"):
        for h in role_host[lang]:
            n = sum(len(f) for (s_, r_), f in gold.features.items() if s_ == h["stem"])
            counts[n] = counts.get(n, 0) + 1
    return counts


def _plant(rng: random.Random, src, corpus: Corpus, gold: GoldSet, fortune_srcs, obfuscation: float = 0.0) -> dict:
    _log("planting copies ...")
    role_src, role_host = assign_roles(rng, src, corpus, gold, fortune_srcs, _log)
    for lang in ("zh", "en"):
        for host in role_host[lang]:
            plant_host(rng, corpus, host, lang, role_src, gold, _log, obfuscation)
    return role_host


def build(out_dir: str, samples_dir: str | None, seed: int = SEED, obfuscation: float = 0.0,
          slice_to: str | None = None) -> None:
    """Build the gold set into out_dir and, optionally, the samples.

    Args:
        out_dir: Gold set folder (src/, susp/, truth/, LICENSES/, slice/ are replaced).
        samples_dir: Samples folder, or None to skip the samples.
        seed: Seed of the planted copies; another seed gives a held-out set
            from the same documents.
        obfuscation: 0 (the committed set: verbatim, light and script copies),
            or a level r in (0, 1): every planted passage is edited by PAN-style
            random obfuscation, a share r of each sentence's words deleted,
            replaced, inserted or swapped (see
            :func:`goldenset_builder.edits.random_edit`).
        slice_to: Also copy the set's slice (its README included) to this
            folder (``goldenset/edits/r0.2``: the committed slices of the edit
            levels).
    """
    vers = package_versions()
    rng = random.Random(seed)
    src = collect_sources(_log)
    all_docs = src.all_docs()
    corpus = Corpus(all_docs)
    _log(f"{len(all_docs)} candidate documents")
    gold = GoldSet()
    nat = add_natural_copies(rng, src, gold, _log)
    role_host = _plant(rng, src, corpus, gold, nat.fortune_srcs, obfuscation)
    _log("choosing negatives ...")
    add_negatives(rng, corpus, gold, nat.fortune_neg_cands)
    _log("verifying ...")
    verify(gold)
    write_set(out_dir, gold)
    info = dict(seed=seed, pass_per_host=_pass_per_host(gold, role_host), vers=vers,
                n_man_nat=nat.n_man, fortune_pairs=nat.fortune_pairs,
                n_fortune_docs=len(src.fortunes), obfuscation=obfuscation)
    slice_pairs = make_slice(out_dir, gold, seed, obfuscation)
    copy_licences(os.path.join(out_dir, "LICENSES"))
    # Last of the set's files: the README states the size of all the others.
    if obfuscation:
        write_edits_readme(out_dir, gold, info, slice_pairs)
    else:
        write_readme(out_dir, gold, info)
    if slice_to:
        copy_slice(os.path.join(out_dir, "slice"), slice_to)
    if samples_dir:
        make_samples(samples_dir, src, vers, corpus)
    _log("done")
