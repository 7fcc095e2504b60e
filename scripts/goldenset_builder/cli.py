"""Command line of the gold-set builder (``scripts/make_goldenset.py``)."""
from __future__ import annotations

import argparse

from .build import SEED, build

__all__ = ["DESCRIPTION", "main", "parser"]

DESCRIPTION = "Build the partialdup gold set (PAN text-alignment layout) and the demo samples."


def parser() -> argparse.ArgumentParser:
    """The argument parser: ``--out``, ``--samples``, ``--seed``, ``--obfuscation``, ``--slice-to``."""
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--out", default="goldenset")
    ap.add_argument("--samples", default=None, help="also write the demo samples folder")
    ap.add_argument("--seed", type=int, default=SEED,
                    help=f"seed of the planted copies (default {SEED}, the committed set); another seed gives a "
                         "held-out set from the same documents, for checking that defaults hold beyond the committed one")
    ap.add_argument("--obfuscation", type=float, default=0.0, metavar="R",
                    help="edit every planted passage by PAN-style random obfuscation: per sentence a share R of "
                         "the words (jieba words in Chinese) deleted, replaced by a word of the same source "
                         "document, inserted or swapped with a neighbour (default 0: the committed mix of "
                         "verbatim, light and script copies)")
    ap.add_argument("--slice-to", default=None, metavar="DIR",
                    help="also copy the set's CI slice to DIR (goldenset/edits/rR for the committed edit levels)")
    return ap


def main(argv=None) -> None:
    """Parse the command line and build.

    Args:
        argv: Arguments (default: ``sys.argv[1:]``).
    """
    ap = parser()
    a = ap.parse_args(argv)
    if not 0.0 <= a.obfuscation < 1.0:
        ap.error("--obfuscation must lie in [0, 1)")
    build(a.out, a.samples, a.seed, a.obfuscation, a.slice_to)
