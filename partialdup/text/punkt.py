"""NLTK's Punkt sentence tokenizer, imported without the rest of NLTK, and
its patterns run without NLTK's time-out wrapper.

Importing any part of NLTK runs ``nltk/__init__``, which imports nearly all
of NLTK (245 modules, SciPy's statistics among them), and
``nltk/tokenize/__init__`` every tokenizer: 0.6 to 0.8 s at every start of
a run, most of which Punkt does not need. So while NLTK has not been
imported, ``nltk`` and ``nltk.tokenize`` are first put in place as their
packages alone, their ``__init__`` not run (:func:`_import_punkt_alone`),
and Punkt is imported from them. The first attribute anyone asks of such a
package that it lacks (``nltk.word_tokenize``, ``from nltk import
sent_tokenize``, ``nltk.__version__``) runs its ``__init__`` in it then, in
place (one thread runs it, threads asking meanwhile wait for it): the same
module object becomes the whole package, at that caller's cost, not at every
start; a submodule asked for is imported alone. An NLTK imported before is
used as it is.

NLTK (3.9.3 on) runs every pattern of Punkt through ``nltk.redos``: a
wrapper that calls the ``regex`` engine with a wall-clock time-out, meant for
patterns a caller supplies. Punkt's own patterns are fixed; the wrapper's
frames and time checks cost about a fifth of splitting English text.
:func:`punkt_tokenizer` gives Punkt the same compiled ``regex`` patterns
unwrapped (:class:`PlainLanguageVars`, :class:`PlainToken`): the same
engine, pattern and flags, so the same sentences (a test checks it against
NLTK's own classes, the reference).
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
from types import ModuleType
from typing import Any, Callable

__all__ = [
    "PunktParameters", "PunktSentenceTokenizer", "PlainLanguageVars", "PlainToken", "nltk_version", "punkt_tokenizer",
    "unwrapped",
]


def _import_punkt_alone() -> None:
    """Put ``nltk`` and ``nltk.tokenize`` in place as their packages alone
    (see the module notes)."""
    if "nltk" in sys.modules:
        return  # already imported (whole, or as here)
    for name in ("nltk", "nltk.tokenize"):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return  # no NLTK package: the import below says so
        package = importlib.util.module_from_spec(spec)
        package.__getattr__ = _whole_on_first_use(package)  # type: ignore[method-assign]  # PEP 562
        sys.modules[name] = package
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, package)  # as the import system binds a submodule


def _whole_on_first_use(package: ModuleType) -> Callable[[str], Any]:
    # One thread runs __init__; another asking meanwhile waits for it. The
    # hook stays until __init__ has run (its own ``from nltk import data``
    # comes here); then it goes, and a missing name is an AttributeError.
    lock = threading.RLock()
    started = False

    def __getattr__(name: str) -> Any:
        nonlocal started
        # A submodule not imported yet (``from nltk import data`` asks first
        # whether the package has it): imported, as the import system would.
        submodule = f"{package.__name__}.{name}"
        if not name.startswith("__") and importlib.util.find_spec(submodule) is not None:
            return importlib.import_module(submodule)
        # A name the package's __init__ would have set: run it now, in this
        # module (its submodules already imported are used as they are).
        with lock:
            if not started:
                started = True
                package.__spec__.loader.exec_module(package)  # type: ignore[union-attr]
                vars(package).pop("__getattr__", None)
        return object.__getattribute__(package, name)

    return __getattr__


def nltk_version() -> str:
    """``nltk.__version__``; while NLTK is its package alone, read as
    ``nltk/__init__`` reads it (its VERSION file), without running the rest."""
    package = sys.modules["nltk"]
    if "__version__" in vars(package):
        return str(package.__version__)
    try:
        with open(os.path.join(package.__path__[0], "VERSION"), encoding="utf-8") as version:
            return version.read().strip()
    except OSError as error:
        return f"unknown ({error})"


_import_punkt_alone()

from nltk.tokenize import punkt as _punkt  # noqa: E402
from nltk.tokenize.punkt import (  # noqa: E402
    PunktLanguageVars,
    PunktParameters,
    PunktSentenceTokenizer,
    PunktToken,
)


def unwrapped(pattern: Any) -> Any:
    """The compiled ``regex`` pattern inside an ``nltk.redos.TimedPattern``
    (its ``_rx``); a pattern of an NLTK without the wrapper as it is."""
    return getattr(pattern, "_rx", pattern)


class PlainLanguageVars(PunktLanguageVars):
    """NLTK's English language variables, their patterns unwrapped."""

    re_boundary_realignment = unwrapped(PunktLanguageVars.re_boundary_realignment)

    def _word_tokenizer_re(self) -> Any:
        pattern = super()._word_tokenizer_re()
        if pattern is not unwrapped(pattern):
            pattern = self._re_word_tokenizer = unwrapped(pattern)  # unwrapped once
        return pattern

    def period_context_re(self) -> Any:
        pattern = super().period_context_re()
        if pattern is not unwrapped(pattern):
            pattern = self._re_period_context = unwrapped(pattern)
        return pattern


_NON_PUNCT = unwrapped(getattr(_punkt, "_re_non_punct"))


class PlainToken(PunktToken):
    """NLTK's Punkt token, its patterns unwrapped."""

    __slots__ = ()

    _RE_ELLIPSIS = unwrapped(PunktToken._RE_ELLIPSIS)
    _RE_NUMERIC = unwrapped(PunktToken._RE_NUMERIC)
    _RE_INITIAL = unwrapped(PunktToken._RE_INITIAL)
    _RE_ALPHA = unwrapped(PunktToken._RE_ALPHA)

    @property
    def is_non_punct(self) -> Any:
        """True if the token is either a number or is alphabetic."""
        return _NON_PUNCT.search(self.type)


def punkt_tokenizer(params: PunktParameters, *, plain: bool = True) -> PunktSentenceTokenizer:
    """A Punkt sentence tokenizer with these parameters: with the unwrapped
    patterns (``plain``), or NLTK's own classes (the reference)."""
    if not plain:
        return PunktSentenceTokenizer(params)
    return PunktSentenceTokenizer(params, lang_vars=PlainLanguageVars(), token_cls=PlainToken)
