"""Score a folder of PAN detections against a folder of PAN truth files.

    partialdup pan goldenset/pairs goldenset/src goldenset/susp /tmp/out
    python scripts/pan_measures.py goldenset/truth /tmp/out

Prints recall, precision, granularity and plagdet (PAN 2012-2015 definition),
over all truth files, and per obfuscation label. For a label's row, a
detection belongs to the label of the case it overlaps most; detections that
overlap no case (false positives, e.g. in negative pairs) count in "all" only.

    python scripts/pan_measures.py goldenset/truth /tmp/out --without natural

leaves out every document pair that has a case with that label (the gold
set's planted copies and negatives alone, as issue #2 measures them).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path
from xml.etree import ElementTree

from partialdup.core.chars import is_han
from partialdup.eval.metrics import pan_score
from partialdup.io.pan import read_features


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("truth_dir", type=Path)
    parser.add_argument("detections_dir", type=Path)
    parser.add_argument("--without", metavar="LABEL", action="append", default=[],
                        help="leave out document pairs with a case of this obfuscation label (repeatable)")
    parser.add_argument("--susp-dir", type=Path,
                        help="also score per language of the suspicious document (zh: at least a fifth of its letters are Han)")
    args = parser.parse_args()
    cases, detections = [], []
    by_language: dict = defaultdict(lambda: ([], []))
    for truth in sorted(args.truth_dir.glob("*.xml")):
        truth_cases = read_features(truth)
        if any(case.obfuscation in args.without for case in truth_cases):
            continue
        found = args.detections_dir / truth.name
        found_detections = read_features(found) if found.exists() else []
        cases.extend(truth_cases)
        detections.extend(found_detections)
        if args.susp_dir is not None:
            language = _language(args.susp_dir / _document(truth).get("reference"))
            by_language[language][0].extend(truth_cases)
            by_language[language][1].extend(found_detections)
    by_label = defaultdict(list)
    for case in cases:
        by_label[case.obfuscation or "-"].append(case)
    detection_label = {d: _label_of(d, cases) for d in detections}
    rows = [("all", cases)] + sorted(by_label.items())
    print(f"{'obfuscation':12} {'cases':>6} {'recall':>7} {'precision':>9} {'granularity':>11} {'plagdet':>7}")
    for label, subset in rows:
        own = detections if label == "all" else [d for d in detections if detection_label[d] == label]
        _print_row(label, subset, own)
    for language, (subset, own) in sorted(by_language.items()):
        _print_row(f"susp {language}", subset, own)
    # Each label per language of the suspicious document (random obfuscation
    # is scored per language in docs/evaluation.md).
    for language, (subset, own) in sorted(by_language.items()):
        for label in sorted({case.obfuscation or "-" for case in subset}):
            mine = [case for case in subset if (case.obfuscation or "-") == label]
            _print_row(f"{label} {language}", mine, [d for d in own if detection_label[d] == label])


def _print_row(label, cases, detections) -> None:
    score = pan_score(cases, detections)
    print(f"{label:12} {len(cases):6d} {score.recall:7.3f} {score.precision:9.3f} {score.granularity:11.3f} {score.plagdet:7.3f}")


def _document(path: Path):
    return ElementTree.parse(path).getroot()


def _language(path: Path) -> str:
    text = path.read_text(encoding="utf-8-sig")
    letters = [char for char in text if char.isalpha()]
    han = sum(1 for char in letters if is_han(char))
    return "zh" if letters and 5 * han >= len(letters) else "en"


def _label_of(detection, cases) -> str | None:
    def overlap(case) -> int:
        if (case.susp_doc, case.src_doc) != (detection.susp_doc, detection.src_doc):
            return 0
        return max(0, min(case.this_end, detection.this_end) - max(case.this_offset, detection.this_offset))

    best = max(cases, key=overlap, default=None)
    return best.obfuscation or "-" if best is not None and overlap(best) > 0 else None


if __name__ == "__main__":
    main()
