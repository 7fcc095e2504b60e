"""One parameter at a time: Low-IDF-Sig on a gold set around the defaults.

Prints the Markdown table of docs/evaluation.md's "Parameters, chosen by measurement"
section: sentence-pair P/R/F1, plagdet, granularity and index bytes for the
defaults and for each single change from them.

    python scripts/param_sweep.py goldenset
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from partialdup.core.config import Config
from partialdup.eval.goldset import evaluate_method
from partialdup.pipeline.factory import make_detector

from goldset_setup import prepare

#: (label, changes from the defaults)
CHANGES: tuple[tuple[str, dict[str, object]], ...] = (
    ("defaults", {}),
    ("τ = 0.5", {"threshold": 0.5}),
    ("τ = 0.7", {"threshold": 0.7}),
    ("n = 50", {"low_idf_sig.antecedents": 50}),
    ("n = 500", {"low_idf_sig.antecedents": 500}),
    ("c = 1", {"low_idf_sig.chain": 1}),
    ("c = 3", {"low_idf_sig.chain": 3}),
    ("d = 2", {"low_idf_sig.spacing": 2}),
    ("containment off", {"containment": 0.0}),
    ("containment = 0.7", {"containment": 0.7}),
    ("containment = 0.9", {"containment": 0.9}),
    ("min_contained = 2", {"min_contained": 2}),
    ("min_contained = 4", {"min_contained": 4}),
    ("no refine", {"refine": False}),
    ("no rejoin", {"rejoin": False}),
    ("near misses off", {"near_ratio": 0.0}),
    ("near ratio = 80", {"near_ratio": 80.0}),
    ("near ratio = 95", {"near_ratio": 95.0}),
    ("embedded copies off", {"embedded_ratio": 0.0}),
    ("embedded ratio = 90", {"embedded_ratio": 90.0}),
    ("embedded ratio = 100", {"embedded_ratio": 100.0}),
    ("min_shared = 1 (no evidence rule)", {"min_shared": 1}),
    ("min_shared = 2", {"min_shared": 2}),
    ("min_shared = 4", {"min_shared": 4}),
    ("all origins (no single origin)", {"single_origin": False}),
    ("gap = 2", {"gap": 2}),
    ("gap = 4", {"gap": 4}),
    ("min_tokens = 2", {"min_tokens": 2}),
    ("min_tokens = 4", {"min_tokens": 4}),
    ("boilerplate = 0", {"boilerplate": 0}),
    ("boilerplate = 5", {"boilerplate": 5}),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("goldset", type=Path)
    args = parser.parse_args()
    prepared = prepare(args.goldset)
    gold, idf, tokenized = prepared.gold, prepared.idf, prepared.tokenized
    print("| change from the defaults | P | R | F1 | plagdet | granularity | index bytes |")
    print("|---|---|---|---|---|---|---|")
    for label, change in CHANGES:
        detector = make_detector("low-idf-sig", idf, Config().changed(change), **prepared.shared)
        row = evaluate_method(gold, tokenized, detector, method="low-idf-sig")
        print(f"| {label} | {row.precision:.3f} | {row.recall:.3f} | {row.f1:.3f} | {row.plagdet:.3f} | "
              f"{row.granularity:.2f} | {row.index_bytes:,} |", flush=True)
    print(f"(sentences and tokens once, {tokenized.seconds:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
