"""Locating and loading the bundled IDF tables (done once, explicitly, by the caller)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Sequence

from partialdup.text.idf import IdfTable

__all__ = ["bundled_idf_paths", "load_idf"]

BUNDLED_TABLES = ("zh.tsv", "en.tsv")


def bundled_idf_paths() -> list[Path]:
    """Paths of the IDF tables shipped in ``idf/`` (Chinese first, then English)."""
    folder = resources.files("partialdup.idf_tables")
    return [Path(str(folder / name)) for name in BUNDLED_TABLES if (folder / name).is_file()]


def load_idf(paths: Sequence[str | Path] | None = None) -> IdfTable:
    """Load and merge IDF tables; the bundled ones when ``paths`` is empty."""
    chosen = list(paths) if paths else bundled_idf_paths()
    return IdfTable.merge(IdfTable.load(p) for p in chosen)
