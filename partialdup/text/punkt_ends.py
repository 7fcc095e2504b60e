"""Where NLTK's Punkt ends sentences, computed in one loop per text.

:meth:`nltk.tokenize.punkt.PunktSentenceTokenizer.span_tokenize` chains
three generators (potential end contexts, slices, realigned slices) and
re-annotates the words around every candidate period, though the verdict
depends on those few words alone. On Debian documentation that framework,
not the decisions, is most of English splitting's cost. :class:`PunktEnds`
runs the same three steps as plain loops over the same compiled patterns
(taken from the tokenizer, not copied) and asks the tokenizer for each
distinct context's verdict once, remembering it. :func:`punkt_ends_py` is the
reference, NLTK's own ``span_tokenize``; a test proves both agree on real
text. The verdicts are decided on plain strings
(:class:`~partialdup.text.punkt_verdict.PunktVerdict`) where the tokenizer's
classes are NLTK's.
"""

from __future__ import annotations

import string
from functools import partial
from typing import Any, Callable

from partialdup.text.punkt_verdict import PunktVerdict, punkt_verdict_py

__all__ = ["PROVEN_NLTK", "PunktEnds", "punkt_ends_py"]

#: Verdicts remembered per tokenizer; the memory is emptied when full (the
#: verdict is a pure function of the context, so this changes no output).
VERDICT_CACHE_SIZE = 1 << 16

#: The NLTK release (major.minor) whose ``span_tokenize`` the loops follow,
#: proven equal by tests/text/test_punkt_ends.py on every real document.
PROVEN_NLTK = "3.10"

# NLTK's _get_last_whitespace_index looks for these (ASCII) characters only.
_SPACE, _TAB, _LF, _CR, _VT, _FF = string.whitespace


def punkt_ends_py(tokenizer: Any, text: str) -> list[int]:
    """The reference: the end of every span NLTK's ``span_tokenize`` yields."""
    return [end for _, end in tokenizer.span_tokenize(text)]


class PunktEnds:
    """The ends of Punkt's sentence spans in a text, as :func:`punkt_ends_py`.

    Args:
        tokenizer: A :class:`~nltk.tokenize.punkt.PunktSentenceTokenizer`
            (its patterns and its verdict on a context are used as they are).
    """

    def __init__(self, tokenizer: Any) -> None:
        lang_vars = tokenizer._lang_vars
        self._period_context = lang_vars.period_context_re()
        self._realignment = lang_vars.re_boundary_realignment
        self._contains_sentbreak: Callable[[str], bool] = (
            PunktVerdict(tokenizer) if PunktVerdict.serves(tokenizer) else partial(punkt_verdict_py, tokenizer)
        )
        self._verdicts: dict[str, bool] = {}

    @staticmethod
    def proven(nltk_version: str | None = None) -> bool:
        """Whether the loops were proven equal to this NLTK's own (the
        installed one when None): they follow NLTK 3.10's ``span_tokenize``;
        with another release the splitter uses NLTK's (slower, the same
        sentences as that release gives)."""
        if nltk_version is None:
            from partialdup.text.punkt import nltk_version as installed

            nltk_version = installed()
        return nltk_version.split(".")[:2] == PROVEN_NLTK.split(".")

    def __getstate__(self) -> dict[str, Any]:
        # The remembered verdicts stay behind: a pickled splitter (sent to a
        # worker) need not carry up to VERDICT_CACHE_SIZE strings.
        return {**self.__dict__, "_verdicts": {}}

    def __call__(self, text: str) -> list[int]:
        """The end offset of each sentence span of ``text``, in order."""
        return self._realigned_ends(text, self._slices(text))

    def _verdict(self, context: str) -> bool:
        verdict = self._verdicts.get(context)
        if verdict is None:
            if len(self._verdicts) >= VERDICT_CACHE_SIZE:
                self._verdicts.clear()
            verdict = self._verdicts[context] = self._contains_sentbreak(context)
        return verdict

    def _slices(self, text: str) -> list[tuple[int, int]]:
        """NLTK's ``_slices_from_text`` over ``_match_potential_end_contexts``."""
        slices: list[tuple[int, int]] = []
        last_break = 0
        prev_match = None
        prev_start = prev_stop = 0  # the word before the previous match
        for match in self._period_context.finditer(text):
            match_start = match.start()
            # The previous word starts after the last ASCII whitespace between
            # the previous match's word and this match; NLTK reads a space
            # found at that gap's very first index as "none found".
            space = max(
                text.rfind(_SPACE, prev_stop, match_start),
                text.rfind(_LF, prev_stop, match_start),
                text.rfind(_TAB, prev_stop, match_start),
                text.rfind(_CR, prev_stop, match_start),
                text.rfind(_VT, prev_stop, match_start),
                text.rfind(_FF, prev_stop, match_start),
            )
            word_start = space + 1 if space > prev_stop else prev_start
            if prev_match is not None and prev_stop <= word_start:
                last_break = self._judge(text, prev_match, prev_start, prev_stop, last_break, slices)
            prev_match = match
            prev_start, prev_stop = word_start, match_start
        if prev_match is not None:
            last_break = self._judge(text, prev_match, prev_start, prev_stop, last_break, slices)
        slices.append((last_break, len(text.rstrip())))
        return slices

    def _judge(
        self, text: str, match: Any, word_start: int, word_stop: int, last_break: int, slices: list[tuple[int, int]]
    ) -> int:
        """Appends the slice a potential end closes, if it is one; the next break."""
        context = text[word_start:word_stop] + match.group() + match.group("after_tok")
        if not self._verdict(context):
            return last_break
        slices.append((last_break, match.end()))
        return match.start("next_tok") if match.group("next_tok") else match.end()

    def _realigned_ends(self, text: str, slices: list[tuple[int, int]]) -> list[int]:
        """NLTK's ``_realign_boundaries``, keeping only the ends."""
        ends: list[int] = []
        realign = 0
        last = len(slices) - 1
        for i, (start, stop) in enumerate(slices):
            start += realign
            if i == last:
                if start < stop:
                    ends.append(stop)
                break
            next_start, next_stop = slices[i + 1]
            m = self._realignment.match(text[next_start:next_stop])
            if m:
                ends.append(next_start + len(m.group(0).rstrip()))
                realign = m.end()
            else:
                realign = 0
                if start < stop:
                    ends.append(stop)
        return ends
