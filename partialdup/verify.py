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

from collections import defaultdict
from typing import Iterable, Sequence

from rapidfuzz import fuzz

from .pairs import FoundPairs, SentenceKey
from .refine import Normaliser
from .types import DocumentFeatures, Sentence

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

    def add_to(
        self,
        found: FoundPairs,
        near_misses: Iterable[tuple[SentenceKey, SentenceKey, float]],
        first_docs: Sequence[DocumentFeatures],
        second_docs: Sequence[DocumentFeatures],
        skip: tuple[set[SentenceKey], set[SentenceKey]],
        boilerplate: int,
    ) -> None:
        """Record the near misses whose characters agree as copies.

        Args:
            found: The pairs found so far; pairs already there are passed over.
            near_misses: (first sentence, second sentence, bag-Jaccard) of the
                pairs found at half the threshold.
            first_docs: The documents of the first sentences.
            second_docs: The documents of the second sentences (the same list
                in ``detect``).
            skip: Boilerplate sentences of the first and the second side.
            boilerplate: As for whole matches, a sentence that is a near copy
                of sentences in this many other documents or more is a
                template, not a copy (0: no limit).
        """
        letters: dict[tuple[int, SentenceKey], str | None] = {}

        def letters_of(side: int, docs: Sequence[DocumentFeatures], key: SentenceKey) -> str | None:
            if (side, key) not in letters:
                doc = docs[key[0]]
                letters[(side, key)] = None if doc.text is None else self.letters(doc.text, doc.sentences[key[1]])
            return letters[(side, key)]

        accepted = []
        for first, second, score in near_misses:
            if first in skip[0] or second in skip[1] or found.has(first, second):
                continue
            a, b = letters_of(0, first_docs, first), letters_of(1, second_docs, second)
            if a is not None and b is not None and self.same(a, b):
                accepted.append((first, second, score))
        other_side = 0 if first_docs is second_docs else 1  # detect: one set of documents
        documents: dict[tuple[int, SentenceKey], set[int]] = defaultdict(set)
        for first, second, _ in accepted:
            documents[(0, first)].add(second[0])
            documents[(other_side, second)].add(first[0])
        common = {key for key, docs in documents.items() if boilerplate and len(docs) >= boilerplate}
        for first, second, score in accepted:
            if (0, first) not in common and (other_side, second) not in common:
                found.add(first, second, score)
