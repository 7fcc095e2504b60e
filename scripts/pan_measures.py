"""Score a folder of PAN detections against a folder of PAN truth files.

    partialdup pan goldenset/pairs goldenset/src goldenset/susp /tmp/out
    python scripts/pan_measures.py goldenset/truth /tmp/out

Prints recall, precision, granularity and plagdet (PAN 2012-2015 definition),
over all truth files, and per obfuscation label.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from partialdup.metrics import pan_score
from partialdup.pan import read_features


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("truth_dir", type=Path)
    parser.add_argument("detections_dir", type=Path)
    args = parser.parse_args()
    cases, detections = [], []
    for truth in sorted(args.truth_dir.glob("*.xml")):
        cases.extend(read_features(truth))
        found = args.detections_dir / truth.name
        if found.exists():
            detections.extend(read_features(found))
    by_label = defaultdict(list)
    for case in cases:
        by_label[case.obfuscation or "-"].append(case)
    rows = [("all", cases)] + sorted(by_label.items())
    print(f"{'obfuscation':12} {'cases':>6} {'recall':>7} {'precision':>9} {'granularity':>11} {'plagdet':>7}")
    for label, subset in rows:
        pairs = {(c.susp_doc, c.src_doc) for c in subset}
        score = pan_score(subset, [d for d in detections if (d.susp_doc, d.src_doc) in pairs])
        print(f"{label:12} {len(subset):6d} {score.recall:7.3f} {score.precision:9.3f} {score.granularity:11.3f} {score.plagdet:7.3f}")


if __name__ == "__main__":
    main()
