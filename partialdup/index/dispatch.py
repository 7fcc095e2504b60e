"""The sentence index of a method, chosen by its ``search_kind``.

One place maps a method to the index that searches its fingerprints
(:mod:`partialdup.methods.base` lists the kinds); the detector builds every
index through it, so ``detect``, ``check`` and ``eval`` search each method
the same way.
"""

from __future__ import annotations

from typing import Any, Sequence, Union

from partialdup.core.types import Bag
from partialdup.index.exact_first import ExactFirstIndex
from partialdup.index.fingerprints import HammingSentenceIndex, LshSentenceIndex, RescoredIndex
from partialdup.index.inverted import FeatureIndex, FlatSentences, HeldSentences
from partialdup.index.sparse import SparseIndex

__all__ = ["SentenceIndex", "sentence_index", "sentence_index_of"]

#: Any of the sentence indexes (they share :class:`SparseIndex`'s contract).
SentenceIndex = Union[SparseIndex, HammingSentenceIndex, LshSentenceIndex, RescoredIndex]


def sentence_index(method: Any, index: FeatureIndex, *, exact: str = "off", rate: float = 0.01) -> SentenceIndex | ExactFirstIndex:
    """The searchable index of the sentences in ``index`` for ``method``.

    Args:
        method: The method (its ``search_kind`` picks the index).
        index: The sentences.
        exact: ``bloom`` or ``trie``: an exact first stage in front of the
            index (:class:`~partialdup.index.exact_first.ExactFirstIndex`).
        rate: The Bloom filter's design false-positive rate.

    Raises:
        ValueError: The method's ``search_kind`` is not one of ``bag``,
            ``set``, ``simhash``, ``lsh``.
    """
    if exact != "off":
        shared_of = (lambda bag: 64) if method.search_kind == "simhash" else (lambda bag: sum(bag.values()))
        return ExactFirstIndex(index, lambda left: sentence_index(method, left), exact, rate, shared_of)
    kind = method.search_kind
    if kind == "bag":
        return SparseIndex(index)
    if kind == "set":
        return RescoredIndex(index, method)
    if kind == "simhash":
        return HammingSentenceIndex(index, method)
    if kind == "lsh":
        return LshSentenceIndex(index, method)
    raise ValueError(f"method {method.name!r}: unknown search kind {kind!r}")


def sentence_index_of(
    method: Any, documents: Sequence[int], positions: Sequence[int], bags: Sequence[Bag], *, max_postings: int,
    exact: str = "off", rate: float = 0.01,
) -> SentenceIndex | ExactFirstIndex:
    """:func:`sentence_index` of the sentences (``documents[i]``,
    ``positions[i]``) with bags ``bags[i]``, keys in that order.

    The sparse index of bags reads nothing of its sentences but their
    document, position and bag: they are handed to it as arrays
    (:class:`~partialdup.index.inverted.FlatSentences`), not as an object
    per sentence; the other indexes read a
    :class:`~partialdup.index.inverted.FeatureIndex`.
    """
    if exact == "off" and method.search_kind == "bag":
        sentences = FlatSentences.of(documents, positions, bags)
        return SparseIndex(HeldSentences(sentences, max_postings), sentences.bags)
    index = FeatureIndex(max_postings=max_postings)
    for document, position, bag in zip(documents, positions, bags):
        index.add(document, position, bag)
    return sentence_index(method, index, exact=exact, rate=rate)
