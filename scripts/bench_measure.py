"""How ``scripts/bench.py`` measures one process: wall time, the CPU of the
processes it reaps, and the peak memory of its process tree (RSS sampled
every 50 ms, PSS every :data:`PSS_EVERY` seconds, or every
:data:`MEMORY_PSS_EVERY` seconds in a run measured for its memory alone)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["MEMORY_PSS_EVERY", "PSS_EVERY", "Run", "measure", "process_memory", "tree_pids"]


#: Seconds between two readings of the tree's PSS. Reading smaps_rollup walks
#: the page tables of every process of the tree under its memory map's lock:
#: 23 ms a reading on the Chinese corpus's detect (1.8 s of CPU in a 9.6 s
#: run, which it also slowed by holding its lock), against nothing for the
#: RSS in /proc/PID/status. RSS is read every 50 ms, PSS every half second.
PSS_EVERY = 0.5

#: The same in a run measured for its memory alone (``measure(...,
#: pss_every=MEMORY_PSS_EVERY)``, its time not reported). Half a second
#: misses a short run's peak: ``detect`` on the eighth of the Chinese
#: corpus peaked at 259-269 MB sampled every 0.5 s and at 282-288 MB every
#: 0.1 s (4 runs each), its whole run (8x) at 416-419 against 422-423 MB (2
#: runs each; docs/benchmark.md, session 43). The 1x run's peak missed, the memory per
#: added sentence (8x less 1x) came out too high.
MEMORY_PSS_EVERY = 0.1


def tree_pids(pid: int) -> list[int]:
    """A process and all its descendants alive now (those of a process
    that is gone are not looked for)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            children = []
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as handle:
                    children += [int(c) for c in handle.read().split()]
        except (OSError, ValueError):
            continue
        found.append(p)
        todo += children
    return found


def process_memory(pid: int, pss: bool = True) -> tuple[int, int]:
    """A process's resident bytes (RSS) and proportional set size (PSS; 0
    when ``pss`` is false), (0, 0) once gone."""
    rss = shared = 0
    try:
        with open(f"/proc/{pid}/status") as handle:
            rss = next((int(line.split()[1]) * 1024 for line in handle if line.startswith("VmRSS:")), 0)
        if pss:
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                shared = next((int(line.split()[1]) * 1024 for line in handle if line.startswith("Pss:")), 0)
    except (OSError, ValueError):
        return 0, 0
    return rss, shared


def _tree_memory(pid: int, pss: bool = True) -> tuple[int, int]:
    """Resident bytes (RSS) and proportional set size (PSS; 0 when ``pss`` is
    false) of a process and all its descendants, (0, 0) once gone. RSS
    counts a page shared by a parent and its forked workers once in each;
    PSS splits it between them, so the tree's PSS is the memory it holds."""
    sizes = [process_memory(p, pss) for p in tree_pids(pid)]
    return sum(rss for rss, _ in sizes), sum(shared for _, shared in sizes)


@dataclass
class Run:
    """One measured process."""

    seconds: float               # wall time, start to exit
    peak_rss: int                # bytes
    peak_pss: int = 0            # bytes: the process tree's proportional set size
    inner: dict = field(default_factory=dict)   # what the process reported (in-process seconds, counts)
    ok: bool = True
    note: str = ""
    cpu_seconds: float = 0.0     # user + system CPU of the process and every process it waited for


def measure(
    cmd: list[str], result: Path | None = None, stdout: Path | None = None, memory: bool = True,
    pss_every: float = PSS_EVERY,
) -> Run:
    """Run a command (its output to ``stdout`` or nowhere); its wall time and
    the peak RSS of its process tree; ``result``: the JSON it writes.

    The command runs under ``/usr/bin/time`` where there is one: the kernel's
    peak of a process forked from this one counts this process's pages, while
    ``time`` is small.

    ``memory=False``: the tree's memory is not sampled (peaks of 0, but
    ``time``'s). Sampling it takes CPU: on two cores, from a run that keeps
    both busy, not from one that leaves a core idle (a 3 % longer ``detect``
    on the Chinese corpus, docs/benchmark.md, session 41). ``pss_every``:
    seconds between two readings of the PSS.
    """
    peak_file = Path(tempfile.mkstemp(prefix="rss-")[1])
    wrapper = ["/usr/bin/time", "-f", "%M", "-o", str(peak_file)] if os.access("/usr/bin/time", os.X_OK) else []
    start = time.perf_counter()
    # The CPU of the processes this one reaps (the command, and through it
    # every helper it joins): time spent waiting for a core left out. (On
    # this machine's slow stretches the processor itself slowed, and CPU
    # time moved with the wall time: docs/benchmark.md, session 37.)
    used = _children_cpu()
    with open(stdout or os.devnull, "wb") as sink:
        proc = subprocess.Popen(wrapper + cmd, stdout=sink, stderr=subprocess.PIPE)
        peak, done = [0, 0], threading.Event()

        def poll() -> None:
            last_pss = 0.0
            while not done.is_set():
                now = time.perf_counter()
                with_pss = now - last_pss >= pss_every
                rss, pss = _tree_memory(proc.pid, pss=with_pss)
                last_pss = now if with_pss else last_pss
                peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
                done.wait(0.05)

        poller = threading.Thread(target=poll, daemon=True)
        if memory:
            poller.start()
        err = proc.stderr.read().decode("utf-8", "replace").strip() if proc.stderr else ""
        proc.wait()
        seconds = time.perf_counter() - start
        done.set()
        if memory:
            poller.join()
    largest = peak_file.read_text().strip().splitlines()[-1:] if wrapper else []
    peak_file.unlink()
    inner = json.loads(result.read_text()) if result and result.exists() else {}
    run = Run(seconds, max([peak[0]] + [int(v) * 1024 for v in largest if v.isdigit()]), peak[1], inner,
              cpu_seconds=_children_cpu() - used)
    if proc.returncode != 0:
        lines = [ln for ln in err.splitlines() if not ln.startswith("Command exited with")]
        run.ok, run.note = False, (lines[-1] if lines else f"exit {proc.returncode}")
    return run


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
