"""NLTK's Punkt sentence tokenizer, imported without SciPy's statistics.

Importing any part of NLTK runs ``nltk/__init__``, which imports nearly all
of NLTK; its collocation measures import ``scipy.stats`` at import time for
one function (``fisher_exact``), and that costs about 0.7 s of every run's
start (a third of ``partialdup detect``'s time to its first document). Punkt
needs none of it. So while NLTK is first imported, ``scipy.stats`` is made
unimportable (NLTK then keeps a stand-in, as it does when SciPy is missing),
and the stand-in is replaced by one that imports ``scipy.stats`` when called:
NLTK's Fisher test still works for anyone who calls it, at their cost, not at
every start.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["PunktParameters", "PunktSentenceTokenizer"]


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

from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer  # noqa: E402
