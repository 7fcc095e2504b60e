"""A reference index over a few stored sentences that searches as if it held them all.

:meth:`partialdup.pipeline.detector.Detector.check_against` reads an index
through three things: ``search(bags, rule, docs=None)``, ``index.sentences``
(document and sentence of each key) and ``frequent_features()``. A query only
ever matches sentences that share with it a feature held by at most
``max_postings`` distinct bags of the *whole* collection, and the sentences
whose bag equals its own; :class:`PartialIndex` holds those sentences only,
and takes which features are over the bound, and how many postings they
hold, from the counts the store keeps, so that its matches, scores,
candidate and skipped counts equal those of the in-memory index built on
every stored document.

How: the held sentences are searched twice with a
:class:`~partialdup.index.sparse.SparseIndex` that bounds nothing, once with
the full query bags (the pairs the rule accepts, with their full shared
counts, over-frequent features included, as in memory) and once with the
bags cut to the features under the bound (the pairs those features make
candidates); a pair is kept when it is in both, or when the query bag holds
no feature under the bound and the two bags are identical (the in-memory
index pairs identical bags without a look-up).
"""

from __future__ import annotations

import sys
from typing import Callable, Mapping, Sequence

import numpy as np

from partialdup.core.arrays import sorted_isin, sorted_unique
from partialdup.core.types import Bag
from partialdup.index.inverted import FlatSentences, HeldSentences
from partialdup.index.sparse import PairMatches, ReferenceIndex, SparseIndex
from partialdup.methods.similarity import CopyRule

__all__ = ["PartialIndex", "partial_reference_index"]

#: Accepts every pair that shares a feature (bag-Jaccard > 0).
_ANY = CopyRule(sys.float_info.min, 0.0, 1)


class PartialIndex:
    """Some indexed sentences, searched with the collection's over-frequent features.

    Args:
        sentences: The held sentences, in increasing (document, sentence)
            order, as the full index would number them.
        held: Feature -> sentences of the whole collection holding it, for
            every feature a query may bring (absent: held by none): the
            postings a query skips.
        distinct: Feature -> distinct bags of the whole collection holding
            it: what ``max_postings`` bounds (identical sentences are one
            row of the in-memory index, :mod:`partialdup.index.groups`).
        max_postings: The bound of :class:`~partialdup.core.config.Config`.
        frequent_total: Features of the whole collection over the bound
            (called only for the run's statistics).
    """

    def __init__(
        self,
        sentences: FlatSentences,
        held: Mapping[int, int],
        distinct: Mapping[int, int],
        max_postings: int,
        frequent_total: Callable[[], int],
    ) -> None:
        self.index = HeldSentences(sentences, max_postings=sys.maxsize)
        self._all = SparseIndex(self.index, sentences.bags)
        self._held = held
        self._distinct = distinct
        self._max_postings = max_postings
        self._frequent_total = frequent_total

    def frequent_features(self) -> int:
        """Features of the whole collection held by more than ``max_postings`` distinct bags."""
        return self._frequent_total()

    def frequent_sentences(self) -> int:
        """0, not known: the store keeps no count of the sentences holding them
        (the run's note then names them without a number)."""
        return 0

    def _frequent(self, feature: int) -> bool:
        return self._distinct.get(feature, 0) > self._max_postings

    def _usual(self, bag: Bag) -> Bag:
        return {f: c for f, c in bag.items() if not self._frequent(f)}

    def search(self, bags: Sequence[Bag], rule: CopyRule, *, docs: Sequence[int] | None = None) -> PairMatches:
        """As :meth:`partialdup.index.sparse.SparseIndex.search` on the whole collection."""
        accepted = self._all.search(bags, rule, docs=docs)
        usual = [self._usual(bag) for bag in bags]
        if all(len(cut) == len(bag) for cut, bag in zip(usual, bags)):
            # No feature over the bound: the pairs sharing a usual feature are
            # all the pairs sharing a feature, and the rule accepts no other.
            return accepted
        reached = self._all.search(usual, _ANY, docs=docs)
        width = max(len(self.index.sentences), 1)
        keep = sorted_isin(accepted.query * width + accepted.key, reached.query * width + reached.key)
        # A bag made only of over-frequent features reaches no candidate, but
        # its identical copies are its matches all the same (and one
        # candidate each), as in memory.
        alone = np.fromiter((not cut and bool(bag) for cut, bag in zip(usual, bags)), bool, len(bags))
        entries = self.index.sentences
        identical = np.fromiter(
            (bool(alone[q]) and entries[k].bag == bags[q] for q, k in zip(accepted.query.tolist(), accepted.key.tolist())),
            bool, len(accepted.query),
        )
        keep |= identical
        skipped = sum(self._held.get(f, 0) for bag in bags for f in bag if self._frequent(f))
        return PairMatches(
            accepted.query[keep], accepted.key[keep], accepted.score[keep], accepted.shared[keep],
            reached.candidates + len(sorted_unique(accepted.query[identical])), skipped,
        )


def partial_reference_index(sentences: PartialIndex, joins: PartialIndex) -> ReferenceIndex:
    """A :class:`ReferenceIndex` of two partial indexes (typed as the detector expects)."""
    return ReferenceIndex(sentences, joins)  # type: ignore[arg-type]
