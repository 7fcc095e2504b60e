"""NLTK's Punkt sentence tokenizer, imported without SciPy's statistics, and
its patterns run without NLTK's time-out wrapper.

Importing any part of NLTK runs ``nltk/__init__``, which imports nearly all
of NLTK; its collocation measures import ``scipy.stats`` at import time for
one function (``fisher_exact``), and that costs about 0.7 s of every run's
start (a third of ``partialdup detect``'s time to its first document). Punkt
needs none of it. So while NLTK is first imported, ``scipy.stats`` is made
unimportable (NLTK then keeps a stand-in, as it does when SciPy is missing),
and the stand-in is replaced by one that imports ``scipy.stats`` when called:
NLTK's Fisher test still works for anyone who calls it, at their cost, not at
every start.

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

import sys
from typing import Any

__all__ = ["PunktParameters", "PunktSentenceTokenizer", "PlainLanguageVars", "PlainToken", "punkt_tokenizer"]


def _fisher_exact(*args: Any, **kwargs: Any) -> Any:
    from scipy.stats import fisher_exact

    return fisher_exact(*args, **kwargs)


def _import_nltk_without_scipy_stats() -> None:
    if "nltk" in sys.modules or "scipy.stats" in sys.modules:
        return  # already paid for, or NLTK already set up by someone else
    sys.modules["scipy.stats"] = None  # type: ignore[assignment]  # "not importable"
    try:
        import nltk  # noqa: F401
    except ImportError:
        # Some NLTK needs scipy.stats outright: forget the half-made import;
        # the plain import below pays for SciPy.
        for name in [name for name in sys.modules if name == "nltk" or name.startswith("nltk.")]:
            del sys.modules[name]
        return
    finally:
        del sys.modules["scipy.stats"]
    association = sys.modules.get("nltk.metrics.association")
    if association is not None:
        association.fisher_exact = _fisher_exact  # type: ignore[attr-defined]


_import_nltk_without_scipy_stats()

from nltk.tokenize import punkt as _punkt  # noqa: E402
from nltk.tokenize.punkt import (  # noqa: E402
    PunktLanguageVars,
    PunktParameters,
    PunktSentenceTokenizer,
    PunktToken,
)


def _unwrapped(pattern: Any) -> Any:
    # nltk.redos.TimedPattern keeps the compiled ``regex`` pattern as ``_rx``;
    # an NLTK without the wrapper has plain patterns already.
    return getattr(pattern, "_rx", pattern)


class PlainLanguageVars(PunktLanguageVars):
    """NLTK's English language variables, their patterns unwrapped."""

    re_boundary_realignment = _unwrapped(PunktLanguageVars.re_boundary_realignment)

    def _word_tokenizer_re(self) -> Any:
        pattern = super()._word_tokenizer_re()
        if pattern is not _unwrapped(pattern):
            pattern = self._re_word_tokenizer = _unwrapped(pattern)  # unwrapped once
        return pattern

    def period_context_re(self) -> Any:
        pattern = super().period_context_re()
        if pattern is not _unwrapped(pattern):
            pattern = self._re_period_context = _unwrapped(pattern)
        return pattern


_NON_PUNCT = _unwrapped(getattr(_punkt, "_re_non_punct"))


class PlainToken(PunktToken):
    """NLTK's Punkt token, its patterns unwrapped."""

    __slots__ = ()

    _RE_ELLIPSIS = _unwrapped(PunktToken._RE_ELLIPSIS)
    _RE_NUMERIC = _unwrapped(PunktToken._RE_NUMERIC)
    _RE_INITIAL = _unwrapped(PunktToken._RE_INITIAL)
    _RE_ALPHA = _unwrapped(PunktToken._RE_ALPHA)

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
