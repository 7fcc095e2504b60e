"""The jobs' subcommands: ``plagiarism``, ``quotes`` and ``merge``.

Each job is a function of :mod:`partialdup.jobs`; this module only parses
its options, reads the documents and writes what the job returns.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

__all__ = ["add_job_commands"]

AddOptions = Callable[..., None]


def add_job_commands(commands: Any, add_detector_options: AddOptions, add_input_options: AddOptions) -> None:
    """Register ``plagiarism``, ``quotes`` and ``merge`` on the subcommand parser.

    Args:
        commands: The ``add_subparsers`` object of the main parser.
        add_detector_options: Adds ``--method``, ``--idf``, ``--strict`` and
            every detector parameter to a parser (the main module's).
        add_input_options: Adds ``--encoding``, ``--quiet`` and ``--verbose``.
    """
    plagiarism = commands.add_parser(
        "plagiarism",
        help="how much of each query was copied, and from which sources",
        description="Per query: the share of its text copied (the union of its copied passages), and per source "
        "the passages with excerpts of both sides. Template text among the sources is listed, not counted: a "
        "passage whose copies lie in --boilerplate (3) or more reference documents (other queries never count; "
        "--boilerplate 0 counts everything). The sources are files (--against) or a store (--db, made by "
        "`partialdup index add`): the same report either way.",
        epilog="examples: partialdup plagiarism essay.txt --against sources/ --json -o report.jsonl\n"
        "          partialdup plagiarism essay.txt --db sources.db",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    plagiarism.add_argument("queries", nargs="+", metavar="QUERY", help="documents to check")
    sources = plagiarism.add_mutually_exclusive_group(required=True)
    sources.add_argument("--against", nargs="+", metavar="PATH", help="the reference collection")
    sources.add_argument("--db", type=Path, metavar="FILE", help="a stored reference collection (`partialdup index add`)")
    plagiarism.add_argument("--json", action="store_true", help="one JSON record per query instead of the summary")
    plagiarism.add_argument("--common", type=int, default=0, metavar="N",
                            help="list a region found in N or more sources as common text, not counted (default 0: off)")
    add_detector_options(plagiarism)
    add_input_options(plagiarism)
    plagiarism.set_defaults(run=_run_plagiarism)

    quotes = commands.add_parser(
        "quotes",
        help="which earlier articles each article quotes, with the earliest source of each passage",
        description="Reads articles (JSONL records with id, time and text; other fields are kept) and reports every "
        "passage a later article copies from an earlier one, with the earliest article holding it and the chain "
        "of re-quotes. The boilerplate rule is off (unless --boilerplate N is given): a statement quoted by many "
        "outlets is the point.",
        epilog="example: partialdup quotes news.jsonl -o quotes.jsonl",
    )
    quotes.add_argument("streams", nargs="+", metavar="STREAM", help="JSONL files of articles (id, time, text)")
    add_detector_options(quotes)
    add_input_options(quotes)
    quotes.set_defaults(run=_run_quotes)

    merge = commands.add_parser(
        "merge",
        help="merge the pages of a thread, keeping each repeated passage once",
        description="Reads the pages in the order given and drops from each page the passages that repeat an "
        "earlier page (a first post shown on every page, quoted posts, headers and footers, overlapping page "
        "boundaries). Only true repeats are dropped: their letters must agree. The merged text is made of "
        "slices of the pages only; a JSONL map gives every run's page and offsets, a JSONL log every dropped passage. "
        "The boilerplate rule is off (unless --boilerplate N is given): a first post on every page is what merge drops.",
        epilog="example: partialdup merge page1.txt page2.txt page3.txt -o thread.txt",
    )
    merge.add_argument("pages", nargs="+", metavar="PAGE", help="the pages, in reading order")
    merge.add_argument("-o", "--output", type=Path, required=True, help="the merged text")
    merge.add_argument("--log", type=Path, help="dropped passages, JSONL (default: OUTPUT.dropped.jsonl)")
    merge.add_argument("--map", type=Path, help="page and offsets of every run of the merged text, JSONL (default: OUTPUT.map.jsonl)")
    add_detector_options(merge, output=False)
    add_input_options(merge)
    merge.set_defaults(run=_run_merge)


def _run_plagiarism(args: argparse.Namespace) -> int:
    from partialdup.cli.main import EXIT_OK, _detector, _read
    from partialdup.jobs.plagiarism import plagiarism_reports

    if args.db is not None:
        from partialdup.store import require_store

        require_store(args.db)  # a one-line error before loading jieba
    detector = _detector(args)  # checks --output and --report before any work
    queries = _read(args.queries, args.strict, args)
    if args.db is not None:
        detection, references = _from_store(args, detector, queries.documents)
    else:
        references = _read(args.against, args.strict, args)
        # The boilerplate spans are the report's common regions.
        detection = detector.check(queries.documents, references.documents, boilerplate_spans=True)
    spans = detection.spans
    reports = plagiarism_reports(
        queries.documents, references.documents, spans, common=args.common, boilerplate=detection.boilerplate_spans
    )
    if args.report:
        from partialdup.cli.report import write_detection_report

        write_detection_report(args.report, spans, [queries, references], detector.config)
    if args.json:
        lines = [json.dumps(_plain(dataclasses.asdict(report)), ensure_ascii=False) + "\n" for report in reports]
    else:
        lines = [line + "\n" for report in reports for line in _summary(report)]
    _emit(lines, args.output)
    return EXIT_OK


def _from_store(args: argparse.Namespace, detector: Any, queries: Any) -> tuple[Any, Any]:
    """``--db``: the detection of the queries against the stored collection,
    and the stored documents its spans name (for their excerpts)."""
    from partialdup.io.reader import ReadResult
    from partialdup.store import Store
    from partialdup.text.resources import load_idf

    with Store(args.db, detector, load_idf(args.idf)) as store:
        detection = store.check(queries, boilerplate_spans=True)
        named = sorted({span.b for span in (*detection.spans, *detection.boilerplate_spans)})
        return detection, ReadResult(tuple(store.read(named)), ())


def _summary(report: Any) -> Iterable[str]:
    template = f"\t{report.common_share:.1%} more is template text (not counted)" if report.common_share else ""
    yield f"{report.query}\t{report.share:.1%} copied\t{len(report.sources)} source(s){template}"
    for source in report.sources:
        yield f"  <- {source.source}\t{source.share:.1%}\t{source.passages} passage(s)\tbest score {source.best_score:.2f}"
    for region in report.regions:
        if region.common:
            excerpt = region.passages[0].query_excerpt
            yield f"  template text at {region.start}-{region.end}, in {len(region.sources)} source(s) (not counted): {excerpt}"


def _run_quotes(args: argparse.Namespace) -> int:
    from partialdup.cli.main import EXIT_OK, _detector, _read
    from partialdup.jobs.quotes import article_time, quotes

    detector = _detector(_boilerplate_off(args))  # checks --output and --report before any work
    read = _read(args.streams, args.strict, args)
    for article in read.documents:
        article_time(article)  # a missing or bad time fails before the work
    detection = detector.detect(read.documents)
    found = quotes(read.documents, detection.spans)
    lines = [json.dumps(record, ensure_ascii=False) + "\n" for quote in found for record in quote.records()]
    _emit(lines, args.output)
    if args.report:
        from partialdup.cli.report import write_detection_report

        write_detection_report(args.report, detection.spans, [read], detector.config)
    if not args.quiet:
        print(f"partialdup: {len(read.documents)} articles, {len(found)} quote(s)", file=sys.stderr)
    return EXIT_OK


def _run_merge(args: argparse.Namespace) -> int:
    from partialdup.cli.main import EXIT_OK, _detector, _read
    from partialdup.jobs.merge import merge_pages

    log = args.log or args.output.with_name(args.output.name + ".dropped.jsonl")
    where = args.map or args.output.with_name(args.output.name + ".map.jsonl")
    _checked(log, where)  # --output is checked with the options, by _detector
    detector = _detector(_boilerplate_off(args))
    pages = _read(args.pages, args.strict, args).documents
    merged = merge_pages(pages, detector)
    _write_atomic(args.output, merged.text)
    _write_atomic(log, "".join(json.dumps(dataclasses.asdict(d), ensure_ascii=False) + "\n" for d in merged.dropped))
    _write_atomic(where, "".join(json.dumps(dataclasses.asdict(p), ensure_ascii=False) + "\n" for p in merged.pieces))
    if not args.quiet:
        print(f"partialdup: {len(pages)} pages merged into {args.output} ({len(merged.text)} characters); "
              f"{len(merged.dropped)} repeated passage(s) dropped, listed in {log}", file=sys.stderr)
    return EXIT_OK


def _boilerplate_off(args: argparse.Namespace) -> argparse.Namespace:
    """The jobs report what recurs (a licence paragraph in many sources, a
    first post on every page): the boilerplate rule is off unless asked for."""
    from partialdup.cli.options import default_unless_given

    return default_unless_given(args, "boilerplate", 0)


def _plain(record: Any) -> Any:
    """Rounded floats, for stable JSON."""
    if isinstance(record, float):
        return round(record, 6)
    if isinstance(record, dict):
        return {key: _plain(value) for key, value in record.items()}
    if isinstance(record, (list, tuple)):
        return [_plain(value) for value in record]
    return record


def _emit(lines: list[str], output: Path | None) -> None:
    if output is None:
        sys.stdout.writelines(lines)
    else:
        _write_atomic(output, "".join(lines))


def _write_atomic(path: Path, text: str) -> None:
    """The whole new file or the old one, never a part (see :mod:`partialdup.io.output`)."""
    from partialdup.io.output import atomic_output

    with atomic_output(path) as stream:
        stream.write(text)


def _checked(*paths: Path | None) -> None:
    """Output paths are checked before any work: a one-line error, exit 2."""
    from partialdup.io.output import check_output

    for path in paths:
        if path is not None:
            check_output(path)
