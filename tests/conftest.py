"""Shared fixtures: expensive objects (jieba, IDF tables) load once per test session."""

import pytest

from partialdup.io.reader import read_documents
from partialdup.text.resources import load_idf
from partialdup.text.tokens import Tokenizer
from tests.paths import SLICE


@pytest.fixture(scope="session")
def tokenizer() -> Tokenizer:
    return Tokenizer()


@pytest.fixture(scope="session")
def idf():
    return load_idf()


@pytest.fixture(scope="session")
def sources():
    """The gold-set slice's source documents (real Debian text)."""
    return read_documents([str(SLICE / "src")], strict=True).documents


@pytest.fixture(scope="session")
def suspicious():
    """The gold-set slice's suspicious documents."""
    return read_documents([str(SLICE / "susp")], strict=True).documents
