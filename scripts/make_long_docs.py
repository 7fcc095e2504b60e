"""Join gold-set documents into a few long ones, to measure how time scales.

The gold set's documents are at most 60 kB. Books (PAN's sources) are much
longer, and a stage that is quadratic in the spans of one document pair
shows only there. This writes four long documents into OUT: all KJV sources,
all KJV suspicious documents, all man-page sources and all man-page
suspicious documents, each joined in name order with a blank line between
(the man pages hold zh_CN and zh_TW versions of the same pages, so the two
man documents share tens of thousands of passages).

    python scripts/make_long_docs.py goldenset /tmp/long && python scripts/bench.py /tmp/long
"""

from __future__ import annotations

import argparse
from pathlib import Path

from partialdup.io.reader import read_text

FAMILIES = (("kjv", "src"), ("kjv", "susp"), ("man", "src"), ("man", "susp"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("goldset", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for family, role in FAMILIES:
        paths = sorted((args.goldset / role).glob(f"{family}_*.txt"))
        text = "\n\n".join(read_text(p).strip("\n") for p in paths) + "\n"
        target = args.out / f"{family}_{role}.txt"
        target.write_text(text, encoding="utf-8")
        print(f"{target}: {len(paths)} documents, {len(text):,} characters")


if __name__ == "__main__":
    main()
