"""The edited-copy stage of the detector (see :mod:`partialdup.match.edited`).

Pairs that share a feature but fall below τ are judged on their words;
whole matches of similar length are checked on their words too (template
sentences that differ in their key words are not copies).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Callable, Iterable, Sequence

import numpy as np

from partialdup.core.types import DocumentFeatures
from partialdup.index.inverted import IndexedSentence
from partialdup.index.sparse import PairMatches
from partialdup.match.edited import WHOLE_LENGTH_RATIO
from partialdup.match.pairs import FoundPairs, SentenceKey
from partialdup.pipeline.base import DetectorBase

__all__ = ["EditedStage"]


class EditedStage(DetectorBase):
    """The word checks of edited copies, shared by the look-ups and the tail."""

    def _token_counts(self, docs: Sequence[DocumentFeatures], entries: Sequence[IndexedSentence]) -> np.ndarray:
        """Tokens of each indexed sentence."""
        return np.fromiter((docs[e.doc].tokens[e.sentence] for e in entries), np.int64, len(entries))

    def _loose(self, matches: PairMatches, query_lengths: np.ndarray, key_lengths: np.ndarray) -> PairMatches:
        """The candidates of the edited-copy stage among a search's matches:
        below τ (the whole matches are judged apart), and two sentences of
        similar length (see :data:`~partialdup.match.edited.WHOLE_LENGTH_RATIO`)."""
        first, second = query_lengths[matches.query], key_lengths[matches.key]
        shorter, longer = np.minimum(first, second), np.maximum(first, second)
        keep = (matches.score < self.threshold) & (shorter >= self.config.min_tokens)
        keep &= longer < WHOLE_LENGTH_RATIO * shorter
        return replace(matches, query=matches.query[keep], key=matches.key[keep], score=matches.score[keep],
                       shared=matches.shared[keep])

    def _words_disagree(self, da: DocumentFeatures, i: int, db: DocumentFeatures, m: int) -> bool:
        """Whether two whole sentences of similar length that the features
        accept have words that agree too little for a copy on their own
        (template sentences that differ in their key words) and letters that
        do not agree either (at ``near_ratio``: an edited copy whose garbled
        word jieba cuts apart still agrees on its letters); False when the
        words are not known or the sentences differ in length (their own
        checks apply)."""
        assert self._edited is not None
        if not (da.words and db.words):
            return False
        first, second = da.words[i], db.words[m]
        if not self._edited.whole(first, second) or self._edited.alone(first, second):
            return False
        check = self._near
        if check is None or da.text is None or db.text is None:
            return True
        return not check.same(check.letters(da.text, da.sentences[i]), check.letters(db.text, db.sentences[m]))

    def _add_edited(
        self,
        found: FoundPairs,
        loose: Iterable[tuple[SentenceKey, SentenceKey, float]],
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
    ) -> None:
        """Edited copies among the pairs sharing a feature (see
        :mod:`partialdup.match.edited`): a pair whose words reach
        ``edited_ratio`` is a copy, one reaching ``edited_neighbour_ratio``
        is tentative. As for whole matches and near misses, a sentence that
        is an edited copy of sentences in ``boilerplate`` or more other
        documents is a template, not a copy."""
        assert self._edited is not None
        check = self._edited
        accepted = []
        for first, second, score in loose:
            if found.has(first, second):
                continue
            da, db = a_docs[first[0]], b_docs[second[0]]
            if not (da.words and db.words):
                continue
            a_words, b_words = da.words[first[1]], db.words[second[1]]
            ratio = check.score(a_words, b_words)
            if ratio >= check.neighbour_ratio and check.numbers_agree(a_words, b_words):
                accepted.append((first, second, score, not check.alone_at(ratio, a_words, b_words)))
        limit = self.config.boilerplate
        if limit:
            documents: dict[tuple[int, SentenceKey], set[int]] = defaultdict(set)
            one_set = a_docs is b_docs
            for first, second, _, tentative in accepted:
                if not tentative:
                    documents[(0, first)].add(second[0])
                    documents[(0 if one_set else 1, second)].add(first[0])
            common = {key for key, docs in documents.items() if len(docs) >= limit}
            accepted = [
                entry for entry in accepted
                if (0, entry[0]) not in common and (0 if one_set else 1, entry[1]) not in common
            ]
        for first, second, score, tentative in accepted:
            found.add(first, second, score, tentative=tentative, words_only=not tentative)

    def _beside(self, da: DocumentFeatures, db: DocumentFeatures) -> Callable[[int, int], bool | None] | None:
        """The word check of sentences paired beside a span's pairs: True or
        False for two whole sentences of similar length, None when the words
        are not known or the lengths differ (the features decide)."""
        check = self._edited
        if check is None or not (da.words and db.words):
            return None

        def beside(i: int, m: int) -> bool | None:
            first, second = da.words[i], db.words[m]
            return check.beside(first, second) if check.whole(first, second) else None

        return beside
