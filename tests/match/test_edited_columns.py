"""Edited copies judged many at a time on the words numbered
(match/edited_columns.py), against the plain reference that judges a record
at a time on the words themselves (EditedStage._edited_copies)."""

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from rapidfuzz import fuzz

from partialdup.core.config import Config
from partialdup.core.types import Document
from partialdup.index.word_columns import WordColumns
from partialdup.match import edited_columns
from partialdup.match.edited_columns import edited_verdicts
from partialdup.pipeline.edits import EditedStage
from partialdup.pipeline.factory import make_detector
from partialdup.pipeline.lookups import LookupStage

from tests.paths import REPO

# Words, numbers among them (a number holds no letter: "2.6/3.x" and "x1" are not).
WORDS = "a b c d e f g 1 2 3.5 9.3.2 2.6/3.x x1".split()

sentences = st.lists(st.sampled_from(WORDS), max_size=9).map(tuple)
documents = st.lists(st.tuples(st.lists(sentences, min_size=1, max_size=5), st.booleans()), min_size=1, max_size=4)

# (edited_ratio, edited_neighbour_ratio): the defaults, a neighbour ratio
# of 0 (a sentence without words agrees at 0), a ratio of 100.
CHECKS = [(Config().edited_ratio, Config().edited_neighbour_ratio), (60.0, 0.0), (100.0, 40.0)]


@pytest.fixture(scope="module", params=CHECKS, ids=["defaults", "neighbour-0", "ratio-100"])
def detector(request, tokenizer, idf):
    ratio, neighbour = request.param
    return make_detector("low-idf-sig", idf, Config(edited_ratio=ratio, edited_neighbour_ratio=neighbour), tokenizer=tokenizer)


def _doc(sentences, words_known):
    # What the reference and WordColumns read of a document.
    return SimpleNamespace(sentences=sentences, tokens=tuple(map(len, sentences)), words=tuple(sentences) if words_known else ())


@pytest.mark.parametrize("symbols", [edited_columns._SYMBOLS, 3], ids=["characters", "tuples"])
@settings(max_examples=150, deadline=None)
@given(spec=documents, data=st.data())
def test_the_verdicts_are_the_references_in_order(detector, symbols, spec, data):
    docs = [_doc(sentences, known) for sentences, known in spec]
    words = WordColumns.of(docs)
    total = len(words.lengths)
    numbers = st.integers(0, total - 1)
    pairs = data.draw(st.lists(st.tuples(numbers, numbers), max_size=40))
    first = np.array([a for a, _ in pairs], np.int64)
    second = np.array([b for _, b in pairs], np.int64)
    keys = words.keys(np.arange(total, dtype=np.int64))
    records = [(keys[a], keys[b], 0.25) for a, b in pairs]
    original = edited_columns._SYMBOLS
    edited_columns._SYMBOLS = symbols  # 3: more words than symbols, judged as tuples
    try:
        verdicts = edited_verdicts(detector._edited, words, first, second)
    finally:
        edited_columns._SYMBOLS = original
    fast = [(*records[p], tentative) for p, tentative in zip(verdicts.accepted.tolist(), verdicts.tentative.tolist())]
    assert fast == detector._edited_copies(records, docs, docs)


def test_words_numbered_past_the_surrogates_are_characters_of_their_own():
    # Word numbers on both sides of the surrogates (which a string cannot hold).
    numbers = np.array([0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xD800, 7], np.int64)
    texts = edited_columns._symbol_texts(np.array([3, 3], np.int64), numbers, 0xE001)
    assert [len(text) for text in texts] == [3, 3]
    assert len(set("".join(texts))) == 5 and all(not 0xD800 <= ord(c) < 0xE000 for c in "".join(texts))
    assert fuzz.ratio(*texts) == fuzz.ratio(tuple(numbers[:3].tolist()), tuple(numbers[3:].tolist()))


def test_detect_gives_the_same_spans_as_judging_in_the_tail(tokenizer, idf, monkeypatch):
    # Real text with edited copies: the r = 0.2 edit set of the gold set
    # (PAN random obfuscation of real Debian documents), with its sources.
    edits = REPO / "goldenset" / "edits" / "r0.2"
    names = [line.split() for line in (edits / "pairs").read_text(encoding="utf-8").splitlines()]
    docs = [Document(f"susp/{s}", (edits / "susp" / s).read_text(encoding="utf-8")) for s, _ in names]
    docs += [Document(f"src/{r}", (REPO / "goldenset" / "src" / r).read_text(encoding="utf-8")) for r in sorted({r for _, r in names})]
    detector = make_detector("low-idf-sig", idf, Config(jobs=1), tokenizer=tokenizer)
    judged = []
    original = LookupStage._loose_verdicts

    def spied(self, *args):
        judged.append(original(self, *args))
        return judged[-1]

    monkeypatch.setattr(LookupStage, "_loose_verdicts", spied)
    retained = []
    fast = detector.detect(docs, retain=retained)
    (verdicts,) = judged
    # The look-ups' results are held to the run's end; what their verdicts read is not.
    lookups = retained[-1]
    assert lookups.edited_verdicts.done and lookups.near_verdicts.done
    assert len(verdicts.accepted) > 0 and verdicts.tentative.any() and not verdicts.tentative.all()
    judge_in_tail = EditedStage._add_edited  # the tail judges each record on its words
    monkeypatch.setattr(EditedStage, "_add_edited", lambda self, *args, verdicts=None, **kwargs: judge_in_tail(self, *args, **kwargs))
    records = []
    one_by_one = EditedStage._edited_copies

    def judged_one_by_one(self, loose, *args, **kwargs):
        loose = list(loose)
        records.extend(loose)
        return one_by_one(self, loose, *args, **kwargs)

    monkeypatch.setattr(EditedStage, "_edited_copies", judged_one_by_one)
    assert detector.detect(docs) == fast
    assert len(records) > len(verdicts.accepted)  # every pending record judged one by one
    assert any(span.a.startswith("src/") != span.b.startswith("src/") for span in fast.spans)
