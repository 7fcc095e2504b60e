"""What every stage of the detector shares: its parameters, rules and checks.

:class:`DetectorBase` holds the state the stages read (the method, the
configuration, the copy rules, the character and word checks); the stages
are mixins beside it (:mod:`.edits`, :mod:`.lookups`, :mod:`.tail`) and
:class:`~partialdup.pipeline.detector.Detector` puts them together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Sequence

import numpy as np

from partialdup.core.bags import FlatBags
from partialdup.core.config import Config
from partialdup.core.types import Bag, DocumentFeatures, RunStats, Span
from partialdup.match.boilerplate import BoilerplateSentence
from partialdup.match.edited import CANDIDATE_JACCARD, EditedCheck
from partialdup.match.pairs import SentenceKey
from partialdup.match.verify import EMBEDDED_CONTAINMENT, EMBEDDED_MIN_FEATURES, NearMissCheck
from partialdup.match.word_filter import WordFilters
from partialdup.methods.base import Method, resolved_threshold
from partialdup.methods.similarity import CopyRule
from partialdup.text.sentences import SentenceSplitter
from partialdup.text.tokens import Tokenizer

__all__ = ["Detection", "DetectorBase", "joined_bags", "joined_keys"]

@dataclass(frozen=True)
class Detection:
    """What a run found.

    Attributes:
        spans: Duplicated spans, sorted by (a, b, a_start, b_start, a_end, b_end).
        stats: Work done and skipped.
        boilerplate_spans: The spans of the boilerplate pairs, set apart (not
            copies, but not lost either; see :mod:`partialdup.match.boilerplate`),
            sorted like ``spans``.
        boilerplate_sentences: The sentences taken for boilerplate, sorted
            (a tuple, or a sequence equal to it made when first read).
    """

    spans: tuple[Span, ...]
    stats: RunStats = field(default_factory=RunStats)
    boilerplate_spans: tuple[Span, ...] = ()
    boilerplate_sentences: Sequence[BoilerplateSentence] = ()


def joined_keys(docs: Sequence[DocumentFeatures]) -> list[SentenceKey]:
    """(document, first sentence) of every pair of sentences read as one
    (:attr:`~partialdup.core.types.DocumentFeatures.joins`), in document order."""
    return [(d, i) for d, doc in enumerate(docs) for i in doc.joins.positions.tolist()]


def joined_bags(docs: Sequence[DocumentFeatures]) -> FlatBags:
    """The bags of :func:`joined_keys`, in that order."""
    return FlatBags.joined([doc.joins.bags for doc in docs])


class DetectorBase:
    """The state the detector's stages share (see :class:`~partialdup.pipeline.detector.Detector`)."""

    def __init__(
        self,
        method: Method,
        config: Config = Config(),
        *,
        tokenizer: Tokenizer | None = None,
        splitter: SentenceSplitter | None = None,
    ) -> None:
        self.method = method
        self.config = config
        self.threshold = resolved_threshold(config)
        self.rule = CopyRule(self.threshold, config.containment, config.min_contained)
        if config.embedded_ratio:
            self._near_rule = CopyRule(self.threshold / 2, EMBEDDED_CONTAINMENT, EMBEDDED_MIN_FEATURES)
        else:
            self._near_rule = CopyRule(self.threshold / 2, 0.0, config.min_contained)
        # Rejoined sentences pair with a whole sentence by bag-Jaccard only:
        # containment would let any sentence match the longer rejoined pair
        # holding it, and extend every span over the next line.
        self._join_rule = CopyRule(self.threshold, 0.0, config.min_contained)
        self.tokenizer = tokenizer or Tokenizer()
        near_on = config.near_ratio or config.embedded_ratio
        self._near = NearMissCheck(self.tokenizer.normalise, config.near_ratio, config.embedded_ratio) if near_on else None
        self.splitter = splitter or SentenceSplitter(max_chars=config.max_sentence_chars)
        self._edited = EditedCheck(config.edited_ratio, config.edited_neighbour_ratio) if config.edited_ratio else None
        self._loose_rule = CopyRule(min(CANDIDATE_JACCARD, self.threshold / 2), 0.0, config.min_contained)
        self._bags_of: dict[tuple[str, ...], Bag] = {}  # see Detector._sentence_bag
        self._word_filters = WordFilters()  # see EditedStage._filter_rows

    def matchable(self, doc: DocumentFeatures, sentence: int) -> bool:
        """Whether a sentence is long enough to be looked up on its own."""
        return doc.tokens[sentence] >= self.config.min_tokens and doc.bags.filled[sentence]

    def matchable_flags(self, doc: DocumentFeatures) -> list[bool]:
        """:meth:`matchable` of each of a document's sentences, in one pass
        (the tail reads whole documents, one per document pair; a test holds
        it to :meth:`matchable`)."""
        least = self.config.min_tokens
        return [count >= least and filled for count, filled in zip(doc.tokens, doc.bags.filled)]

    def _matchable_columns(self, docs: Sequence[DocumentFeatures]) -> tuple[np.ndarray, np.ndarray, FlatBags]:
        """The document, the position (int64) and the bag of every matchable
        sentence, in document order (:meth:`matchable` on the documents'
        arrays: no tuple or dict per sentence)."""
        bags = FlatBags.joined([doc.bags for doc in docs])
        tokens = np.fromiter(chain.from_iterable(doc.tokens for doc in docs), np.int64, len(bags))
        rows = np.flatnonzero((tokens >= self.config.min_tokens) & (bags.sizes > 0))
        lengths = np.fromiter((len(doc.bags) for doc in docs), np.int64, len(docs))
        documents = np.repeat(np.arange(len(docs), dtype=np.int64), lengths)[rows]
        return documents, rows - (np.cumsum(lengths) - lengths)[documents], bags.take(rows)

    def _matchable_bags(self, docs: Sequence[DocumentFeatures]) -> tuple[list[SentenceKey], FlatBags]:
        """(document, sentence) of every matchable sentence, in document
        order, and their bags (:meth:`_matchable_columns`)."""
        documents, positions, bags = self._matchable_columns(docs)
        return list(zip(documents.tolist(), positions.tolist())), bags
