"""The pieces a local run's work is cut into, and the features put back in order.

:class:`~partialdup.pipeline.parallel.LocalEngine` hands its workers pieces
of about equal weight (:func:`weighted_runs`), or batches in one process
(:func:`batches`), puts each document's features back in its place
(:func:`merged_features`), and has every piece's texts held packed as its
features come (:func:`texts_packed`).
"""

from __future__ import annotations

import itertools
from typing import Any, Iterator, Sequence

from partialdup.core.packed_text import PackedText
from partialdup.core.types import DocumentFeatures, held_text, hold_text_packed
from partialdup.pipeline.engine_protocol import AnyDocument

__all__ = ["CHUNKS_PER_WORKER", "DOCUMENTS_TOGETHER", "batches", "merged_features", "plain_documents", "runs_reaching",
           "texts_packed", "weighted_runs"]

#: Pieces of work per worker, of about equal weight (characters, sentence
#: pairs): small enough to even out the last pieces, large enough that
#: handing them out costs little. (Pieces of equal *count* left one worker
#: alone for 2 of the 5.7 s of the Chinese bench corpus's features: its last
#: 566 documents held 2.5 of the 5.7 million characters.)
CHUNKS_PER_WORKER = 16

#: Documents tokenized together in one process (``--jobs 1``, or a run too
#: small for workers): their sentences' words made in one call
#: (:meth:`~partialdup.pipeline.detector.Detector.features_many`).
DOCUMENTS_TOGETHER = 64


def merged_features(docs: list[AnyDocument], computed: Iterator[DocumentFeatures]) -> Iterator[DocumentFeatures]:
    """Each document's features, in order: its own when it came with them,
    else the next computed."""
    for doc in docs:
        yield doc if isinstance(doc, DocumentFeatures) else next(computed)


def weighted_runs(items: Sequence[Any], weights: Sequence[int], workers: int) -> list[Sequence[Any]]:
    """``items`` cut, in order, into about ``workers`` x
    :data:`CHUNKS_PER_WORKER` runs of about equal total weight (each run
    closed once it reaches its share; none empty)."""
    return runs_reaching(items, weights, max(1, -(-sum(weights) // (workers * CHUNKS_PER_WORKER))))


def runs_reaching(items: Sequence[Any], weights: Sequence[int], share: int) -> list[Sequence[Any]]:
    """``items`` cut, in order, into runs of about ``share`` total weight:
    a run ends with the item that brings it to ``share`` or more (none empty)."""
    runs, low, held = [], 0, 0
    for high, weight in enumerate(weights, 1):
        held += weight
        if held >= share:
            runs.append(items[low:high])
            low, held = high, 0
    if low < len(items):
        runs.append(items[low:])
    return runs


def texts_packed(features: list[DocumentFeatures], documents: Sequence[AnyDocument]) -> list[DocumentFeatures]:
    """``features``, each document's text held compressed by the document
    read and by its features alike (one copy): the run holds every text to
    its end and reads few (:mod:`partialdup.core.packed_text`). Packed as
    the features come, not before: making them reads each text many times.
    A worker's pieces come with their texts packed by the worker
    (:func:`~partialdup.pipeline.packing.pack_features`' ``text``)."""
    for doc, document in zip(features, documents):
        held = held_text(doc)
        hold_text_packed(document, doc, packed_as=held if isinstance(held, PackedText) else None)
    return features


def batches(items: Iterator[Any], size: int) -> Iterator[list[Any]]:
    """``items`` in lists of ``size`` (the last shorter)."""
    while batch := list(itertools.islice(items, size)):
        yield batch


def plain_documents(a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures]) -> bool:
    """Whether every document is plain features. Others (a store's
    references, read from its database when first used) stay in the
    calling process: a database connection must not cross a fork."""
    return all(type(doc) is DocumentFeatures for doc in itertools.chain(a_docs, b_docs))

