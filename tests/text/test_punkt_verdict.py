"""Punkt's verdict on plain strings (PunktVerdict) against NLTK's text_contains_sentbreak."""

from __future__ import annotations

import pickle
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partialdup.text.punkt import punkt_tokenizer
from partialdup.text.punkt_ends import PunktEnds
from partialdup.text.punkt_verdict import PunktVerdict, punkt_verdict_py
from partialdup.text.sentences import SentenceSplitter
from tests.methods.realtext import real_texts


@lru_cache(maxsize=1)
def _tokenizer():
    return SentenceSplitter()._punkt


@lru_cache(maxsize=1)
def _real_contexts() -> tuple[str, ...]:
    """Every context PunktEnds asks about in the real documents."""
    ends = PunktEnds(_tokenizer())
    asked: dict[str, None] = {}
    verdict = ends._contains_sentbreak

    def recorded(context: str) -> bool:
        asked[context] = None
        return verdict(context)

    ends._contains_sentbreak = recorded
    for text in real_texts():
        ends(text)
    return tuple(asked)


@pytest.mark.parametrize(
    "context",
    [
        "", ".", "end.", "end. Next", "end.\nNext", "end. next", "Mr. Smith", "mr. smith", "e.g. the", "J. Bach",
        "J. bach", "No. 5", "3. The", "3. the", "1,000. And", "... And", "... and", "end... And", "end.. And",
        "end. )", "end. ,", 'end." Then', "(end.) Then", "U.S. Army", "Fig. 3", "end? No", "end! no", "end.\n\nNew",
        "  \n  ", "a-b. C", "Inc. The", "Dec. The", "etc. The", "etc. the", "12.3. Next",
    ],
)
def test_verdict_equals_nltks(context):
    assert PunktVerdict(_tokenizer())(context) == punkt_verdict_py(_tokenizer(), context)


def test_every_real_context_gives_nltks_verdict():
    verdict = PunktVerdict(_tokenizer())
    contexts = _real_contexts()
    assert len(contexts) > 1000
    assert [verdict(context) for context in contexts] == [punkt_verdict_py(_tokenizer(), context) for context in contexts]


def _words() -> list[str]:
    # Words that reach every branch: abbreviations, collocations, frequent
    # sentence starters (either case), initials, numbers, ellipses, punctuation.
    params = _tokenizer()._params
    abbreviations = sorted(params.abbrev_types)[:40]
    starters = sorted(params.sent_starters)[:40]
    collocated = sorted(params.collocations)[:20]
    words = [f"{word}." for word in abbreviations]
    words += [word for word in starters] + [word.capitalize() for word in starters]
    words += [f"{first}." for first, _ in collocated] + [second for _, second in collocated]
    words += ["J.", "j.", "A.", "3.", "12.", "-1,5.", "...", "..", "end.", "End.", "end", "The", "the", "?", "!", ".",
              ",", ";", ")", '"', "(", "a-mr.", "U.S.", "Zqxjv", "zqxjv", "é.", "É"]
    return words


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_generated_contexts_give_nltks_verdict(data):
    words = data.draw(st.lists(st.sampled_from(_words()), min_size=0, max_size=5))
    gaps = data.draw(st.lists(st.sampled_from([" ", "  ", "\n", "\n\n", "\t", ""]), min_size=len(words), max_size=len(words)))
    context = "".join(word + gap for word, gap in zip(words, gaps))
    assert PunktVerdict(_tokenizer())(context) == punkt_verdict_py(_tokenizer(), context)


def test_nltks_own_classes_are_served_too():
    reference = punkt_tokenizer(_tokenizer()._params, plain=False)
    assert PunktVerdict.serves(reference)
    for context in _real_contexts()[:2000]:
        assert PunktVerdict(reference)(context) == punkt_verdict_py(reference, context)


def test_a_tokenizer_that_decides_otherwise_is_asked_through_nltk():
    tokenizer = _tokenizer()

    class Never(type(tokenizer)):  # type: ignore[misc]
        def _ortho_heuristic(self, aug_tok):
            return False

    other = Never(tokenizer._params, lang_vars=tokenizer._lang_vars, token_cls=tokenizer._Token)
    assert not PunktVerdict.serves(other)
    with pytest.raises(TypeError):
        PunktVerdict(other)
    text = "He met Mr. Brown. Then they left."
    assert PunktEnds(other)(text) == [end for _, end in other.span_tokenize(text)]


def test_a_token_class_that_reads_tokens_otherwise_is_asked_through_nltk():
    tokenizer = _tokenizer()

    class NoPeriods(tokenizer._Token):  # type: ignore[misc, name-defined]
        __slots__ = ()

        def __init__(self, tok, **params):
            super().__init__(tok, **params)
            self.period_final = False  # no token ends a sentence with a period

    other = type(tokenizer)(tokenizer._params, lang_vars=tokenizer._lang_vars, token_cls=NoPeriods)
    assert not PunktVerdict.serves(other)
    text = "He left. Then they came."
    assert PunktEnds(other)(text) == [end for _, end in other.span_tokenize(text)]


def test_pickled_verdict_decides_the_same():
    verdict = pickle.loads(pickle.dumps(PunktVerdict(_tokenizer())))
    for context in _real_contexts()[:2000]:
        assert verdict(context) == punkt_verdict_py(_tokenizer(), context)
