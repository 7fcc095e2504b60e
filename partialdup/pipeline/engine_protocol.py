"""What an engine is: where a run's costly stages are carried out, the one
interface the detector calls (:class:`Engine`), and the documents it takes
and gives (:data:`AnyDocument`, :class:`OrderedFeatures`).

The engines themselves are :class:`~partialdup.pipeline.parallel.LocalEngine`
(this machine) and :mod:`partialdup.engine.dask_engine` (a Dask cluster).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Protocol, Sequence, TypeVar, Union

from partialdup.core.types import Document, DocumentFeatures, TokenizedDocument
from partialdup.index.partitioned import CandidateProduct
from partialdup.index.word_columns import PieceWords
from partialdup.pipeline.sidework import Judge
from partialdup.pipeline.tail import PairJob, PairSpans

if TYPE_CHECKING:
    from partialdup.pipeline.detector import Detector

__all__ = ["AnyDocument", "Engine", "OrderedFeatures"]

T = TypeVar("T")
R = TypeVar("R")

#: A document at any stage the detector takes it from.
AnyDocument = Union[Document, TokenizedDocument, DocumentFeatures]


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


class Engine(Protocol):
    """Where the costly stages run: this machine (:class:`~partialdup.pipeline.parallel.LocalEngine`) or a
    cluster (:mod:`partialdup.engine`)."""

    #: Runs the look-ups' candidate products (see :mod:`partialdup.index.partitioned`); None: the calling process.
    candidate_product: CandidateProduct | None

    def features(
        self, detector: Detector, documents: Iterable[AnyDocument], *, apart: bool = False,
    ) -> Iterable[DocumentFeatures]:
        """The features of each document, in the documents' order (sized,
        when the engine can tell, for a progress bar). ``apart``: work will
        be sent :meth:`apart` once they are made (``detect``'s side
        searches): an engine that runs it in processes of its own may start
        them now, while the caller's heap is small."""
        ...

    def expect(self, detector: Detector, *, apart: bool = False) -> None:
        """``detector``'s features will be asked for next, once the caller
        has read the documents: an engine may start now what will make them
        (``apart`` as :meth:`features` will be called)."""
        ...

    def first_read(self, detector: Detector, *, apart: bool = False) -> tuple[int, Callable[[Sequence[Document]], None]] | None:
        """After :meth:`expect`: how many characters read make a first piece
        of the features the engine may start on while the rest are read, and
        what the reading calls with the documents read by then (once, the
        first documents of those :meth:`features` is then given); None: none."""
        ...

    def pair_spans(
        self, detector: Detector, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures],
        jobs: Sequence[PairJob],
    ) -> Sequence[PairSpans]:
        """:meth:`~partialdup.pipeline.tail.SpanStage.pair_spans` of each job, in the jobs' order."""
        ...

    def judged(
        self, detector: Detector, judge: Judge, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures],
        records: Iterable[Any],
    ) -> Iterable[Any]:
        """The judge's results over every record, in the records' order (see
        :mod:`partialdup.pipeline.sidework`)."""
        ...

    def pieces_soon(
        self, count: int, there: Callable[[Any, Any, int], R], data: Callable[[], Any], here: Callable[[int], R], *,
        weight: int,
    ) -> Callable[[], list[R]]:
        """Pieces ``0 .. count - 1`` of a work known before the caller needs
        it, started now where the engine can (``there(detector, data(), k)``
        elsewhere, ``data`` called only then; ``here(k)`` in the caller; the
        same results); the
        returned callable gives them, in order. ``weight``: the records
        the work judges (small work is not worth a process)."""
        ...

    def beside(self, work: Callable[[], T], weight: int) -> Callable[[], T]:
        """Runs ``work`` (over ``weight`` sentences) beside the caller, or
        not: the returned callable gives its result."""
        ...

    def numbered_words(self, docs: Sequence[DocumentFeatures]) -> Sequence[PieceWords] | None:
        """The words of ``docs`` numbered piece by piece where their features
        were made (:class:`~partialdup.index.word_columns.PieceWords`), when
        ``docs`` are the features the engine last made with ``apart``, in
        order; else None (asked once: the pieces go)."""
        ...

    def apart(self, works: Sequence[tuple[Callable[..., Any], tuple]]) -> list[Callable[[], Any]]:
        """Runs each work (a module-level function and its picklable
        arguments) in a process that holds little of the caller's memory, or
        here when its result is asked for (see :data:`~partialdup.pipeline.sidework.Apart`)."""
        ...
