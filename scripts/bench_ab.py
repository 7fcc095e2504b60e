"""Two revisions' ``detect`` against each other, method by method: time and identical output.

A change measured on the defaults alone can slow another method: session 28
held the found pairs as arrays and made ``--method 3-shingle`` twice as slow
on the Chinese bench corpus, unseen until a full ``scripts/bench.py`` run
(docs/benchmark.md, session 29). This runs ``partialdup detect --method M``
of each revision on one corpus, in alternating rounds, each run a process of
its own started from a scratch directory (so that the package imported is
the revision's, unpacked by ``git archive``), and prints per method the
median wall seconds of each, their ratio, and whether the outputs are
byte-identical. Exit status 1 when some output differs.

Run from the repository root::

    python scripts/bench_ab.py e73d2c9 HEAD --corpus ~/.cache/partialdup/bench-corpus/zh
    python scripts/bench_ab.py HEAD~1 HEAD --methods low-idf-sig 3-shingle --rounds 3

The machine is shared: read a ratio within about 10 % of 1 as noise, and
repeat a run that says otherwise before believing it.

With ``--instructions`` each run is ``detect --jobs 1`` under Valgrind's
callgrind, and the table counts the instructions it executed instead of
seconds: a count moves by about 0.3 % between runs of the same tree (the
hash seed fixed, the package compiled), where seconds move by 5 % or more,
so a change of 1 % can be told. It is slow (about 30 times the run: use the
1x subset, ``bench.subset``) and needs ``valgrind``; the count is of one
process, not of the cores' time, and a cache miss counts as one
instruction. (Trees not compiled to bytecode, with ``PYTHONDONTWRITEBYTECODE``
set, count their modules' compilation at every start: about 1 G
instructions, a tenth of a 1x run. Both trees here are compiled.)

    python scripts/bench_ab.py HEAD~1 HEAD --methods low-idf-sig --instructions --corpus DIR_1X
"""

from __future__ import annotations

import argparse
import filecmp
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = Path.home() / ".cache" / "partialdup" / "bench-corpus" / "zh"


def unpack(revision: str, into: Path) -> Path:
    """The package of ``revision`` unpacked under ``into`` and compiled; its directory."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "partialdup"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(into / "partialdup")], check=True)
    return into


#: What runs ``detect`` under callgrind, counting its instructions (no profile written).
CALLGRIND = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")


def run_detect(
    tree: Path, corpus: Path, method: str, out: Path, scratch: Path, extra: list[str], wrapper: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """One ``detect`` of ``tree`` (its output written to ``out``), run by
    ``wrapper`` when given; a failed run ends the script."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    command = [*wrapper, sys.executable, "-m", "partialdup", "detect", "-q", "--method", method, str(corpus), "-o", str(out), *extra]
    done = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):  # 1: copies found with --fail-on-match (the README's exit codes)
        raise SystemExit(f"bench_ab: {method} failed in {tree}: {done.stderr.strip().splitlines()[-1:]}")
    return done


def timed_detect(tree: Path, corpus: Path, method: str, out: Path, scratch: Path, extra: list[str]) -> float:
    """Wall seconds of one ``detect`` of ``tree``."""
    started = time.perf_counter()
    run_detect(tree, corpus, method, out, scratch, extra)
    return time.perf_counter() - started


def counted_detect(tree: Path, corpus: Path, method: str, out: Path, scratch: Path, extra: list[str]) -> float:
    """Instructions executed by one ``detect --jobs 1`` of ``tree``, under callgrind."""
    done = run_detect(tree, corpus, method, out, scratch, ["--jobs", "1", *extra], wrapper=CALLGRIND)
    counted = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if counted is None:
        raise SystemExit(f"bench_ab: callgrind gave no count for {method} in {tree}")
    return int(counted.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the revision measured first (a commit, a tag, HEAD~1)")
    parser.add_argument("after", help="the revision it is put against")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help=f"documents to detect in (default {DEFAULT_CORPUS})")
    parser.add_argument("--methods", nargs="+", help="methods (default: every method partialdup names)")
    parser.add_argument("--rounds", type=int, default=1, help="alternating rounds per method (default 1)")
    parser.add_argument("--instructions", action="store_true",
                        help="count the instructions of detect --jobs 1 under callgrind, not seconds (needs valgrind)")
    parser.add_argument("--extra", nargs=argparse.REMAINDER, default=[], help="further detect options, last")
    args = parser.parse_args(argv)
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (Debian: apt install valgrind)")
    run, unit = (counted_detect, "G instructions") if args.instructions else (timed_detect, "s")
    corpus = args.corpus.expanduser().resolve()  # the runs start elsewhere
    sys.path.insert(0, str(ROOT))
    from partialdup.methods import method_names

    methods = args.methods or list(method_names())
    differ = False
    with tempfile.TemporaryDirectory(prefix="bench_ab.") as work:
        base = Path(work)
        trees = {name: unpack(revision, base / name) for name, revision in (("before", args.before), ("after", args.after))}
        scratch = base / "run"
        scratch.mkdir()
        print(f"| method | {args.before} {unit} | {args.after} {unit} | after / before | outputs |")
        print("|---|---:|---:|---:|---|")
        for method in methods:
            seconds: dict[str, list[float]] = {name: [] for name in trees}
            for _ in range(args.rounds):
                for name, tree in trees.items():
                    seconds[name].append(run(tree, corpus, method, base / f"{name}.jsonl", scratch, args.extra))
            same = filecmp.cmp(base / "before.jsonl", base / "after.jsonl", shallow=False)
            differ |= not same
            before, after = statistics.median(seconds["before"]), statistics.median(seconds["after"])
            shown = (f"{before / 1e9:.3f} | {after / 1e9:.3f} | {after / before:.4f}" if args.instructions
                     else f"{before:.2f} | {after:.2f} | {after / before:.2f}")
            print(f"| {method} | {shown} | {'identical' if same else 'DIFFER'} |", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
