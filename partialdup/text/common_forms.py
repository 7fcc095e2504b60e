"""One form of each Chinese word for Taiwan and mainland usage.

Taiwan and mainland usage differ in words, not only in characters (檔案/文件,
使用者/用户, 預設/默认). Converting each word to Taiwan phrasing and back
(OpenCC ``s2twp``, then ``tw2sp``) gives both usages one form. The
:class:`~partialdup.text.tokens.Tokenizer` does it per token, after
segmentation: a whole-text phrase conversion would change lengths and lose
the offsets.

The converters (a twentieth of a second to load) are made when first
needed: text without Han characters never needs them. ``s2twp`` is loaded
from :data:`S2TWP`, OpenCC's own dictionaries with each group of phrase
dictionaries merged into one file (``scripts/build_opencc_s2twp.py``): the
same conversion in 12 MB of a process instead of 43. The stock ``s2twp``
stays the reference the tests compare it with. They are files of
partialdup's own, made from one OpenCC's dictionaries (``PROVENANCE.txt``
names it); ``tw2sp`` is the installed OpenCC's. Each word's form is
remembered, and the new words of a call are converted together (one OpenCC
call for all: a call costs more than converting a word).
"""

from __future__ import annotations

from itertools import filterfalse
from pathlib import Path
from typing import Any, Iterable, Sequence

__all__ = ["S2TWP", "CommonForms", "opencc_converter"]

#: OpenCC's ``s2twp``, its groups of phrase dictionaries merged (see the module notes).
S2TWP = Path(__file__).resolve().parent / "data" / "opencc" / "s2twp.json"

#: What joins the words converted in one OpenCC call (see CommonForms.converted).
_LINE = "\n"


def opencc_converter(config: str):  # type: ignore[no-untyped-def]
    """An OpenCC converter (``t2s``, ``s2twp``, ``tw2sp``..., or a configuration file's path)."""
    import opencc  # imported here: nothing is loaded at import time

    return opencc.OpenCC(config)


class CommonForms:
    """The common form of Chinese words, each word's remembered."""

    def __init__(self) -> None:
        self._converters: tuple[Any, Any] | None = None
        self._forms: dict[str, str] = {}

    @property
    def loaded(self) -> bool:
        """Whether the converters are loaded (see :meth:`load`)."""
        return self._converters is not None

    def load(self) -> None:
        """Load the converters now, not at the first word (a process forked
        afterwards inherits them instead of loading its own)."""
        if self._converters is None:
            self._converters = (opencc_converter(str(S2TWP)), opencc_converter("tw2sp"))

    def unload(self) -> None:
        """Let the converters go (the next new word loads them again); the
        forms met so far are kept."""
        self._converters = None

    def of(self, word: str) -> str:
        """The common form of ``word``."""
        form = self._forms.get(word)
        if form is None:
            form = self._forms[word] = self.convert(word)
        return form

    def of_all(self, words: Iterable[str]) -> dict[str, str]:
        """The common form of each of ``words``, looked up in the returned
        mapping (which holds every word met so far); the new words
        converted together (:meth:`converted`)."""
        forms = self._forms
        new = list(filterfalse(forms.__contains__, words))
        if new:
            forms.update(zip(new, self.converted(new)))
        return forms

    def converted(self, words: Sequence[str]) -> list[str]:
        """:meth:`convert` of each word, with two OpenCC calls for all: the
        words joined by line breaks (a third of the Chinese bench corpus's
        tokenization went to one call per word).

        The same forms as one call per word: OpenCC cuts its input into the
        longest phrases of its dictionaries from left to right, and no phrase
        holds a line break (the dictionaries are lines of text), so every
        line break is a piece of its own, converted to itself, and the pieces
        between are those of each word alone. A property test checks it.
        """
        joined = _LINE.join(words)
        if joined.count(_LINE) != len(words) - 1:  # a word holding a line break: never expected
            return [self.convert(word) for word in words]
        forms = self.convert(joined).split(_LINE)
        if len(forms) != len(words):  # never expected (see above): then one word at a time
            return [self.convert(word) for word in words]
        return forms

    def convert(self, text: str) -> str:
        """``text`` to Taiwan phrasing and back (the plain reference, not remembered)."""
        self.load()
        to_taiwan, to_mainland = self._converters  # type: ignore[misc]
        return to_mainland.convert(to_taiwan.convert(text))  # type: ignore[no-any-return]
