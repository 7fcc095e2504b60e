"""What a detect or check run hands the user: spans (JSONL or a terminal
summary), the boilerplate list, the report and the run's statistics."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
from typing import TYPE_CHECKING, Sequence

from partialdup.cli.report import write_detection_report
from partialdup.core.config import Config
from partialdup.io.jsonl import printable, write_jsonl, write_jsonl_bytes
from partialdup.io.output import OutputError, atomic_output
from partialdup.io.reader import STDIN, ReadResult
from partialdup.io.summary import frequent_features_line, summarise, summary_lines

if TYPE_CHECKING:
    from partialdup.pipeline.detector import Detection

__all__ = ["emit_detection", "is_terminal", "say", "silence_stdout", "EXIT_OK", "EXIT_FOUND", "EXIT_USER", "EXIT_INTERNAL"]

#: The documented exit codes (see ``partialdup --help``).
EXIT_OK, EXIT_FOUND, EXIT_USER, EXIT_INTERNAL = 0, 1, 2, 3

def silence_stdout() -> None:
    # Output that could not be written is dropped: the flush at exit would
    # fail again and print a traceback.
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def say(message: str) -> None:
    print(f"partialdup: {printable(message)}", file=sys.stderr)


def is_terminal(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


def _write_spans(detection: Detection, args: argparse.Namespace, read: Sequence[ReadResult]) -> int:
    """JSONL to ``-o``, or to standard output; a summary on a terminal."""
    output = getattr(args, "output", None)
    listed = _boilerplate_lines(detection, args)
    if output is not None and str(output) != STDIN:
        with atomic_output(output) as stream:
            count = write_jsonl(detection.spans, stream)
            stream.writelines(listed)
            return count
    try:
        if not getattr(args, "json", False) and is_terminal(sys.stdout):
            count = _write_summary(detection, args, read)
            for record in detection.boilerplate_sentences if listed else ():
                say(f"boilerplate: {record.doc} {record.start}-{record.end} (sentence {record.sentence}), "
                     f"in {record.documents} other document(s): {record.excerpt}")
            return count
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:
            count = write_jsonl(detection.spans, sys.stdout)
            sys.stdout.writelines(listed)
            return count
        count = write_jsonl_bytes(detection.spans, buffer)
        buffer.write("".join(listed).encode("utf-8"))
        return count
    except BrokenPipeError:
        raise
    except OSError as error:  # a full disk behind a redirection, /dev/full
        silence_stdout()
        raise OutputError(f"standard output: cannot write ({error.strerror})") from None


def _boilerplate_lines(detection: Detection, args: argparse.Namespace) -> list[str]:
    """The JSONL records of ``--show-boilerplate`` (none without it)."""
    if not getattr(args, "show_boilerplate", False):
        return []
    return [json.dumps(record.record(), ensure_ascii=False) + "\n" for record in detection.boilerplate_sentences]


def _write_summary(detection: Detection, args: argparse.Namespace, read: Sequence[ReadResult]) -> int:
    texts = {d.id: d.text for result in read for d in result.documents}
    arrow = "←" if getattr(args, "command", "") == "check" else "↔"
    width = shutil.get_terminal_size().columns
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]  # a terminal that cannot show a character
    for line in summary_lines(summarise(detection.spans, texts), detection.stats.documents, width, arrow=arrow):
        print(line)
    return len(detection.spans)


def emit_detection(detection: Detection, args: argparse.Namespace, read: Sequence[ReadResult], config: Config) -> int:
    count = _write_spans(detection, args, read)
    if args.report:
        write_detection_report(args.report, detection.spans, read, config)
    if not getattr(args, "quiet", False):
        _report_stats(detection, read, config, count)
    return EXIT_FOUND if getattr(args, "fail_on_match", False) and count else EXIT_OK


def _report_stats(detection: Detection, read: Sequence[ReadResult], config: Config, count: int) -> None:
    stats = detection.stats
    skipped = sum(len(r.skipped) for r in read)
    print(
        f"partialdup: {stats.documents} documents, {stats.sentences} sentences, {count} spans; "
        f"{stats.candidate_pairs} candidate pairs; {skipped} input(s) skipped",
        file=sys.stderr,
    )
    if stats.boilerplate_sentences:
        where = "references" if len(read) > 1 else "other documents"  # check reads queries and references
        print(
            f"partialdup: {stats.boilerplate_sentences} sentence(s) copied in {config.boilerplate} or more {where} were "
            "set apart as boilerplate, not reported as copies (--show-boilerplate names them; --boilerplate 0 reports them)",
            file=sys.stderr,
        )
    if config.exact != "off":
        measured = stats.exact_false_positives / stats.exact_probes if stats.exact_probes else 0.0
        print(
            f"partialdup: --exact {config.exact}: {stats.exact_pairs} exact pair(s) without a search; false positives "
            f"{stats.exact_false_positives} of {stats.exact_probes} look-ups of unseen sentences, measured rate "
            f"{measured:.5f}, design rate {stats.exact_design_rate:.5f}",
            file=sys.stderr,
        )
    if stats.frequent_features:
        print(frequent_features_line(stats.frequent_features, stats.frequent_sentences, config.max_postings), file=sys.stderr)
