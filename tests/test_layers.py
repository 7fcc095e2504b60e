"""The layer contract: a module never imports from a layer above its own.

The layers are read from pyproject.toml (the import-linter contract that CI
also runs as ``lint-imports``), so they are declared once. This test walks
every module's imports with :mod:`ast`, including imports inside functions
(lazy ones count), and a second test shows it catches an upward import.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.paths import REPO

PACKAGE = REPO / "partialdup"


def layers() -> list[set[str]]:
    """Top to bottom; each layer a set of package names (parentheses dropped)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    [contract] = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    return [{part.strip().strip("()") for part in line.split("|")} for line in contract["layers"]]


def rank_of(module: str, ranks: dict[str, int]) -> int | None:
    parts = module.split(".")
    return ranks.get(".".join(parts[:2])) if len(parts) >= 2 else None


def imported_modules(source: str, module: str) -> list[str]:
    """Absolute names of the partialdup modules a module's source imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the importing module
                base = ".".join(module.split(".")[: -node.level] + ([base] if base else []))
            found.append(base)
            found.extend(f"{base}.{alias.name}" for alias in node.names)
    return [name for name in found if name.startswith("partialdup.")]


def upward_imports(sources: dict[str, str], order: list[set[str]]) -> list[str]:
    """``importer -> imported`` for every import of a higher layer, or across one line's independent layers."""
    ranks = {name: rank for rank, names in enumerate(order) for name in names}
    wrong = []
    for module, source in sources.items():
        own = rank_of(module, ranks)
        if own is None:
            continue  # the root package's lazy public API sits above every layer
        for name in imported_modules(source, module):
            other = rank_of(name, ranks)
            if other is None:
                continue
            sibling = other == own and name.split(".")[1] != module.split(".")[1]
            if other < own or sibling:
                wrong.append(f"{module} -> {name}")
    return wrong


def package_sources() -> dict[str, str]:
    sources = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        sources[module] = path.read_text(encoding="utf-8")
    return sources


def test_every_module_imports_only_downwards():
    assert upward_imports(package_sources(), layers()) == []


def test_an_upward_import_is_caught():
    sources = {
        "partialdup.match.spans": "from partialdup.pipeline.detector import Detector\n",
        "partialdup.core.types": "def late():\n    from partialdup.text import tokens\n",
        "partialdup.io.reader": "from partialdup.eval import metrics\n",
        "partialdup.text.tokens": "from ..core import chars\n",
    }
    assert upward_imports(sources, layers()) == [
        "partialdup.match.spans -> partialdup.pipeline.detector",
        "partialdup.match.spans -> partialdup.pipeline.detector.Detector",
        "partialdup.core.types -> partialdup.text",
        "partialdup.core.types -> partialdup.text.tokens",
        "partialdup.io.reader -> partialdup.eval",
        "partialdup.io.reader -> partialdup.eval.metrics",
    ]


@pytest.mark.skipif(shutil.which("lint-imports") is None, reason="import-linter not installed")
def test_import_linter_keeps_the_contract():
    result = subprocess.run(["lint-imports"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-2000:]
