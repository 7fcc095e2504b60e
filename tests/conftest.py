"""Shared fixtures: expensive objects (jieba, IDF tables) load once per test session."""

import pytest

from partialdup.resources import load_idf
from partialdup.tokens import Tokenizer


@pytest.fixture(scope="session")
def tokenizer() -> Tokenizer:
    return Tokenizer()


@pytest.fixture(scope="session")
def idf():
    return load_idf()
