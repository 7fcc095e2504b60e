"""Time of the sentence-pair search alone, vectorised against the plain loop.

Over the gold set's suspicious sentences against its source index, for
Low-IDF-Sig and 3-Shingle (same sentences and tokens), prints the best of
``--repeat`` runs of:
  * ``SparseIndex.search`` of the whole sentences (the paper's comparison),
  * ``Detector.search``: that plus the look-up of near misses and the two of
    rejoined sentences,
  * the plain reference loop ``FeatureIndex.query`` (one run), which must
    accept exactly as many pairs as the vectorised search.

    python scripts/search_time.py goldenset
"""

from __future__ import annotations

import argparse
import time

from partialdup.methods import make_detector

from bench import best_time
from goldset_setup import prepare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("goldset")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    prepared = prepare(args.goldset)
    print("| method | query sentences | query joins | accepted pairs | search s | with near misses and joins s | reference loop s |")
    print("|---|---|---|---|---|---|---|")
    for method in ("low-idf-sig", "3-shingle"):
        detector = make_detector(method, prepared.idf, **prepared.shared)
        sources = [detector.fingerprint(d) for d in prepared.tokenized.sources]
        suspicious = [detector.fingerprint(d) for d in prepared.tokenized.suspicious]
        index = detector.build_index(sources)
        bags = [bag for d in suspicious for i, bag in enumerate(d.bags) if detector.matchable(d, i)]
        search = best_time(lambda: index.sentences.search(bags, detector.rule), args.repeat, setup=lambda: None)
        everything = best_time(lambda: detector.search(suspicious, index), args.repeat, setup=lambda: None)
        accepted = len(index.sentences.search(bags, detector.rule).key)
        start = time.perf_counter()
        reference = sum(1 for bag in bags for _ in index.sentences.index.query(bag, detector.rule))
        loop = time.perf_counter() - start
        if reference != accepted:
            raise SystemExit(f"{method}: the reference loop accepted {reference} pairs, the vectorised search {accepted}")
        joins = sum(len(d.joins) for d in suspicious)
        print(f"| {method} | {len(bags):,} | {joins:,} | {accepted:,} | {search:.3f} | {everything:.3f} | {loop:.2f} |")


if __name__ == "__main__":
    main()
