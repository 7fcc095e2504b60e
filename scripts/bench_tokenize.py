"""Tokenization cost and start-up time, measured in one run (not a test).

Over the gold set's documents (``goldenset/src`` + ``goldenset/susp``), and
over its Chinese documents alone, it times after every model is loaded:

  * plain ``jieba.lcut`` over every line of the text: the reference cost;
  * plain ``rjieba.cut`` over the same lines;
  * partialdup's ``Tokenizer.words`` over every sentence, with each segmenter
    (``jieba``, ``rjieba``, as they are set: rjieba one call per sentence,
    jieba one per block), its remembered segmentations forgotten first;
  * the same with the segmenter called once per Han run (how jieba was
    called before the runs of a sentence went to it in one call);

and prints seconds (wall clock, and CPU: the machine may be shared),
characters/s, the ratios to plain ``jieba.lcut`` and the number of segmenter
calls. It then compares the two segmenters' words on
every sentence (the count that differ, and the first few), and measures
start-up: ``partialdup --help``, and the time from process start to the first
document tokenized by ``partialdup detect`` with each segmenter.

    python scripts/bench_tokenize.py goldenset/src goldenset/susp --startup samples
    python scripts/bench_tokenize.py --startup samples      # start-up only
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from typing import Callable, Sequence

from partialdup.core.chars import is_han
from partialdup.io.reader import read_documents
from partialdup.text.sentences import SentenceSplitter
from partialdup.text.tokens import Tokenizer

# Run in a child process: notes when the first document is tokenized,
# relative to the parent's clock just before it started the child (so the
# interpreter's own start-up counts).
_PROBE = """
import os, resource, sys, time
start = float(os.environ["BENCH_T0"])
import partialdup.text.tokens as tokens
words = tokens.Tokenizer.words
def first(self, *args, **kwargs):
    if not getattr(first, "seen", False):
        first.seen = True
        used = resource.getrusage(resource.RUSAGE_SELF)
        print(f"FIRST {time.time() - start:.3f} {used.ru_utime + used.ru_stime:.3f}", file=sys.stderr, flush=True)
    return words(self, *args, **kwargs)
tokens.Tokenizer.words = first
from partialdup.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def is_chinese(text: str) -> bool:
    """Whether most letters of a text are Han (a Chinese document)."""
    letters = [char for char in text if char.isalpha()]
    return bool(letters) and sum(map(is_han, letters)) > len(letters) / 2


def best_time(step: Callable[[], object], repeat: int, setup: Callable[[], object] = lambda: None) -> float:
    return best_times(step, repeat, setup)[0]


def best_times(step: Callable[[], object], repeat: int, setup: Callable[[], object] = lambda: None) -> tuple[float, float]:
    """The best wall-clock and the best CPU seconds of ``repeat`` runs."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        setup()  # untimed
        start, start_cpu = time.perf_counter(), time.process_time()
        step()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


class Counted:
    """Wraps a segmenter's one backend call, counting the calls."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.calls = 0
        segmenter = tokenizer._segmenter
        cut = segmenter._cut

        def counted(text: str) -> list[str]:
            self.calls += 1
            return cut(text)

        segmenter._cut = counted  # type: ignore[method-assign]


def per_run(tokenizer: Tokenizer) -> Tokenizer:
    """The tokenizer made to call its segmenter once per Han run (the reference path)."""
    tokenizer._segmenter.segment = tokenizer._segmenter.segment_each  # type: ignore[method-assign]
    return tokenizer


def bench(label: str, texts: Sequence[str], splitter: SentenceSplitter, tokenizers: dict[str, Tokenizer], repeat: int) -> None:
    import jieba
    import rjieba

    lines = [line for text in texts for line in text.splitlines()]
    stretches = [(text, s.start, s.end) for text in texts for s in splitter.split(text)]
    chars = sum(len(text) for text in texts)
    plain_jieba = jieba.Tokenizer()
    plain_jieba.initialize()
    plain_rjieba = rjieba.Jieba()
    print(f"\n{label}: {len(texts)} documents, {chars} characters, {len(lines)} lines, {len(stretches)} sentences, "
          f"best of {repeat}")
    print(f"{'step':58} {'wall s':>8} {'chars/s':>10} {'x jieba':>8} {'cpu s':>8} {'x jieba':>8} {'calls':>7}")
    rows: list[tuple[str, Callable[[], object], Tokenizer | None]] = [
        ("plain jieba.lcut per line", lambda: [plain_jieba.lcut(line) for line in lines], None),
        ("plain rjieba.cut per line", lambda: [plain_rjieba.cut(line) for line in lines], None),
    ]
    for name, tokenizer in tokenizers.items():
        rows.append((f"Tokenizer.words per sentence, {name}", lambda t=tokenizer: [t.words(*s) for s in stretches], tokenizer))
    reference: tuple[float, float] | None = None
    for name, step, tokenizer in rows:
        counter = Counted(tokenizer) if tokenizer is not None else None
        seconds, cpu = best_times(step, repeat, tokenizer.clear_cache if tokenizer is not None else lambda: None)
        reference = reference or (seconds, cpu)
        calls = f"{counter.calls // repeat:7d}" if counter is not None else ""
        print(f"{name:58} {seconds:8.3f} {chars / seconds:10.0f} {seconds / reference[0]:8.2f} "
              f"{cpu:8.3f} {cpu / reference[1]:8.2f} {calls}")
    compare(stretches, tokenizers["jieba"], tokenizers["rjieba"])


def compare(stretches: Sequence[tuple[str, int, int]], reference: Tokenizer, other: Tokenizer) -> None:
    """Counts the sentences whose words differ between two tokenizers, and shows a few."""
    differ = []
    for stretch in stretches:
        mine, theirs = reference.words(*stretch), other.words(*stretch)
        if mine != theirs:
            differ.append((stretch, mine, theirs))
    print(f"words differ between {reference.segmenter} and {other.segmenter} in {len(differ)} of {len(stretches)} sentences")
    for (text, start, end), mine, theirs in differ[:5]:
        print(f"  {text[start:end][:80]!r}\n    {reference.segmenter}: {mine[:20]}\n    {other.segmenter}: {theirs[:20]}")


def startup(folder: str, repeat: int) -> None:
    """``--help`` time, and process start to first document tokenized by ``detect``.

    Wall-clock seconds, and the CPU seconds the process had used by then
    (user + system, interpreter start included): on a busy machine the wall
    clock counts the other processes too, the CPU time does not.
    """
    print(f"\nstart-up (best of {repeat}; from process start, interpreter included)")
    print(f"{'event':52} {'wall s':>8} {'cpu s':>8}")
    command = [sys.executable, "-m", "partialdup"]
    help_time = best_time(lambda: subprocess.run([*command, "--help"], capture_output=True, check=True), repeat)
    help_cpu = min(_child_cpu(lambda: subprocess.run([*command, "--help"], capture_output=True, check=True))
                   for _ in range(repeat))
    print(f"{'partialdup --help':52} {help_time:8.3f} {help_cpu:8.3f}")
    detect_help = subprocess.run([*command, "detect", "--help"], capture_output=True, text=True).stdout
    one_job = ["--jobs", "1"] if "--jobs" in detect_help else []  # the main process's own start
    for segmenter in ("rjieba", "jieba"):
        seen = []
        for _ in range(repeat):
            env = {**os.environ, "BENCH_T0": f"{time.time():.6f}"}
            run = subprocess.run([sys.executable, "-c", _PROBE, "detect", *one_job, "--segmenter", segmenter, folder],
                                 capture_output=True, text=True, env=env)
            seen += [tuple(map(float, line.split()[1:3])) for line in run.stderr.splitlines() if line.startswith("FIRST ")]
        shown = f"{min(w for w, _ in seen):8.3f} {min(c for _, c in seen):8.3f}" if seen else "  failed"
        print(f"{f'first document tokenized, detect --segmenter {segmenter}':52} {shown}")


def _child_cpu(step: Callable[[], object]) -> float:
    """CPU seconds (user + system) of the child processes ``step`` ran."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    step()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="documents to tokenize (none: start-up only)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--startup", metavar="FOLDER", help="also time start-up of `partialdup detect FOLDER`")
    args = parser.parse_args()
    if args.paths:
        texts = [d.text for d in read_documents(args.paths).documents]
        splitter = SentenceSplitter()
        tokenizers = {
            "jieba": Tokenizer(segmenter="jieba"),
            "rjieba": Tokenizer(segmenter="rjieba"),
            "jieba, one call per Han run (before)": per_run(Tokenizer(segmenter="jieba")),
            "rjieba, one call per Han run": per_run(Tokenizer(segmenter="rjieba")),
        }
        bench("all documents", texts, splitter, tokenizers, args.repeat)
        bench("Chinese documents", [t for t in texts if is_chinese(t)], splitter, tokenizers, args.repeat)
    if args.startup:
        startup(args.startup, max(3, args.repeat))


if __name__ == "__main__":
    main()
