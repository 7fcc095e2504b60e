"""The Dask engine: a run's costly stages as tasks on a Dask cluster.

Which stage runs where (docs/engine.md has the why and the measurements):

1. **Features per document** (sentences, tokens, features; four fifths of a
   run on Chinese text): tasks on the workers, a few documents each. Every
   worker builds its detector once, from a
   :class:`~partialdup.pipeline.parallel.DetectorRecipe` (method, IDF,
   configuration), in a worker plugin: jieba loads once per worker.
2. **Index and look-ups** (candidate pairs through shared features; whole
   matches, near misses, loose candidates of edited copies, rejoined
   sentences, quotations; the global boilerplate rule): on the client, with
   the detector's own code (one sparse matrix product, see
   :mod:`partialdup.index.sparse`). Not distributed yet: the inverted index
   of the whole collection is built in the client's memory.
3. **Pair tail per document pair** (evidence, spans, refined edges,
   scores): tasks on the workers, a few document pairs each; the documents
   a task needs are scattered to the cluster once and moved to the worker
   that runs it (the shuffle by document pair).
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

import contextlib
import itertools
import logging
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from partialdup.core.config import Config
from partialdup.core.errors import ConfigError
from partialdup.core.types import Document, DocumentFeatures, TokenizedDocument
from partialdup.pipeline.parallel import (
    AnyDocument, DetectorRecipe, OrderedFeatures, pack_features, unpack_features, worker_count,
)
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


class _DetectorPlugin(WorkerPlugin):  # type: ignore[misc]
    """Builds the detector on each worker once (jieba loads there once)."""

    def __init__(self, recipe: DetectorRecipe) -> None:
        self.recipe = recipe
        self.detectors: dict[str, Detector] = {}

    def setup(self, worker: Any) -> None:
        # Keyed by worker: in-process workers (processes=False) may share
        # this object, and a detector's tokenizer caches are its own.
        self.detectors[worker.address] = self.recipe.build()


def _detector(plugin: str) -> Detector:
    worker = get_worker()
    holder: _DetectorPlugin = worker.plugins[plugin]  # type: ignore[assignment]
    return holder.detectors[worker.address]


def _features_task(plugin: str, documents: Sequence[Document | TokenizedDocument]) -> list[tuple]:
    detector = _detector(plugin)
    return [pack_features(detector.features(document)) for document in documents]


def _pairs_task(
    plugin: str, jobs: Sequence[PairJob], a_packed: dict[int, tuple], b_packed: dict[int, tuple] | None
) -> list[PairSpans]:
    """Each job's spans; ``b_packed`` None: one collection (``detect``)."""
    detector = _detector(plugin)
    a_docs = {number: unpack_features(*packed) for number, packed in a_packed.items()}
    b_docs = a_docs if b_packed is None else {number: unpack_features(*packed) for number, packed in b_packed.items()}
    return [detector.pair_spans(a_docs[job.a], b_docs[job.b], job) for job in jobs]


class DaskEngine:
    """Runs the features and the pair tails on a Dask cluster (see the module notes).

    Args:
        client: A connected Dask client.
    """

    def __init__(self, client: Client) -> None:
        self.client = client
        self._plugins: dict[DetectorRecipe, str] = {}

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
            yield cls(client)

    def _plugin(self, detector: Detector) -> str:
        """The name of the worker plugin holding this detector (registered once)."""
        recipe = DetectorRecipe.of(detector)
        if recipe not in self._plugins:
            name = f"partialdup-detector-{len(self._plugins)}"
            self.client.register_plugin(_DetectorPlugin(recipe), name=name)
            self._plugins[recipe] = name
        return self._plugins[recipe]

    def features(self, detector: Detector, documents: Iterable[AnyDocument]) -> OrderedFeatures:
        """The features of each document, in order: tasks of a few documents each."""
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

    def _scattered(self, docs: Sequence[DocumentFeatures], numbers: set[int]) -> dict[int, Any]:
        """The documents the jobs need, sent to the cluster once each, packed
        (see :func:`~partialdup.pipeline.parallel.pack_features`; a store's
        lazily read references travel as plain features): futures by number."""
        wanted = sorted(numbers)
        # hash=False: no content hash of every document (they are known apart by number).
        futures = self.client.scatter([(pack_features(docs[n]), docs[n].text) for n in wanted], hash=False)
        return dict(zip(wanted, futures))
