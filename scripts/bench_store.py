"""Benchmark of the store: indexing rate, bytes per sentence, ``check`` latency, 100k -> 1M sentences.

Real text only: every document of the gold set (``goldenset/src`` and
``goldenset/susp``) and the samples. Fifty gold-set suspicious documents of
at least 5,000 characters are held out; a query is the first 5,000
characters of one of them (their sources are stored). The rest is stored
again and again under new ids (``copy3/<id>``) until the store holds each
checkpoint's number of sentences. Repetition makes every posting list R
times longer than real text of the same size would: more features go over
``max_postings`` (they stop finding candidates) and a query meets each of
its sources R times, so the latency at 1M is that of a collection holding
many near-duplicates, a pessimistic case for the candidates it reads.

Features are made once per distinct document (that rate is the
tokenize + features rate); copies are stored from those features (the
store-only rate). The indexing rate a user sees is the combination of both.

Usage::

    python scripts/bench_store.py [--sizes 100000 1000000] [--queries 50] [--db /tmp/bench.db]
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import statistics
import sys
import time
from pathlib import Path

from partialdup import Config, Document, load_idf, make_detector
from partialdup.io.reader import read_documents
from partialdup.store import Store

REPO = Path(__file__).resolve().parent.parent
QUERY_CHARS = 5000


def corpus() -> tuple[list[Document], list[Document]]:
    """(documents to store, query documents held out)."""
    stored = list(read_documents([REPO / "goldenset" / "src", REPO / "samples"]).documents)
    suspicious = list(read_documents([REPO / "goldenset" / "susp"]).documents)
    long = [d for d in suspicious if len(d.text) >= QUERY_CHARS]
    held = long[:: max(1, len(long) // 50)][:50]
    held_ids = {d.id for d in held}
    stored += [d for d in suspicious if d.id not in held_ids]
    queries = [Document(f"query/{d.id}", d.text[:QUERY_CHARS]) for d in held]
    return stored, queries


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--db", type=Path, default=Path("/tmp/partialdup-bench.db"))
    args = parser.parse_args()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{args.db}{suffix}").unlink(missing_ok=True)

    idf = load_idf()
    detector = make_detector("low-idf-sig", idf, Config())
    documents, queries = corpus()
    queries = queries[: args.queries]
    started = time.perf_counter()
    features = [detector.features(d) for d in documents]
    feature_seconds = time.perf_counter() - started
    distinct = sum(len(f.sentences) for f in features)
    feature_rate = distinct / feature_seconds
    print(f"corpus: {len(documents)} documents, {distinct} sentences, {sum(len(d.text) for d in documents)} characters; "
          f"{len(queries)} queries of {QUERY_CHARS} characters held out", file=sys.stderr)
    print(f"tokenize + features: {feature_rate:,.0f} sentences/s", file=sys.stderr)

    rows = []
    store = Store(args.db, detector, idf, create=True)
    copies = (dataclasses.replace(f, id=f"copy{copy}/{f.id}") for copy in itertools.count() for f in features)
    stored, store_seconds = 0, 0.0
    for size in sorted(args.sizes):
        while stored < size:
            chunk = list(itertools.islice(copies, 64))
            started = time.perf_counter()
            stored += store.add(chunk, batch=64).sentences
            store_seconds += time.perf_counter() - started
        print(f"  {stored:,} sentences stored ({stored / distinct:.1f} copies)", file=sys.stderr)
        store.close()
        store = Store(args.db, detector, idf)
        store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file alone holds every row
        stats = store.stats()
        store.check(queries[:1])  # warm the page cache once, as a daily service would be
        latencies = []
        for query in queries:
            started = time.perf_counter()
            store.check([query])
            latencies.append((time.perf_counter() - started) * 1000)
        store_rate = stored / store_seconds
        rows.append((size, stats.sentences, stored / distinct, stats.bytes_per_sentence, store_rate,
                     1 / (1 / feature_rate + 1 / store_rate), statistics.median(latencies), percentile(latencies, 0.95)))
    store.close()
    print("| sentences | copies | bytes/sentence | store-only sentences/s | indexing sentences/s | check median ms | check p95 ms |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for _, sentences, copies, per, rate, total, median, p95 in rows:
        print(f"| {sentences:,} | {copies:.1f} | {per:.0f} | {rate:,.0f} | {total:,.0f} | {median:.0f} | {p95:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
