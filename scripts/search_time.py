"""Time of the sentence-pair search alone, vectorised against the plain loop.

Over the gold set's suspicious sentences against its source index, for
Low-IDF-Sig and 3-Shingle (same sentences and tokens), prints the best of
``--repeat`` runs of:
  * ``SparseIndex.search`` of the whole sentences (the paper's comparison),
  * ``Detector.search``: that plus the look-up of near misses and the two of
    rejoined sentences,
  * the plain reference loop ``FeatureIndex.query`` (one run), which must
    accept exactly as many pairs as the vectorised search.

It then prints the work any inverted-index search must do, whatever its
implementation: the distinct features of the query sentences it looks up
and the postings it reads, both in full and with prefix filtering at τ (a
match at bag-Jaccard τ shares one of the query's ``|bag| - ceil(τ·|bag|) + 1``
rarest features, so only those need to be read; containment, which finds
copies sharing none of them, is then off), with Low-IDF-Sig's share of
3-Shingle's. A search cannot cost less than a fixed share of the features
and postings it reads, so these shares bound its time ratio from below.

    python scripts/search_time.py goldenset
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Sequence

from partialdup.index.inverted import rarest_prefix
from partialdup.index.plain import plain_query
from partialdup.pipeline.factory import make_detector
from partialdup.core.types import Bag

from bench import best_time
from goldset_setup import prepare


def search_work(queries: Sequence[Bag], references: Sequence[Bag], threshold: float) -> tuple[int, int, int, int]:
    """Features looked up and postings read by an inverted-index search of
    ``queries`` over ``references``: in full, then with prefix filtering at
    ``threshold``. Returns (features, postings, prefix features, prefix postings)."""
    held = Counter(feature for bag in references for feature in bag)
    features = postings = prefix_features = prefix_postings = 0
    for bag in queries:
        features += len(bag)
        postings += sum(held[f] for f in bag)
        prefix = rarest_prefix(bag, held.__getitem__, threshold)
        prefix_features += len(prefix)
        prefix_postings += sum(held[f] for f in prefix)
    return features, postings, prefix_features, prefix_postings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("goldset")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    prepared = prepare(args.goldset)
    print("| method | query sentences | query joins | accepted pairs | search s | with near misses and joins s | reference loop s |")
    print("|---|---|---|---|---|---|---|")
    work: dict[str, tuple[int, int, int, int]] = {}
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
        reference = sum(1 for bag in bags for _ in plain_query(index.sentences.index, bag, detector.rule))
        loop = time.perf_counter() - start
        if reference != accepted:
            raise SystemExit(f"{method}: the reference loop accepted {reference} pairs, the vectorised search {accepted}")
        joins = sum(len(d.joins) for d in suspicious)
        print(f"| {method} | {len(bags):,} | {joins:,} | {accepted:,} | {search:.3f} | {everything:.3f} | {loop:.2f} |")
        work[method] = search_work(bags, [entry.bag for entry in index.sentences.index.sentences], detector.threshold)
    print()
    print("| method | features looked up | postings read | prefix features | prefix postings |")
    print("|---|---|---|---|---|")
    for method, counts in work.items():
        print(f"| {method} | " + " | ".join(f"{c:,}" for c in counts) + " |")
    shares = [a / max(1, b) for a, b in zip(work["low-idf-sig"], work["3-shingle"])]
    print("| Low-IDF-Sig / 3-Shingle | " + " | ".join(f"{share:.1%}" for share in shares) + " |")


if __name__ == "__main__":
    main()
