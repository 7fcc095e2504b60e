"""The local engine: the detector's two costly stages on every core.

Two stages of a run cost most and split by document: the features of each
document (sentences -> tokens -> features) and the tail of each document
pair (:meth:`~partialdup.pipeline.tail.SpanStage.pair_spans`: evidence,
spans, refined edges, scores). :class:`LocalEngine` runs them on ``jobs``
processes; the index look-ups between them stay in the calling process
(one sparse matrix product, see :mod:`partialdup.index.sparse`), except
for independent parts of the work between the stages (see
:mod:`partialdup.pipeline.sidework`): ``detect``'s word-set and headline
searches run in helpers forked as the reading starts, sent their arrays
(:meth:`LocalEngine.apart`; on documents, in a process forked beside the
look-ups, :meth:`LocalEngine.beside`), and the verdicts of the tail's
near-miss and edited-copy checks are computed on ``jobs`` processes,
chunks of records at a time, while the calling process keeps the
bookkeeping (:meth:`LocalEngine.judged`); ``detect``'s near misses are
sent, from the look-ups on, to processes forked as the reading starts,
which judge them while the look-ups go on (:meth:`LocalEngine.pieces_soon`).

On Linux the calling process is one of the ``jobs``: it forks ``jobs - 1``
helpers that inherit its detector (its segmenter already loaded), the
documents and the work list, and it takes pieces of the work itself
(:mod:`partialdup.pipeline.shared_work`); only the helpers' results are
pickled, features packed (:mod:`partialdup.pipeline.packing`); the pieces the
work is cut into are :mod:`partialdup.pipeline.work_pieces`'. The command
line tells the engine its detector before it reads the documents
(:meth:`LocalEngine.expect`): the feature helpers are forked then (for
``detect``, after the caller loads the segmenter, which they share; else
they load it while the documents are read), and are sent the documents. Elsewhere (spawn) a pool of ``jobs`` workers builds its
detectors from a :class:`~partialdup.pipeline.pool.DetectorRecipe`,
loading jieba once per worker, and is sent the work (``Pool.imap``).

The output is byte-identical to one process whatever ``jobs`` is: each
piece of work is a pure function of its inputs, the results come back in
the order of the pieces, and the tail puts the pairs' spans together as
one process does (see :meth:`~partialdup.pipeline.tail.SpanStage._detection`).

``jobs == 1`` starts no process; neither does a run too small to gain
(less than :data:`MIN_CHARS_PER_WORKER` characters per worker for the
features, :data:`MIN_PAIRS_PER_WORKER` sentence pairs per worker for the
tail, :data:`MIN_RECORDS_PER_WORKER` records per worker for the verdicts,
:data:`MIN_SENTENCES_BESIDE` sentences for the word-set search), nor a
daemonic process (a pool's worker may not start one).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence, TypeVar

from partialdup.core.packed_text import load_packing
from partialdup.core.types import Document, DocumentFeatures, TokenizedDocument
from partialdup.index.partitioned import CandidateProduct
from partialdup.index.word_columns import PieceWords
from partialdup.index.sparse import load_sparse
from partialdup.match.keyed import Pending
from partialdup.pipeline.engine_protocol import AnyDocument, Engine, OrderedFeatures
from partialdup.pipeline.packing import held_as_numbers, pack_features, unpack_features, unpack_piece
from partialdup.pipeline.pool import (
    WorkerPool, features_chunk, features_piece, judge_chunk, load_tokenizer, pair_chunk, process_context, sent_documents,
)
from partialdup.pipeline.beside import BesideProcess
from partialdup.pipeline.shared_work import HelperProcess, LaterPieces, shared_pieces
from partialdup.pipeline.sidework import Judge, inline_apart, inline_pieces
from partialdup.pipeline.tail import PairJob, PairSpans
from partialdup.pipeline.work_pieces import (
    DOCUMENTS_TOGETHER, batches, merged_features, plain_documents, texts_packed, weighted_runs,
)

if TYPE_CHECKING:
    from partialdup.pipeline.detector import Detector

__all__ = [
    "Engine", "LocalEngine", "OrderedFeatures", "worker_count", "pack_features", "unpack_features", "MIN_CHARS_PER_WORKER",
    "MIN_PAIRS_PER_WORKER", "MIN_RECORDS_PER_WORKER", "MIN_RECORDS_PER_FORKED_WORKER", "MIN_SENTENCES_BESIDE",
]

T = TypeVar("T")
R = TypeVar("R")

#: A worker is started for the features only when it gets at least this many
#: characters (about a second of tokenizing Chinese: more than starting it
#: and moving its results costs).
MIN_CHARS_PER_WORKER = 250_000

#: A worker is started for the tail only when it gets at least this many
#: sentence pairs to check.
MIN_PAIRS_PER_WORKER = 5_000

#: A worker is started to judge near misses or edited copies (see
#: :mod:`partialdup.pipeline.sidework`) only when it gets at least this many
#: records: starting a pool costs about what judging a few thousand does.
MIN_RECORDS_PER_WORKER = 20_000

#: The same for a helper forked from the calling process as it is then
#: (:meth:`LocalEngine.judged` in the tail: the whole heap of the run).
#: Each page that either process writes afterwards is copied: judging the
#: Chinese bench corpus's 62,034 edited-copy candidates that way cost the
#: caller 16,000 page faults and took longer than in process (0.11-0.14
#: against 0.07-0.11 s); the English corpus's 253,101 took 0.26-0.33
#: against 0.38-0.40 s (docs/benchmark.md, session 30).
MIN_RECORDS_PER_FORKED_WORKER = 50_000

#: The word-set search of edited copies runs beside the feature searches
#: only over at least this many sentences (a fraction of a second of work:
#: about what forking a large process and piping the pairs back costs).
MIN_SENTENCES_BESIDE = 20_000

#: Records judged per piece of work: each is one pickled message, and a
#: worker's memo of letters serves a whole piece (4,096 cost the calling
#: process twice the CPU of 16,384 on the Chinese bench corpus).
_RECORDS_PER_CHUNK = 16_384

#: Characters read that make the first piece of the features, sent to a
#: helper forked early while the rest are read (:meth:`LocalEngine.first_read`).
#: The helper, its dictionaries loaded, waited for the whole read: 0.16 s of
#: a core on the Chinese bench corpus; on the English one up to 0.5 s when
#: its 10,663 files came from a cold cache (0.25 s read from a warm one).
FIRST_PIECE_CHARS = 1_000_000


def worker_count(jobs: int) -> int:
    """Worker processes for ``jobs`` (``Config.jobs``): 0 means one per core."""
    return jobs if jobs > 0 else max(os.cpu_count() or 1, 1)


#: Helper processes forked for the work sent apart (:meth:`LocalEngine.apart`):
#: ``detect``'s word-set and headline searches, which run side by side.
HELPERS_APART = 2


class LocalEngine:
    """This machine: the features, the pair tails and the tail's verdicts in
    ``jobs`` worker processes; the look-ups' word-set and headline searches
    in helpers forked early (:meth:`apart`), or beside them (:meth:`beside`).

    Args:
        jobs: Worker processes (``Config.jobs``: 0 means one per core, 1 none).
        min_chars: Characters a worker needs for the features to start it.
        min_pairs: Sentence pairs a worker needs for the tail to start it.
        min_records: Records a worker needs to judge them (:meth:`judged`).
        min_forked_records: The same for a worker forked from this process
            as it is (:meth:`judged` on Linux).
        min_beside: Sentences the word-set search needs to run beside (:meth:`beside`).
    """

    candidate_product: CandidateProduct | None = None  # the look-ups run in the calling process

    def __init__(
        self, jobs: int, *, min_chars: int = MIN_CHARS_PER_WORKER, min_pairs: int = MIN_PAIRS_PER_WORKER,
        min_records: int = MIN_RECORDS_PER_WORKER, min_beside: int = MIN_SENTENCES_BESIDE,
        min_forked_records: int = MIN_RECORDS_PER_FORKED_WORKER,
    ) -> None:
        # A daemonic process (itself a pool's worker) may not start processes.
        self.workers = 1 if multiprocessing.current_process().daemon else worker_count(jobs)
        self.min_chars = min_chars
        self.min_pairs = min_pairs
        self.min_records = min_records
        self.min_forked_records = min_forked_records
        self.min_beside = min_beside
        # Forked as the reading starts, or the features (_fork_apart()).
        self._helpers: list[HelperProcess] = []
        self._later: LaterPieces[Any] | None = None
        self._sent: list[HelperProcess] = []  # those sent work apart
        self._numbered: tuple[list[DocumentFeatures], list[PieceWords]] | None = None  # see numbered_words()
        self._early: LaterPieces[Any] | None = None  # the feature helpers of expect()
        # The documents sent to them as the first piece (first_read()), and its `apart`.
        self._first: tuple[list[Document], bool] | None = None

    def expect(self, detector: Detector, *, apart: bool = False) -> None:
        """Forks now the ``jobs - 1`` helpers that will make ``detector``'s next
        features with this process (Linux, more than one job), sent the
        documents once read (a run too small for them ends them). They load
        the tokenizer's dictionaries while the caller reads, unless ``apart``
        (``detect``, whose caller lets them go after the features): the work
        sent apart forked first, the caller loads them and the feature helpers
        share them (zh 8x: 114-115 MB a feature helper, not 141-142; session 57)."""
        context = process_context()
        if self.workers > 1 and self._early is None and context.get_start_method() == "fork":
            load_packing()  # the helpers pack and inflate texts: they share zstandard
            if apart:
                self._fork_apart(detector)
                detector.tokenizer.load()
            self._early = LaterPieces(context, self.workers - 1, detector, prepare=load_tokenizer, first=True)

    def first_read(self, detector: Detector, *, apart: bool = False) -> tuple[int, Callable[[Sequence[Document]], None]] | None:
        """Where the reading hands :meth:`expect`'s helpers their first
        documents, which one of them makes at once while the rest are read:
        how many characters read make them, and what to call with the
        documents read by then (at most once). None: no helper waits.
        ``apart`` as :meth:`features` will be called (then :meth:`pieces_soon`'s helpers
        are forked now). The same features either way: only who makes which piece changes."""
        early = self._early
        if early is None or early.inherited is not detector:
            return None
        if apart:
            self._fork_apart(detector)
        return max(FIRST_PIECE_CHARS, self.min_chars * self.workers), partial(self._first_documents, early, apart)

    def _fork_apart(self, detector: Detector) -> None:
        # The processes of the work sent apart (apart(), pieces_soon()), unless forked;
        # SciPy first (0.15 s of a core there). Forked before the read, a side helper keeps
        # no old copy of the pages the caller then writes (en 8x peak 379-389 MB, not 396-418).
        if not self._helpers:
            load_sparse()
            self._helpers = [HelperProcess(process_context()) for _ in range(min(HELPERS_APART, self.workers))]
        self._fork_later(detector)

    def _fork_later(self, detector: Detector) -> None:
        # pieces_soon()'s helpers, for `detector`, unless forked: before the documents
        # are read, they hold none of the heap that grows with them (docs/benchmark.md, session 50).
        if self._later is not None and self._later.inherited is not detector:
            self._later.close()
            self._later = None
        if self._later is None:
            self._later = LaterPieces(process_context(), self.workers - 1, detector)

    def _first_documents(self, early: LaterPieces[Any], apart: bool, documents: Sequence[Document]) -> None:
        if self._early is early and self._first is None and documents:
            self._first = (list(documents), apart)
            early.start_first(features_piece, ([sent_documents(documents)], apart))

    def close(self) -> None:
        """Ends the helpers forked for work never sent (:meth:`expect`, :meth:`first_read`)."""
        self._first = None
        for helpers in (self._early, self._later):
            if helpers is not None:
                helpers.close()
        self._early = self._later = None

    def features(self, detector: Detector, documents: Iterable[AnyDocument], *, apart: bool = False) -> OrderedFeatures:
        """The features of each document, in order, yielded as they come;
        ``apart``: the helpers of :meth:`apart` are forked with the workers
        (else none is: ``check`` and the store send no work apart)."""
        docs = list(documents)
        pending = [d for d in docs if not isinstance(d, DocumentFeatures)]
        if pending:
            # A previous run's, never asked for. (Features passed through, as
            # detect() is given those made for it, keep theirs.)
            self._numbered = None
        chars = sum(len(d.text or "") for d in pending)
        workers = min(self.workers, len(pending), chars // max(self.min_chars, 1))
        early, self._early = self._early, None
        first, self._first = self._first, None
        if early is not None and (workers < self.workers or early.inherited is not detector):
            early.close()  # too little work for them, or another detector's
            early = None
        head: list[Document] = []
        if early is not None and first is not None:
            head, head_apart = first
            if head_apart != apart or len(head) > len(pending) or any(a is not b for a, b in zip(head, pending)):
                early.close()  # sent other documents first: never expected
                early, head = None, []
        if workers <= 1:
            if apart and len(pending) == len(docs):
                return OrderedFeatures(len(docs), self._numbered_here(detector, docs))
            # In pieces (their words made together), yielded one by one.
            pieces = (texts_packed(detector.features_many(batch), batch) for batch in batches(iter(docs), DOCUMENTS_TOGETHER))
            return OrderedFeatures(len(docs), itertools.chain.from_iterable(pieces))
        return OrderedFeatures(len(docs), self._features(detector, docs, pending, workers, apart, early, head))

    def _numbered_here(self, detector: Detector, docs: list[AnyDocument]) -> Iterator[DocumentFeatures]:
        """``detect``'s features made here (one process), in pieces, each
        piece's words held as numbers as a helper's pieces are
        (:func:`~partialdup.pipeline.packing.held_as_numbers`), and the
        pieces kept for :meth:`numbered_words`: the documents' words are
        then read from the run's numbering, not held as tuples of strings
        (docs/benchmark.md, session 64)."""
        made: list[tuple[list[DocumentFeatures], PieceWords]] = []
        for batch in batches(iter(docs), DOCUMENTS_TOGETHER):
            features, words = held_as_numbers(detector.features_many(batch))
            made.append((features, words))
            yield from texts_packed(features, batch)
        self._keep_numbered(made)

    def _keep_numbered(self, made: Sequence[tuple[list[DocumentFeatures], PieceWords]]) -> None:
        # detect's pieces, in order, their words numbered: for numbered_words().
        self._numbered = ([doc for features, _ in made for doc in features], [words for _, words in made])

    def _features(
        self, detector: Detector, docs: list[AnyDocument], pending: list[Document | TokenizedDocument], workers: int,
        apart: bool, early: LaterPieces[Any] | None, head: Sequence[Document] = (),
    ) -> Iterator[DocumentFeatures]:
        context = process_context()
        # The first piece, when the reading sent it (first_read()), then the rest.
        rest = pending[len(head):]
        chunks: list[Sequence[Any]] = [head] if head else []
        chunks += weighted_runs(rest, [len(d.text or "") + 1 for d in rest], workers) if rest else []
        vocabulary: dict[str, str] = {}

        def back(number: int, packed: list[tuple]) -> list[DocumentFeatures]:
            return texts_packed([unpack_features(item, doc.text, vocabulary) for item, doc in zip(packed, chunks[number])],
                                 chunks[number])

        if context.get_start_method() != "fork":
            assert early is None, "helpers are forked only where processes are"
            with WorkerPool(context, workers, detector, (), ()) as pool:
                computed = (back(k, packed) for k, packed in enumerate(pool.imap(features_chunk, chunks)))
                yield from merged_features(docs, itertools.chain.from_iterable(computed))
            return
        if early is not None:  # forked before the documents were read: sent them
            sent = [None if head and k == 0 else sent_documents(chunk) for k, chunk in enumerate(chunks)]
            early.start(len(chunks), features_piece, (sent, apart))
        if apart:
            self._fork_apart(detector)  # before the features fill the heap, unless forked as the reading started
        # Helpers forked below inherit what the tokenizer loads on first use.
        detector.tokenizer.prepare(d.text for d in pending if isinstance(d, Document))
        # detect's (apart): each piece's words are numbered by whoever makes
        # it too (numbered_words()).
        made: dict[int, tuple[list[DocumentFeatures], PieceWords]] = {}

        def here(k: int) -> list[DocumentFeatures]:
            features = detector.features_many(chunks[k])
            if apart:
                made[k] = held_as_numbers(features)
                features = made[k][0]
            return texts_packed(features, chunks[k])

        def arrived(k: int, value: Any) -> list[DocumentFeatures]:
            if not apart:
                return back(k, value)
            # The piece's words come numbered, once: its features' words are
            # numbers into its distinct words, held as one string
            # (core/packed_words.py).
            made[k] = unpack_piece(value[0], [doc.text for doc in chunks[k]], value[1], vocabulary)
            return texts_packed(made[k][0], chunks[k])

        # The calling process computes pieces too (pipeline/shared_work.py).
        # The index built next needs SciPy: imported while the helpers compute.
        if early is not None:
            load_sparse()
            pieces = early.results(here, arrived)
        else:
            there = partial(features_piece, detector, (chunks, apart))
            pieces = shared_pieces(context, workers - 1, len(chunks), here, there, arrived, meanwhile=load_sparse)
        yield from merged_features(docs, itertools.chain.from_iterable(pieces))
        if apart:
            self._keep_numbered([made[k] for k in range(len(chunks))])

    def numbered_words(self, docs: Sequence[DocumentFeatures]) -> Sequence[PieceWords] | None:
        """The words of ``docs`` numbered piece by piece where their features
        were made, when they are the features :meth:`features` last made for
        ``detect`` (``apart``), in order; else None. Asked once: the pieces go."""
        numbered, self._numbered = self._numbered, None
        if numbered is None:
            return None
        made, pieces = numbered
        if len(made) != len(docs) or any(mine is not theirs for mine, theirs in zip(made, docs)):
            return None
        return pieces

    def pair_spans(
        self, detector: Detector, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures],
        jobs: Sequence[PairJob],
    ) -> list[PairSpans]:
        """Each job's spans, in the jobs' order. Jobs made when read
        (:class:`~partialdup.pipeline.tail.PairJobs`) are made by the process
        that takes them, when forked."""
        weights = getattr(jobs, "weights", None)
        if weights is None:
            weights = [len(job.evidence.pairs) + 1 for job in jobs]
        workers = min(self.workers, len(jobs), (sum(weights) - len(weights)) // max(self.min_pairs, 1))
        if workers <= 1 or not plain_documents(a_docs, b_docs):
            return [detector.pair_spans(a_docs[job.a], b_docs[job.b], job) for job in jobs]
        chunks = weighted_runs(range(len(jobs)), weights, workers)
        context = process_context()
        if context.get_start_method() == "fork":

            def spans(number: int) -> list[PairSpans]:
                return [detector.pair_spans(a_docs[job.a], b_docs[job.b], job) for job in map(jobs.__getitem__, chunks[number])]

            return list(itertools.chain.from_iterable(shared_pieces(context, workers - 1, len(chunks), spans, spans)))
        made = [[jobs[i] for i in chunk] for chunk in chunks]  # made here: the pool pickles them
        with WorkerPool(context, workers, detector, a_docs, b_docs) as pool:
            return list(itertools.chain.from_iterable(pool.imap(pair_chunk, made)))

    def judged(
        self, detector: Detector, judge: Judge, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures],
        records: Iterable[Any],
    ) -> list[Any]:
        """The judge's results over every record, in the records' order:
        chunks of records judged on ``jobs`` processes, when there are enough.

        Forked (Linux): records still to filter (:class:`~partialdup.match.keyed.Pending`)
        are handed out as ranges of the search's positions, each filtered and
        judged by whoever takes it; other records are read first, then handed
        out the same way. Spawned: a pool's feeding thread reads the records as
        its workers take them (a few chunks held at a time, never all).
        """
        context = process_context()
        if context.get_start_method() == "fork":
            # Helpers inherit the records: other records than pending ones are read first.
            ranged = records if isinstance(records, Pending) else Pending(list(records), lambda first, second: True)
            return self._judged_in_ranges(detector, judge, a_docs, b_docs, ranged, context)
        pending = iter(records)
        head = list(itertools.islice(pending, self.min_records * self.workers))
        workers = min(self.workers, len(head) // max(self.min_records, 1))
        if workers <= 1 or not plain_documents(a_docs, b_docs):
            return judge(detector, a_docs, b_docs, itertools.chain(head, pending), {})
        with WorkerPool(context, workers, detector, a_docs, b_docs) as pool:
            chunks = batches(itertools.chain(head, pending), _RECORDS_PER_CHUNK)
            return list(itertools.chain.from_iterable(pool.imap(partial(judge_chunk, judge), chunks)))

    def _judged_in_ranges(
        self, detector: Detector, judge: Judge, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures],
        records: Pending, context: Any,
    ) -> list[Any]:
        """:meth:`judged` of records still to filter: each piece is a range
        of the search's positions, filtered and judged by whoever takes it
        (the helpers inherit the filter's state)."""
        workers = min(self.workers, len(records) // max(self.min_forked_records, 1))
        if workers <= 1 or not plain_documents(a_docs, b_docs):
            return judge(detector, a_docs, b_docs, records, {})
        memo: dict = {}  # each process its own from the fork on

        def verdicts(number: int) -> list[Any]:
            low = number * _RECORDS_PER_CHUNK
            return judge(detector, a_docs, b_docs, records.part(low, low + _RECORDS_PER_CHUNK), memo)

        pieces = -(-len(records) // _RECORDS_PER_CHUNK)
        return list(itertools.chain.from_iterable(shared_pieces(context, workers - 1, pieces, verdicts, verdicts)))

    def pieces_soon(
        self, count: int, there: Callable[[Any, Any, int], R], data: Callable[[], Any], here: Callable[[int], R], *,
        weight: int,
    ) -> Callable[[], list[R]]:
        """Pieces ``0 .. count - 1`` of a work, started now by the helpers
        forked as the reading started, when there are (``detect``) and the work
        is worth them (``weight`` records, :attr:`min_records` a worker):
        a helper computes piece ``k`` as ``there(its detector, data(), k)``,
        ``data()`` made and sent once, while the caller goes on; calling the result
        gives every piece's result in order, the caller computing those left
        (``here(k)``). Else the pieces are computed here when asked for."""
        later, self._later = self._later, None
        workers = min(self.workers, weight // max(self.min_records, 1))
        if later is None or workers <= 1 or count < 2:
            if later is not None:
                later.close()
            return inline_pieces(count, there, data, here, weight=weight)
        # The work apart that is done ends its helpers now: they held the
        # memory the pieces take (docs/benchmark.md, session 25).
        for helper in self._sent:
            helper.take_ready()
        later.start(count, there, data())
        return lambda: list(later.results(here))

    def apart(self, works: Sequence[tuple[Callable[..., Any], tuple]]) -> list[Callable[[], Any]]:
        """The works run by the helper processes forked when the features
        were (:class:`~partialdup.pipeline.shared_work.HelperProcess`): a
        helper per work while there are some left, the works dealt to them in
        turn, each helper's in order (a helper runs one batch: the others stay
        for later calls); here, when their results are asked for, when none
        is left (one job, little work, or processes not forked)."""
        helpers, self._helpers = self._helpers[: len(works)], self._helpers[len(works) :]
        if not helpers:
            return inline_apart(works)
        self._sent = [*(helper for helper in self._sent if helper.alive), *helpers]
        # No more helpers than works: each gets at least one.
        placed: dict[int, Callable[[], Any]] = {}
        for k, helper in enumerate(helpers):
            numbers = range(k, len(works), len(helpers))
            placed.update(zip(numbers, helper.run([works[n] for n in numbers])))
        return [placed[n] for n in range(len(works))]

    def beside(self, work: Callable[[], T], weight: int) -> Callable[[], T]:
        """``work`` run in a forked process beside this one, its result
        piped back when asked for (:class:`~partialdup.pipeline.beside.BesideProcess`); here, when asked for,
        with one job, for less than ``min_beside`` sentences (``weight``), or
        where processes are not forked (a spawned process would have to be
        sent the work's documents)."""
        if self.workers <= 1 or weight < self.min_beside:
            return work
        context = process_context()
        if context.get_start_method() != "fork":
            return work
        return BesideProcess(context, work)
