"""Score a folder of PAN detections against a folder of PAN truth files.

    partialdup pan goldenset/pairs goldenset/src goldenset/susp /tmp/out
    python scripts/pan_measures.py goldenset/truth /tmp/out

Prints recall, precision, granularity and plagdet (PAN 2012-2015 definition),
over all truth files, and per obfuscation label. For a label's row, a
detection belongs to the label of the case it overlaps most; detections that
overlap no case (false positives, e.g. in negative pairs) count in "all" only.
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
    detection_label = {d: _label_of(d, cases) for d in detections}
    rows = [("all", cases)] + sorted(by_label.items())
    print(f"{'obfuscation':12} {'cases':>6} {'recall':>7} {'precision':>9} {'granularity':>11} {'plagdet':>7}")
    for label, subset in rows:
        own = detections if label == "all" else [d for d in detections if detection_label[d] == label]
        score = pan_score(subset, own)
        print(f"{label:12} {len(subset):6d} {score.recall:7.3f} {score.precision:9.3f} {score.granularity:11.3f} {score.plagdet:7.3f}")


def _label_of(detection, cases) -> str | None:
    def overlap(case) -> int:
        if (case.susp_doc, case.src_doc) != (detection.susp_doc, detection.src_doc):
            return 0
        return max(0, min(case.this_end, detection.this_end) - max(case.this_offset, detection.this_offset))

    best = max(cases, key=overlap, default=None)
    return best.obfuscation or "-" if best is not None and overlap(best) > 0 else None


if __name__ == "__main__":
    main()
