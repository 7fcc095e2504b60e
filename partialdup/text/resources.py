"""Locating and loading the bundled IDF tables (done once, explicitly, by the caller).

Parsing the tables (5 MB of TSV) and ordering their tokens by IDF takes about
half a second of every run's start; the result is kept in the user's cache
folder (:mod:`partialdup.text.diskcache`), one file per version of the
tables, and read back in a fifth of that.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from partialdup.text.diskcache import cache_path, read_cached, write_cached
from partialdup.text.idf import IdfTable

__all__ = ["bundled_idf_paths", "load_idf"]

BUNDLED_TABLES = ("zh.tsv", "en.tsv")


def bundled_idf_paths() -> list[Path]:
    """Paths of the IDF tables shipped in ``idf/`` (Chinese first, then English)."""
    folder = resources.files("partialdup.idf_tables")
    return [Path(str(folder / name)) for name in BUNDLED_TABLES if (folder / name).is_file()]


def load_idf(paths: Sequence[str | Path] | None = None, *, cache: bool = True) -> IdfTable:
    """Load and merge IDF tables; the bundled ones when ``paths`` is empty.

    Args:
        paths: TSV tables, merged in order (an earlier one wins a clash).
        cache: Read and keep the merged table in the user's cache folder.

    Raises:
        IdfFormatError: A table is malformed (naming the file and line).
    """
    chosen = list(paths) if paths else bundled_idf_paths()
    where = cache_path("idf", chosen) if cache else None
    table = _from_cache(read_cached(where), chosen)
    if table is None:
        table = IdfTable.merge(IdfTable.load(p) for p in chosen)
        write_cached(where, _to_cache(table))
    return table


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
