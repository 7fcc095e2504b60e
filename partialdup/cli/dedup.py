"""``partialdup dedup PATH... -o clusters.jsonl``: near-duplicate document clusters.

SimHash + Single-Pass by default, MinHash + LSH bands with ``--method
minhash`` (:mod:`partialdup.jobs.dedup`). The SimHash options (``--hamming``,
``--simhash-weights``) and the MinHash ones (``--threshold``,
``--minhash-permutations``, ``--minhash-shingle``, ``--minhash-seed``) are
derived from the declarations of
:class:`~partialdup.core.config.SimHashParams` and
:class:`~partialdup.core.config.MinHashParams`, help, range and choices
included, as the detector's options are derived from :class:`Config`.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from partialdup.core.config import MinHashParams, SimHashParams, flag_of, params_of
from partialdup.core.errors import InputError

__all__ = ["add_dedup_command"]

_PREFIX = "simhash:"
_MINHASH = "minhash:"
# τ is implied by --hamming here (1 - k / 64): the one SimHash parameter not offered
_HIDDEN = {"threshold"}
# LSH bands need n hash functions: --minhash-variant is not offered
_MINHASH_HIDDEN = {"variant"}


def add_dedup_command(commands: Any) -> None:
    """Add the ``dedup`` subcommand to the command line's subparsers."""
    parser = commands.add_parser("dedup", help="near-duplicate document clusters (SimHash + Single-Pass)")
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".txt/.jsonl files or folders; one document each")
    parser.add_argument("-o", "--output", type=Path, help="write one cluster per JSONL line here (default: stdout)")
    parser.add_argument(
        "--keep", choices=("earliest", "longest"), default="earliest",
        help="the representative of a cluster: its earliest member (documents are processed sorted by id) or its longest",
    )
    parser.add_argument("--idf", action="append", type=Path, help="IDF table TSV for tf-idf weights (repeatable; default: bundled zh + en)")
    parser.add_argument("--strict", action="store_true", help="fail on the first unreadable file or line instead of skipping it")
    parser.add_argument(
        "--method", choices=("simhash", "minhash"), default="simhash",
        help="simhash: SimHash within --hamming bits of a centre (the seed's); minhash: MinHash signatures "
        "agreeing at --threshold with a centre, found through LSH bands (default simhash)",
    )
    _add_params(parser, SimHashParams(), _PREFIX, _HIDDEN, "")
    _add_params(parser, MinHashParams(), _MINHASH, _MINHASH_HIDDEN, "--method minhash: ")
    parser.set_defaults(run=_run_dedup)


def _add_params(parser: argparse.ArgumentParser, defaults: Any, prefix: str, hidden: set[str], lead: str) -> None:
    for f, info in params_of(defaults):
        if f.name in hidden:
            continue
        default = getattr(defaults, f.name)
        parser.add_argument(
            flag_of(f, info), dest=prefix + f.name, type=type(default), default=argparse.SUPPRESS,
            choices=info.choices or None, metavar=None if info.choices else f.name.upper(),
            help=f"{lead}{info.help} (default {default:g})" if isinstance(default, float) else f"{lead}{info.help} (default {default})",
        )


def _given(args: argparse.Namespace, prefix: str) -> dict[str, Any]:
    return {key[len(prefix):]: value for key, value in vars(args).items() if key.startswith(prefix)}


def _params(args: argparse.Namespace) -> SimHashParams:
    params = dataclasses.replace(SimHashParams(), **_given(args, _PREFIX))  # ConfigError names a bad value
    return dataclasses.replace(params, threshold=1.0 - params.hamming / 64)  # τ follows the bound


def _minhash_params(args: argparse.Namespace) -> MinHashParams:
    return dataclasses.replace(MinHashParams(), **_given(args, _MINHASH))  # ConfigError names a bad value


def _run_dedup(args: argparse.Namespace) -> int:
    from partialdup.cli.main import _read  # the shared reading and its messages (imported late: main imports us)
    from partialdup.jobs.dedup import dedup_documents, write_clusters
    from partialdup.text.resources import load_idf

    params, minhash = _params(args), _minhash_params(args)  # before any work
    read = _read(args.paths, args.strict)
    if not read.documents:
        raise InputError("no documents to cluster")
    idf = load_idf(args.idf) if args.method == "simhash" and params.weights == "tf-idf" else None
    clusters = dedup_documents(read.documents, idf=idf, params=params, keep=args.keep, method=args.method, minhash=minhash)
    if args.output:
        with args.output.open("w", encoding="utf-8", newline="\n") as stream:
            write_clusters(clusters, stream)
    else:
        write_clusters(clusters, sys.stdout)
    duplicates = sum(len(c.members) - 1 for c in clusters)
    bound = f"within Hamming distance {params.hamming}" if args.method == "simhash" else f"at MinHash Jaccard >= {minhash.threshold:g}"
    print(
        f"partialdup: {len(read.documents)} documents, {len(clusters)} clusters, {duplicates} near-duplicate(s) "
        f"{bound}; {len(read.skipped)} input(s) skipped",
        file=sys.stderr,
    )
    return 0
