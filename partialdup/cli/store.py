"""``partialdup index ...`` and ``partialdup check --db``: a stored reference collection.

``index add`` stores documents (features included) in one SQLite file;
``check QUERY... --db FILE`` then reads only what the queries need from it,
with the same output as ``check --against`` on the same documents. See
``docs/store.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from partialdup.cli.options import add_config_options, config_from_args
from partialdup.core.config import Config
from partialdup.core.errors import ConfigError, InputError
from partialdup.core.types import Document
from partialdup.io.reader import ReadResult
from partialdup.methods import method_names

__all__ = ["add_store_commands"]


@dataclass(frozen=True)
class _Conventions:
    """What ``check --db`` and ``index add`` share with the other commands of
    :mod:`partialdup.cli.main`, so that they read, check and write alike.

    Attributes:
        emit: Writes a detection's spans and its summary (``check``'s).
        read: Reads documents as every command does (encodings, ``-``,
            skipped and renamed inputs).
        before_work: Checks outputs and the encoding before any work.
        input_options: Adds ``--encoding``, ``--quiet``, ``--verbose``.
    """

    emit: Callable[..., int]
    read: Callable[..., ReadResult]
    before_work: Callable[[argparse.Namespace], None]
    input_options: Callable[[argparse.ArgumentParser], None]


def add_store_commands(
    commands: Any,
    check: argparse.ArgumentParser,
    *,
    emit: Callable[..., int],
    read: Callable[..., ReadResult],
    before_work: Callable[[argparse.Namespace], None],
    input_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Add ``index add|remove|list|stats`` and teach ``check`` to read a store.

    Args:
        commands: The subparsers of the ``partialdup`` parser.
        check: The ``check`` parser, which already has ``--db``.
        emit: How ``check`` writes spans and its summary.
        read: How commands read documents.
        before_work: How commands check their outputs and encoding first.
        input_options: How commands get their input options.
    """
    conventions = _Conventions(emit, read, before_work, input_options)
    index = commands.add_parser("index", help="a stored reference collection (SQLite file)")
    actions = index.add_subparsers(dest="index_command", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="store documents (new, changed or already stored)")
    add.add_argument("paths", nargs="+", metavar="PATH", help=".txt/.jsonl files, folders, or - for standard input")
    add.add_argument("--db", required=True, type=Path, metavar="FILE", help="the store (created when missing)")
    add.add_argument("--batch", type=int, default=32, metavar="N", help="documents per transaction (default 32)")
    add.add_argument("--method", choices=method_names(), default=Config().method, help=f"fingerprint method (default {Config().method})")
    add.add_argument("--idf", action="append", type=Path, help="IDF table TSV (repeatable; default: bundled zh + en)")
    add.add_argument("--strict", action="store_true", help="fail on the first unreadable file or line instead of skipping it")
    input_options(add)
    add_config_options(add)
    add.set_defaults(run=lambda args: _run_add(args, conventions))
    remove = actions.add_parser("remove", help="remove documents by id")
    remove.add_argument("ids", nargs="+", metavar="ID")
    remove.add_argument("--db", required=True, type=Path, metavar="FILE")
    remove.set_defaults(run=_run_remove)
    listing = actions.add_parser("list", help="one JSON line per stored document")
    listing.add_argument("--db", required=True, type=Path, metavar="FILE")
    listing.set_defaults(run=_run_list)
    stats = actions.add_parser("stats", help="documents, sentences, postings and bytes of a store")
    stats.add_argument("--db", required=True, type=Path, metavar="FILE")
    stats.set_defaults(run=_run_stats)

    check.add_argument("--add", action="store_true", help="with --db: store the queries after checking them")
    against = check.get_default("run")
    check.set_defaults(run=lambda args: _run_check(args, against, conventions))


def _detector_and_idf(args: argparse.Namespace, config: Config) -> tuple[Any, Any]:
    from partialdup.pipeline.factory import make_detector
    from partialdup.text.resources import load_idf

    idf = load_idf(args.idf)
    detector = make_detector(args.method, idf, config)
    # The store searches its sentences through its own inverted index (bag-Jaccard).
    if detector.method.search_kind != "bag" or config.exact != "off":
        raise ConfigError(
            f"--db: a store holds bag methods only; --method {detector.method.name}"
            f"{' with --exact' if config.exact != 'off' else ''} runs with --against PATH"
        )
    return detector, idf


def _read(args: argparse.Namespace, paths: Sequence[str], conventions: _Conventions, what: str) -> ReadResult:
    """Documents under the paths, read as every command reads; none at all is an error (exit 2)."""
    result = conventions.read(paths, args.strict, args)
    if not result.documents:
        ignored = f" ({result.ignored_files} file(s) neither .txt nor .jsonl)" if result.ignored_files else ""
        raise InputError(f"no {what} read from {', '.join(map(str, paths))}{ignored}")
    return result


def _run_add(args: argparse.Namespace, conventions: _Conventions) -> int:
    if args.batch < 1:
        raise InputError(f"--batch must be >= 1, got {args.batch}")
    config = config_from_args(args, args.method)  # ConfigError names the option (exit 2), before any work
    conventions.before_work(args)
    read = _read(args, args.paths, conventions, "documents")  # cheap user errors before loading jieba
    detector, idf = _detector_and_idf(args, config)
    from partialdup.store import Store

    with Store(args.db, detector, idf, create=True) as store:
        report = store.add(read.documents, batch=args.batch)
    if not args.quiet:
        print(
            f"partialdup: {report.added} added, {report.replaced} replaced, {report.unchanged} unchanged "
            f"({report.sentences} sentences stored) in {args.db}; {len(read.skipped)} input(s) skipped",
            file=sys.stderr,
        )
    return 0


def _run_remove(args: argparse.Namespace) -> int:
    from partialdup.store import Store

    with Store(args.db) as store:
        missing = store.remove(args.ids)
    for doc_id in missing:
        print(f"partialdup: {args.db}: no document {doc_id!r}, nothing removed for it", file=sys.stderr)
    print(f"partialdup: {len(set(args.ids)) - len(set(missing))} document(s) removed from {args.db}", file=sys.stderr)
    return 0


def _run_list(args: argparse.Namespace) -> int:
    from partialdup.store import Store

    with Store(args.db) as store:
        for doc in store.documents():
            row = {"id": doc.id, "sha256": doc.sha256, "chars": doc.chars, "sentences": doc.sentences, **doc.extra}
            print(json.dumps(row, ensure_ascii=False))
    return 0


def _run_stats(args: argparse.Namespace) -> int:
    from partialdup.store import Store

    with Store(args.db) as store:
        stats = store.stats()
    print(f"documents\t{stats.documents}\nsentences\t{stats.sentences}\nfeatures\t{stats.features}\n"
          f"postings\t{stats.postings}\nbytes\t{stats.bytes}\nbytes_per_sentence\t{stats.bytes_per_sentence:.1f}")
    return 0


def _run_check(args: argparse.Namespace, against: Callable[[argparse.Namespace], int], conventions: _Conventions) -> int:
    """``check``: from the store with ``--db``, otherwise as before."""
    if args.db is None:
        if args.add:
            raise InputError("--add needs --db FILE (it stores the queries there)")
        return against(args)
    config = config_from_args(args, args.method)
    conventions.before_work(args)
    read = _read(args, args.queries, conventions, "query documents")
    from partialdup.store import Store, require_store

    require_store(args.db)  # before loading jieba
    detector, idf = _detector_and_idf(args, config)
    queries: Sequence[Document] = read.documents
    with Store(args.db, detector, idf) as store:
        detection = store.check(queries)
        # The stored documents the spans name, for whatever shows their text (--report, the summary).
        stored = ReadResult(tuple(store.read(span.b for span in detection.spans)), ())
        code = conventions.emit(detection, args, [read, stored], detector.config)
        if args.add:
            report = store.add(queries)
            if not args.quiet:
                print(f"partialdup: {report.added} added, {report.replaced} replaced, {report.unchanged} unchanged in {args.db}",
                      file=sys.stderr)
    return code
