"""A store records the segmenter that built it; another is refused in one line."""

from __future__ import annotations

import dataclasses

import pytest

from partialdup.core.config import Config
from partialdup.pipeline.factory import make_detector
from partialdup.store import Store, StoreError
from partialdup.store.settings import settings_of
from partialdup.text.tokens import Tokenizer


def test_a_store_built_with_one_segmenter_refuses_the_other(tmp_path, tokenizer, idf, sources) -> None:
    assert tokenizer.segmenter == "rjieba"  # the default
    built = make_detector("low-idf-sig", idf, Config(), tokenizer=tokenizer)
    path = tmp_path / "s.db"
    with Store(path, built, idf, create=True) as store:
        store.add(sources[:1])
    recorded = settings_of(built.config, idf, built.tokenizer)
    assert recorded["config.segmenter"] == '"rjieba"' and "(rjieba 0." in recorded["tokenizer"]
    other = make_detector("low-idf-sig", idf, dataclasses.replace(Config(), segmenter="jieba"),
                          tokenizer=Tokenizer(segmenter="jieba"))
    with pytest.raises(StoreError, match=r's\.db: made with other settings \(--segmenter: stored "rjieba", this run "jieba"\)'):
        Store(path, other, idf)
    with Store(path, built, idf) as store:  # the same segmenter still opens it
        assert store.check(sources[:1]).spans is not None

