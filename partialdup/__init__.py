"""partialdup: find passages copied between documents.

The public API::

    from partialdup import Config, Document, load_idf, make_detector

    idf = load_idf()  # the bundled zh + en IDF tables, loaded once
    detector = make_detector("low-idf-sig", idf, Config(threshold=0.6, gap=3))
    detection = detector.detect([Document("a", text_a), Document("b", text_b)])

Names are imported on first use (PEP 562), so ``import partialdup`` and the
command line's ``--help`` stay fast: jieba, NLTK and SciPy load only when a
detector is made.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = [
    "Config",
    "LowIdfSigParams",
    "ShingleParams",
    "IMatchParams",
    "SpotSigParams",
    "Detector",
    "Detection",
    "Document",
    "Span",
    "SentencePair",
    "RunStats",
    "PartialdupError",
    "InputError",
    "ConfigError",
    "load_idf",
    "make_detector",
    "method_names",
    "read_documents",
    "__version__",
]

__version__ = "0.1.0"

#: Where each public name lives (imported when first asked for).
_HOMES = {
    "Config": "partialdup.core.config",
    "LowIdfSigParams": "partialdup.core.config",
    "ShingleParams": "partialdup.core.config",
    "IMatchParams": "partialdup.core.config",
    "SpotSigParams": "partialdup.core.config",
    "Document": "partialdup.core.types",
    "Span": "partialdup.core.types",
    "SentencePair": "partialdup.core.types",
    "RunStats": "partialdup.core.types",
    "PartialdupError": "partialdup.core.errors",
    "InputError": "partialdup.core.errors",
    "ConfigError": "partialdup.core.errors",
    "load_idf": "partialdup.text.resources",
    "method_names": "partialdup.methods",
    "Detector": "partialdup.pipeline.detector",
    "Detection": "partialdup.pipeline.detector",
    "make_detector": "partialdup.pipeline.factory",
    "read_documents": "partialdup.io.reader",
}

if TYPE_CHECKING:  # for type checkers and IDEs; at run time __getattr__ imports lazily
    from partialdup.core.config import Config, IMatchParams, LowIdfSigParams, ShingleParams, SpotSigParams
    from partialdup.core.errors import ConfigError, InputError, PartialdupError
    from partialdup.core.types import Document, RunStats, SentencePair, Span
    from partialdup.io.reader import read_documents
    from partialdup.methods import method_names
    from partialdup.pipeline.detector import Detection, Detector
    from partialdup.pipeline.factory import make_detector
    from partialdup.text.resources import load_idf


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'partialdup' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
