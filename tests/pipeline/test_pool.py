"""A pool's workers: the detector a spawned worker builds, and the work
functions run in a real pool (fork and spawn) against the calling process."""

from __future__ import annotations

import multiprocessing

import pytest

from partialdup.core.config import Config
from partialdup.pipeline.factory import make_detector
from partialdup.pipeline.packing import pack_features
from partialdup.pipeline.pool import DetectorRecipe, WorkerPool, features_chunk


@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(jobs=1), tokenizer=tokenizer)


def test_the_recipe_turns_workers_off_inside_workers(detector):
    recipe = DetectorRecipe.of(detector)
    assert recipe.config.jobs == 1
    rebuilt = recipe.build()
    assert rebuilt.config == recipe.config and rebuilt.tokenizer.segmenter == detector.tokenizer.segmenter


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_pools_workers_pack_the_features_the_caller_makes(detector, sources, method):
    # fork: the caller's detector inherited; spawn: one built from its recipe.
    chunks = [sources[:2], sources[2:4]]
    here = [features_chunk(chunk, detector) for chunk in chunks]
    with WorkerPool(multiprocessing.get_context(method), 2, detector, (), ()) as pool:
        assert list(pool.imap(features_chunk, chunks)) == here
    assert here[0] == [pack_features(detector.features(d)) for d in sources[:2]]
