"""Benchmark of the store: indexing rate, bytes per sentence, ``check`` latency, 100k -> 1M sentences.

Real text only. Queries: fifty gold-set suspicious documents of at least
5,000 characters are held out; a query is the first 5,000 characters of one
of them (their sources are stored in every collection). Two collections:

* ``debian`` (the realistic one): every other gold-set document and the
  samples, then the text of four Debian packages, in this order, until each
  size is reached: ``linux-doc-6.1`` (the kernel's Documentation/*.rst.gz,
  GPL-2), ``python3.11-doc`` (the Sphinx sources ``_sources/**/*.rst.txt``,
  PSF licence), ``debian-handbook`` (the HTML of its 26 translations, text
  only, GPL-2+ / CC-BY-SA-3.0), ``installation-guide-amd64`` (the HTML of
  its 22 translations, text only, GPL-2). Fetch them once with::

      apt-get download linux-doc-6.1 python3.11-doc debian-handbook installation-guide-amd64
      for f in *.deb; do dpkg-deb -x "$f" ~/.cache/partialdup-bench/debs/x; done

* ``repeated`` (the pessimistic one): the gold set and samples alone, stored
  again and again under new ids (``copy3/<id>``). Every posting list is R
  times longer than in real text, and a query meets each of its sources R
  times (12.7 at 1M): every copy is a candidate, paired, judged and refined.

Stores are built once into ``--dir`` (``store-<collection>-<size>.db`` and a
``.json`` of build figures) and reused: building 1M sentences takes minutes,
timing checks seconds. Latency: ``Store.check`` of one query, in process (no
process start), after one warm-up check: as ``partialdup check --db`` runs
it, or with ``--plagiarism`` as ``partialdup plagiarism --db`` does (which
also builds the spans of the boilerplate pairs, its common regions).

Usage::

    python scripts/bench_store.py [--collection debian repeated] [--sizes 100000 1000000] [--queries 50]
        [--dir ~/.cache/partialdup-bench] [--rebuild] [--verify] [--cache 4096] [--repeat 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import html.parser
import itertools
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Iterator

# The partialdup of this checkout, whatever is installed: run from a worktree
# of another revision, the benchmark measures that revision (an editable
# install would otherwise import the main tree's for both sides of a comparison).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from partialdup import Config, Document, load_idf, make_detector  # noqa: E402
from partialdup.io.reader import read_documents  # noqa: E402
from partialdup.store import Store  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
QUERY_CHARS = 5000
CACHE = Path.home() / ".cache" / "partialdup-bench"


def corpus() -> tuple[list[Document], list[Document]]:
    """(gold-set and sample documents to store, query documents held out)."""
    stored = list(read_documents([REPO / "goldenset" / "src", REPO / "samples"]).documents)
    suspicious = list(read_documents([REPO / "goldenset" / "susp"]).documents)
    long = [d for d in suspicious if len(d.text) >= QUERY_CHARS]
    held = long[:: max(1, len(long) // 50)][:50]
    held_ids = {d.id for d in held}
    stored += [d for d in suspicious if d.id not in held_ids]
    queries = [Document(f"query/{d.id}", d.text[:QUERY_CHARS]) for d in held]
    return stored, queries


class _Text(html.parser.HTMLParser):
    """The text of an HTML page, paragraphs on their own lines, scripts and styles left out."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self._skip += tag in ("script", "style")
        if tag in ("p", "div", "li", "h1", "h2", "h3", "h4", "pre", "tr", "br"):
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def debian_documents(root: Path) -> Iterator[Document]:
    """The packages' documents, in a fixed order (see the module's docstring)."""
    docs = root / "usr" / "share" / "doc"
    for path in sorted((docs / "linux-doc-6.1" / "Documentation").rglob("*.rst.gz")):
        yield Document(f"linux-doc/{path.relative_to(docs)}", gzip.decompress(path.read_bytes()).decode("utf-8", "replace"))
    for path in sorted((docs / "python3.11").rglob("*.rst.txt")):
        yield Document(f"python-doc/{path.relative_to(docs)}", path.read_text("utf-8", "replace"))
    for package, prefix in (("debian-handbook", "handbook"), ("installation-guide-amd64", "install")):
        for path in sorted((docs / package).rglob("*.html")):
            page = _Text()
            page.feed(path.read_text("utf-8", "replace"))
            text = "\n".join(line.strip() for line in "".join(page.parts).splitlines() if line.strip())
            if text:
                yield Document(f"{prefix}/{path.relative_to(docs)}", text)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def stream(collection: str, detector, stored: list[Document], debs: Path) -> Iterator:
    """The documents a collection stores, with their features, in order."""
    if collection == "repeated":
        features = [detector.features(d) for d in stored]
        for copy in itertools.count():
            yield from (dataclasses.replace(f, id=f"copy{copy}/{f.id}") for f in features)
    yield from (detector.features(d) for d in itertools.chain(stored, debian_documents(debs)))


def build(detector, idf, collection: str, stored: list[Document], sizes: list[int], args) -> dict[int, dict]:
    """Store the collection up to each size, keeping a copy of the database at each (reused when present)."""
    args.dir.mkdir(parents=True, exist_ok=True)
    name = lambda size, suffix: args.dir / f"store-{collection}-{size}{suffix}"  # noqa: E731
    missing = [size for size in sorted(sizes) if not name(size, ".json").is_file()]
    if missing:
        work = args.dir / "building.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{work}{suffix}").unlink(missing_ok=True)
        store = Store(work, detector, idf, create=True)
        documents = stream(collection, detector, stored, args.debs)
        sentences, seconds, distinct = 0, 0.0, set()
        for size in missing:
            while sentences < size:
                started = time.perf_counter()
                chunk = list(itertools.islice(documents, 64))  # features made here: part of the indexing time
                if not chunk:
                    raise SystemExit(f"{collection}: fewer than {size:,} sentences available")
                sentences += store.add(chunk, batch=64).sentences
                seconds += time.perf_counter() - started
                distinct.update(d.id.split("/", 1)[-1] for d in chunk)
            store.checkpoint()  # the file alone holds every row
            shutil.copyfile(work, name(size, ".db"))
            figures = {"rate": sentences / seconds, "distinct_documents": len(distinct)}
            name(size, ".json").write_text(json.dumps(figures))
            print(f"  {collection}: {sentences:,} sentences stored, {figures['rate']:,.0f} sentences/s", file=sys.stderr)
        store.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{work}{suffix}").unlink(missing_ok=True)
    return {size: json.loads(name(size, ".json").read_text()) for size in sizes}


def time_checks(
    store: Store, queries: list[Document], repeat: int = 1, boilerplate_spans: bool = False
) -> tuple[list[float], list[float]]:
    """Milliseconds of ``store.check`` per query, in process, after one warm-up
    check: wall-clock time, and the process's CPU time (which other jobs
    sharing the machine inflate far less); with ``repeat`` > 1, the least of
    that many checks of each query (steadier on a shared machine)."""
    store.check(queries[:1], boilerplate_spans=boilerplate_spans)  # warm the page cache once, as a daily service would be
    wall, cpu = [], []
    for query in queries:
        least_wall = least_cpu = float("inf")
        for _ in range(repeat):
            started, used = time.perf_counter(), time.process_time()
            store.check([query], boilerplate_spans=boilerplate_spans)
            least_wall = min(least_wall, (time.perf_counter() - started) * 1000)
            least_cpu = min(least_cpu, (time.process_time() - used) * 1000)
        wall.append(least_wall)
        cpu.append(least_cpu)
    return wall, cpu


def verify(detector, store: Store, collection: str, stored: list[Document], debs: Path, queries: list[Document]) -> None:
    """Compare the store's spans with ``check_against`` an in-memory index of
    the stored documents: name the queries whose spans differ (none should)."""
    count = store.stats().documents
    references = list(itertools.islice(stream(collection, detector, stored, debs), count))
    index = detector.build_index(references)
    cpu, differ = [], []
    for query in queries:
        features = detector.features(query)
        used = time.process_time()
        expected = detector.check_against([features], references, index)
        cpu.append((time.process_time() - used) * 1000)
        found = store.check([query]).spans
        if found != expected.spans:
            differ.append(f"{query.id} ({len(found)} spans, in memory {len(expected.spans)}, "
                          f"{len(set(found) & set(expected.spans))} alike)")
    print(f"  verified: {len(queries) - len(differ)} of {len(queries)} queries with the same spans as check_against "
          f"on {count:,} documents in memory (its CPU time per query, features made beforehand: median "
          f"{statistics.median(cpu):.0f} ms, p95 {percentile(cpu, 0.95):.0f} ms)", file=sys.stderr)
    for line in differ:
        print(f"  differ: {line}", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collection", nargs="+", choices=("debian", "repeated"), default=["debian", "repeated"])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--dir", type=Path, default=CACHE, help="where the stores are built once and reused")
    parser.add_argument("--debs", type=Path, default=CACHE / "debs" / "x", help="where the Debian packages are unpacked")
    parser.add_argument("--rebuild", action="store_true", help="build the stores again")
    parser.add_argument("--cache", type=int, default=0,
                        help="documents whose unpacked texts a Store keeps from one check to the next (0: none)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="check each query this many times and keep the least time (steadier on a shared machine)")
    parser.add_argument("--plagiarism", action="store_true",
                        help="time the checks as the plagiarism job makes them (with the boilerplate pairs' spans)")
    parser.add_argument("--verify", action="store_true",
                        help="also check that the spans equal check_against on an in-memory index of the same documents")
    args = parser.parse_args()
    if args.rebuild:
        for path in args.dir.glob("store-*"):
            path.unlink()

    idf = load_idf()
    detector = make_detector("low-idf-sig", idf, Config(jobs=1))
    stored, queries = corpus()
    queries = queries[: args.queries]
    print(f"{len(queries)} queries of {QUERY_CHARS} characters held out", file=sys.stderr)
    rows = []
    for collection in args.collection:
        built = build(detector, idf, collection, stored, args.sizes, args)
        for size in sorted(args.sizes):
            with Store(args.dir / f"store-{collection}-{size}.db", detector, idf, cache=args.cache) as store:
                stats = store.stats()
                wall, cpu = time_checks(store, queries, args.repeat, args.plagiarism)
                load = os.getloadavg()[0]
                if args.verify:
                    verify(detector, store, collection, stored, args.debs, queries)
            rows.append((collection, stats.sentences, stats.documents, built[size]["distinct_documents"], stats.bytes_per_sentence,
                         built[size]["rate"], statistics.median(wall), percentile(wall, 0.95),
                         statistics.median(cpu), percentile(cpu, 0.95), load))
    print(f"checks as {'partialdup plagiarism --db' if args.plagiarism else 'partialdup check --db'} makes them", file=sys.stderr)
    print("| collection | sentences | documents (distinct) | bytes/sentence | indexing sentences/s "
          "| check median ms | p95 ms | CPU median ms | CPU p95 ms | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for collection, sentences, documents, distinct, per, rate, median, p95, cpu_median, cpu_p95, load in rows:
        print(f"| {collection} | {sentences:,} | {documents:,} ({distinct:,}) | {per:.0f} | {rate:,.0f} "
              f"| {median:.0f} | {p95:.0f} | {cpu_median:.0f} | {cpu_p95:.0f} | {load:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
