"""The command line."""

from partialdup.cli.main import main

__all__ = ["main"]
