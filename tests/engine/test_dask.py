"""The Dask engine gives byte-identical output to the local engine."""

import io

import pytest

distributed = pytest.importorskip("distributed")

from partialdup.cli.main import main  # noqa: E402
from partialdup.core.config import Config  # noqa: E402
from partialdup.engine import dask_engine, open_engine  # noqa: E402
from partialdup.engine.dask_engine import DaskEngine  # noqa: E402
from partialdup.index.partitioned import PartitionedProduct  # noqa: E402
from partialdup.io.jsonl import write_jsonl  # noqa: E402
from partialdup.pipeline.factory import make_detector  # noqa: E402
from partialdup.pipeline.parallel import LocalEngine, pack_features  # noqa: E402
from tests.paths import SAMPLES, SLICE  # noqa: E402


def _jsonl(detection) -> str:
    stream = io.StringIO()
    write_jsonl(detection.spans, stream)
    return stream.getvalue()


@pytest.fixture(scope="module")
def cluster():
    # Two in-process workers: the tasks, the plugin and the transfers are
    # Dask's own, without the start-up of worker processes. One cluster for
    # the module: the command line's runs below connect to it too.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
        yield cluster


@pytest.fixture(scope="module")
def engine(cluster):
    with distributed.Client(cluster) as client:
        engine = DaskEngine(client)
        yield engine
        engine.close()


@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(jobs=1), tokenizer=tokenizer)


class _Counted:
    """An engine's candidate product, counting the blocks it gives."""

    def __init__(self, product):
        self.product, self.blocks = product, 0

    def __call__(self, request):
        for block in self.product(request):
            self.blocks += 1
            yield block


@pytest.fixture
def counted(engine, monkeypatch):
    spy = _Counted(engine.candidate_product)
    monkeypatch.setattr(engine, "candidate_product", spy)
    return spy


def test_detect_on_the_slice_is_byte_identical_to_the_local_engine(engine, counted, detector, sources, suspicious):
    documents = [*sources, *suspicious]
    local = detector.detect(documents, engine=LocalEngine(1))
    found = detector.detect(documents, engine=engine)
    assert counted.blocks > 0  # the look-ups went through the cluster
    assert local.spans and _jsonl(found) == _jsonl(local)
    assert found.stats == local.stats


def test_check_on_the_slice_is_byte_identical_to_the_local_engine(engine, counted, detector, sources, suspicious):
    local = detector.check(suspicious, sources, engine=LocalEngine(1))
    found = detector.check(suspicious, sources, engine=engine)
    assert counted.blocks > 0
    assert local.spans and _jsonl(found) == _jsonl(local)
    assert found.stats == local.stats


def test_the_cluster_product_is_the_partitioned_one_block_for_block(engine, detector, sources, suspicious, monkeypatch):
    import partialdup.index.sparse as sparse_module

    monkeypatch.setattr(sparse_module, "BLOCK_ROWS", 256)  # several blocks ...
    monkeypatch.setattr(dask_engine, "TASK_POSTINGS", 0)  # ... each its own tasks
    docs = [detector.features(d) for d in [*sources, *suspicious]]
    index = detector.build_index(docs, joins=False).sentences
    captured = []
    index.using(lambda request: captured.append(request) or iter(())).search_all(detector.rule)
    (request,) = captured
    # More groups of blocks than the cluster runs at once (two workers): the window moves on.
    assert len(request.bounds) > dask_engine.BLOCKS_AHEAD * dask_engine.PARTS_PER_WORKER * 2
    for (query, group, shared), (q, g, s) in zip(engine.candidate_product(request), PartitionedProduct(3, 0)(request), strict=True):
        assert (query.tolist(), group.tolist(), shared.tolist()) == (q.tolist(), g.tolist(), s.tolist())
    monkeypatch.setattr(dask_engine, "TASK_POSTINGS", 10**9)  # all blocks in one task per part: the same blocks
    assert sum(1 for _ in engine.candidate_product(request)) == len(request.bounds)
    local = index.search_all(detector.rule, boilerplate=2)
    through = index.using(engine.candidate_product).search_all(detector.rule, boilerplate=2)
    for field in ("query", "key", "score", "shared", "boilerplate"):
        assert getattr(through, field).tolist() == getattr(local, field).tolist()
    assert through.candidates == local.candidates > 0


def test_the_index_parts_are_sent_once_for_the_searches_of_a_run(engine, detector, sources):
    docs = [detector.features(d) for d in sources]
    index = detector.build_index(docs, joins=False).sentences.using(engine.candidate_product)
    index.search_all(detector.rule)
    held = list(engine.candidate_product._held)
    index.search_all(detector._loose_rule)
    assert engine.candidate_product._held == held


def _plugins(cluster) -> set[str]:
    with distributed.Client(cluster) as client:
        held = client.run(lambda dask_worker: sorted(dask_worker.plugins))
    return {name for names in held.values() for name in names if name.startswith("partialdup-")}


def test_the_command_line_on_the_slice_gives_the_local_bytes(cluster, tmp_path):
    # detect and check --against, --jobs 1 against --engine dask on the module's cluster (--scheduler).
    src, susp = str(SLICE / "src"), str(SLICE / "susp")
    before = _plugins(cluster)
    for command in (["detect", src, susp], ["check", susp, "--against", src]):
        local, dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
        assert main([*command, "--jobs", "1", "-q", "-o", str(local)]) == 0
        assert main([*command, "--engine", "dask", "--scheduler", cluster.scheduler_address, "-q", "-o", str(dask)]) == 0
        assert local.read_bytes() and dask.read_bytes() == local.read_bytes()
    assert _plugins(cluster) == before  # each run took its detector off the workers


def test_a_worker_unpacks_a_document_once_while_it_is_recent(engine, detector, sources, monkeypatch):
    monkeypatch.setattr(dask_engine, "UNPACKED_PER_WORKER", 2)  # in-process workers read this module
    plugin = engine._plugin(detector)
    sent = (pack_features(detector.features(sources[0])), sources[0].text)

    def unpack_on_a_worker():
        first = dask_engine._unpacked(plugin, {0: ("t-0", sent)})[0]
        again = dask_engine._unpacked(plugin, {5: ("t-0", sent)})[5]  # the same document, another number
        others = [dask_engine._unpacked(plugin, {0: (f"t-{n}", sent)})[0] for n in (1, 2)]
        latest = dask_engine._unpacked(plugin, {0: ("t-0", sent)})[0]  # pushed out by the two others
        holder, address = dask_engine._holder(plugin)
        return first is again and first == others[0] and others[0] is not first and latest is not first, len(
            holder.unpacked[address]
        )

    assert engine.client.submit(unpack_on_a_worker, pure=False).result() == (True, 2)


def test_features_keep_the_documents_order(engine, detector, sources):
    ready = detector.features(sources[0])
    mixed = [sources[3], ready, sources[1]]
    got = list(engine.features(detector, mixed))
    assert [d.id for d in got] == [d.id for d in mixed] and got[1] is ready
    assert got[0] == detector.features(sources[3])


def test_the_command_line_runs_a_local_cluster(tmp_path):
    # A worker process (the local cluster --engine dask starts), on two sample files.
    files = [str(SAMPLES / "man_ls.1.zh_CN.txt"), str(SAMPLES / "man_ls.1.zh_TW.txt")]
    local, dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    assert main(["detect", *files, "--jobs", "1", "-q", "-o", str(local)]) == 0
    assert main(["detect", *files, "--engine", "dask", "--jobs", "1", "-q", "-o", str(dask)]) == 0
    assert local.read_bytes() and dask.read_bytes() == local.read_bytes()


def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(dask_engine, "CONNECT_TIMEOUT", 1)
    code = main(["detect", str(SAMPLES / "man_ls.1.zh_CN.txt"), "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9",
                 "-o", str(tmp_path / "out.jsonl")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("partialdup: error: --scheduler tcp://127.0.0.1:9: cannot reach") and "Traceback" not in err


def test_open_engine_is_local_unless_asked():
    with open_engine(Config(jobs=3)) as engine:
        assert isinstance(engine, LocalEngine) and engine.workers == 3
