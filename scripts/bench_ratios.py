"""The time targets of issue #13, measured in interleaved rounds.

``scripts/bench.py`` runs every row once, one after the other: on a shared
machine one row can meet a load the next does not, and a ratio of two single
runs moved by a fifth from one run to the next here (``detect --jobs 1`` over
plain ``jieba.lcut``: 1.12 in one full benchmark, 1.37 in another, 0.91 to
1.19 in five rounds of this script; docs/benchmark.md, session 14). This script runs the processes that the
targets compare, whole, as ``bench.py`` does (same commands, same
measurement of time; memory, which this script does not report, is not
sampled: the sampling took CPU from runs on both cores only), round after
round in turn: the reference (plain segmentation
of the same lines), ``detect`` with its defaults and ``detect --jobs 1``
(and, with ``--datasketch``, the datasketch pipeline), and reports each
round's ratios, their medians and the targets' verdicts on the medians.

    python scripts/bench_ratios.py --rounds 5                # Chinese and English
    python scripts/bench_ratios.py --langs zh --rounds 7 --datasketch
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import Bench, compile_package, corpus_files  # noqa: E402
from bench_corpus import default_corpus_dir  # noqa: E402

#: (label, the ratio's numerator, target, True when the ratio must stay at or below it)
TARGETS = (
    ("detect (defaults) / reference", "defaults", 0.5, True),
    ("detect --jobs 1 / reference", "jobs1", 1.0, True),
)
DATASKETCH_TARGET = ("datasketch / detect (defaults)", 3.0)


def one_round(bench: Bench, datasketch: bool) -> tuple[dict[str, float], dict[str, float]]:
    """Seconds of each process of one round (whole process, start to exit),
    and the CPU seconds of each (every process of its tree)."""
    runs = {"reference": bench.child("reference"), "defaults": bench.cli([]), "jobs1": bench.cli(["--jobs", "1"])}
    if datasketch:
        runs["datasketch"] = bench.child("datasketch")
    failed = [name for name, run in runs.items() if not run.ok]
    if failed:
        raise SystemExit(f"bench_ratios: {', '.join(failed)} failed: {runs[failed[0]].note}")
    return {name: run.seconds for name, run in runs.items()}, {name: run.cpu_seconds for name, run in runs.items()}


def ratios(seconds: dict[str, float]) -> dict[str, float]:
    """The targets' ratios of one round."""
    out = {label: seconds[key] / seconds["reference"] for label, key, _, _ in TARGETS}
    if "datasketch" in seconds:
        out[DATASKETCH_TARGET[0]] = seconds["datasketch"] / seconds["defaults"]
    return out


def report(lang: str, rounds: list[dict[str, float]], cpu: list[dict[str, float]] | None = None) -> list[str]:
    """Markdown: a row per round, the medians, the verdicts; with ``cpu``
    (each round's CPU seconds), the same ratios of CPU time, time spent
    waiting for a core left out (the targets stay on wall time)."""
    per_round = [ratios(r) for r in rounds]
    names = list(rounds[0])
    labels = list(per_round[0])
    lines = [f"### {lang}: {len(rounds)} rounds", "",
             "| round | " + " | ".join(f"{n} s" for n in names) + " | " + " | ".join(labels) + " |",
             "|---:|" + "---:|" * (len(names) + len(labels))]
    for i, (r, q) in enumerate(zip(rounds, per_round), 1):
        lines.append(f"| {i} | " + " | ".join(f"{r[n]:.2f}" for n in names) + " | "
                     + " | ".join(f"{q[label]:.2f}" for label in labels) + " |")
    medians = {label: statistics.median(q[label] for q in per_round) for label in labels}
    lines.append("| median | " + " | ".join(f"{statistics.median(r[n] for r in rounds):.2f}" for n in names) + " | "
                 + " | ".join(f"{medians[label]:.2f}" for label in labels) + " |")
    lines.append("")
    for label, _, target, at_most in TARGETS:
        met = medians[label] <= target if at_most else medians[label] >= target
        lines.append(f"- {lang}: {label}, median of the rounds' ratios: {medians[label]:.2f}x "
                     f"(target <= {target}x): {'met' if met else 'NOT met'}")
    if DATASKETCH_TARGET[0] in medians:
        label, target = DATASKETCH_TARGET
        lines.append(f"- {lang}: {label}, median: {medians[label]:.2f}x (target >= {target}x): "
                     f"{'met' if medians[label] >= target else 'NOT met'}")
    if cpu:
        cpu_ratios = [ratios(r) for r in cpu]
        lines.append(f"- {lang}: the same ratios of CPU seconds (every process), medians (rounds): " + "; ".join(
            f"{label} {statistics.median(q[label] for q in cpu_ratios):.2f}x "
            f"({min(q[label] for q in cpu_ratios):.2f}-{max(q[label] for q in cpu_ratios):.2f})" for label in labels))
    return lines + [""]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus = default_corpus_dir()
    parser.add_argument("--zh", type=Path, default=corpus / "zh", help="Chinese documents (default: %(default)s)")
    parser.add_argument("--en", type=Path, default=corpus / "en", help="English documents (default: %(default)s)")
    parser.add_argument("--langs", nargs="+", default=["zh", "en"], choices=["zh", "en"])
    parser.add_argument("--rounds", type=int, default=5, help="rounds per language (default: %(default)s)")
    parser.add_argument("--chars", type=int, help="only the first documents holding this many characters")
    parser.add_argument("--datasketch", action="store_true", help="also the datasketch pipeline (about 30 s a round)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    partialdup = shutil.which("partialdup") or str(Path(sys.executable).with_name("partialdup"))
    compile_package()
    out: list[str] = []
    with tempfile.TemporaryDirectory(prefix="partialdup-ratios-") as scratch:
        for lang in args.langs:
            files = corpus_files(getattr(args, lang), args.chars)
            if not files:
                raise SystemExit(f"bench_ratios: {getattr(args, lang)}: no .txt documents (python scripts/bench_corpus.py)")
            # Time only: sampling memory would take CPU from runs on both cores alone.
            bench = Bench(lang, files, Path(scratch), partialdup, memory=False)
            rounds, cpu = [], []
            for i in range(args.rounds):
                seconds, used = one_round(bench, args.datasketch)
                rounds.append(seconds)
                cpu.append(used)
                print(f"{lang} round {i + 1}: " + ", ".join(f"{k} {v:.2f} s ({used[k]:.2f} s CPU)" for k, v in seconds.items()),
                      flush=True)
            out += report(lang, rounds, cpu)
    print("\n".join(out))


if __name__ == "__main__":
    main()
