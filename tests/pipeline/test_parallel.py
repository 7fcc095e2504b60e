"""The local engine: worker processes give byte-identical output to one process."""

import io
import multiprocessing

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from partialdup.core.config import Config
from partialdup.core.types import Document, DocumentFeatures
from partialdup.io.jsonl import write_jsonl
from partialdup.pipeline import parallel
from partialdup.pipeline.factory import make_detector
from partialdup.pipeline.parallel import DetectorRecipe, LocalEngine, pack_features, unpack_features, worker_count


@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(jobs=1), tokenizer=tokenizer)


def _jsonl(detection) -> str:
    stream = io.StringIO()
    write_jsonl(detection.spans, stream)
    return stream.getvalue()


def _workers(**limits) -> LocalEngine:
    """Two workers, whatever the amount of work (the slice is below the limits)."""
    return LocalEngine(2, **{"min_chars": 1, "min_pairs": 1, **limits})


class _NoPool:
    """A multiprocessing context that fails the test when a pool starts."""

    def get_start_method(self):
        return "fork"

    def Pool(self, *args, **kwargs):  # noqa: N802 - multiprocessing's name
        raise AssertionError("a pool was started")


def test_worker_count_zero_means_every_core():
    assert worker_count(0) == (multiprocessing.cpu_count() or 1)
    assert worker_count(3) == 3


def test_packed_features_come_back_equal(detector, sources):
    for document in sources[:6]:
        features = detector.features(document)
        assert unpack_features(pack_features(features), features.text) == features


def test_packed_features_keep_sentences_without_words(detector):
    features = detector.features(Document("d", "标题\n\n。\n\nThe quick brown fox jumps over the lazy dog."))
    assert any(not words for words in features.words)
    assert unpack_features(pack_features(features), features.text) == features


def test_one_job_starts_no_pool(detector, sources, suspicious, monkeypatch):
    monkeypatch.setattr(parallel, "_context", lambda: _NoPool())
    engine = LocalEngine(1, min_chars=1, min_pairs=1)
    found = detector.detect([*sources[:4], *suspicious[:4]], engine=engine)
    assert found.stats.documents == 8


def test_the_limits_keep_small_runs_in_process(detector, monkeypatch):
    monkeypatch.setattr(parallel, "_context", lambda: _NoPool())
    documents = [Document("a", "The quick brown fox jumps over the lazy dog near the river bank. " * 3)] * 2
    detector.detect(documents, engine=LocalEngine(2))  # a few hundred characters: no pool


def test_features_in_workers_equal_features_in_process(detector, sources):
    alone = [detector.features(d) for d in sources]
    assert list(_workers().features(detector, sources)) == alone


def test_features_pass_through_and_keep_their_order(detector, sources):
    ready = [detector.features(d) for d in sources[:3]]
    mixed = [sources[5], ready[0], sources[6], ready[1], ready[2], sources[7]]
    got = list(_workers().features(detector, mixed))
    assert [d.id for d in got] == [d.id for d in mixed]
    assert got[1] is ready[0] and all(isinstance(d, DocumentFeatures) for d in got)


def test_detect_on_the_slice_is_byte_identical_with_two_workers(detector, sources, suspicious):
    documents = [*sources, *suspicious]
    one = detector.detect(documents, engine=LocalEngine(1))
    two = detector.detect(documents, engine=_workers())
    assert one.spans and _jsonl(two) == _jsonl(one)
    assert two.stats == one.stats


def test_check_on_the_slice_is_byte_identical_with_two_workers(detector, sources, suspicious):
    one = detector.check(suspicious, sources, engine=LocalEngine(1))
    two = detector.check(suspicious, sources, engine=_workers())
    assert one.spans and _jsonl(two) == _jsonl(one)


def test_store_references_stay_in_process(detector, sources, suspicious, monkeypatch):
    class Lazy:
        """Reads like DocumentFeatures, as a store's references do."""

        def __init__(self, features):
            self._features = features

        def __getattr__(self, name):
            return getattr(self._features, name)

    references = [Lazy(detector.features(d)) for d in sources]
    features = [detector.features(d) for d in suspicious]
    expected = detector.check_against(features, references, detector.build_index(references), engine=LocalEngine(1))
    monkeypatch.setattr(parallel, "_context", lambda: _NoPool())
    found = detector.check_against(features, references, detector.build_index(references), engine=_workers(min_chars=10**9))
    assert _jsonl(found) == _jsonl(expected)


_EXPECTED: dict[str, str] = {}  # one process's answer, computed once


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.randoms(use_true_random=False))
def test_detect_does_not_depend_on_document_order_or_workers(detector, sources, suspicious, order):
    documents = [detector.features(d) if i % 3 == 0 else d for i, d in enumerate([*sources[:8], *suspicious[:10]])]
    if "detect" not in _EXPECTED:
        _EXPECTED["detect"] = _jsonl(detector.detect(documents, engine=LocalEngine(1)))
    expected = _EXPECTED["detect"]
    shuffled = list(documents)
    order.shuffle(shuffled)
    assert _jsonl(detector.detect(shuffled, engine=_workers())) == expected


def test_spawned_workers_build_an_equal_detector(detector, sources, suspicious, monkeypatch):
    # Where fork is not the start method (macOS, Windows), a worker builds
    # its detector from the recipe: it must find what this one finds.
    monkeypatch.setattr(parallel, "_context", lambda: multiprocessing.get_context("spawn"))
    documents = [*sources[:3], *suspicious[:3]]
    expected = detector.detect(documents, engine=LocalEngine(1))
    assert _jsonl(detector.detect(documents, engine=_workers())) == _jsonl(expected)


def test_the_recipe_turns_workers_off_inside_workers(detector):
    recipe = DetectorRecipe.of(detector)
    assert recipe.config.jobs == 1
    rebuilt = recipe.build()
    assert rebuilt.config == recipe.config and rebuilt.tokenizer.segmenter == detector.tokenizer.segmenter
