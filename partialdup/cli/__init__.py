"""The command line."""

from partialdup.cli.main import main, run

__all__ = ["main", "run"]
