"""The Markdown report and the scaling plot of ``scripts/bench.py``."""

from __future__ import annotations

import csv
import os
import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from bench_corpus import summary
from bench_rows import MIN_TOKENS, NUM_PERM, SP_THRESHOLD, THRESHOLD

if TYPE_CHECKING:
    from bench import Row

__all__ = ["SCALES", "git_head", "plot", "render", "write_atomic"]

SCALES = (1, 2, 4, 8)
HERE = Path(__file__).resolve().parent
_HAN_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def _mb(nbytes: int) -> str:
    return f"{nbytes / 2**20:,.0f}"


def _ratio(value: float | None, ref: float | None) -> str:
    return f"{value / ref:.2f}" if value is not None and ref else "-"


def rows_table(rows: list[Row], chars: int) -> list[str]:
    ref_whole = rows[0].whole.seconds if rows[0].whole else None
    ref_inner = rows[0].inner_seconds
    lines = ["| row | whole s | chars/s | peak RSS MB | peak PSS MB | x row 1 | in-process s | chars/s | x row 1 | note |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        w, i = row.whole, row.inner_seconds
        whole = [f"{w.seconds:.2f}", f"{chars / w.seconds:,.0f}", _mb(w.peak_rss), _mb(w.peak_pss) if w.peak_pss else "-",
                 _ratio(w.seconds, ref_whole)] if w else ["-"] * 5
        inner = [f"{i:.2f}", f"{chars / i:,.0f}", _ratio(i, ref_inner)] if i else ["-"] * 3
        lines.append(f"| {row.name} | " + " | ".join(whole + inner) + f" | {row.note} |")
    return lines


def scaling_table(points: list[dict]) -> list[str]:
    lines = ["| scale | documents | characters | sentences | seconds | x time of 1x | peak RSS MB | peak PSS MB | "
             "peak / sentence |", "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p in points:
        per = _held(p) / p["sentences"] if p["sentences"] else 0
        pss = _mb(p["peak_pss"]) if p.get("peak_pss") else "-"
        lines.append(f"| {p['scale']}x | {p['docs']:,} | {p['chars']:,} | {p['sentences']:,} | {p['seconds']:.2f} | "
                     f"{p['seconds'] / points[0]['seconds']:.2f} | {_mb(p['peak_rss'])} | {pss} | {per:,.0f} B |")
    _, marginal = _per_sentence(points)
    lines += ["", f"Marginal peak memory from 1x to 8x: {marginal:,.0f} bytes per added sentence "
              "((peak 8x - peak 1x) / (sentences 8x - sentences 1x); the peak is the process tree's PSS where "
              "measured, else its RSS)."]
    return lines


def _held(point: dict) -> int:
    """The memory a run held at its peak: the tree's PSS (pages shared with
    forked workers counted once) where measured, else its RSS."""
    return point.get("peak_pss") or point["peak_rss"]


def _per_sentence(points: list[dict]) -> tuple[float, float]:
    """Peak memory per sentence at the largest scale, and per sentence added from the smallest."""
    first, last = points[0], points[-1]
    raw = _held(last) / max(1, last["sentences"])
    added = last["sentences"] - first["sentences"]
    return raw, ((_held(last) - _held(first)) / added if added > 0 else float("nan"))


def _noise(res: dict) -> list[str]:
    """The defaults row and the 8x point run the same command at different times."""
    row, last = res["rows"][1].whole, res["scaling"][-1]
    if not row or not last["ok"]:
        return []
    return [f"The same command as the row `partialdup detect (defaults)` above: {last['seconds']:.2f} s here, "
            f"{row.seconds:.2f} s there; the difference is the shared machine's noise."]


def plot(scales: dict[str, list[dict]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for lang, points in scales.items():
        xs = [p["scale"] for p in points]
        left.plot(xs, [p["seconds"] for p in points], "o-", label=f"{lang} measured")
        left.plot(xs, [points[0]["seconds"] * x for x in xs], ":", color="grey")
        right.plot(xs, [_held(p) / 2**20 for p in points], "o-", label=lang)
    left.set(xlabel="corpus size (x 1/8 of the corpus)", ylabel="seconds (whole process)",
             title="detect time (dotted: linear from 1x)", xscale="log", yscale="log")
    right.set(xlabel="corpus size (x 1/8 of the corpus)", ylabel="peak PSS (MB)", title="detect peak memory (process tree)",
              xscale="log")
    right.set_ylim(bottom=0)
    for axis in (left, right):
        axis.minorticks_off()
        axis.set_xticks(list(SCALES), [f"{s}x" for s in SCALES])
        axis.legend()
    fig.tight_layout()
    tmp = path.with_suffix(".tmp.png")
    fig.savefig(tmp, dpi=100)
    os.replace(tmp, path)


def targets(results: dict[str, dict], gold: list[dict]) -> list[str]:
    """The issue's targets, each with the figure measured in this run."""
    lines = []
    zh = results.get("zh")
    if zh:
        rows = {r.name: r for r in zh["rows"]}
        ref = zh["rows"][0].whole
        for name, goal in (("partialdup detect (defaults)", 0.5), ("partialdup detect --jobs 1", 1.0)):
            run = rows[name].whole if name in rows else None
            lines.append(f"- Chinese, `detect` {name.split('detect ')[-1]} / plain jieba.lcut, whole process: "
                         + (f"{run.seconds / ref.seconds:.2f}x (target <= {goal}x): "
                            f"{'met' if run.seconds / ref.seconds <= goal else 'NOT met'}"
                            if run and ref else "not measured"))
    for lang, res in results.items():
        rows = {r.name: r for r in res["rows"]}
        ours, ds = rows["partialdup detect (defaults)"].whole, rows["datasketch MinHashLSH + exact bag-Jaccard"].whole
        if ours and ds:
            lines.append(f"- {lang}: datasketch pipeline / detect (defaults), whole process: "
                         f"{ds.seconds / ours.seconds:.2f}x (target >= 3x): "
                         f"{'met' if ds.seconds / ours.seconds >= 3 else 'NOT met'}")
        points = res["scaling"]
        if points and points[0]["seconds"]:
            growth = points[-1]["seconds"] / points[0]["seconds"]
            raw, marginal = _per_sentence(points)
            lines.append(f"- {lang}: 8x the corpus in {growth:.2f}x the time of 1x (target <= 9x): "
                         f"{'met' if growth <= 9 else 'NOT met'}; peak memory (PSS) per sentence held at 8x: {raw:,.0f} B "
                         f"(all of the process), {marginal:,.0f} B per added sentence from 1x to 8x "
                         f"(target <= 1 KB: {'met' if marginal <= 1024 else 'NOT met'} on the added sentences, "
                         f"{'met' if raw <= 1024 else 'NOT met'} on all)")
    f1: dict[str, float] = {r["name"].split()[0]: r["f1"] for r in gold if "f1" in r}
    if "partialdup" in f1 and "datasketch" in f1:
        ours_f1, ds_f1 = f1["partialdup"], f1["datasketch"]
        lines.append(f"- gold set sentence-pair F1: ours {ours_f1:.4f}, datasketch {ds_f1:.4f} "
                     f"(target: ours higher): {'met' if ours_f1 > ds_f1 else 'NOT met'}")
    return lines


def git_head() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=HERE,
                           capture_output=True, text=True).stdout.strip()
    return r.stdout.strip() + (" with uncommitted changes" if dirty else "")


INTRO = """# Benchmark

Written by `scripts/bench.py` ({command}) on {date}, commit {commit}; {cpus} cores, load average
{load} at the start. The machine is shared with other work: every figure is one run, not a best of
several, and a row can be slowed by its neighbours.

How each figure is measured is in the docstring of `scripts/bench.py`. In short: every row runs in a
process of its own, right after the same command on two of the documents, not measured (every row then
starts warm: this machine pages out what was not touched for a minute). *Whole s* is its wall time from start to exit (interpreter, imports, dictionaries);
*in-process s* the time of the work alone inside the process, after the models are loaded (only where
the row can be run as a library call). *Peak RSS* is the largest resident size of the process tree
(sampled every 50 ms from /proc, never below `/usr/bin/time`'s peak of its largest process; the PSS every 0.5 s: reading it walks the page tables under the process's lock, which slowed the runs measured); it counts
a page that forked workers share with their parent once in each. *Peak PSS* is the tree's largest
proportional set size (`/proc/PID/smaps_rollup`, same samples; the scaling runs' from a second run, read
every 0.1 s): a shared page split between the processes sharing it, so the memory the run holds; the
per-sentence figures use it. *x row 1* is the
ratio to the reference row (plain segmentation of the same lines). Characters/s counts every character
of the documents.

The datasketch row is the usual MinHash pipeline over the same sentences and words as ours
(partialdup's splitter and tokenizer; sentences of at least {min_tokens} words, as `detect`):
`MinHash.bulk` with {perm} permutations over each sentence's word set, `MinHashLSH(threshold={tau})`,
every candidate pair of different documents verified by exact bag-Jaccard >= {tau}. The Sanchez-Perez
row compares every pair of a sample of m sentences by tf-idf cosine and Dice (both > {sp}), in plain
Python as their PAN 2014 system does, and extrapolates to every pair of the corpus's N sentences:
seconds x N(N-1) / (m(m-1)).

## Corpus

Built by `python scripts/bench_corpus.py` (into `~/.cache/partialdup/bench-corpus`, not in git) from
Debian packages fetched with `apt-get download`: one text file per real document (an HTML page or a
book section cut at its headings, a man page rendered by groff, a fortune), with `MANIFEST.tsv`
(package, version, file, licence, characters) and the packages' copyright files in `LICENSES/` beside
it. Debian ships no news text; the most news-like, punctuation-dense Chinese prose here is fortunes-zh
(the Debian Code of Conduct, quotations, Tang and Song poems), the Debian handbook, reference, FAQ and
installation guide. Chinese keeps Simplified sources only (zh_TW versions are conversions and would
plant copies) and documents at least a tenth Han (untranslated pages are left out). Real reuse between
packages stays (fortunes-zh quotes the Debian Reference).

{provenance}
"""


def han_runs(root: Path, rows: list[dict]) -> str:
    """How punctuation-dense the Chinese documents are: runs of Han characters
    (what jieba is given) per 1,000 characters and their mean length."""
    by: dict[str, list[int]] = {}
    for row in rows:
        if row["lang"] != "zh":
            continue
        runs = _HAN_RUN.findall((root / row["file"]).read_text(encoding="utf-8"))
        entry = by.setdefault(row["package"], [0, 0, 0])
        entry[0] += int(row["chars"])
        entry[1] += len(runs)
        entry[2] += sum(len(run) for run in runs)
    total = [sum(e[i] for e in by.values()) for i in range(3)]
    if not total[1]:
        return ""
    densest = sorted(by.items(), key=lambda kv: -kv[1][1] / kv[1][0])
    parts = [f"{pkg} {1000 * n / c:.0f} ({h / n:.1f})" for pkg, (c, n, h) in densest]
    return (f"Chinese: {1000 * total[1] / total[0]:.0f} runs of Han characters per 1,000 characters, "
            f"{total[2] / total[1]:.1f} Han characters a run on average; by package, runs per 1,000 "
            f"(mean length): " + ", ".join(parts) + ".")


def render(meta: dict, results: dict[str, dict], gold: list[dict], manifest: Path | None) -> str:
    """The Markdown report: ``meta`` says how and when it was measured (bench.py's main)."""
    provenance, corpus_chars = "(no MANIFEST.tsv beside the corpus folders)", {}  # type: tuple[str, dict[str, int]]
    if manifest and manifest.exists():
        with manifest.open(encoding="utf-8") as handle:
            rows = [dict(r, chars=int(r["chars"])) for r in csv.DictReader(handle, delimiter="\t")]
        provenance = summary(rows) + "\n\n" + han_runs(manifest.parent, rows)
        corpus_chars = {lang: sum(int(r["chars"]) for r in rows if r["lang"] == lang) for lang in ("zh", "en")}
    out = [INTRO.format(provenance=provenance, min_tokens=MIN_TOKENS, perm=NUM_PERM, tau=THRESHOLD,
                        sp=SP_THRESHOLD, **meta)]
    if meta["quick"]:
        out.append("**A `--quick` run**: a small subset, to check that the script works; its figures are "
                   "dominated by start-up and say nothing about the targets.\n")
    names = {"zh": "Chinese", "en": "English"}
    for lang, res in results.items():
        whole = corpus_chars.get(lang)
        share = f" ({res['chars'] / whole:.0%} of the corpus's {whole:,})" if whole and res["chars"] < whole else ""
        out += [f"## {names[lang]}: {res['docs']:,} documents, {res['chars']:,} characters{share}, "
                f"{res['bytes'] / 1e6:.1f} MB", ""]
        out += rows_table(res["rows"], res["chars"]) + [""]
    if any(res["scaling"] for res in results.values()):
        out += ["## Scaling", "", "`detect` (defaults, whole process) on growing subsets of the documents "
                "above (8x = all of them, 1x = an eighth of their characters; documents in a fixed mixed order, "
                "none repeated), run one after the other. Each scale runs twice: *seconds* are the first run's, "
                "the peaks the second's, its PSS read every 0.1 s (every 0.5 s in the first, which misses a short "
                "run's peak: `scripts/bench_measure.py`).", "", "![scaling](scaling.png)", ""]
        for lang, res in results.items():
            out += [f"### {names[lang]}", ""] + scaling_table(res["scaling"]) + [""] + _noise(res) + [""]
    if gold:
        out += ["## Gold set", "", f"Sentence-pair precision, recall and F1 on `{meta['gold']}` (ours: "
                "`partialdup eval GOLD --methods low-idf-sig --json`; datasketch: the pipeline above over "
                "the gold set's document pairs, scored by `partialdup.eval.metrics.pair_score`).", "",
                "| pipeline | precision | recall | F1 | plagdet | whole s |", "|---|---:|---:|---:|---:|---:|"]
        for r in gold:
            if "f1" not in r:
                out.append(f"| {r['name']} | {r.get('note', '')} | | | | |")
                continue
            plag = f"{r['plagdet']:.4f}" if r.get("plagdet") is not None else "-"
            out.append(f"| {r['name']} | {r['precision']:.4f} | {r['recall']:.4f} | {r['f1']:.4f} | {plag} | "
                       f"{r['seconds']:.1f} |")
        out.append("")
    out += ["## Targets (issue #13), as measured in this run", ""] + targets(results, gold) + [""]
    return "\n".join(out)


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


