"""Command-line options derived from :class:`~partialdup.core.config.Config`.

Every parameter declared with :func:`partialdup.core.config.param` becomes
an option here, with its help text and default: nothing is written out by
hand, so a new parameter reaches ``detect``, ``check``, ``pan`` and ``eval``
by being declared once. ``eval`` takes each numeric option with one or more
values and scores every combination.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any, Iterator

from partialdup.core.config import Config, ParamInfo, flag_of, params_of

__all__ = ["add_config_options", "config_from_args", "sweeps_from_args", "default_unless_given"]

_PREFIX = "config:"


def _declared(config: Config) -> Iterator[tuple[str, dataclasses.Field, ParamInfo, Any]]:
    """(dotted name, field, info, default) of every command-line parameter."""
    for f, info in params_of(config):
        if info.cli:
            yield f.name, f, info, getattr(config, f.name)
    for group in Config.METHOD_FIELDS:
        params = getattr(config, group)
        for f, info in params_of(params):
            if info.cli:
                yield f"{group}.{f.name}", f, info, getattr(params, f.name)


def _help(info: ParamInfo, default: Any) -> str:
    if isinstance(default, bool):
        return info.help
    shown = f"{default:g}" if isinstance(default, float) else default
    off = f"; {info.off} = off" if info.off is not None else ""
    return f"{info.help} (default {shown}{off})" if default not in (None, "") else info.help


def add_config_options(parser: argparse.ArgumentParser, *, sweep: bool = False) -> None:
    """Add an option for every parameter of :class:`Config`.

    Args:
        parser: The (sub)command's parser.
        sweep: ``eval``: numeric options take one or more values.
    """
    defaults = Config()
    group = parser.add_argument_group("detector parameters")
    for name, f, info, default in _declared(defaults):
        flag, dest = flag_of(f, info), _PREFIX + name
        if isinstance(default, bool):
            group.add_argument(flag, dest=dest, action="store_const", const=not default, default=argparse.SUPPRESS, help=_help(info, default))
            continue
        kind = type(default) if default is not None else float
        metavar = f.name.upper()
        group.add_argument(
            flag, dest=dest, type=kind, default=argparse.SUPPRESS, metavar=metavar,
            nargs="+" if sweep and info.sweep else None, help=_help(info, default),
        )


def _given(args: argparse.Namespace) -> dict[str, Any]:
    return {key[len(_PREFIX):]: value for key, value in vars(args).items() if key.startswith(_PREFIX)}


def default_unless_given(args: argparse.Namespace, name: str, value: Any) -> argparse.Namespace:
    """Give a parameter another default for one command (the jobs turn the
    boilerplate rule off) while an option the user gave still wins."""
    if not hasattr(args, _PREFIX + name):
        setattr(args, _PREFIX + name, value)
    return args


def config_from_args(args: argparse.Namespace, method: str | None = None) -> Config:
    """The configuration the options describe (defaults for those not given).

    Raises:
        ConfigError: A value is out of range (names the option).
    """
    values = _given(args)
    if method is not None:
        values["method"] = method
    return Config().changed(values)


def sweeps_from_args(args: argparse.Namespace) -> tuple[Config, dict[str, list[Any]]]:
    """``eval``: the fixed parameters as a Config, and the swept ones' values.

    Raises:
        ConfigError: A value is out of range (each is checked before any work).
    """
    fixed: dict[str, Any] = {}
    sweeps: dict[str, list[Any]] = {}
    for name, value in _given(args).items():
        if isinstance(value, list) and len(value) > 1:
            for one in value:  # each value alone must be valid
                Config().changed({name: one})
            sweeps[name] = value
        else:
            fixed[name] = value[0] if isinstance(value, list) else value
    return Config().changed(fixed), sweeps
