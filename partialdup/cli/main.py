"""The ``partialdup`` command line.

Exit codes (as ``diff`` and ``grep`` have them: 1 for "found", 2 for trouble):

* 0: the run completed; copies were found or not (skipped inputs are listed
  on stderr); also when the reader of the output stops early (``| head``);
* 1: copies were found and ``--fail-on-match`` was given (for CI);
* 2: a user error: bad arguments, a missing path, an output that cannot be
  written (checked before any work; a full disk while writing), a malformed
  IDF or pairs file, or anything skipped or renamed under ``--strict``;
* 3: an internal error (a bug: the traceback is printed, please report it);
* 130: interrupted (Ctrl-C); 143: terminated (SIGTERM).

Whatever the code, an output file given with ``-o`` holds either its old
content or the whole new output (see :mod:`partialdup.io.output`).

Standard output gets JSONL when it is not a terminal (a pipe, a file: byte
for byte what ``-o`` writes), with ``-o FILE`` (the file) and with
``--json``; on a terminal it gets a readable summary, one line per document
pair (:mod:`partialdup.io.summary`).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import signal
import sys
import traceback
from pathlib import Path
from typing import Callable, Iterator, Sequence

from typing import TYPE_CHECKING

from partialdup import __version__
from partialdup.cli.dedup import add_dedup_command
from partialdup.cli.options import add_config_options, config_from_args, sweeps_from_args
from partialdup.cli.jobs import add_job_commands
from partialdup.cli.store import add_store_commands
from partialdup.cli.report import add_report_command, add_report_option
from partialdup.cli.results import EXIT_INTERNAL, EXIT_OK, EXIT_USER
from partialdup.cli.results import emit_detection as _emit
from partialdup.cli.results import is_terminal as _is_terminal
from partialdup.cli.results import say as _say
from partialdup.cli.results import silence_stdout as _silence_stdout
from partialdup.core.collector import collector_paused
from partialdup.core.config import Config
from partialdup.core.errors import InputError, PartialdupError
from partialdup.io.encoding import check_encoding
from partialdup.io.jsonl import printable
from partialdup.io.output import OutputError, atomic_path, check_folder, check_output
from partialdup.io.progress import Progress
from partialdup.io.reader import STDIN, ReadResult, read_documents
from partialdup.methods import method_names

if TYPE_CHECKING:
    from partialdup.core.types import Document
    from partialdup.pipeline.detector import Detector

# The pipeline, the evaluation and the tokenizer (jieba, NLTK, SciPy) are
# imported inside the commands that need them, so that `--help` and a bad
# option answer at once.

__all__ = ["main"]

EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143


class _Terminated(BaseException):
    """SIGTERM, raised where the program is, so that temporary files go."""


def run() -> None:
    """The ``partialdup`` command: :func:`main`, then exit at once (see there).

    The cyclic garbage collector is off for the whole process: it runs one
    command and ends as soon as the output is written, and what a command
    makes (the dictionaries, the documents, their features and spans,
    millions of objects) holds no reference cycle (the tests check that a
    run leaves nothing to collect; every command, ``index add`` and the jobs
    included, leaves the same 1,700 or so objects of the argument parser for
    10 documents as for 40), so reference counting frees all that needs
    freeing and the collector would only walk them: 4 % of a
    ``detect --jobs 1`` of the Chinese bench corpus, as reading and loading
    run outside the pauses of :func:`~partialdup.core.collector.collector_paused`.
    """
    gc.disable()
    sys.exit(main(exit_at_once=True))


def main(argv: Sequence[str] | None = None, *, exit_at_once: bool = False) -> int:
    """Run the command line; returns the exit code (see the module notes).

    ``exit_at_once``: once a command has run and its output is written,
    end the process there, without freeing its objects one by one (the
    features and spans of a run, millions of them: 0.5 s of a 10 s
    ``detect`` of 9,161 documents, half of it on leaving the command, half
    in the interpreter's teardown). The command line's own entry point asks
    for it; a caller of :func:`main` in process gets the exit code back.
    """
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        with _terminate_cleanly():
            code = int(args.run(args) or EXIT_OK)
            _flush_stdout()  # inside the try: a closed pipe is reported here
            if exit_at_once:
                _exit_now(code)
        return code
    except PartialdupError as error:
        print(f"partialdup: error: {printable(str(error))}", file=sys.stderr)
        return EXIT_USER
    except KeyboardInterrupt:
        print("partialdup: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except _Terminated:
        print("partialdup: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except BrokenPipeError:
        # The reader of our output went away (`partialdup detect ... | head`):
        # not an error; silence the flush at exit that would fail again.
        _silence_stdout()
        return EXIT_OK
    except Exception:  # a bug: the traceback is what a report needs
        traceback.print_exc()
        print("partialdup: internal error (a bug: please report it with the lines above)", file=sys.stderr)
        return EXIT_INTERNAL


def _exit_now(code: int) -> None:
    # Every output file is written (atomically) and standard output flushed;
    # no process of ours is left (pools and helpers are joined as they end).
    sys.stderr.flush()
    os._exit(code)


@contextlib.contextmanager
def _terminate_cleanly() -> Iterator[None]:
    # SIGTERM (`timeout`, a CI job cancelled) would end the process at once,
    # leaving a temporary output file; raised as an exception, it unwinds.
    def terminated(signum: int, frame: object) -> None:
        raise _Terminated()

    try:
        previous = signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        _silence_stdout()
        raise OutputError(f"standard output: cannot write ({error.strerror})") from None


_EXIT_CODES = """exit codes:
  0    the run completed, copies found or not
  1    copies found, with --fail-on-match
  2    a user error (bad arguments, input or output); one line on stderr
  3    an internal error (a bug: please report it)
  130  interrupted; 143 terminated"""

_INPUTS = """PATH is a .txt file, a .jsonl file of {"id": ..., "text": ...} records, a folder
(searched for both, or for the files --glob matches) or - for standard input (id <stdin>).
Reading no document at all is an error (exit 2). The encoding of each file is detected:
UTF-8, UTF-16/32, GB18030 (GBK), Big5 and others; --encoding overrides."""

_BOILERPLATE = """Boilerplate (template text: a licence paragraph, a man-page footer) is set apart,
not reported as a copy: a passage whose copies are mostly each found in --boilerplate
(3) or more other documents (in check: reference documents; other queries never
count). It is decided per passage over the whole collection, so a passage is reported
the same way for every pair of documents that share it, and one more document can only
move a passage from the copies to the boilerplate, never drop it unsaid: --show-boilerplate
names each sentence set apart; --boilerplate 0 reports everything as copies."""


def _command(commands: argparse._SubParsersAction, name: str, help: str, about: str, examples: str) -> argparse.ArgumentParser:
    """A subcommand with a description and examples in its ``--help``."""
    return commands.add_parser(
        name, help=help, description=about, epilog=f"examples:\n{examples}\n\n{_EXIT_CODES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="partialdup", description="Find passages copied between documents.",
        epilog=f"'partialdup COMMAND --help' describes a command, with examples.\n\n{_EXIT_CODES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    detect = _command(
        commands, "detect", "every copied passage among the given documents",
        f"Every passage copied between any two of the documents, with exact character offsets.\n\n{_INPUTS}\n\n{_BOILERPLATE}",
        "  partialdup detect samples/                      # a summary on the terminal\n"
        "  partialdup detect samples/ -o matches.jsonl     # JSONL: every span with its offsets\n"
        "  partialdup detect a.txt b.txt --fail-on-match   # exit 1 when a copy is found (CI)\n"
        "  cat essay.txt | partialdup detect - sources/ --json",
    )
    detect.add_argument("paths", nargs="+", metavar="PATH", help=".txt/.jsonl files, folders, or - for standard input")
    _add_detector_options(detect)
    _add_input_options(detect)
    _add_result_options(detect)
    detect.set_defaults(run=_run_detect)

    check = _command(
        commands, "check", "passages of the queries copied from a reference set",
        f"The passages of each query copied from the reference documents (A = query, B = reference).\n\n{_INPUTS}\n\n{_BOILERPLATE}",
        "  partialdup check essay.txt --against sources/\n"
        "  partialdup check essays/ --against sources/ -o found.jsonl\n"
        "  partialdup check - --against sources/ --fail-on-match < essay.txt",
    )
    check.add_argument("queries", nargs="+", metavar="QUERY", help=".txt/.jsonl files, folders, or - for standard input")
    references = check.add_mutually_exclusive_group(required=True)
    references.add_argument("--against", nargs="+", metavar="PATH", help="reference documents")
    references.add_argument("--db", type=Path, metavar="FILE", help="a store made by `partialdup index add` (instead of --against)")
    _add_detector_options(check)
    _add_input_options(check)
    _add_result_options(check)
    check.set_defaults(run=_run_check)
    add_store_commands(commands, check, emit=_emit, read=_read, before_work=_check_before_work, input_options=_add_input_options)

    pan = _command(
        commands, "pan", "PAN text-alignment interface (PAN 2012-2015)",
        "Reads the lines 'SUSP SRC' of PAIRS and writes OUT_DIR/<susp-stem>-<src-stem>.xml\n"
        "for each, with one <feature name=\"detected-plagiarism\" .../> per copied passage.",
        "  partialdup pan goldenset/pairs goldenset/src goldenset/susp out/",
    )
    pan.add_argument("pairs", type=Path, help='file of lines "SUSP SRC"')
    pan.add_argument("src_dir", type=Path)
    pan.add_argument("susp_dir", type=Path)
    pan.add_argument("out_dir", type=Path)
    _add_detector_options(pan, output=False)
    pan.set_defaults(run=_run_pan)

    evaluate = _command(
        commands, "eval", "accuracy, space and time of methods on a gold set",
        "Scores every method and every combination of the values given (sentence-pair\n"
        "precision, recall, F1, PAN plagdet, index size, time) on a gold set.",
        "  partialdup eval goldenset --methods low-idf-sig 3-shingle --threshold 0.5 0.6 0.7\n"
        "  partialdup eval goldenset/slice --json",
    )
    evaluate.add_argument("goldset", type=Path, help="gold set folder (PAN layout + sentence_pairs.jsonl)")
    evaluate.add_argument("--methods", nargs="+", choices=method_names(), default=list(method_names()), help="methods to run (default: all)")
    evaluate.add_argument("--idf", action="append", type=Path, help="IDF table TSV (repeatable; default: bundled)")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object per row")
    add_config_options(evaluate, sweep=True)
    evaluate.set_defaults(run=_run_eval)

    idf = _command(
        commands, "idf", "IDF tables", "IDF tables: 'partialdup idf build --help'.",
        "  partialdup idf build corpus/ -o my.tsv && partialdup detect docs/ --idf my.tsv",
    )
    idf_commands = idf.add_subparsers(dest="idf_command", required=True, metavar="ACTION")
    build = _command(
        idf_commands, "build", "build an IDF table from your own documents",
        f"An IDF table (TSV) from your own documents, one document each.\n\n{_INPUTS}",
        "  partialdup idf build corpus/ -o my.tsv --min-df 3",
    )
    build.add_argument("paths", nargs="+", metavar="PATH", help=".txt/.jsonl files or folders; one document each")
    build.add_argument("-o", "--output", required=True, type=Path, help="TSV file to write")
    build.add_argument("--min-df", type=int, default=2, help="drop tokens in fewer documents (default 2)")
    build.add_argument("--strict", action="store_true", help="fail on the first unreadable input")
    _add_input_options(build)
    build.set_defaults(run=_run_idf_build)
    add_dedup_command(commands)
    add_report_command(commands)
    add_job_commands(commands, _add_detector_options, _add_input_options)
    return parser


def _add_detector_options(parser: argparse.ArgumentParser, *, output: bool = True) -> None:
    if output:
        parser.add_argument("-o", "--output", type=Path, help="write JSONL here (default: stdout)")
        add_report_option(parser)
    parser.add_argument(
        "--method", choices=method_names(), default=Config().method,
        help=f"fingerprint method (default {Config().method}); simhash, simhash-cosine and minhash search by permuted "
        "tables or LSH bands, which cannot look below tau: --near-ratio, --embedded-ratio and --edited-ratio are off for them "
        "(docs/methods.md)",
    )
    parser.add_argument("--idf", action="append", type=Path, help="IDF table TSV (repeatable; default: bundled zh + en)")
    parser.add_argument("--strict", action="store_true", help="fail on the first unreadable file or line instead of skipping it")
    add_config_options(parser)


def _add_input_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--encoding", metavar="NAME", help="read every file in this encoding (default: detected per file)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars and no run summary on stderr (problems are still reported)")
    parser.add_argument("-v", "--verbose", action="store_true", help="also report each file read and its encoding, and each file ignored")
    parser.add_argument(
        "--glob", action="append", metavar="PATTERN",
        help="in folders, read the files matching PATTERN (repeatable; on the path relative to the folder, * also "
        "crosses /, or on the file name; default: *.txt and *.jsonl), e.g. --glob '*' or --glob '*.md'",
    )


def _add_result_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="JSONL on standard output even on a terminal (default there: a summary)")
    parser.add_argument("--fail-on-match", action="store_true", help="exit with 1 when a copied passage is found (for CI)")
    parser.add_argument(
        "--show-boilerplate", action="store_true",
        help="name every sentence set apart as boilerplate (document, offsets, documents holding it, excerpt): on "
        "stderr under the terminal summary, or as JSONL records {\"kind\": \"boilerplate\", ...} after the spans",
    )


def _check_before_work(args: argparse.Namespace) -> None:
    """Outputs and the encoding are checked before any work (one line, exit 2)."""
    for output in (getattr(args, "output", None), getattr(args, "report", None)):
        if output is not None and str(output) != STDIN:
            check_output(output)
    if getattr(args, "encoding", None):
        args.encoding = check_encoding(args.encoding)


def _detector(args: argparse.Namespace) -> Detector:
    config = config_from_args(args, args.method)  # ConfigError names the option (exit 2), before any work
    _check_before_work(args)
    from partialdup.pipeline.factory import make_detector
    from partialdup.text.resources import load_idf

    return make_detector(args.method, load_idf(args.idf), config)


def _read(
    paths: Sequence[str], strict: bool, args: argparse.Namespace | None = None,
    first: tuple[int, Callable[[Sequence[Document]], object]] | None = None,
) -> ReadResult:
    """Read the documents and report what was skipped or renamed (one line each).

    Args:
        paths: As given on the command line (``-`` is standard input).
        strict: Fail on the first problem.
        args: The command's arguments, for ``--encoding`` and ``--verbose``.
        first: The engine's first piece (``read_documents``' ``first``).
    """
    if STDIN in paths and _is_terminal(sys.stdin):
        _say("reading standard input (end it with Ctrl-D)")
    globs = getattr(args, "glob", None) or ()
    result = read_documents(paths, strict=strict, encoding=getattr(args, "encoding", None), globs=globs, first=first)
    for message in result.skipped:
        _say(f"skipped: {message}")
    for message in result.renamed:
        _say(f"renamed: {message}")
    kind = "matched by no --glob" if globs else "neither .txt nor .jsonl"
    if getattr(args, "verbose", False):
        for name, encoding in result.encodings:
            _say(f"read {name} ({encoding})")
        for name in result.ignored:
            _say(f"ignored {name} ({kind})")
    if not result.documents:  # one line, which says why
        raise InputError(f"no documents read from {', '.join(printable(str(p)) for p in paths)}{_why_none(result, globs)}")
    if result.ignored_files and not getattr(args, "verbose", False) and not getattr(args, "quiet", False):
        _say(f"ignored {result.ignored_files} file(s) {kind} (-v names them; --glob chooses files)")
    return result


def _why_none(result: ReadResult, globs: Sequence[str]) -> str:
    """Why a run read no document, for its one-line error."""
    if result.ignored_files:
        hint = "; choose other files with --glob" if globs else ": try --glob '*'"
        kind = "matched by no --glob" if globs else "neither .txt nor .jsonl"
        return f" ({result.ignored_files} file(s) {kind}{hint})"
    if result.skipped:
        return f" ({len(result.skipped)} input(s) skipped, listed above)"
    return " (no files found)"


def _run_detect(args: argparse.Namespace) -> int:
    detector = _detector(args)
    from partialdup.engine import open_engine

    # --engine, --jobs: the same output whichever; a cluster that cannot be
    # reached is reported before any input is read.
    with open_engine(detector.config) as engine:
        engine.expect(detector, apart=True)  # its helpers, forked now, share the dictionaries,
        # and one of them makes the first documents' features while the rest are read.
        read = _read(args.paths, args.strict, args, first=engine.first_read(detector, apart=True))
        progress = Progress.on_terminal(args.quiet)
        # What the run makes is freed by the process's exit (see main), not
        # on the way out of each function.
        retained: list[object] = []
        with collector_paused():  # millions of objects, no cycle (core/collector.py)
            documents = list(progress.each(detector.features_of(read.documents, engine=engine, for_detect=True), "reading documents"))
            with progress.stage("matching"):
                detection = detector.detect(documents, engine=engine, retain=retained)
    args.held = (detector, read, documents, detection, retained)
    return _emit(detection, args, [read], detector.config)


def _run_check(args: argparse.Namespace) -> int:
    detector = _detector(args)
    from partialdup.engine import open_engine

    with open_engine(detector.config) as engine:  # --engine, --jobs: the same output whichever
        engine.expect(detector)
        queries = _read(args.queries, args.strict, args)
        references = _read(args.against, args.strict, args)
        progress = Progress.on_terminal(args.quiet)
        # One pass over both sets: one set of workers.
        both = [*queries.documents, *references.documents]
        retained: list[object] = []  # freed by the process's exit, as in detect
        with collector_paused():  # millions of objects, no cycle (core/collector.py)
            features = list(progress.each(detector.features_of(both, engine=engine), "reading documents"))
            query_features, reference_features = features[: len(queries.documents)], features[len(queries.documents) :]
            with progress.stage("matching"):
                detection = detector.check(query_features, reference_features, engine=engine, retain=retained)
    args.held = (detector, queries, references, features, detection, retained)
    return _emit(detection, args, [queries, references], detector.config)


def _run_pan(args: argparse.Namespace) -> int:
    from partialdup.eval.pan import run_pan

    check_folder(args.out_dir)  # before any work, like -o
    run = run_pan(_detector(args), args.pairs, args.src_dir, args.susp_dir, args.out_dir)
    print(f"partialdup: {run.pairs} pairs, {run.detections} detections written to {args.out_dir}", file=sys.stderr)
    return EXIT_OK


def _run_eval(args: argparse.Namespace) -> int:
    from partialdup.eval.goldset import evaluate_settings, load_goldset, settings_grid
    from partialdup.text.resources import load_idf

    base, sweeps = sweeps_from_args(args)  # bad options fail before any work
    settings = settings_grid(args.methods, sweeps, base)
    gold = load_goldset(args.goldset)
    tokenized, rows = evaluate_settings(gold, settings, load_idf(args.idf))
    print(f"partialdup: {len(gold.pairs)} pairs, {len(gold.cases)} cases, {len(gold.sentence_pairs)} gold sentence pairs; "
          f"sentences and tokens in {tokenized.seconds:.2f}s", file=sys.stderr)
    if not args.json:
        print(f"{'method':14} {'params':8} {'tau':>5} {'P':>6} {'R':>6} {'F1':>6} {'plagdet':>7} {'gran':>5} "
              f"{'features':>9} {'bytes':>10} {'index s':>8} {'compare s':>9} {'search s':>8}")
    for row in rows:
        if args.json:
            print(json.dumps(row.as_json(), ensure_ascii=False), flush=True)
        else:
            print(f"{row.method:14} {row.params:8} {row.threshold:5.2f} {row.precision:6.3f} {row.recall:6.3f} "
                  f"{row.f1:6.3f} {row.plagdet:7.3f} {row.granularity:5.2f} {row.features:9d} "
                  f"{row.index_bytes:10d} {row.index_seconds:8.3f} {row.compare_seconds:9.3f} {row.search_seconds:8.3f}", flush=True)
    return EXIT_OK


def _run_idf_build(args: argparse.Namespace) -> int:
    _check_before_work(args)
    read = _read(args.paths, args.strict, args)
    if not read.documents:
        raise InputError("no documents to build an IDF table from")
    from partialdup.text.idf import build_idf
    from partialdup.text.tokens import Tokenizer

    tokenizer = Tokenizer()
    progress = Progress.on_terminal(args.quiet)
    table = build_idf((tokenizer.words(d.text) for d in progress.each(read.documents, "reading documents")), min_df=args.min_df)
    sources = ", ".join(printable(path) for path in args.paths)
    with atomic_path(args.output) as temporary:
        table.save(temporary, header=f"built by partialdup idf build from {len(read.documents)} documents: {sources}")
    print(f"partialdup: {len(table.values)} tokens from {len(read.documents)} documents written to {args.output}", file=sys.stderr)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
