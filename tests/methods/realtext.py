"""Real sentences of the repository's text, for the exact stage's measured false-positive rate.

The gold set's source and suspicious documents and the samples, split with
:class:`~partialdup.text.sentences.SentenceSplitter`, white space collapsed,
each distinct sentence once in file order. They hold about 70,000 distinct
sentences, fewer than the 100,000 the Bloom filter test inserts, so the pool
goes on with the distinct pairs of neighbouring sentences (two real
sentences read as one), also in file order. ``scripts/bench_methods.py``
uses the same pool.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from hypothesis import strategies as st

from partialdup.text.sentences import SentenceSplitter

from tests.paths import REPO

__all__ = ["real_documents", "real_sentences", "real_keys"]

FOLDERS = (REPO / "goldenset" / "src", REPO / "goldenset" / "susp", REPO / "samples")


def real_documents() -> list[tuple[str, str]]:
    """(file name, text) of every real text file, sorted by folder then name."""
    return [(path.name, path.read_text(encoding="utf-8-sig")) for folder in FOLDERS for path in sorted(Path(folder).glob("*.txt"))]


@lru_cache(maxsize=1)
def _split() -> tuple[tuple[str, ...], ...]:
    splitter = SentenceSplitter()
    out = []
    for _, text in real_documents():
        out.append(tuple(" ".join(text[s.start : s.end].split()) for s in splitter.split(text)))
    return tuple(out)


@lru_cache(maxsize=1)
def real_sentences() -> tuple[str, ...]:
    """Every distinct non-empty sentence, in file order."""
    return tuple(dict.fromkeys(s for doc in _split() for s in doc if s))


@lru_cache(maxsize=1)
def real_keys() -> tuple[str, ...]:
    """Distinct sentences, then distinct neighbouring pairs not already among them."""
    pairs = (f"{a} {b}" for doc in _split() for a, b in zip(doc, doc[1:]) if a and b)
    return tuple(dict.fromkeys((*real_sentences(), *pairs)))


@lru_cache(maxsize=1)
def real_texts() -> tuple[str, ...]:
    """The text of every real document (gold set, samples)."""
    return tuple(text for _, text in real_documents())


@st.composite
def real_slices(draw: st.DrawFn, max_size: int = 4000) -> str:
    """A slice of a real document (gold set, samples): any start, any length."""
    text = draw(st.sampled_from(real_texts()))
    start = draw(st.integers(0, len(text)))
    return text[start : start + draw(st.integers(0, max_size))]
