"""A pool's worker processes: what one holds and the work it runs.

:class:`~partialdup.pipeline.parallel.LocalEngine` decides what runs where;
this module is the other side. A forked worker inherits the caller's
detector as it is; a spawned one (where fork is not used) builds an equal
one from a :class:`DetectorRecipe` (method, IDF and configuration; the
tokenizer from the configuration's segmenter), loading jieba once per
worker. What a worker holds is one explicit object, :class:`_Worker`,
filled once by the pool's initializer; the work functions
(:func:`features_chunk`, :func:`pair_chunk`, :func:`judge_chunk`) read it.
"""

from __future__ import annotations

import multiprocessing
import sys
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Sequence, Union

from partialdup.core.chars import SURROGATES
from partialdup.core.config import Config
from partialdup.core.types import Document, DocumentFeatures, TokenizedDocument
from partialdup.index.word_columns import PieceWords
from partialdup.methods.base import Method
from partialdup.pipeline.packing import pack_features
from partialdup.pipeline.forking import as_helper, frozen_heap
from partialdup.pipeline.sidework import Judge
from partialdup.pipeline.tail import PairJob, PairSpans

if TYPE_CHECKING:
    from partialdup.pipeline.detector import Detector

__all__ = [
    "DetectorRecipe", "SentDocument", "WorkerPool", "features_chunk", "features_piece", "judge_chunk", "load_tokenizer",
    "pair_chunk", "process_context", "sent_documents",
]


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
        # What a judge keeps between the chunks of one pool (each sentence's letters).
        self.memo: dict = {}


#: The worker's state: the one module-level object, empty in the calling process.
_WORKER = _Worker()


def _start(source: DetectorRecipe | _Inherited, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures]) -> None:
    """Pool initializer: the worker's detector (and the tail's documents)."""
    as_helper()
    _WORKER.detector = source.build()
    _WORKER.a_docs, _WORKER.b_docs = a_docs, b_docs
    _WORKER.memo = {}


def _worker_detector() -> Detector:
    assert _WORKER.detector is not None, "called outside a worker"
    return _WORKER.detector


def features_chunk(documents: Sequence[Document | TokenizedDocument], detector: Detector | None = None) -> list[tuple]:
    detector = detector or _worker_detector()
    return [pack_features(features, text=True) for features in detector.features_many(documents)]


#: A document as sent to a helper (:func:`sent_documents`).
SentDocument = Union[Document, TokenizedDocument, tuple[str, bytes]]


def sent_documents(documents: Sequence[Document | TokenizedDocument]) -> list[SentDocument]:
    """``documents`` to be pickled for a helper: a plain document as its
    ``(id, text in UTF-8)``, without its JSONL fields, which the features
    never read. Pickling the dataclasses took three to four times what
    pickling their texts takes (zh bench corpus: 0.04-0.08 s against
    0.011-0.020 s, and as much again to unpickle them in the helper).

    The text goes as bytes encoded here, not as the str: pickling a str
    that is not ASCII leaves its UTF-8 form cached in the str for as long
    as it lives (CPython), and the caller keeps the texts to the end of the
    run: 9.6 MB more on the Chinese bench corpus (``tracemalloc``)."""
    return [(doc.id, doc.text.encode("utf-8", SURROGATES)) if type(doc) is Document else doc for doc in documents]


def _received(documents: Sequence[SentDocument]) -> list[Document | TokenizedDocument]:
    return [Document(doc[0], doc[1].decode("utf-8", SURROGATES)) if isinstance(doc, tuple) else doc for doc in documents]


def features_piece(detector: Detector, data: tuple[Sequence[Sequence[SentDocument]], bool], number: int) -> Any:
    """Piece ``number`` of the features, made by a forked helper: the packed
    features of ``chunks[number]`` (``data`` is ``(chunks, numbered)``, the
    documents as they are or as :func:`sent_documents` sends them), and
    their words numbered (:class:`~partialdup.index.word_columns.PieceWords`) when ``numbered``."""
    chunks, numbered = data
    if not numbered:
        return features_chunk(_received(chunks[number]), detector)
    features = detector.features_many(_received(chunks[number]))
    # Their words go once, numbered (unpack_piece).
    return [pack_features(doc, words=False, text=True) for doc in features], PieceWords.of(features)


def load_tokenizer(detector: Detector) -> None:
    """Loads ``detector``'s tokenizer's dictionaries (in a helper forked
    before the documents are read: see :meth:`~partialdup.pipeline.parallel.LocalEngine.expect`)."""
    detector.tokenizer.load()


def pair_chunk(jobs: Sequence[PairJob]) -> list[PairSpans]:
    detector = _worker_detector()
    return [detector.pair_spans(_WORKER.a_docs[job.a], _WORKER.b_docs[job.b], job) for job in jobs]


def judge_chunk(judge: Judge, records: list[Any]) -> list[Any]:
    return judge(_worker_detector(), _WORKER.a_docs, _WORKER.b_docs, records, _WORKER.memo)


def process_context() -> Any:
    # fork: workers inherit the detector and the documents without pickling.
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def _source(detector: Detector, context: Any) -> DetectorRecipe | _Inherited:
    return _Inherited(detector) if context.get_start_method() == "fork" else DetectorRecipe.of(detector)


class WorkerPool:
    """A process pool that is closed on the way out, and ended at once when
    its work fails or is interrupted."""

    def __init__(self, context: Any, workers: int, detector: Detector, a_docs: Sequence[DocumentFeatures],
                 b_docs: Sequence[DocumentFeatures]) -> None:
        with frozen_heap():
            self._pool = context.Pool(workers, initializer=_start, initargs=(_source(detector, context), a_docs, b_docs))

    def __enter__(self) -> Any:
        return self._pool

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            self._pool.close()
        else:
            self._pool.terminate()
        self._pool.join()
