"""The ``partialdup`` command line.

Exit codes: 0 the run completed (whether or not copies were found; skipped
inputs are listed on stderr); 1 an internal error (a bug: please report it);
2 a user error (bad arguments, a missing path, a malformed file, or anything
skipped under ``--strict``); 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Sequence

from typing import TYPE_CHECKING

from partialdup.cli.options import add_config_options, config_from_args, sweeps_from_args
from partialdup.core.config import Config
from partialdup.core.errors import InputError, PartialdupError
from partialdup.io.jsonl import write_jsonl
from partialdup.io.reader import ReadResult, read_documents
from partialdup.methods import method_names

if TYPE_CHECKING:
    from partialdup.pipeline.detector import Detection, Detector

# The pipeline, the evaluation and the tokenizer (jieba, NLTK, SciPy) are
# imported inside the commands that need them, so that `--help` and a bad
# option answer at once.

__all__ = ["main"]

EXIT_OK, EXIT_INTERNAL, EXIT_USER, EXIT_INTERRUPTED = 0, 1, 2, 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        code = int(args.run(args) or EXIT_OK)
        sys.stdout.flush()  # inside the try: a closed pipe is reported here
        return code
    except PartialdupError as error:
        print(f"partialdup: error: {error}", file=sys.stderr)
        return EXIT_USER
    except KeyboardInterrupt:
        print("partialdup: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of our output went away (`partialdup detect ... | head`):
        # not an error; silence the flush at exit that would fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="partialdup", description="Find passages copied between documents.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    detect = commands.add_parser("detect", help="every copied passage among the given documents")
    detect.add_argument("paths", nargs="+", metavar="PATH", help=".txt/.jsonl files or folders")
    _add_detector_options(detect)
    detect.set_defaults(run=_run_detect)

    check = commands.add_parser("check", help="passages of the queries copied from a reference set")
    check.add_argument("queries", nargs="+", metavar="QUERY")
    check.add_argument("--against", nargs="+", required=True, metavar="PATH", help="reference documents")
    _add_detector_options(check)
    check.set_defaults(run=_run_check)

    pan = commands.add_parser("pan", help="PAN text-alignment interface (PAN 2012-2015)")
    pan.add_argument("pairs", type=Path, help='file of lines "SUSP SRC"')
    pan.add_argument("src_dir", type=Path)
    pan.add_argument("susp_dir", type=Path)
    pan.add_argument("out_dir", type=Path)
    _add_detector_options(pan, output=False)
    pan.set_defaults(run=_run_pan)

    evaluate = commands.add_parser("eval", help="accuracy, space and time of methods on a gold set")
    evaluate.add_argument("goldset", type=Path, help="gold set folder (PAN layout + sentence_pairs.jsonl)")
    evaluate.add_argument("--methods", nargs="+", choices=method_names(), default=list(method_names()), help="methods to run (default: all)")
    evaluate.add_argument("--idf", action="append", type=Path, help="IDF table TSV (repeatable; default: bundled)")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object per row")
    add_config_options(evaluate, sweep=True)
    evaluate.set_defaults(run=_run_eval)

    idf = commands.add_parser("idf", help="IDF tables")
    idf_commands = idf.add_subparsers(dest="idf_command", required=True, metavar="ACTION")
    build = idf_commands.add_parser("build", help="build an IDF table from your own documents")
    build.add_argument("paths", nargs="+", metavar="PATH", help=".txt/.jsonl files or folders; one document each")
    build.add_argument("-o", "--output", required=True, type=Path, help="TSV file to write")
    build.add_argument("--min-df", type=int, default=2, help="drop tokens in fewer documents (default 2)")
    build.add_argument("--strict", action="store_true", help="fail on the first unreadable input")
    build.set_defaults(run=_run_idf_build)
    return parser


def _add_detector_options(parser: argparse.ArgumentParser, *, output: bool = True) -> None:
    if output:
        parser.add_argument("-o", "--output", type=Path, help="write JSONL here (default: stdout)")
    parser.add_argument("--method", choices=method_names(), default=Config().method, help=f"fingerprint method (default {Config().method})")
    parser.add_argument("--idf", action="append", type=Path, help="IDF table TSV (repeatable; default: bundled zh + en)")
    parser.add_argument("--strict", action="store_true", help="fail on the first unreadable file or line instead of skipping it")
    add_config_options(parser)


def _detector(args: argparse.Namespace) -> Detector:
    config = config_from_args(args, args.method)  # ConfigError names the option (exit 2), before any work
    from partialdup.pipeline.factory import make_detector
    from partialdup.text.resources import load_idf

    return make_detector(args.method, load_idf(args.idf), config)


def _read(paths: Sequence[str], strict: bool) -> ReadResult:
    result = read_documents(paths, strict=strict)
    for message in result.skipped:
        print(f"partialdup: skipped: {message}", file=sys.stderr)
    if result.ignored_files:
        print(f"partialdup: ignored {result.ignored_files} file(s) that are neither .txt nor .jsonl", file=sys.stderr)
    return result


def _emit(detection: Detection, args: argparse.Namespace, read: Sequence[ReadResult], config: Config) -> int:
    if args.output:
        with args.output.open("w", encoding="utf-8", newline="\n") as stream:
            count = write_jsonl(detection.spans, stream)
    else:
        count = write_jsonl(detection.spans, sys.stdout)
    stats = detection.stats
    skipped = sum(len(r.skipped) for r in read)
    print(
        f"partialdup: {stats.documents} documents, {stats.sentences} sentences, {count} spans; "
        f"{stats.candidate_pairs} candidate pairs; {skipped} input(s) skipped",
        file=sys.stderr,
    )
    if stats.boilerplate_sentences:
        print(
            f"partialdup: {stats.boilerplate_sentences} sentence(s) matched in {config.boilerplate} or more other "
            "documents were taken for boilerplate and not reported (--boilerplate 0 reports them)",
            file=sys.stderr,
        )
    if stats.frequent_features:
        print(
            f"partialdup: {stats.frequent_features} feature(s) held by more than {config.max_postings} sentences "
            f"were not used to find candidates ({stats.skipped_postings} postings skipped; raise --max-postings to use them)",
            file=sys.stderr,
        )
    return EXIT_OK


def _run_detect(args: argparse.Namespace) -> int:
    detector = _detector(args)
    read = _read(args.paths, args.strict)
    return _emit(detector.detect(read.documents), args, [read], detector.config)


def _run_check(args: argparse.Namespace) -> int:
    detector = _detector(args)
    queries = _read(args.queries, args.strict)
    references = _read(args.against, args.strict)
    return _emit(detector.check(queries.documents, references.documents), args, [queries, references], detector.config)


def _run_pan(args: argparse.Namespace) -> int:
    from partialdup.eval.pan import run_pan

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
    read = _read(args.paths, args.strict)
    if not read.documents:
        raise InputError("no documents to build an IDF table from")
    from partialdup.text.idf import build_idf
    from partialdup.text.tokens import Tokenizer

    tokenizer = Tokenizer()
    table = build_idf((tokenizer.words(d.text) for d in read.documents), min_df=args.min_df)
    sources = ", ".join(args.paths)
    table.save(args.output, header=f"built by partialdup idf build from {len(read.documents)} documents: {sources}")
    print(f"partialdup: {len(table.values)} tokens from {len(read.documents)} documents written to {args.output}", file=sys.stderr)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
