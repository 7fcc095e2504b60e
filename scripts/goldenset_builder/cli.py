"""Command line of the gold-set builder (``scripts/make_goldenset.py``)."""
from __future__ import annotations

import argparse

from .build import SEED, build

__all__ = ["DESCRIPTION", "main", "parser"]

DESCRIPTION = "Build the partialdup gold set (PAN text-alignment layout) and the demo samples."


def parser() -> argparse.ArgumentParser:
    """The argument parser: ``--out``, ``--samples``, ``--seed``."""
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--out", default="goldenset")
    ap.add_argument("--samples", default=None, help="also write the demo samples folder")
    ap.add_argument("--seed", type=int, default=SEED,
                    help=f"seed of the planted copies (default {SEED}, the committed set); another seed gives a "
                         "held-out set from the same documents, for checking that defaults hold beyond the committed one")
    return ap


def main(argv=None) -> None:
    """Parse the command line and build.

    Args:
        argv: Arguments (default: ``sys.argv[1:]``).
    """
    a = parser().parse_args(argv)
    build(a.out, a.samples, a.seed)
