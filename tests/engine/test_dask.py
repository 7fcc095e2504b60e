"""The Dask engine gives byte-identical output to the local engine."""

import io

import pytest

distributed = pytest.importorskip("distributed")

from partialdup.cli.main import main  # noqa: E402
from partialdup.core.config import Config  # noqa: E402
from partialdup.engine import dask_engine, open_engine  # noqa: E402
from partialdup.engine.dask_engine import DaskEngine  # noqa: E402
from partialdup.io.jsonl import write_jsonl  # noqa: E402
from partialdup.pipeline.factory import make_detector  # noqa: E402
from partialdup.pipeline.parallel import LocalEngine  # noqa: E402
from tests.paths import SAMPLES  # noqa: E402


def _jsonl(detection) -> str:
    stream = io.StringIO()
    write_jsonl(detection.spans, stream)
    return stream.getvalue()


@pytest.fixture(scope="module")
def engine():
    # Two in-process workers: the tasks, the plugin and the transfers are
    # Dask's own, without the start-up of worker processes.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            yield DaskEngine(client)


@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(jobs=1), tokenizer=tokenizer)


def test_detect_on_the_slice_is_byte_identical_to_the_local_engine(engine, detector, sources, suspicious):
    documents = [*sources, *suspicious]
    local = detector.detect(documents, engine=LocalEngine(1))
    found = detector.detect(documents, engine=engine)
    assert local.spans and _jsonl(found) == _jsonl(local)
    assert found.stats == local.stats


def test_check_on_the_slice_is_byte_identical_to_the_local_engine(engine, detector, sources, suspicious):
    local = detector.check(suspicious, sources, engine=LocalEngine(1))
    assert local.spans and _jsonl(detector.check(suspicious, sources, engine=engine)) == _jsonl(local)


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
