"""The local engine: the detector's two costly stages on every core.

Two stages of a run cost most and split by document: the features of each
document (sentences -> tokens -> features: about four fifths of a run on
Chinese text, most of it in jieba) and the tail of each document pair
(:meth:`~partialdup.pipeline.tail.SpanStage.pair_spans`: evidence, spans,
refined edges, scores). :class:`LocalEngine` runs them in ``jobs`` worker
processes; the index look-ups between them stay in the calling process
(one sparse matrix product, see :mod:`partialdup.index.sparse`).

The output is byte-identical to one process whatever ``jobs`` is: each
unit of work is a pure function of its inputs, the results come back in
the order the work was handed out (``Pool.imap``), and the tail puts the
pairs' spans together as one process does (see
:meth:`~partialdup.pipeline.tail.SpanStage._detection`).

What each worker holds is one explicit object, :class:`_Worker`, filled
once by the pool's initializer (the detector, so jieba is set up once per
worker, and for the tail the documents). On Linux workers are forked: they
inherit the calling process's detector (its segmenter already loaded) and
documents as they are; only the work list and the results are pickled.
Elsewhere (spawn) a worker builds its detector from a
:class:`DetectorRecipe` (method, IDF and configuration; the tokenizer from
the configuration's segmenter), loading jieba there once.

``jobs == 1`` starts no process; neither does a run too small to gain
(less than :data:`MIN_CHARS_PER_WORKER` characters per worker for the
features, :data:`MIN_PAIRS_PER_WORKER` sentence pairs per worker for the
tail), nor a daemonic process (a pool's worker may not start one).

Features come back without their text (the calling process has it) and in
a compact form (:func:`pack_features`): pickled as they are, the gold set's
features cost 3.3 s CPU to dump and load against 12.1 s to compute them;
packed, 1.1 s (docs/engine.md).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import sys
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Protocol, Sequence, Union

from partialdup.core.config import Config
from partialdup.core.types import Bag, Document, DocumentFeatures, Sentence, TokenizedDocument
from partialdup.methods.base import Method
from partialdup.pipeline.tail import PairJob, PairSpans

if TYPE_CHECKING:
    from partialdup.pipeline.detector import Detector

__all__ = [
    "Engine",
    "LocalEngine",
    "OrderedFeatures",
    "DetectorRecipe",
    "worker_count",
    "pack_features",
    "unpack_features",
    "MIN_CHARS_PER_WORKER",
    "MIN_PAIRS_PER_WORKER",
]

#: A worker is started for the features only when it gets at least this many
#: characters (about a second of tokenizing Chinese: more than starting it
#: and moving its results costs).
MIN_CHARS_PER_WORKER = 250_000

#: A worker is started for the tail only when it gets at least this many
#: sentence pairs to check.
MIN_PAIRS_PER_WORKER = 5_000

#: Pieces of work per worker: small enough to even out documents of unequal
#: length, large enough that handing them out costs little.
_CHUNKS_PER_WORKER = 8

#: A document at any stage the detector takes it from.
AnyDocument = Union[Document, TokenizedDocument, DocumentFeatures]

#: Joins a sentence's words on the way back: tokens hold word characters,
#: apostrophes, hyphens and dots only, never this.
_WORD_JOIN = "\x00"


def worker_count(jobs: int) -> int:
    """Worker processes for ``jobs`` (``Config.jobs``): 0 means one per core."""
    return jobs if jobs > 0 else max(os.cpu_count() or 1, 1)


class Engine(Protocol):
    """Where the costly stages run: this machine (:class:`LocalEngine`) or a
    cluster (:mod:`partialdup.engine`)."""

    def features(self, detector: Detector, documents: Iterable[AnyDocument]) -> Iterable[DocumentFeatures]:
        """The features of each document, in the documents' order (sized,
        when the engine can tell, for a progress bar)."""
        ...

    def pair_spans(
        self, detector: Detector, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures],
        jobs: Sequence[PairJob],
    ) -> Sequence[PairSpans]:
        """:meth:`~partialdup.pipeline.tail.SpanStage.pair_spans` of each job, in the jobs' order."""
        ...


@dataclass(frozen=True)
class DetectorRecipe:
    """What a worker needs to build a detector equal to the caller's.

    Attributes:
        kind: The detector's class.
        method: Its fingerprint method (holding the IDF table).
        config: Its configuration, ``jobs`` set to 1 (a worker starts none).
        segmenter: Its tokenizer's segmenter (``jieba``, ``rjieba``).
    """

    kind: type
    method: Method
    config: Config
    segmenter: str

    @classmethod
    def of(cls, detector: Detector) -> DetectorRecipe:
        """The recipe of a detector made with the default tokenizer for its
        segmenter and the default sentence splitter (as
        :func:`~partialdup.pipeline.factory.make_detector` makes them)."""
        return cls(type(detector), detector.method, replace(detector.config, jobs=1), detector.tokenizer.segmenter)

    def build(self) -> Detector:
        """A new detector (its tokenizer loads jieba on first use)."""
        from partialdup.text.tokens import Tokenizer

        tokenizer = Tokenizer(segmenter=self.segmenter, jieba_mode=self.config.jieba_mode)
        return self.kind(self.method, self.config, tokenizer=tokenizer)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class _Inherited:
    """The caller's own detector, handed to forked workers as it is."""

    detector: Detector

    def build(self) -> Detector:
        return self.detector


class _Worker:
    """What one worker process holds, set once by :func:`_start`."""

    def __init__(self) -> None:
        self.detector: Detector | None = None
        self.a_docs: Sequence[DocumentFeatures] = ()
        self.b_docs: Sequence[DocumentFeatures] = ()


#: The worker's state: the one module-level object, empty in the calling process.
_WORKER = _Worker()


def _start(source: DetectorRecipe | _Inherited, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures]) -> None:
    """Pool initializer: the worker's detector (and the tail's documents)."""
    # The calling process answers Ctrl-C and SIGTERM and ends the pool; a
    # forked worker must not run the handlers it inherited.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _WORKER.detector = source.build()
    _WORKER.a_docs, _WORKER.b_docs = a_docs, b_docs


def _worker_detector() -> Detector:
    assert _WORKER.detector is not None, "called outside a worker"
    return _WORKER.detector


def _features_chunk(documents: Sequence[Document | TokenizedDocument]) -> list[tuple]:
    detector = _worker_detector()
    return [pack_features(detector.features(document)) for document in documents]


def _pair_chunk(jobs: Sequence[PairJob]) -> list[PairSpans]:
    detector = _worker_detector()
    return [detector.pair_spans(_WORKER.a_docs[job.a], _WORKER.b_docs[job.b], job) for job in jobs]


def pack_features(features: DocumentFeatures) -> tuple:
    """A document's features without its text, in builtin types that pickle
    fast (:func:`unpack_features` is the inverse)."""
    return (
        features.id,
        tuple(value for s in features.sentences for value in (s.index, s.start, s.end)),
        tuple(dict(bag) for bag in features.bags),
        features.tokens,
        tuple((i, dict(bag)) for i, bag in features.joins),
        tuple(_WORD_JOIN.join(words) for words in features.words),
        tuple((i, dict(bag)) for i, bag in features.quotes),
    )


def unpack_features(packed: tuple, text: str | None) -> DocumentFeatures:
    """The features :func:`pack_features` packed, with their document's text."""
    doc_id, flat, bags, tokens, joins, words, quotes = packed
    sentences = tuple(Sentence(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3))
    bag_list: tuple[Bag, ...] = bags
    return DocumentFeatures(
        doc_id, sentences, bag_list, tokens, text, joins,
        tuple(tuple(line.split(_WORD_JOIN)) if line else () for line in words), quotes,
    )


def _context() -> Any:
    # fork: workers inherit the detector and the documents without pickling.
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def _source(detector: Detector, context: Any) -> DetectorRecipe | _Inherited:
    return _Inherited(detector) if context.get_start_method() == "fork" else DetectorRecipe.of(detector)


def _chunks(items: Sequence[Any], workers: int) -> list[Sequence[Any]]:
    size = max(1, -(-len(items) // (workers * _CHUNKS_PER_WORKER)))
    return [items[low : low + size] for low in range(0, len(items), size)]


class OrderedFeatures:
    """The features of each document, computed as they are read (sized, so
    that a progress bar knows the total)."""

    def __init__(self, count: int, items: Iterator[DocumentFeatures]) -> None:
        self._count = count
        self._items = items

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[DocumentFeatures]:
        return self._items


class LocalEngine:
    """This machine: the features and the pair tails in ``jobs`` worker processes.

    Args:
        jobs: Worker processes (``Config.jobs``: 0 means one per core, 1 none).
        min_chars: Characters a worker needs for the features to start it.
        min_pairs: Sentence pairs a worker needs for the tail to start it.
    """

    def __init__(self, jobs: int, *, min_chars: int = MIN_CHARS_PER_WORKER, min_pairs: int = MIN_PAIRS_PER_WORKER) -> None:
        # A daemonic process (itself a pool's worker) may not start processes.
        self.workers = 1 if multiprocessing.current_process().daemon else worker_count(jobs)
        self.min_chars = min_chars
        self.min_pairs = min_pairs

    def features(self, detector: Detector, documents: Iterable[AnyDocument]) -> OrderedFeatures:
        """The features of each document, in order, yielded as they come."""
        docs = list(documents)
        pending = [d for d in docs if not isinstance(d, DocumentFeatures)]
        chars = sum(len(d.text or "") for d in pending)
        workers = min(self.workers, len(pending), chars // max(self.min_chars, 1))
        if workers <= 1:
            return OrderedFeatures(len(docs), (detector.features(d) for d in docs))
        return OrderedFeatures(len(docs), self._features(detector, docs, pending, workers))

    def _features(
        self, detector: Detector, docs: list[AnyDocument], pending: list[Document | TokenizedDocument], workers: int
    ) -> Iterator[DocumentFeatures]:
        context = _context()
        with _Pool(context, workers, _source(detector, context), (), ()) as pool:
            computed = (item for chunk in pool.imap(_features_chunk, _chunks(pending, workers)) for item in chunk)
            for doc in docs:
                if isinstance(doc, DocumentFeatures):
                    yield doc
                else:
                    yield unpack_features(next(computed), doc.text)

    def pair_spans(
        self, detector: Detector, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures],
        jobs: Sequence[PairJob],
    ) -> list[PairSpans]:
        """Each job's spans, in the jobs' order."""
        weight = sum(len(job.evidence.pairs) for job in jobs)
        workers = min(self.workers, len(jobs), weight // max(self.min_pairs, 1))
        # Documents that are not plain features (a store's references, read
        # from its database when first used) stay in this process: a
        # database connection must not cross a fork.
        plain = all(type(doc) is DocumentFeatures for doc in itertools.chain(a_docs, b_docs))
        if workers <= 1 or not plain:
            return [detector.pair_spans(a_docs[job.a], b_docs[job.b], job) for job in jobs]
        context = _context()
        with _Pool(context, workers, _source(detector, context), a_docs, b_docs) as pool:
            return list(itertools.chain.from_iterable(pool.imap(_pair_chunk, _chunks(jobs, workers))))


class _Pool:
    """A process pool that is closed on the way out, and ended at once when
    its work fails or is interrupted."""

    def __init__(self, context: Any, workers: int, source: DetectorRecipe | _Inherited, a_docs: Sequence[DocumentFeatures],
                 b_docs: Sequence[DocumentFeatures]) -> None:
        self._pool = context.Pool(workers, initializer=_start, initargs=(source, a_docs, b_docs))

    def __enter__(self) -> Any:
        return self._pool

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            self._pool.close()
        else:
            self._pool.terminate()
        self._pool.join()
