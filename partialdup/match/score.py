"""A span's score: how much of the passage is copied.

The score of a span is the similarity of its two sides' text: their
normalised letters and digits (the tokenizer's NFKC, case folding and
Traditional to Simplified; white space and punctuation dropped) compared
with rapidfuzz ``ratio`` (normalised Indel similarity), divided by 100. A
verbatim copy scores 1.0 whatever its sentence pairs' bag-Jaccard (a
sentence found inside a longer one, whose pair has a bag-Jaccard of 1/3,
scores 1.0 once refinement has trimmed the longer side to it); a copy with
one word in five changed scores about 0.85; a copy converted to the other
script or to full width scores 1.0. Each pair keeps its bag-Jaccard.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from partialdup.match.refine import Normaliser

__all__ = ["passage_similarity", "letters", "normalised_letters"]

# Everything but letters and digits: \w is str.isalnum() plus the underscore
# (both test Py_UNICODE_ISALNUM); a property test checks they agree.
_NOT_LETTERS = re.compile(r"[\W_]+")


# The same for ASCII text (most English sentences), by one table look-up a
# character instead of a match for every run of spaces and punctuation:
# half the time on English sentences.
_ASCII_NOT_LETTERS = {code: None for code in range(128) if not chr(code).isalnum()}


def letters(text: str) -> str:
    """The letters and digits of a text, everything else dropped."""
    if text.isascii():
        return text.translate(_ASCII_NOT_LETTERS)
    return _NOT_LETTERS.sub("", text)


def normalised_letters(text: str, normalise: Normaliser) -> str:
    """The letters and digits of a text after the tokenizer's normalisation
    (NFKC, case folding, Traditional to Simplified): what the character checks compare."""
    return letters(normalise(text)[0])


def passage_similarity(first: str, second: str, normalise: Normaliser) -> float:
    """Similarity of two passages' normalised letters and digits, 0..1 (6 decimals).

    Two passages without letters or digits (a rule line, punctuation) score
    1.0 when their text is the same, else 0.0.
    """
    a, b = normalised_letters(first, normalise), normalised_letters(second, normalise)
    if a == b:
        return 1.0 if a or first.strip() == second.strip() else 0.0
    if not a or not b:
        return 0.0
    return round(fuzz.ratio(a, b) / 100.0, 6)
