"""Locating and loading the bundled IDF tables (done once, explicitly, by the caller).

Parsing the tables (5 MB of TSV) and ordering their tokens by IDF takes about
half a second of every run's start; the result is kept in the user's cache
folder (:mod:`partialdup.text.diskcache`), one file per version of the
tables, and read back in a fifth of that. Beside it a small *head* (default,
fingerprint, each source's lowest tokens) is all most runs read: the values
wait until something looks one up (see :func:`load_idf`).
"""

from __future__ import annotations

from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence

from partialdup.core.errors import IdfFormatError
from partialdup.text.diskcache import cache_path, read_cached, write_cached
from partialdup.text.idf import DeferredValues, IdfTable

__all__ = ["bundled_idf_paths", "load_idf"]

BUNDLED_TABLES = ("zh.tsv", "en.tsv")

#: The lowest tokens of each source a table's head keeps (see
#: :func:`load_idf`): Low-IDF-Sig takes 10 (``--antecedents``); more reads
#: the whole table.
HEAD_TOKENS = 10_000


def bundled_idf_paths() -> list[Path]:
    """Paths of the IDF tables shipped in ``idf/`` (Chinese first, then English)."""
    folder = resources.files("partialdup.idf_tables")
    return [Path(str(folder / name)) for name in BUNDLED_TABLES if (folder / name).is_file()]


def load_idf(paths: Sequence[str | Path] | None = None, *, cache: bool = True) -> IdfTable:
    """Load and merge IDF tables; the bundled ones when ``paths`` is empty.

    With the cache, a table read before comes back from its *head* (its
    fingerprint, default and the :data:`HEAD_TOKENS` lowest tokens of each
    source): its values are read when first looked at
    (:class:`~partialdup.text.idf.DeferredValues`), which Low-IDF-Sig, the
    default, never does.

    Args:
        paths: TSV tables, merged in order (an earlier one wins a clash).
        cache: Read and keep the merged table in the user's cache folder.

    Raises:
        IdfFormatError: A table is malformed (naming the file and line).
    """
    chosen = list(paths) if paths else bundled_idf_paths()
    where = cache_path("idf", chosen) if cache else None
    head_where = cache_path("idf-head", chosen) if cache else None
    head = _from_head(read_cached(head_where), chosen, partial(_whole_table, chosen, where))
    if head is not None:
        return head
    table = _whole_table(chosen, where)
    write_cached(head_where, _to_head(table))
    return table


def _whole_table(chosen: Sequence[str | Path], where: str | None) -> IdfTable:
    """The merged table: from its cache file, else parsed (and cached)."""
    table = _from_cache(read_cached(where), chosen)
    if table is None:
        table = IdfTable.merge(IdfTable.load(p) for p in chosen)
        write_cached(where, _to_cache(table))
    return table


def _to_head(table: IdfTable) -> tuple[Any, ...]:
    heads = tuple(ordered[:HEAD_TOKENS] for ordered in table._lowest_by_source)
    return table.default, table.sources, heads, table.fingerprint()


def _from_head(cached: Any, chosen: Sequence[str | Path], load: Callable[[], IdfTable]) -> IdfTable | None:
    """The table a head file holds, its values deferred to ``load``."""
    if not (isinstance(cached, tuple) and len(cached) == 4):
        return None
    default, sources, heads, fingerprint = cached
    plain = isinstance(default, float) and isinstance(heads, tuple) and isinstance(fingerprint, str)
    if not plain or sources != tuple(str(path) for path in chosen):
        return None

    def whole() -> IdfTable:
        table = load()
        if table.fingerprint() != fingerprint:  # the files changed since the head was read
            raise IdfFormatError(f"the IDF tables changed during the run: {', '.join(map(str, chosen))}")
        return table

    values = DeferredValues(whole, HEAD_TOKENS)
    return IdfTable(values, default=default, sources=sources, _lowest_by_source=heads).known_fingerprint(fingerprint)


def _to_cache(table: IdfTable) -> tuple[Any, ...]:
    return dict(table.values), table.default, table.sources, table._lowest_by_source, table.fingerprint()


def _from_cache(cached: Any, chosen: Sequence[str | Path]) -> IdfTable | None:
    """The table a cache file holds, when it holds one for these paths."""
    if not (isinstance(cached, tuple) and len(cached) == 5):
        return None
    values, default, sources, lowest, fingerprint = cached
    plain = isinstance(values, dict) and isinstance(default, float) and isinstance(lowest, tuple) and isinstance(fingerprint, str)
    if not plain or sources != tuple(str(path) for path in chosen):
        return None
    return IdfTable(values, default=default, sources=sources, _lowest_by_source=lowest).known_fingerprint(fingerprint)
