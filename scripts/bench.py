"""Speed and memory of partialdup against reference costs and peers, in one run.

For Chinese and English apart, over the benchmark corpus of
``scripts/bench_corpus.py`` (real Debian texts), each row runs in a process
of its own: *whole process* is its wall time from start to exit (interpreter,
imports, dictionaries included), *in process* the time of the work alone,
measured inside, after every model is loaded; *peak RSS* is the largest
resident size of the process tree (sampled from /proc every 50 ms, and never
below ``/usr/bin/time``'s peak of its largest process), *peak PSS* the largest
proportional set size of the tree (pages shared by forked workers counted
once: what the run holds; the per-sentence figures use it). Every measured
run follows the same run on two files, not measured (see ``Bench``). Rows:

  1. the reference: plain ``jieba.lcut`` over every non-empty line (English:
     NLTK's word tokenizer, ``NLTKWordTokenizer``, over the same lines);
  2. ``partialdup detect``: defaults, ``--jobs 1``, ``--jobs 2``,
     ``--segmenter jieba`` (the reference; each only when ``detect --help`` lists the option);
  3. ``--method 3-shingle`` in the same framework;
  4. datasketch ``MinHashLSH`` (128 permutations, threshold 0.6) over the same
     sentences and words, its candidates verified by exact bag-Jaccard >= 0.6;
  5. Sanchez-Perez-style all-pairs sentence tf-idf cosine (and Dice) on a
     sample of sentences, extrapolated to every pair of the corpus's sentences.

Then a scaling run of ``detect`` (defaults) on growing subsets (1/8, 2/8, 4/8,
the whole corpus: no document is repeated; each timed in one run, its peak
memory from a second, its PSS read every 0.1 s) with a plot (``docs/scaling.png``),
and the gold-set F1 of the datasketch pipeline beside ours
(``partialdup eval``). The machine is shared: every figure is one run.

    python scripts/bench_corpus.py                         # the corpus, once
    python scripts/bench.py --quick                        # a check: minutes, mostly start-up
    python scripts/bench.py --out docs/benchmark.md        # the full run
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_corpus import default_corpus_dir  # noqa: E402
from bench_measure import MEMORY_PSS_EVERY, PSS_EVERY, Run, measure  # noqa: E402
from bench_report import SCALES, git_head, plot, render, write_atomic  # noqa: E402
from bench_rows import child, row_gold_datasketch  # noqa: E402

QUICK_CHARS = {"zh": 60_000, "en": 120_000}

#: The files of the run, not measured, before each measured one (see Bench).
WARM_FILES = 2


# ---------------------------------------------------------------- corpus


def corpus_files(folder: Path, limit: int | None = None) -> list[Path]:
    """The .txt files of a folder in a fixed mixed order (sha256 of the name),
    so that any prefix holds every source; with ``limit`` the shortest prefix
    of at least that many characters."""
    files = sorted(folder.glob("*.txt"), key=lambda p: hashlib.sha256(p.name.encode()).hexdigest())
    if limit is None:
        return files
    out, total = [], 0
    for path in files:
        if total >= limit:
            break
        out.append(path)
        total += len(path.read_text(encoding="utf-8"))
    return out


def subset(files: list[Path], scale: int, chars: list[int]) -> list[Path]:
    """The prefix of ``files`` holding ``scale``/8 of their characters."""
    want, total = sum(chars) * scale / 8, 0
    for k, size in enumerate(chars):
        total += size
        if total >= want - 0.5:
            return files[: k + 1]
    return files


def link_folder(files: list[Path], root: Path) -> Path:
    """A folder of links to the files: what ``detect FOLDER`` reads.

    Hard links where the file system allows them: the folder then holds the
    files themselves, as the references read them (by their real paths).
    Symbolic links cost ``detect`` what no reference pays: the kernel reads
    each link's target, a block of its own on disk, before the file, and
    this machine pages out what was not touched for a minute. As the bench
    runs it (idle 70 s, the files' data just read by the reference), the
    Chinese corpus's 9,161 files took 8.38-12.15 s through symbolic links
    and 7.58-10.28 s through hard links, the hard links faster in each of
    four pairs (docs/benchmark.md, session 42).
    """
    folder = Path(tempfile.mkdtemp(prefix="docs-", dir=root))
    for path in files:
        real, link = path.resolve(), folder / path.name
        try:
            os.link(real, link)
        except OSError:  # another file system, or links not allowed there
            link.symlink_to(real)
    return folder


# ---------------------------------------------------------------- the package measured


def compile_package() -> None:
    """partialdup's modules compiled to bytecode, as a regular install
    leaves them (jieba, NLTK and datasketch come compiled by pip): an
    editable install under PYTHONDONTWRITEBYTECODE (as here) would compile
    every module at every start, 0.1 s of each row's whole process."""
    import compileall
    import partialdup as package

    compileall.compile_dir(str(Path(package.__file__).parent), quiet=1)


# ---------------------------------------------------------------- the parent


@dataclass
class Row:
    """A table row: a whole-process run and, where it makes sense, an in-process one."""

    name: str
    whole: Run | None = None
    inner_seconds: float | None = None
    note: str = ""


class Bench:
    """Runs the rows of one language in child processes under a scratch folder.

    Each measured run follows the same command on the first
    :data:`WARM_FILES` files, not measured: every row starts warm, its
    modules and dictionaries just read. This machine pages out what was not
    touched for a minute (docs/benchmark.md, session 41), and without it
    the first ``detect`` row, after the reference's half minute, paid a
    cold start the later rows did not: the ``--jobs 2`` row, the defaults'
    settings on two cores, took 8.02, 8.04 and 7.92 s against 7.67, 8.68
    and 8.62 s for the defaults row (session 42).
    """

    def __init__(
        self, lang: str, files: list[Path], work: Path, partialdup: str, memory: bool = True, warm: bool = True,
    ) -> None:
        self.lang, self.files, self.work, self.partialdup = lang, files, work, partialdup
        self.memory = memory  # sample each run's memory (see measure)
        self.warm = warm  # each measured run after the same on a few files (see above)
        self.chars = [len(p.read_text(encoding="utf-8")) for p in files]
        self.folder = link_folder(files, work)
        self.listing = self._listing(files)
        self._small_folder = link_folder(files[:WARM_FILES], work)
        self._small_listing = self._listing(files[:WARM_FILES])

    def _listing(self, files: list[Path]) -> Path:
        fd, name = tempfile.mkstemp(prefix="list-", suffix=".txt", dir=self.work)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write("\n".join(str(p.resolve()) for p in files))
        return Path(name)

    def child(self, row: str, listing: Path | None = None, extra: tuple[str, ...] = (), warm: bool = True) -> Run:
        result = self.work / f"result-{self.lang}-{row.replace(':', '-')}.json"

        def command(files: Path) -> list[str]:
            result.unlink(missing_ok=True)  # the warm-up's, or an earlier row's, is never read as this run's
            return [sys.executable, str(Path(__file__).resolve()), "--row", row, "--lang", self.lang,
                    "--list", str(files), "--result", str(result), *extra]

        return self._measured(command, self._small_listing, listing or self.listing, warm, result)

    def cli(self, extra: list[str], folder: Path | None = None, warm: bool = True, pss_every: float = PSS_EVERY) -> Run:
        """``detect`` on ``folder`` (the corpus) with the options ``extra``;
        ``warm``: after the same on a few files (see :class:`Bench`);
        ``pss_every``: seconds between two readings of the PSS."""
        out = self.work / f"out-{self.lang}.jsonl"

        def command(documents: Path) -> list[str]:
            return [self.partialdup, "detect", str(documents), "-o", str(out), "-q", *extra]

        run = self._measured(command, self._small_folder, folder or self.folder, warm, pss_every=pss_every)
        if run.ok:
            with out.open(encoding="utf-8") as handle:
                run.inner = {"matches": sum(1 for _ in handle)}
        return run

    def _measured(
        self, command: Callable[[Path], list[str]], small: Path, documents: Path, warm: bool,
        result: Path | None = None, pss_every: float = PSS_EVERY,
    ) -> Run:
        """``command(documents)`` measured; ``warm``: after ``command(small)``,
        not measured (see :class:`Bench`)."""
        if warm and self.warm:
            measure(command(small), memory=False)
        return measure(command(documents), result, memory=self.memory, pss_every=pss_every)

    def sentences(self, files: list[Path]) -> int:
        return int(self.child("count", self._listing(files), warm=False).inner.get("sentences", 0))


def detect_options(partialdup: str) -> str:
    """``partialdup detect --help``: which options exist in this tree."""
    return subprocess.run([partialdup, "detect", "--help"], capture_output=True, text=True).stdout


def _inner(run: Run) -> float | None:
    return run.inner.get("seconds") if run.ok else None


def _detect_row(bench: Bench, name: str, options: list[str], method: str) -> Row:
    """``detect`` as a whole process (the CLI) and in process (``Detector.detect``)."""
    whole, inner = bench.cli(options), bench.child(f"detect:{method}")
    notes = [f"{whole.inner.get('matches', 0):,} matches" if whole.ok else f"CLI failed: {whole.note}"]
    if not inner.ok:
        notes.append(f"in process failed: {inner.note}")
    return Row(name, whole if whole.ok else None, _inner(inner), "; ".join(notes))


def language_rows(bench: Bench, help_text: str, sample: int, log: Callable[[str], None]) -> list[Row]:
    """Every row of one language, in the order of the issue."""
    rows: list[Row] = []

    def add(row: Row) -> None:
        rows.append(row)
        w = row.whole
        log(f"  {bench.lang} {row.name}: " + (f"{w.seconds:.2f} s, {w.peak_rss / 2**20:.0f} MB" if w else "-")
            + (f", in process {row.inner_seconds:.2f} s" if row.inner_seconds is not None else "")
            + (f" ({row.note})" if row.note else ""))

    ref = bench.child("reference")
    add(Row("jieba.lcut per line" if bench.lang == "zh" else "NLTK word tokenizer per line", ref, _inner(ref),
            f"{ref.inner.get('lines', 0):,} lines" if ref.ok else ref.note))
    add(_detect_row(bench, "partialdup detect (defaults)", [], "low-idf-sig"))
    for label, option, extra in (("--jobs 1", "--jobs", ["--jobs", "1"]), ("--jobs 2", "--jobs", ["--jobs", "2"]),
                                 ("--segmenter jieba", "jieba", ["--segmenter", "jieba"])):
        if option not in help_text:
            add(Row(f"partialdup detect {label}", note="not available (detect --help does not list it)"))
            continue
        run = bench.cli(extra)
        add(Row(f"partialdup detect {label}", run if run.ok else None, None,
                f"{run.inner.get('matches', 0):,} matches" if run.ok else f"failed: {run.note}"))
    add(_detect_row(bench, "partialdup detect --method 3-shingle", ["--method", "3-shingle"], "3-shingle"))
    try:
        import datasketch  # noqa: F401

        ds = bench.child("datasketch")
        add(Row("datasketch MinHashLSH + exact bag-Jaccard", ds, _inner(ds),
                f"{ds.inner.get('pairs', 0):,} sentence pairs" if ds.ok else ds.note))
    except ImportError:
        add(Row("datasketch MinHashLSH + exact bag-Jaccard", note="not available: pip install -e '.[bench]'"))
    sp = bench.child("sanchez", extra=("--sample", str(sample)))
    if sp.ok:
        i = sp.inner
        add(Row("Sanchez-Perez all-pairs tf-idf cosine (extrapolated)", None, i["extrapolated"],
                f"{i['sample']:,} of {i['sentences']:,} sentences: {i['seconds']:.1f} s measured x "
                f"N(N-1)/(m(m-1))"))
    else:
        add(Row("Sanchez-Perez all-pairs tf-idf cosine (extrapolated)", note=sp.note))
    return rows


def scaling(bench: Bench, log: Callable[[str], None]) -> list[dict]:
    """detect (defaults) on 1/8, 2/8, 4/8 and all of the corpus, one after the
    other (on a shared machine, runs apart in time see different loads); each
    scale timed in one run and its memory taken from the next, whose PSS is
    read every :data:`MEMORY_PSS_EVERY` seconds."""
    points = []
    for scale in SCALES:
        files = subset(bench.files, scale, bench.chars)
        folder = link_folder(files, bench.work)
        run = bench.cli([], folder)
        # The memory from a second run, its PSS read five times as often (a
        # cost to its time, not reported): see MEMORY_PSS_EVERY.
        held = bench.cli([], folder, warm=False, pss_every=MEMORY_PSS_EVERY) if bench.memory else run
        sentences = bench.sentences(files)
        chars = sum(bench.chars[: len(files)])
        points.append(dict(scale=scale, docs=len(files), chars=chars, sentences=sentences, seconds=run.seconds,
                           peak_rss=held.peak_rss, peak_pss=held.peak_pss, timed_peak_pss=run.peak_pss,
                           ok=run.ok and held.ok))
        log(f"  {bench.lang} scaling {scale}x: {len(files):,} documents, {sentences:,} sentences, "
            f"{run.seconds:.2f} s, {held.peak_rss / 2**20:.0f} MB RSS, {held.peak_pss / 2**20:.0f} MB PSS "
            f"({run.peak_pss / 2**20:.0f} MB in the timed run)")
    return points


def gold_rows(gold: Path, work: Path, partialdup: str, log: Callable[[str], None]) -> list[dict]:
    """Sentence-pair F1 on the gold set: ours (``partialdup eval``) and the datasketch pipeline."""
    rows: list[dict] = []
    output = work / "eval.jsonl"
    run = measure([partialdup, "eval", str(gold), "--methods", "low-idf-sig", "--json"], stdout=output)
    if run.ok:
        ours = json.loads(output.read_text(encoding="utf-8").strip().splitlines()[-1])
        rows.append(dict(name="partialdup (low-idf-sig, defaults)", precision=ours["precision"],
                         recall=ours["recall"], f1=ours["f1"], plagdet=ours["plagdet"], seconds=run.seconds))
    else:
        rows.append(dict(name="partialdup (low-idf-sig, defaults)", note=f"eval failed: {run.note}"))
    result = work / "result-gold-datasketch.json"
    ds = measure([sys.executable, str(Path(__file__).resolve()), "--row", "gold-datasketch", "--gold", str(gold),
                  "--result", str(result)], result)
    if ds.ok:
        rows.append(dict(name="datasketch MinHashLSH + exact bag-Jaccard", plagdet=None, **ds.inner))
        rows[-1]["seconds"] = ds.seconds
    else:
        rows.append(dict(name="datasketch MinHashLSH + exact bag-Jaccard", note=ds.note))
    for r in rows:
        log(f"  gold {r['name']}: " + (f"F1 {r['f1']:.4f}" if "f1" in r else r.get("note", "")))
    return rows


def run_language(lang: str, folder: Path, args: argparse.Namespace, work: Path, partialdup: str,
                 help_text: str) -> dict:
    limit = args.chars or (QUICK_CHARS[lang] if args.quick else None)
    files = corpus_files(folder, limit)
    if not files:
        raise SystemExit(f"bench: {folder}: no .txt documents (build them: python scripts/bench_corpus.py)")
    bench = Bench(lang, files, work, partialdup)
    chars = sum(bench.chars)
    print(f"{lang}: {len(files):,} documents, {chars:,} characters", flush=True)
    log = lambda line: print(line, flush=True)  # noqa: E731
    rows = language_rows(bench, help_text, args.sample or (300 if args.quick else 3000), log)
    points = scaling(bench, log) if (rows[1].whole and not args.no_scaling) else []
    return dict(rows=rows, scaling=points, docs=len(files), chars=chars,
                bytes=sum(p.stat().st_size for p in files))


def save(path: Path, meta: dict, results: dict[str, dict], gold: list[dict]) -> None:
    """Everything measured, as JSON (``--render`` makes the report from such files)."""
    plain = {lang: dict(res, rows=[asdict(row) for row in res["rows"]]) for lang, res in results.items()}
    write_atomic(path, json.dumps({"meta": meta, "results": plain, "gold": gold}, indent=1))


def load(paths: list[Path]) -> tuple[dict, dict[str, dict], list[dict]]:
    """Merge saved runs (e.g. Chinese and English run side by side); later files win."""
    metas: list[dict] = []
    results: dict[str, dict] = {}
    gold: list[dict] = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        metas.append(data["meta"])
        for lang, res in data["results"].items():
            rows = [Row(r["name"], Run(**r["whole"]) if r["whole"] else None, r["inner_seconds"], r["note"])
                    for r in res["rows"]]
            results[lang] = dict(res, rows=rows)
        gold = data["gold"] or gold
    meta = dict(metas[-1], **{key: " and ".join(dict.fromkeys(str(m[key]) for m in metas))
                              for key in ("command", "date", "commit", "load")})
    meta["quick"] = any(m["quick"] for m in metas)
    meta["gold"] = next((m["gold"] for m in metas if m.get("has_gold")), meta["gold"])
    return meta, results, gold


def report(meta: dict, results: dict[str, dict], gold: list[dict], args: argparse.Namespace) -> None:
    text = render(meta, results, gold, args.zh.resolve().parent / "MANIFEST.tsv")
    print(text)
    if args.out:
        write_atomic(args.out, text)
        scales = {lang: res["scaling"] for lang, res in results.items() if res["scaling"]}
        if scales:
            plot(scales, args.plot or args.out.with_name("scaling.png"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus = default_corpus_dir()
    parser.add_argument("--zh", type=Path, default=corpus / "zh", help="Chinese documents (default: %(default)s)")
    parser.add_argument("--en", type=Path, default=corpus / "en", help="English documents (default: %(default)s)")
    parser.add_argument("--quick", action="store_true", help="a small subset: checks that the script works")
    parser.add_argument("--chars", type=int, help="only the first documents holding this many characters "
                        "per language (default: all; 60,000 zh and 120,000 en with --quick)")
    parser.add_argument("--out", type=Path, help="write the Markdown report here (atomically)")
    parser.add_argument("--plot", type=Path, help="the scaling PNG (default: scaling.png beside --out)")
    parser.add_argument("--gold", type=Path, help="gold set (default: goldenset; goldenset/slice with --quick)")
    parser.add_argument("--sample", type=int, help="Sanchez-Perez sample sentences (default 3000; 300 with --quick)")
    parser.add_argument("--langs", nargs="+", default=["zh", "en"], choices=["zh", "en"])
    parser.add_argument("--no-scaling", action="store_true")
    parser.add_argument("--no-gold", action="store_true")
    parser.add_argument("--save", type=Path, help="also write everything measured here as JSON")
    parser.add_argument("--render", type=Path, nargs="+", metavar="JSON",
                        help="measure nothing: write the report from files of --save")
    # The rows run in child processes of this script:
    parser.add_argument("--row", help=argparse.SUPPRESS)
    parser.add_argument("--lang", help=argparse.SUPPRESS)
    parser.add_argument("--list", help=argparse.SUPPRESS)
    parser.add_argument("--result", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.row == "gold-datasketch":
        Path(args.result).write_text(json.dumps(row_gold_datasketch(str(args.gold))))
        return
    if args.row:
        child(args)
        return
    if args.render:
        report(*load(args.render), args)
        return
    partialdup = shutil.which("partialdup") or str(Path(sys.executable).with_name("partialdup"))
    repo = Path(__file__).resolve().parent.parent
    compile_package()
    args.gold = args.gold or (repo / "goldenset" / ("slice" if args.quick else ""))
    meta = dict(command="python scripts/bench.py " + " ".join(argv if argv is not None else sys.argv[1:]),
                date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), commit=git_head(),
                cpus=os.cpu_count(), load=" ".join(f"{x:.2f}" for x in os.getloadavg()),
                quick=args.quick, gold=str(args.gold), has_gold=not args.no_gold)
    help_text = detect_options(partialdup)
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="partialdup-bench-") as scratch:
        work = Path(scratch)
        for lang in args.langs:
            results[lang] = run_language(lang, getattr(args, lang), args, work, partialdup, help_text)
        gold = [] if args.no_gold else gold_rows(args.gold, work, partialdup, lambda s: print(s, flush=True))
    if args.save:
        save(args.save, meta, results, gold)
    report(meta, results, gold, args)


if __name__ == "__main__":
    main()
