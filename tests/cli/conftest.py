"""The command-line tests share one tokenizer: each run would otherwise load
jieba and OpenCC again (a second or two each), for the same result."""

import pytest


@pytest.fixture(autouse=True)
def shared_tokenizer(tokenizer, monkeypatch):
    import partialdup.pipeline.base as base  # where the detector makes its tokenizer

    made = base.Tokenizer
    monkeypatch.setattr(base, "Tokenizer", lambda *args, **kwargs: made(*args, **kwargs) if args or kwargs else tokenizer)
