"""make_detector uses a tokenizer of config.segmenter."""

from __future__ import annotations

from partialdup.core.config import Config
from partialdup.pipeline.factory import make_detector


def test_the_tokenizer_follows_the_segmenter(tokenizer, idf) -> None:
    assert tokenizer.segmenter == "rjieba"
    assert make_detector("low-idf-sig", idf, Config(), tokenizer=tokenizer).tokenizer is tokenizer
    assert make_detector("low-idf-sig", idf, Config(segmenter="jieba")).tokenizer.segmenter == "jieba"
    assert make_detector("low-idf-sig", idf, Config(segmenter="jieba"), tokenizer=tokenizer).tokenizer.segmenter == "jieba"
