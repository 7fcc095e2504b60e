"""Punkt's sentence ends in one loop (PunktEnds) against NLTK's span_tokenize."""

from __future__ import annotations

import pickle
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.text import punkt_ends as punkt_ends_module
from partialdup.text.punkt import punkt_tokenizer
from partialdup.text.punkt_ends import PunktEnds, punkt_ends_py
from partialdup.text.sentences import SentenceSplitter
from tests.methods.realtext import real_slices, real_texts


@lru_cache(maxsize=1)
def _tokenizer():
    return SentenceSplitter()._punkt


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "Very bad acting!!! I promise.",
        "(Sent1.) Sent2.",
        "Hi. )",  # the closer realigned onto "Hi." leaves an empty last span
        'Hi. " ',
        'He said "Stop." Then he left. "Why?" she asked!',
        "See Fig. 3 and No. 5 for details. It was fine.",
        "Mr. Smith met Dr. Jones. They talked.\n\nEnd",
        ". . . And then. x",
        " .A. b. C",  # a space at the very start of the gap before a word
        "a.\tB.\x0bC.\x0cD.\rE. F",
        "It works. Zqxjv",
        "1.11. The key bindings. 1.12. The reaction.",
        "Done.\u2019 Next one. \u00abQuoted.\u00bb And more.",
    ],
)
def test_ends_equal_nltks_span_tokenize(text):
    assert PunktEnds(_tokenizer())(text) == punkt_ends_py(_tokenizer(), text)


@settings(max_examples=300, deadline=None)
@given(real_slices(max_size=3000), st.booleans())
def test_ends_equal_nltks_span_tokenize_on_real_text(text, sentinel):
    probe = text + " Zqxjv" if sentinel else text
    assert PunktEnds(_tokenizer())(probe) == punkt_ends_py(_tokenizer(), probe)


def test_every_real_document_gives_nltks_ends():
    ends = PunktEnds(_tokenizer())
    for text in real_texts():
        assert ends(text) == punkt_ends_py(_tokenizer(), text)


def test_a_full_verdict_memory_is_emptied_and_answers_stay(monkeypatch):
    monkeypatch.setattr(punkt_ends_module, "VERDICT_CACHE_SIZE", 3)
    ends = PunktEnds(_tokenizer())
    text = real_texts()[0][:20_000]
    assert ends(text) == punkt_ends_py(_tokenizer(), text)
    assert len(ends._verdicts) <= 3


def test_nltks_own_classes_work_too():
    # The wrapped (time-out) patterns of NLTK's own classes serve as well.
    reference = punkt_tokenizer(_tokenizer()._params, plain=False)
    text = "Mr. Brown came. He sat (quietly.) Then he left! Why? Because."
    assert PunktEnds(reference)(text) == punkt_ends_py(reference, text) == punkt_ends_py(_tokenizer(), text)


def test_pickled_without_its_verdicts():
    ends = PunktEnds(_tokenizer())
    text = "Mr. Brown came. He sat. Then he left."
    first = ends(text)
    assert ends._verdicts
    copy = pickle.loads(pickle.dumps(ends))
    assert copy._verdicts == {} and copy(text) == first


def test_the_loops_serve_only_the_nltk_release_they_were_proven_against():
    import nltk

    assert PunktEnds.proven("3.10.4") and PunktEnds.proven("3.10.9")
    assert not PunktEnds.proven("3.9.4") and not PunktEnds.proven("3.11.0")
    if not PunktEnds.proven():  # the splitter uses NLTK's own loops then; the tests above say whether ours still agree
        pytest.skip(f"NLTK {nltk.__version__} is not {punkt_ends_module.PROVEN_NLTK}: re-prove the loops, then set PROVEN_NLTK")
