"""Whether a Punkt context holds a sentence break, without NLTK's token objects.

:class:`~partialdup.text.punkt_ends.PunktEnds` asks Punkt's verdict on the few
words around each candidate end (``text_contains_sentbreak``). NLTK answers by
making a ``PunktToken`` per word (every annotation set by ``setattr``, each
property a call) and chaining three generators: on the English bench corpus
the verdicts took 0.53-0.96 s of the 2.43-2.72 s of CPU its splitting took,
about half of it in those objects (docs/benchmark.md, session 36).
:class:`PunktVerdict` takes the same decisions (NLTK 3.10's first and second
annotation passes: abbreviations, ellipses, collocations, the orthographic and
sentence-starter heuristics, initials and numbers) on plain strings, with the
tokenizer's own parameters and patterns. :func:`punkt_verdict_py` is the
reference, NLTK's own method; tests prove both agree on every context of the
real documents and on generated ones.
"""

from __future__ import annotations

from typing import Any

from partialdup.text.punkt import unwrapped

__all__ = ["PunktVerdict", "punkt_verdict_py"]

# First-pass annotations of a token (NLTK sets at most one of its flags).
_PLAIN, _BREAK, _ABBREVIATION, _ELLIPSIS = range(4)

# The token and language-variable members the decisions below stand for:
# a tokenizer whose classes replace one of them is asked through NLTK.
_TOKEN_MEMBERS = ("__init__", "_get_type", "type_no_period", "type_no_sentperiod", "first_upper", "first_lower",
                  "is_ellipsis", "is_initial", "is_number")
_TOKENIZER_MEMBERS = ("text_contains_sentbreak", "_annotate_tokens", "_annotate_first_pass", "_first_pass_annotation",
                      "_annotate_second_pass", "_second_pass_annotation", "_ortho_heuristic", "_tokenize_words")


def punkt_verdict_py(tokenizer: Any, context: str) -> bool:
    """The reference: NLTK's ``text_contains_sentbreak`` of ``context``."""
    return bool(tokenizer.text_contains_sentbreak(context))


class PunktVerdict:
    """:func:`punkt_verdict_py`, decided on plain strings.

    Args:
        tokenizer: A :class:`~nltk.tokenize.punkt.PunktSentenceTokenizer`
            (its parameters, language variables and token patterns are used).

    Raises:
        TypeError: The tokenizer's classes replace a member whose decision
            this follows (:meth:`serves` says so beforehand).
    """

    def __init__(self, tokenizer: Any) -> None:
        if not self.serves(tokenizer):
            raise TypeError("the tokenizer's classes change Punkt's decisions: ask NLTK (punkt_verdict_py)")
        from nltk.tokenize import punkt  # imported already: the tokenizer is NLTK's

        # NLTK's bits of a type's orthographic context.
        self._lc, self._mid_uc = punkt._ORTHO_LC, punkt._ORTHO_MID_UC
        self._uc, self._beg_lc = punkt._ORTHO_UC, punkt._ORTHO_BEG_LC
        params, lang_vars, token = tokenizer._params, tokenizer._lang_vars, tokenizer._Token
        self._words = unwrapped(lang_vars._word_tokenizer_re()).findall
        self._ends = lang_vars.sent_end_chars  # as NLTK reads them (``in``)
        self._punctuation = tokenizer.PUNCTUATION
        self._abbreviations = params.abbrev_types
        self._collocations = params.collocations
        self._starters = params.sent_starters
        self._ortho = params.ortho_context
        self._ellipsis = unwrapped(token._RE_ELLIPSIS).match
        self._numeric = unwrapped(token._RE_NUMERIC).sub
        self._initial = unwrapped(token._RE_INITIAL).match

    @staticmethod
    def serves(tokenizer: Any) -> bool:
        """Whether the tokenizer decides as NLTK's own classes do (its
        patterns may differ in wrapping, not in members)."""
        from nltk.tokenize import punkt

        token, lang_vars = tokenizer._Token, tokenizer._lang_vars
        return (
            issubclass(token, punkt.PunktToken)
            and all(getattr(token, name) is getattr(punkt.PunktToken, name) for name in _TOKEN_MEMBERS)
            and all(
                getattr(type(tokenizer), name) is getattr(punkt.PunktSentenceTokenizer, name) for name in _TOKENIZER_MEMBERS
            )
            and type(lang_vars).word_tokenize is punkt.PunktLanguageVars.word_tokenize
        )

    def __call__(self, context: str) -> bool:
        """Whether a token of ``context`` other than its last ends a sentence."""
        tokens: list[str] = []
        for line in context.split("\n"):
            if line.strip():
                tokens += self._words(line)
        if len(tokens) < 2:
            return False
        first = self._first_pass(tokens[0])
        for token, following in zip(tokens, tokens[1:]):
            after = self._first_pass(following)
            if self._breaks(token, first, following, after):
                return True
            first = after
        return False

    def _first_pass(self, token: str) -> int:
        """NLTK's ``_first_pass_annotation``, on the token's type alone."""
        if token in self._ends:
            return _BREAK
        if self._ellipsis(token):
            return _ELLIPSIS
        if token.endswith(".") and not token.endswith(".."):
            word = token[:-1].lower()
            if word in self._abbreviations or word.split("-")[-1] in self._abbreviations:
                return _ABBREVIATION
            return _BREAK
        return _PLAIN

    def _type(self, token: str) -> str:
        return self._numeric("##number##", token.lower())  # type: ignore[no-any-return]

    def _breaks(self, token: str, first: int, following: str, after: int) -> bool:
        """Whether ``token`` ends a sentence once NLTK's second pass
        (``_second_pass_annotation``) has seen ``following``; ``first`` and
        ``after``: their first-pass annotations."""
        if not token.endswith("."):
            return first == _BREAK
        kind = _no_period(self._type(token))
        next_kind = self._type(following)
        if after == _BREAK:
            next_kind = _no_period(next_kind)
        initial = self._initial(token)
        if (kind, next_kind) in self._collocations:
            return False
        if first in (_ABBREVIATION, _ELLIPSIS) and not initial:
            if self._starts_sentence(following, next_kind) is True:
                return True
            if following[0].isupper() and next_kind in self._starters:
                return True
        if initial or kind == "##number##":
            starts = self._starts_sentence(following, next_kind)
            if starts is False:
                return False
            if starts is None and initial and following[0].isupper() and not (self._ortho.get(next_kind, 0) & self._lc):
                return False
        return first == _BREAK

    def _starts_sentence(self, token: str, kind: str) -> bool | None:
        """NLTK's ``_ortho_heuristic`` (None: "unknown"). The context is read
        without adding the type to the parameters, as NLTK's defaultdict does."""
        if token in self._punctuation:
            return False
        ortho = self._ortho.get(kind, 0)
        if token[0].isupper() and ortho & self._lc and not ortho & self._mid_uc:
            return True
        if token[0].islower() and (ortho & self._uc or not ortho & self._beg_lc):
            return False
        return None


def _no_period(kind: str) -> str:
    """A type with its final period removed (``type_no_period``)."""
    return kind[:-1] if len(kind) > 1 and kind[-1] == "." else kind
