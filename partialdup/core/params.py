"""How a parameter is declared: a dataclass field made with :func:`param`.

:func:`param` records a field's default, range, help text and command-line
flag; :func:`params_of` lists them, and the one configuration
(:mod:`partialdup.core.config`) and the method parameters
(:mod:`partialdup.core.method_params`) are validated from them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Iterator

from partialdup.core.errors import ConfigError

__all__ = ["ParamInfo", "param", "params_of", "flag_of", "check_ranges"]

_INFO = "partialdup.param"


@dataclass(frozen=True)
class ParamInfo:
    """What :func:`param` records about a parameter.

    Attributes:
        help: One line for ``--help`` (the default is appended).
        flag: Its command-line option; for a boolean, the option that
            changes it from its default (``--no-refine`` sets refine False).
        low: Smallest allowed value (inclusive), or None.
        high: Largest allowed value (inclusive), or None.
        above: When True, ``low`` is exclusive (threshold in (0, 1]).
        off: The value that turns the rule off, mentioned in help and errors.
        choices: The allowed values of a string parameter.
        cli: False for parameters the command line does not offer.
        sweep: False for parameters ``eval`` cannot vary within one run
            (the gold set is split into sentences once).
        run_only: True for parameters that say how a run is carried out
            (worker processes, engine), never what it finds: the output is
            byte-identical whatever their value, so stores need not record
            them.
    """

    help: str
    flag: str | None = None
    low: float | None = None
    high: float | None = None
    above: bool = False
    off: Any = None
    choices: tuple[str, ...] = ()
    cli: bool = True
    sweep: bool = True
    run_only: bool = False


def param(default: Any, help: str, **info: Any) -> Any:
    """A dataclass field that is a parameter (see :class:`ParamInfo` for ``info``)."""
    return field(default=default, metadata={_INFO: ParamInfo(help, **info)})


def params_of(cls_or_instance: Any) -> Iterator[tuple[dataclasses.Field, ParamInfo]]:
    """The parameter fields of a params dataclass, in declaration order."""
    for f in dataclasses.fields(cls_or_instance):
        info = f.metadata.get(_INFO)
        if info is not None:
            yield f, info


def flag_of(f: dataclasses.Field, info: ParamInfo) -> str:
    """The command-line option of a parameter (``--min-shared`` for min_shared)."""
    return info.flag or "--" + f.name.replace("_", "-")


def check_ranges(owner: object) -> None:
    """Raise :class:`ConfigError` naming the first parameter out of range."""
    for f, info in params_of(owner):
        value = getattr(owner, f.name)
        if value is None or isinstance(value, (bool, frozenset)):
            continue
        name = flag_of(f, info)
        off = f" ({info.off} turns it off)" if info.off is not None else ""
        if info.choices and value not in info.choices:
            raise ConfigError(f"{name} must be one of {', '.join(info.choices)}, got {value!r}")
        if info.low is not None and (value <= info.low if info.above else value < info.low):
            bound = f"> {info.low:g}" if info.above else f">= {info.low:g}"
            raise ConfigError(f"{name} must be {bound}{off}, got {value:g}")
        if info.high is not None and value > info.high:
            raise ConfigError(f"{name} must be <= {info.high:g}{off}, got {value:g}")
