"""A second look at near misses, on characters.

Low-IDF-Sig gives a short sentence two or three features, and one changed
character (deleted, doubled or replaced: what a light edit does) can change
the words jieba sees and so break one of them; bag-Jaccard then falls to 1/2
or 1/3 while the two sentences are the same but for that character. A pair
the inverted index found (the sentences share features) whose bag-Jaccard
lies below τ but at least at τ / 2 is compared once more on its normalised
letters and digits, and is a copy when their rapidfuzz ``ratio`` reaches
:data:`DEFAULT_MIN_RATIO`. Candidates still come only from the index; only
pairs with both texts known are looked at.
"""

from __future__ import annotations

from rapidfuzz import fuzz

from .refine import Normaliser
from .types import Sentence

__all__ = ["DEFAULT_MIN_RATIO", "NearMissCheck"]

#: Least rapidfuzz ratio (0-100) of the two sentences' normalised letters and
#: digits. One character deleted or doubled in ten gives 95, one replaced 90,
#: a two-character word replaced in twenty 90; two template sentences that
#: differ in what they are about ("显示版本信息并退出" / "显示帮助信息并退出")
#: give 78.
DEFAULT_MIN_RATIO = 90.0


class NearMissCheck:
    """Decides whether a near-miss sentence pair is a copy, on characters.

    Args:
        normalise: The tokenizer's normaliser (NFKC, case folding, Traditional
            to Simplified), so a copy that changed width or script compares
            equal.
        min_ratio: Least rapidfuzz ratio, 0-100.
    """

    def __init__(self, normalise: Normaliser, min_ratio: float = DEFAULT_MIN_RATIO) -> None:
        if not 0.0 < min_ratio <= 100.0:
            raise ValueError("min_ratio must lie in (0, 100]")
        self.normalise = normalise
        self.min_ratio = min_ratio

    def letters(self, text: str, sentence: Sentence) -> str:
        """A sentence's normalised letters and digits."""
        normalised, _ = self.normalise(text[sentence.start : sentence.end])
        return "".join(char for char in normalised if char.isalnum())

    def same(self, first: str, second: str) -> bool:
        """Whether two sentences' letters agree at ``min_ratio`` or more."""
        return bool(first) and bool(second) and fuzz.ratio(first, second, score_cutoff=self.min_ratio) >= self.min_ratio
