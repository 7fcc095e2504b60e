"""The Dask engine: a run's costly stages as tasks on a Dask cluster.

Which stage runs where (docs/engine.md has the why and the measurements):

1. **Features per document** (sentences, tokens, features; four fifths of a
   run on Chinese text): tasks on the workers, a few documents each. Every
   worker builds its detector once, from a
   :class:`~partialdup.pipeline.pool.DetectorRecipe` (method, IDF,
   configuration), in a worker plugin: jieba loads once per worker.
2. **Look-ups** (candidate pairs through shared features; whole matches,
   near misses, loose candidates of edited copies, rejoined sentences,
   quotations): the candidate product, the costly part, is shuffled by
   feature (:class:`_ClusterProduct`, :mod:`partialdup.index.partitioned`):
   the index's usual features are cut into parts by a stable hash, each part
   sent to a worker once; for each group of blocks of query rows, one task
   per part computes the partial shared counts of the pairs its features
   make candidates, and one task sums them by pair. The client builds the index
   (one sparse matrix, :mod:`partialdup.index.sparse`), adds the frequent
   features' counts to the candidates it gets back, scores and accepts them,
   and applies the global boilerplate rule (it needs every match).
3. **Pair tail per document pair** (evidence, spans, refined edges,
   scores): tasks on the workers, a few document pairs each; the documents
   a task needs are scattered to the cluster once and moved to the worker
   that runs it (the shuffle by document pair); a worker keeps the documents
   it unpacked last for its next tasks.
4. **Output**: the client puts the spans together in the order one process
   gives them and writes JSONL.

The spans are byte-identical to the local engine's: the workers run the
detector's own stage functions
(:meth:`~partialdup.pipeline.detector.Detector.features`,
:meth:`~partialdup.pipeline.tail.SpanStage.pair_spans`) and the detector
assembles their results.

This module imports Dask: :func:`partialdup.engine.open_engine` imports it
only when ``--engine dask`` is asked for.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import logging
import uuid
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from partialdup.core.config import Config
from partialdup.core.errors import ConfigError
from partialdup.core.types import Document, DocumentFeatures, TokenizedDocument
from partialdup.index.sparse import BLOCK_POSTINGS
from partialdup.index.partitioned import (
    Candidates, CandidateProduct, ProductRequest, index_part, part_columns, partial_candidates, query_part,
    reduce_candidates, task_blocks,
)
from partialdup.pipeline.parallel import AnyDocument, OrderedFeatures, pack_features, unpack_features, worker_count
from partialdup.pipeline.pool import DetectorRecipe
from partialdup.pipeline.sidework import Judge, inline_apart, inline_beside, inline_judged, inline_pieces
from partialdup.pipeline.tail import PairJob, PairSpans

try:
    from distributed import Client, LocalCluster, WorkerPlugin, get_worker
except ImportError as missing:  # pragma: no cover - the 'dask' extra (and 'test') installs it
    raise ConfigError(f"--engine dask needs Dask ({missing.name} is not installed): pip install 'partialdup[dask]'") from None

if TYPE_CHECKING:
    from partialdup.pipeline.detector import Detector

__all__ = ["DaskEngine"]

#: Documents per features task, and document pairs per tail task, at most.
DOCUMENTS_PER_TASK = 16
PAIRS_PER_TASK = 64

#: Seconds to wait for a scheduler given with ``--scheduler``.
CONNECT_TIMEOUT = 10

#: Feature parts per worker in the shuffle by feature (more parts than
#: workers: a busy worker holds the others up less).
PARTS_PER_WORKER = 2

#: Postings a task's group of row blocks may reach over all parts: the
#: index's bound on one product (see :func:`~partialdup.index.partitioned.task_blocks`).
TASK_POSTINGS = BLOCK_POSTINGS

#: Groups of row blocks in flight per feature part, at most.
BLOCKS_AHEAD = 1

#: Unpacked documents a worker keeps for its next pair tasks (the most
#: recently used): a reference is in the pairs of many queries, and unpacking
#: it for every task cost more than the tasks' own work (``check`` on the
#: gold set, see docs/engine.md).
UNPACKED_PER_WORKER = 256

#: Matrices cut into parts kept on the cluster (the index's, and the last
#: queries'): the three searches of ``detect`` send the index once.
HELD_MATRICES = 4


class _DetectorPlugin(WorkerPlugin):  # type: ignore[misc]
    """Builds the detector on each worker once (jieba loads there once)."""

    def __init__(self, recipe: DetectorRecipe) -> None:
        self.recipe = recipe
        self.detectors: dict[str, Detector] = {}
        self.unpacked: dict[str, collections.OrderedDict[str, DocumentFeatures]] = {}

    def setup(self, worker: Any) -> None:
        # Keyed by worker: in-process workers (processes=False) may share
        # this object, and a detector's tokenizer caches are its own.
        self.detectors[worker.address] = self.recipe.build()
        self.unpacked[worker.address] = collections.OrderedDict()


def _holder(plugin: str) -> tuple[_DetectorPlugin, str]:
    worker = get_worker()
    return worker.plugins[plugin], worker.address  # type: ignore[return-value]


def _detector(plugin: str) -> Detector:
    holder, address = _holder(plugin)
    return holder.detectors[address]


def _unpacked(plugin: str, sent: dict[int, tuple[str, tuple]]) -> dict[int, DocumentFeatures]:
    """The documents sent to a task, (token, packed) by number, unpacked once
    per worker while they stay among its most recently used."""
    holder, address = _holder(plugin)
    cache = holder.unpacked[address]
    docs = {}
    for number, (token, packed) in sent.items():
        doc = cache.pop(token, None)
        cache[token] = docs[number] = unpack_features(*packed) if doc is None else doc
    while len(cache) > UNPACKED_PER_WORKER:
        cache.popitem(last=False)
    return docs


def _features_task(plugin: str, documents: Sequence[Document | TokenizedDocument]) -> list[tuple]:
    detector = _detector(plugin)
    return [pack_features(features) for features in detector.features_many(documents)]


def _pairs_task(
    plugin: str, jobs: Sequence[PairJob], a_sent: dict[int, tuple[str, tuple]], b_sent: dict[int, tuple[str, tuple]] | None
) -> list[PairSpans]:
    """Each job's spans; ``b_sent`` None: one collection (``detect``)."""
    detector = _detector(plugin)
    a_docs = _unpacked(plugin, a_sent)
    b_docs = a_docs if b_sent is None else _unpacked(plugin, b_sent)
    return [detector.pair_spans(a_docs[job.a], b_docs[job.b], job) for job in jobs]


class _ClusterProduct:
    """The look-ups' candidate product shuffled by feature on the cluster
    (a :class:`~partialdup.index.partitioned.CandidateProduct`).

    Part p of the features (a stable hash, see
    :func:`~partialdup.index.partitioned.part_columns`) lives on worker
    p mod W, both its index columns and its query columns; the task of a
    group of row blocks for part p reads only those, and the group's reduce
    task sums the parts' partial counts by pair (the shuffle by feature, then
    by pair). A group reaches at most ``TASK_POSTINGS`` postings over all
    parts (:func:`~partialdup.index.partitioned.task_blocks`): the index's
    bound on one product's memory bounds each task's.

    Args:
        client: A connected Dask client.
    """

    def __init__(self, client: Client) -> None:
        self.client = client
        self._held: list[tuple[Any, int, list[Any]]] = []  # (matrix, parts, futures of its parts)

    def __call__(self, request: ProductRequest) -> Iterator[Candidates]:
        """Each block's candidates, in the blocks' order (see the class notes)."""
        workers = sorted(self.client.nthreads())
        parts = PARTS_PER_WORKER * max(len(workers), 1)
        columns = part_columns(request.column_features, parts)
        index = self._parts(request.index_t, parts, workers, lambda: [index_part(request.index_t, c) for c in columns])
        queries = self._parts(request.queries, parts, workers, lambda: [query_part(request.queries, c) for c in columns])

        def submitted(blocks: list[tuple[int, int]]) -> Any:
            partials = [
                self.client.submit(partial_candidates, q, i, blocks, request.below_self, pure=False)
                for q, i in zip(queries, index)
            ]
            return self.client.submit(reduce_candidates, partials, pure=False)

        # A few groups ahead of the caller, not all at once: the cluster holds
        # a few groups' candidates, and the caller scores one while the
        # workers compute the next.
        groups = iter(task_blocks(request, TASK_POSTINGS))
        running = collections.deque(submitted(blocks) for blocks in itertools.islice(groups, BLOCKS_AHEAD * parts))
        while running:
            done = running.popleft()
            running.extend(submitted(blocks) for blocks in itertools.islice(groups, 1))
            yield from done.result()

    def release(self) -> None:
        """Let the cluster drop the parts sent (the run is over)."""
        self._held = []

    def _parts(self, matrix: Any, parts: int, workers: list[str], cut: Callable[[], list[Any]]) -> list[Any]:
        """Futures of the parts of ``matrix``, sent once (part p to worker p mod W)."""
        for held, count, futures in self._held:
            if held is matrix and count == parts:
                return futures
        pieces = cut()
        futures = [
            self.client.scatter(piece, workers=[workers[p % len(workers)]] if workers else None, hash=False)
            for p, piece in enumerate(pieces)
        ]
        self._held = [*self._held[-(HELD_MATRICES - 1) :], (matrix, parts, futures)]
        return futures


class DaskEngine:
    """Runs the features, the look-ups' candidate products and the pair
    tails on a Dask cluster (see the module notes).

    Args:
        client: A connected Dask client.
    """

    def __init__(self, client: Client) -> None:
        self.client = client
        self._plugins: dict[DetectorRecipe, str] = {}
        # Plugin names of this engine's own: clients sharing a cluster do not
        # replace each other's detectors.
        self._tag = uuid.uuid4().hex[:12]
        self._product = _ClusterProduct(client)
        self.candidate_product: CandidateProduct | None = self._product

    def close(self) -> None:
        """Take this engine's detectors off the workers and let the cluster
        drop the index parts it holds (a shared cluster outlives the run)."""
        self._product.release()
        for name in self._plugins.values():
            with contextlib.suppress(Exception):  # a worker already gone has nothing to take off
                self.client.unregister_worker_plugin(name)
        self._plugins.clear()

    @classmethod
    @contextlib.contextmanager
    def connect(cls, config: Config) -> Iterator[DaskEngine]:
        """An engine on the scheduler ``config.scheduler`` names, or on a
        local cluster of ``config.jobs`` worker processes (closed afterwards).

        Raises:
            ConfigError: The scheduler cannot be reached.
        """
        with contextlib.ExitStack() as stack:
            if config.scheduler:
                try:
                    client = stack.enter_context(Client(config.scheduler, timeout=CONNECT_TIMEOUT))
                except (OSError, TimeoutError) as error:
                    raise ConfigError(f"--scheduler {config.scheduler}: cannot reach the Dask scheduler ({error})") from None
            else:
                cluster = stack.enter_context(
                    LocalCluster(
                        n_workers=worker_count(config.jobs), threads_per_worker=1, processes=True,
                        dashboard_address=":0", silence_logs=logging.ERROR,  # a free port, no clash
                    )
                )
                client = stack.enter_context(Client(cluster))
            engine = cls(client)
            stack.callback(engine.close)
            yield engine

    def _plugin(self, detector: Detector) -> str:
        """The name of the worker plugin holding this detector (registered once)."""
        recipe = DetectorRecipe.of(detector)
        if recipe not in self._plugins:
            name = f"partialdup-detector-{self._tag}-{len(self._plugins)}"
            self.client.register_plugin(_DetectorPlugin(recipe), name=name)
            self._plugins[recipe] = name
        return self._plugins[recipe]

    def expect(self, detector: Detector, *, apart: bool = False) -> None:
        """Nothing to start: the workers build their detector from the plugin
        registered with the first features (:meth:`features`)."""

    def first_read(self, detector: Detector, *, apart: bool = False) -> None:
        """None: the tasks are made once every document is read (:meth:`features`)."""
        return None

    def features(self, detector: Detector, documents: Iterable[AnyDocument], *, apart: bool = False) -> OrderedFeatures:
        """The features of each document, in order: tasks of a few documents
        each (``apart``: nothing to start, :meth:`apart` runs work here)."""
        docs = list(documents)
        pending = [d for d in docs if not isinstance(d, DocumentFeatures)]
        plugin = self._plugin(detector) if pending else ""
        chunks = [pending[low : low + DOCUMENTS_PER_TASK] for low in range(0, len(pending), DOCUMENTS_PER_TASK)]
        futures = [self.client.submit(_features_task, plugin, chunk, pure=False) for chunk in chunks]

        def ordered() -> Iterator[DocumentFeatures]:
            computed = (packed for future in futures for packed in future.result())
            for doc in docs:
                yield doc if isinstance(doc, DocumentFeatures) else unpack_features(next(computed), doc.text)

        return OrderedFeatures(len(docs), ordered())

    def pair_spans(
        self, detector: Detector, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures],
        jobs: Sequence[PairJob],
    ) -> list[PairSpans]:
        """Each job's spans, in the jobs' order: tasks of a few document pairs each."""
        jobs = list(jobs)  # made once here (jobs may be made when read: PairJobs)
        if not jobs:
            return []
        plugin = self._plugin(detector)
        one = b_docs is a_docs  # detect: one collection, each document sent once
        if one:
            a_futures = b_futures = self._scattered(a_docs, {n for job in jobs for n in (job.a, job.b)})
        else:
            a_futures = self._scattered(a_docs, {job.a for job in jobs})
            b_futures = self._scattered(b_docs, {job.b for job in jobs})
        futures = []
        for low in range(0, len(jobs), PAIRS_PER_TASK):
            chunk = list(jobs[low : low + PAIRS_PER_TASK])
            if one:
                a_needed, b_needed = {n: a_futures[n] for job in chunk for n in (job.a, job.b)}, None
            else:
                a_needed, b_needed = {job.a: a_futures[job.a] for job in chunk}, {job.b: b_futures[job.b] for job in chunk}
            futures.append(self.client.submit(_pairs_task, plugin, chunk, a_needed, b_needed, pure=False))
        return list(itertools.chain.from_iterable(self.client.gather(futures)))

    def judged(
        self, detector: Detector, judge: Judge, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures],
        records: Iterable[Any],
    ) -> Iterable[Any]:
        """The near misses' and edited copies' verdicts: on the client, in
        order (see :mod:`partialdup.pipeline.sidework`; sending the records
        and the documents to the cluster would cost more than judging them)."""
        return inline_judged(detector)(judge, a_docs, b_docs, records)

    #: The word-set search of edited copies: on the client, in turn.
    beside = staticmethod(inline_beside)
    apart = staticmethod(inline_apart)
    #: The near misses' verdicts: on the client, when asked for (as :meth:`judged`).
    pieces_soon = staticmethod(inline_pieces)

    @staticmethod
    def numbered_words(docs: Sequence[DocumentFeatures]) -> None:
        """None: the client numbers the words of ``detect``'s documents itself."""
        return None

    def _scattered(self, docs: Sequence[DocumentFeatures], numbers: set[int]) -> dict[int, tuple[str, Any]]:
        """The documents the jobs need, sent to the cluster once each, packed
        (see :func:`~partialdup.pipeline.parallel.pack_features`; a store's
        lazily read references travel as plain features): (token, future) by
        number, the token naming the document in the workers' caches."""
        wanted = sorted(numbers)
        # hash=False: no content hash of every document (they are known apart by number).
        futures = self.client.scatter([(pack_features(docs[n]), docs[n].text) for n in wanted], hash=False)
        sending = uuid.uuid4().hex
        return {n: (f"{sending}-{n}", future) for n, future in zip(wanted, futures)}
