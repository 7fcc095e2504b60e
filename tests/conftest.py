"""Shared fixtures: expensive objects (jieba, IDF tables) load once per test session."""

import pytest

from partialdup.text.resources import load_idf
from partialdup.text.tokens import Tokenizer


@pytest.fixture(scope="session")
def tokenizer() -> Tokenizer:
    return Tokenizer()


@pytest.fixture(scope="session")
def idf():
    return load_idf()
