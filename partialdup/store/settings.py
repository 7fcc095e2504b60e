"""What a store's features depend on, recorded once and compared on every open.

Features made with other settings cannot be compared with the stored ones,
and a search with other parameters would not give the spans ``check
--against`` gives; so a store records the method, every parameter of
:class:`~partialdup.core.config.Config`, a fingerprint of the IDF tables, the
tokenizer and the partialdup version that wrote it, and a run whose settings
differ is refused with one line naming the first difference. Parameters
marked ``run_only`` (worker processes, engine) change how a run is carried
out, never its output, and are not recorded.
"""

from __future__ import annotations

import dataclasses
import json
from importlib import metadata
from typing import Any

from partialdup.core.config import Config, flag_of, params_of
from partialdup.text.idf import IdfTable

__all__ = ["settings_of", "first_difference"]


def _plain(value: Any) -> Any:
    # JSON has no sets: a frozenset parameter (skip words) is kept sorted.
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, dict):
        return {key: _plain(inner) for key, inner in value.items()}
    return value


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


def settings_of(config: Config, idf: IdfTable, tokenizer: Any) -> dict[str, str]:
    """The ``meta`` rows describing how features are made and searched.

    Args:
        config: The detector's configuration (method included).
        idf: The IDF table (its :meth:`~partialdup.text.idf.IdfTable.fingerprint`).
        tokenizer: The detector's tokenizer (its class names the backend).
    """
    run_only = _run_only()
    flat = {
        f"config.{key}": json.dumps(_plain(value), sort_keys=True)
        for key, value in _flatten(dataclasses.asdict(config))
        if key not in run_only
    }
    # The segmenter's package and version ("jieba 0.42.1", "rjieba 0.2.2").
    segmenter = getattr(tokenizer, "backend", None) or f"jieba {_version('jieba')}"
    backend = f"{type(tokenizer).__module__}.{type(tokenizer).__name__} ({segmenter})"
    return {"method": config.method, **flat, "idf": idf.fingerprint(), "tokenizer": backend}


#: Parameters of how a check reads a store, not of how its documents were
#: indexed: not recorded, so each check may choose (none at present).
_READ_ONLY: set[str] = set()


def _run_only() -> set[str]:
    """Parameters that say how a run is carried out (``--jobs``), never what it
    finds, and those of how a check reads the store (:data:`_READ_ONLY`):
    not recorded, so a store made with one value is read with any other."""
    config = Config()
    names = {f.name for f, info in params_of(config) if info.run_only} | _READ_ONLY
    for group in Config.METHOD_FIELDS:
        names.update(f"{group}.{f.name}" for f, info in params_of(getattr(config, group)) if info.run_only)
    return names


def _flatten(values: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = []
    for key, value in values.items():
        if isinstance(value, dict):
            rows.extend(_flatten(value, f"{prefix}{key}."))
        else:
            rows.append((f"{prefix}{key}", value))
    return rows


def first_difference(stored: dict[str, str], wanted: dict[str, str]) -> str | None:
    """A phrase naming the first setting that differs, or None when all agree.

    Only the keys of ``wanted`` are compared: the store's own rows (schema
    version, writer version) are not settings.
    """
    flags = _flags()
    for key, value in wanted.items():
        if stored.get(key) != value:
            shown = {"idf": "IDF tables", "method": "--method"}.get(key) or flags.get(key) or key.removeprefix("config.")
            return f"{shown}: stored {_short(stored.get(key))}, this run {_short(value)}"
    return None


def _flags() -> dict[str, str]:
    """``config.<name>`` -> its command-line option, for the error line."""
    config = Config()
    flags = {f"config.{f.name}": flag_of(f, info) for f, info in params_of(config)}
    for group in Config.METHOD_FIELDS:
        flags.update({f"config.{group}.{f.name}": flag_of(f, info) for f, info in params_of(getattr(config, group))})
    return flags


def _short(value: str | None) -> str:
    if value is None:
        return "not recorded"
    if value == "null":
        return "the default"
    return value if len(value) <= 40 else value[:12] + "..."
