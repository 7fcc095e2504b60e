"""When each process of one ``detect`` run works, on what, and what a core waits.

Wall time alone hides where a run leaves a core idle: ``detect`` runs its
stages in the calling process and sends work to helper processes (the
features, the side searches, the near misses' verdicts, the pair tails), and
on a machine of two cores the run ends no sooner than its calling process.
This runs ``partialdup detect`` in this process with the stages and the
helpers' works wrapped, each logging its start and end (wall clock) and its
process's CPU seconds and minor page faults meanwhile, and prints, per
process, each stage's first start, last end, wall and CPU seconds and faults;
then the run's CPU seconds, the core-seconds left idle (cores x wall - CPU;
the CPU of every process reaped by the end, which ``/usr/bin/time`` agrees
with) and its minor page faults. A fault costs a few microseconds (a page
touched for the first time, or copied after a fork: about 2.5 us each on the
machine of docs/benchmark.md's session 58), and a helper forked late makes
both processes copy each page either writes: the faults tell the parallel
run's extra CPU from the work's own. With ``--pss`` it runs itself
again as a child and samples the proportional set size of every process of
the run as ``scripts/bench.py`` does (every ``PSS_EVERY`` seconds: a reading
slows the run): the peak, its moment and each process's share.

Run from the repository root (the wrapped names are the package's own: a
rename fails here loudly)::

    python scripts/bench_timeline.py ~/.cache/partialdup/bench-corpus/zh
    python scripts/bench_timeline.py ~/.cache/partialdup/bench-corpus/en --pss
    python scripts/bench_timeline.py CORPUS -- --jobs 1 --method 3-shingle

The wrappers cost little (one line written per piece of work), but they are
there: compare runs of this script with each other, not with bench.py's.
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
STARTED = time.time()  # the times printed count from here (the imports included)


class _Log:
    """One line per wrapped call, appended by whichever process makes it."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND)
        self.start = STARTED

    def write(self, name: str, began: float, cpu: float, faults: int) -> None:
        line = f"{os.getpid()}\t{name}\t{began - self.start:.3f}\t{time.time() - self.start:.3f}\t{cpu:.3f}\t{faults}\n"
        os.write(self.fd, line.encode())


def _faults() -> int:
    """This process's minor page faults so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _timed(log: _Log, function: Callable[..., Any], name: str, listed: bool = False) -> Callable[..., Any]:
    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        began, cpu, faults = time.time(), time.process_time(), _faults()
        try:
            result = function(*args, **kwargs)
            return list(result) if listed else result
        finally:
            log.write(name, began, time.process_time() - cpu, _faults() - faults)

    return timed


def _name(function: Any) -> str:
    inner = function.func if isinstance(function, functools.partial) else function
    return str(getattr(inner, "__qualname__", type(inner).__name__))


def _wrap(log: _Log) -> None:
    """Wraps the calling process's stages and every work a helper runs."""
    import partialdup.cli.main  # noqa: F401
    from partialdup.pipeline import beside as beside_module
    from partialdup.pipeline import detector, headlines, lookups, parallel, shared_work, tail

    work_sent, serve, beside = shared_work._work_sent, shared_work._serve, beside_module._run_beside

    def sent(conn: Any, parent: int) -> Any:
        work = work_sent(conn, parent)
        if isinstance(work, list):  # HelperProcess: (function, arguments) each
            return [(_timed(log, function, _name(function)), arguments) for function, arguments in work]
        if isinstance(work, shared_work._FirstPiece):  # LaterPieces's first piece, sent alone
            return work._replace(there=_timed(log, work.there, _name(work.there)))
        return work  # LaterPieces's (count, there, data): its pieces are timed by _serve

    shared_work._work_sent = sent
    shared_work._serve = lambda counter, results, there, count: serve(counter, results, _timed(log, there, _name(there)), count)
    beside_module._run_beside = lambda work, writer: beside(_timed(log, work, _name(work)), writer)
    stages = [
        (parallel.LocalEngine, "features", True), (detector.Detector, "_detect_lookups", False),
        (detector.Detector, "build_index", False), (lookups.LookupStage, "_side_searches", False),
        (lookups.LookupStage, "_self_lookups", False), (headlines.HeadlineStage, "_headline_hits", False),
        (detector.Detector, "_spans", False), (tail.SpanStage, "_add_edited", False),
        (tail.SpanStage, "_detection", False), (parallel.LocalEngine, "pair_spans", False),
    ]
    for owner, name, listed in stages:
        setattr(owner, name, _timed(log, getattr(owner, name), f"calling: {name}", listed))
    command = sys.modules["partialdup.cli.main"]  # the module (the package binds the name to its function)
    command._read = _timed(log, command._read, "calling: _read")  # type: ignore[attr-defined]


def _report(path: str) -> None:
    with open(path, encoding="utf-8") as lines:
        rows = [line.rstrip("\n").split("\t") for line in lines]
    spans: dict[tuple[str, str], list[float]] = {}
    for pid, name, began, ended, cpu, faults in rows:
        row = spans.setdefault((pid, name), [float(began), float(ended), 0.0, 0.0, 0, 0])
        row[0], row[1] = min(row[0], float(began)), max(row[1], float(ended))
        row[2] += float(ended) - float(began)
        row[3] += float(cpu)
        row[4] += int(faults)
        row[5] += 1
    print(f"{'process':>8} {'work':44} {'from':>6} {'to':>6} {'wall':>6} {'CPU':>6} {'faults':>7} calls")
    for (pid, name), (first, last, wall, seconds, count, calls) in sorted(spans.items(), key=lambda item: (item[1][0], item[0])):
        print(f"{pid:>8} {name[:44]:44} {first:6.2f} {last:6.2f} {wall:6.2f} {seconds:6.2f} {int(count):7d} {int(calls)}")


def _sampled(argv: list[str]) -> None:
    """Runs this script as a child (without ``--pss``), sampling its processes' PSS."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_measure import PSS_EVERY, process_memory, tree_pids  # the sampling of scripts/bench.py

    child = subprocess.Popen([sys.executable, __file__, *argv])
    began, samples = time.time(), []
    while child.poll() is None:
        shares = {pid: process_memory(pid)[1] // 2**20 for pid in tree_pids(child.pid)}
        samples.append((time.time() - began, sum(shares.values()), shares))
        time.sleep(PSS_EVERY)
    if samples:
        moment, total, shares = max(samples, key=lambda sample: sample[1])
        split = ", ".join(f"{pid}: {mb}" for pid, mb in sorted(shares.items(), key=lambda item: -item[1]) if mb)
        print(f"peak PSS {total} MB at {moment:.2f} s after start (MB by process: {split})")
    sys.exit(child.returncode)


def main() -> None:
    argv = sys.argv[1:]
    options = argv[argv.index("--") + 1 :] if "--" in argv else []  # after --: passed to detect
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="what detect reads")
    parser.add_argument("--pss", action="store_true", help="also sample every process's PSS (Linux)")
    args = parser.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    if args.pss:
        _sampled([arg for arg in argv if arg != "--pss"])
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as scratch:
        log = _Log(os.path.join(scratch, "timeline.tsv"))
        _wrap(log)
        from partialdup.cli.main import main as detect

        status = detect(["detect", "-q", *args.paths, "-o", os.path.join(scratch, "out.jsonl"), *options])
        wall, used = time.time() - STARTED, sum(os.times()[:4])  # this process and its helpers, reaped
        faults = _faults() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
        _report(os.path.join(scratch, "timeline.tsv"))
        cores = os.cpu_count() or 1
        print(f"run: {wall:.2f} s, CPU {used:.2f} s (every process), {cores} cores: {cores * wall - used:.2f} core-seconds idle; "
              f"{faults} minor page faults (every process); exit {status}")


if __name__ == "__main__":
    main()
