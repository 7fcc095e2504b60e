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

from partialdup.pipeline.detector import Detection, Detector, DetectorConfig
from partialdup.eval.goldset import evaluate_method, load_goldset, tokenize_goldset
from partialdup.text.idf import IdfFormatError, build_idf
from partialdup.pipeline.factory import METHOD_NAMES, make_detector
from partialdup.io.jsonl import write_jsonl
from partialdup.io.pan import PanFormatError, detection_filename, read_pairs, span_detection, write_detections
from partialdup.io.reader import InputError, ReadResult, read_documents, read_text
from partialdup.text.resources import load_idf
from partialdup.methods.similarity import CopyRule
from partialdup.text.tokens import Tokenizer
from partialdup.core.types import Document

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
    except (InputError, IdfFormatError, PanFormatError) as error:
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
    evaluate.add_argument("--methods", nargs="+", choices=METHOD_NAMES, default=list(METHOD_NAMES), help="methods to run (default: all)")
    evaluate.add_argument("--thresholds", nargs="+", type=float, help="tau values (default: each method's own)")
    evaluate.add_argument("--antecedents", nargs="+", type=int, default=[DetectorConfig().antecedents], help="Low-IDF-Sig n values")
    evaluate.add_argument("--idf", action="append", type=Path, help="IDF table TSV (repeatable; default: bundled)")
    evaluate.add_argument("--json", action="store_true", help="print one JSON object per row")
    evaluate.add_argument("--no-refine", action="store_true", help="score whole-sentence span edges (no character-level trimming)")
    evaluate.add_argument("--near-ratio", type=float, default=DetectorConfig().near_ratio, help="second look at near misses on characters at this rapidfuzz ratio; 0 = off")
    evaluate.add_argument("--embedded-ratio", type=float, default=DetectorConfig().embedded_ratio, help="find sentences copied inside longer ones at this rapidfuzz partial_ratio; 0 = off")
    evaluate.add_argument("--no-rejoin", action="store_true", help="do not match neighbouring sentences read as one across a line break")
    evaluate.add_argument("--all-origins", action="store_true", help="keep spans that re-explain a suspicious passage already explained by a longer span")
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
    defaults = DetectorConfig()
    if output:
        parser.add_argument("-o", "--output", type=Path, help="write JSONL here (default: stdout)")
    parser.add_argument("--method", choices=METHOD_NAMES, default="low-idf-sig", help="feature method (default low-idf-sig)")
    parser.add_argument("--idf", action="append", type=Path, help="IDF table TSV (repeatable; default: bundled zh + en)")
    parser.add_argument("--antecedents", type=int, default=defaults.antecedents, help=f"n lowest-IDF tokens per table (default {defaults.antecedents})")
    parser.add_argument("--chain", type=int, default=defaults.chain, help=f"c, tokens chained after an antecedent (default {defaults.chain})")
    parser.add_argument("--spacing", type=int, default=defaults.spacing, help=f"d, spacing of chained tokens (default {defaults.spacing})")
    parser.add_argument("--threshold", type=float, default=None, help="tau, minimum bag-Jaccard (default: the method's, 0.6 for low-idf-sig)")
    parser.add_argument("--containment", type=float, default=defaults.containment, help=f"also a copy: this share of the smaller sentence's features in the larger; 0 = off (default {defaults.containment})")
    parser.add_argument("--min-contained", type=int, default=defaults.min_contained, help=f"features the smaller sentence needs for --containment (default {defaults.min_contained})")
    parser.add_argument("--gap", type=int, default=defaults.gap, help=f"unmatched sentences tolerated inside a span (default {defaults.gap})")
    parser.add_argument("--max-postings", type=int, default=defaults.max_postings, help=f"ignore features in more sentences than this for candidates (default {defaults.max_postings})")
    parser.add_argument("--min-tokens", type=int, default=defaults.min_tokens, help=f"sentences with fewer tokens are not matched on their own (default {defaults.min_tokens})")
    parser.add_argument("--boilerplate", type=int, default=defaults.boilerplate, help=f"a sentence matching this many other documents is boilerplate and not reported; 0 = off (default {defaults.boilerplate})")
    parser.add_argument("--no-refine", action="store_true", help="keep whole-sentence span edges (no character-level trimming)")
    parser.add_argument("--near-ratio", type=float, default=defaults.near_ratio, help=f"a pair with bag-Jaccard in [tau/2, tau) is also a copy when its normalised letters agree at this rapidfuzz ratio; 0 = off (default {defaults.near_ratio:g})")
    parser.add_argument("--embedded-ratio", type=float, default=defaults.embedded_ratio, help=f"a sentence copied inside a longer one (no sentence boundary between it and the host text, or quoted) is a copy when its normalised letters lie inside the longer's at this rapidfuzz partial_ratio; 0 = off (default {defaults.embedded_ratio:g})")
    parser.add_argument("--min-shared", type=int, default=defaults.min_shared, help=f"a pair sharing fewer features is a copy only when another pair could chain with it or its characters agree; 1 = off (default {defaults.min_shared})")
    parser.add_argument("--no-rejoin", action="store_true", help="do not also match neighbouring sentences read as one across a line break that may be a wrap")
    parser.add_argument("--all-origins", action="store_true", help="check/pan: also report a query passage's matches with repeats in the same reference (default: one origin per passage)")
    parser.add_argument("--strict", action="store_true", help="fail on the first unreadable file or line instead of skipping it")


def _detector(args: argparse.Namespace) -> Detector:
    try:
        config = DetectorConfig(
            antecedents=args.antecedents,
            chain=args.chain,
            spacing=args.spacing,
            threshold=args.threshold if args.threshold is not None else DetectorConfig().threshold,
            containment=args.containment,
            min_contained=args.min_contained,
            gap=args.gap,
            max_postings=args.max_postings,
            min_tokens=args.min_tokens,
            boilerplate=args.boilerplate,
            refine=not args.no_refine,
            near_ratio=args.near_ratio,
            embedded_ratio=args.embedded_ratio,
            min_shared=args.min_shared,
            rejoin=not args.no_rejoin,
            single_origin=not args.all_origins,
        )
    except ValueError as error:
        raise InputError(str(error)) from None
    return make_detector(args.method, load_idf(args.idf), config, threshold=args.threshold)


def _read(paths: Sequence[str], strict: bool) -> ReadResult:
    result = read_documents(paths, strict=strict)
    for message in result.skipped:
        print(f"partialdup: skipped: {message}", file=sys.stderr)
    if result.ignored_files:
        print(f"partialdup: ignored {result.ignored_files} file(s) that are neither .txt nor .jsonl", file=sys.stderr)
    return result


def _emit(detection: Detection, args: argparse.Namespace, read: Sequence[ReadResult]) -> int:
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
            f"partialdup: {stats.boilerplate_sentences} sentence(s) matched in {args.boilerplate} or more other "
            "documents were taken for boilerplate and not reported (--boilerplate 0 reports them)",
            file=sys.stderr,
        )
    if stats.frequent_features:
        print(
            f"partialdup: {stats.frequent_features} feature(s) held by more than {args.max_postings} sentences "
            f"were not used to find candidates ({stats.skipped_postings} postings skipped; raise --max-postings to use them)",
            file=sys.stderr,
        )
    return EXIT_OK


def _run_detect(args: argparse.Namespace) -> int:
    read = _read(args.paths, args.strict)
    return _emit(_detector(args).detect(read.documents), args, [read])


def _run_check(args: argparse.Namespace) -> int:
    queries = _read(args.queries, args.strict)
    references = _read(args.against, args.strict)
    return _emit(_detector(args).check(queries.documents, references.documents), args, [queries, references])


def _run_pan(args: argparse.Namespace) -> int:
    pairs = read_pairs(args.pairs)
    detector = _detector(args)
    # Every source is indexed once and every suspicious document queried once;
    # only the listed pairs are reported. Seeing the whole collection is also
    # what lets boilerplate (sentences in many sources) be recognised.
    sources = [detector.features(Document(name, read_text(args.src_dir / name))) for name in sorted({src for _, src in pairs})]
    suspicious = [detector.features(Document(name, read_text(args.susp_dir / name))) for name in sorted({susp for susp, _ in pairs})]
    found = detector.check_against(suspicious, sources, detector.build_index(sources), only_pairs=set(pairs))
    by_pair: dict[tuple[str, str], list] = {pair: [] for pair in pairs}
    for span in found.spans:
        by_pair[(span.a, span.b)].append(span_detection(span))
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for (susp, src), detections in by_pair.items():
        write_detections(args.out_dir / detection_filename(susp, src), susp, src, detections)
    print(f"partialdup: {len(pairs)} pairs, {len(found.spans)} detections written to {args.out_dir}", file=sys.stderr)
    return EXIT_OK


def _run_eval(args: argparse.Namespace) -> int:
    try:  # bad options fail before any work
        configs = {
            n: DetectorConfig(antecedents=n, refine=not args.no_refine, near_ratio=args.near_ratio, embedded_ratio=args.embedded_ratio,
                              rejoin=not args.no_rejoin, single_origin=not args.all_origins)
            for n in {*args.antecedents, DetectorConfig().antecedents}
        }
        for threshold in args.thresholds or []:
            CopyRule(threshold)
    except ValueError as error:
        raise InputError(str(error)) from None
    gold = load_goldset(args.goldset)
    idf = load_idf(args.idf)
    shared = make_detector("low-idf-sig", idf)
    tokenized = tokenize_goldset(gold, shared)
    print(f"partialdup: {len(gold.pairs)} pairs, {len(gold.cases)} cases, {len(gold.sentence_pairs)} gold sentence pairs; "
          f"sentences and tokens in {tokenized.seconds:.2f}s", file=sys.stderr)
    if not args.json:
        print(f"{'method':14} {'params':8} {'tau':>5} {'P':>6} {'R':>6} {'F1':>6} {'plagdet':>7} {'gran':>5} "
              f"{'features':>9} {'bytes':>10} {'index s':>8} {'compare s':>9} {'search s':>8}")
    for method in args.methods:
        for n in args.antecedents if method == "low-idf-sig" else [DetectorConfig().antecedents]:
            for threshold in args.thresholds or [None]:
                detector = make_detector(method, idf, configs[n], threshold=threshold,
                                         tokenizer=shared.tokenizer, splitter=shared.splitter)
                params = f"n={n}" if method == "low-idf-sig" else ""
                row = evaluate_method(gold, tokenized, detector, method=method, params=params)
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
    tokenizer = Tokenizer()
    table = build_idf((tokenizer.words(d.text) for d in read.documents), min_df=args.min_df)
    sources = ", ".join(args.paths)
    table.save(args.output, header=f"built by partialdup idf build from {len(read.documents)} documents: {sources}")
    print(f"partialdup: {len(table.values)} tokens from {len(read.documents)} documents written to {args.output}", file=sys.stderr)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
