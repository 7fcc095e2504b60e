"""Errors a user can cause: each carries one line that names the file (and line).

The command line prints such an error as ``partialdup: error: <message>`` and
exits with 2; anything else is a bug (exit 1). Every layer raises these, so
they live at the bottom.
"""

from __future__ import annotations

__all__ = ["PartialdupError", "InputError", "ConfigError", "IdfFormatError", "PanFormatError"]


class PartialdupError(Exception):
    """A user error; ``str(error)`` is the one-line message."""


class InputError(PartialdupError):
    """A document, file or folder that cannot be read (message names it)."""


class ConfigError(PartialdupError, ValueError):
    """A parameter out of its range (message names the parameter)."""


class IdfFormatError(PartialdupError, ValueError):
    """A malformed IDF table (message names the file and line)."""


class PanFormatError(PartialdupError, ValueError):
    """A malformed PAN pairs file or XML (message names the file and line)."""
