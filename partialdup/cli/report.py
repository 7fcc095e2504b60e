"""``partialdup report`` and the ``--report FILE`` option of ``detect`` and ``check``.

The JSONL holds ids and offsets only, so ``report`` reads the documents
again (``--docs``, the same paths as the run, hence the same ids; and its
``--encoding``, hence the same offsets) and splits their sentences as the run
did (``--max-sentence-chars``) to find the text behind each sentence pair.
The report layer is imported inside the functions, so that ``--help`` stays
fast.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Sequence

from partialdup.core.config import Config
from partialdup.core.types import Span
from partialdup.io.encoding import check_encoding
from partialdup.io.jsonl import printable
from partialdup.io.output import check_output
from partialdup.io.reader import ReadResult, read_documents

__all__ = ["add_report_command", "add_report_option", "write_detection_report"]


def add_report_command(commands: Any) -> None:
    """Add the ``report`` subcommand.

    Args:
        commands: The object ``ArgumentParser.add_subparsers`` returned.
    """
    report = commands.add_parser("report", help="an HTML report of a JSONL of spans: copied passages side by side")
    report.add_argument("matches", type=Path, metavar="MATCHES", help="JSONL written by detect or check")
    report.add_argument(
        "--docs", nargs="+", required=True, metavar="PATH",
        help="the documents of the run that wrote MATCHES, as given to it (the same paths give the same ids)",
    )
    report.add_argument("-o", "--output", type=Path, required=True, metavar="FILE", help="HTML file to write")
    report.add_argument("--title", help="the report's title (default 'partialdup report')")
    report.add_argument("--encoding", metavar="NAME", help="as in the run that wrote MATCHES (default: detected per file)")
    report.add_argument(
        "--max-sentence-chars", type=int, default=Config().max_sentence_chars, metavar="L",
        help=f"as in the run that wrote MATCHES (default {Config().max_sentence_chars})",
    )
    report.add_argument("--strict", action="store_true", help="fail on the first unreadable file or line instead of skipping it")
    report.set_defaults(run=_run_report)


def add_report_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--report FILE`` to ``detect`` or ``check``."""
    parser.add_argument("--report", type=Path, metavar="FILE", help="also write an HTML report of the copied passages here")


def write_detection_report(path: Path, spans: Sequence[Span], read: Sequence[ReadResult], config: Config) -> None:
    """``--report FILE``: the HTML report of a run's spans, from the documents it read.

    Silent: the run's own summary says what was found.

    Args:
        path: The HTML file to write.
        spans: The spans the run found.
        read: The documents the run read.
        config: The run's configuration (its sentence length cap).
    """
    from partialdup.io.jsonl import span_record
    from partialdup.report import build_report, span_from_record, write_report
    from partialdup.text.sentences import SentenceSplitter

    # The spans as the JSONL holds them (scores rounded), so that `report` on
    # that JSONL later writes the very same bytes.
    labels = [f"span {n}" for n in range(1, len(spans) + 1)]
    spans = [span_from_record(span_record(span), label) for span, label in zip(spans, labels)]
    texts = {doc.id: doc.text for result in read for doc in result.documents}
    report = build_report(spans, texts, labels=labels, splitter=SentenceSplitter(max_chars=config.max_sentence_chars))
    write_report(report, path)


def _run_report(args: argparse.Namespace) -> int:
    config = Config().changed({"max_sentence_chars": args.max_sentence_chars})  # a bad value names the option
    check_output(args.output)  # before any work: a typo costs nothing
    encoding = check_encoding(args.encoding) if args.encoding else None
    from partialdup.report import DEFAULT_TITLE, build_report, read_span_lines, write_report
    from partialdup.text.sentences import SentenceSplitter

    located = read_span_lines(args.matches)
    read = read_documents(args.docs, strict=args.strict, encoding=encoding)
    for kind, messages in (("skipped", read.skipped), ("renamed", read.renamed)):
        for message in messages:
            print(f"partialdup: {kind}: {printable(message)}", file=sys.stderr)
    report = build_report(
        [span for _, span in located],
        {doc.id: doc.text for doc in read.documents},
        labels=[where for where, _ in located],
        splitter=SentenceSplitter(max_chars=config.max_sentence_chars),
        title=args.title or DEFAULT_TITLE,
    )
    write_report(report, args.output)
    print(
        f"partialdup: report of {report.passages} passage(s) in {len(report.pairs)} document pair(s) "
        f"written to {printable(str(args.output))}",
        file=sys.stderr,
    )
    return 0
