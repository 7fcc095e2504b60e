"""Adding an unrelated document never removes a span (issue #14).

Documents are made of real sentences of the gold set's source documents
(goldenset/src, Debian texts, licences in goldenset/LICENSES): a few
documents drawn from a small pool share sentences, so they hold copies; the
unrelated document is real text from other files whose sentences share no
feature with any sentence of the others, so no stage of the detector can pair
it with them (and it cannot make one of their sentences boilerplate by being
a third copy, which is another matter than this property).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from partialdup.core.config import Config
from partialdup.core.types import Document
from partialdup.pipeline.factory import make_detector

GOLD = Path(__file__).resolve().parents[2] / "goldenset"

#: The related documents draw their sentences from these (10 from each) ...
RELATED = ("src/debref_en_ch01_s02_p0.txt", "src/man_zhcn_accept.2.txt", "src/kjv_genesis_019_021.txt",
           "src/debref_zhcn_ch01_s06_p0.txt")
#: ... the unrelated one from these (other books, sentences sharing no
#: feature with a related one) ...
UNRELATED = ("src/instguide_en_apcs01.txt", "src/handbook_zhcn_sect.apt_cache_p00.txt", "src/kjv_isaiah_022_024.txt")
#: ... and the looser one from the same books: template sentences, and the
#: Traditional-script version of a related section (natural near copies,
#: none the same sentence).
NEIGHBOURS = ("susp/debref_zhtw_ch01_s06_p0.txt", "src/debref_en_ch01_s03_p0.txt", "src/man_zhcn_alter_user.7.txt")

@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(), tokenizer=tokenizer)


def _sentences(detector, path: Path, most: int) -> list[str]:
    text = path.read_text(encoding="utf-8")
    found = []
    for sentence in detector.splitter.split(text):
        words = detector.tokenizer.words(text, sentence.start, sentence.end)
        if len(words) >= 6:
            found.append(text[sentence.start : sentence.end].strip())
    return found[:most]


_POOLS: dict[int, tuple[list[str], list[str], list[str]]] = {}


def _pools(detector) -> tuple[list[str], list[str], list[str]]:
    """(related, unrelated, other) sentences, made once per detector: the
    unrelated ones share no feature with a related one, the other ones
    only no sentence."""
    if id(detector) in _POOLS:
        return _POOLS[id(detector)]
    related = [s for name in RELATED for s in _sentences(detector, GOLD / name, 10)]
    features = {f for s in related for f in detector.method.bag(detector.tokenizer.words(s, 0, len(s)))}
    unrelated = []
    for name in UNRELATED:
        for s in _sentences(detector, GOLD / name, 40):
            bag = detector.method.bag(detector.tokenizer.words(s, 0, len(s)))
            if bag and not features.intersection(bag) and s not in related:
                unrelated.append(s)
    other = [s for name in NEIGHBOURS for s in _sentences(detector, GOLD / name, 20) if s not in related]
    assert len(related) >= 30 and len(unrelated) >= 10 and len(other) >= 20, (len(related), len(unrelated), len(other))
    _POOLS[id(detector)] = (related, unrelated, other)
    return _POOLS[id(detector)]


def _record(s):
    return (s.a, s.b, s.a_start, s.a_end, s.b_start, s.b_end, s.score, s.pairs)


def _records(detection):
    return {_record(s) for s in detection.spans}


def _drawn_documents(related, data) -> list[Document]:
    """Two to four documents, each up to ten sentences drawn from ``related``."""
    pick = st.lists(st.integers(0, len(related) - 1), min_size=1, max_size=10)
    return [
        Document(f"d{n}", "\n".join(related[i] for i in data.draw(pick, label=f"d{n}")))
        for n in range(data.draw(st.integers(2, 4), label="documents"))
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_adding_an_unrelated_document_never_removes_a_span(detector, data):
    related, unrelated, _ = _pools(detector)
    documents = _drawn_documents(related, data)
    chosen = data.draw(st.lists(st.sampled_from(unrelated), min_size=1, max_size=6), label="unrelated")
    extra = Document(data.draw(st.sampled_from(["u", "a0", "zz"]), label="id"), "\n".join(chosen))
    at = data.draw(st.integers(0, len(documents)), label="position")
    before = detector.detect(documents)
    after = detector.detect([*documents[:at], extra, *documents[at:]])
    lost = _records(before) - _records(after)
    assert not lost


def _sentence_keys(span):
    first_a, last_a = span.a_sentences
    first_b, last_b = span.b_sentences
    return {(span.a, i) for i in range(first_a, last_a + 1)} | {(span.b, m) for m in range(first_b, last_b + 1)}


def _joined(span, spans, became) -> bool:
    """Whether a span of the same documents holds ``span`` in both and holds
    a sentence that became boilerplate."""
    return any(
        (other.a, other.b) == (span.a, span.b)
        and other.a_sentences[0] <= span.a_sentences[0] and span.a_sentences[1] <= other.a_sentences[1]
        and other.b_sentences[0] <= span.b_sentences[0] and span.b_sentences[1] <= other.b_sentences[1]
        and _sentence_keys(other) & became
        for other in spans
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_document_sharing_no_sentence_removes_a_span_only_by_making_it_boilerplate(detector, data):
    # Looser: the added document shares no sentence with the others, but may
    # share features (a near copy of one of their sentences). It may then be
    # the copy that makes a sentence boilerplate, which sets its spans apart,
    # or joins the passages on either side of it into one span holding them
    # (boilerplate does not count towards a span's gap); any other lost span
    # is a fault.
    related, _, other = _pools(detector)
    documents = _drawn_documents(related, data)
    chosen = data.draw(st.lists(st.sampled_from(other), min_size=1, max_size=6), label="other")
    assert not _lost_unexplained(detector, documents, Document("u", "\n".join(chosen)))


def _lost_unexplained(detector, documents, extra) -> list:
    before = detector.detect(documents)
    after = detector.detect([*documents, extra])
    became = {(s.doc, s.sentence) for s in after.boilerplate_sentences} - {(s.doc, s.sentence) for s in before.boilerplate_sentences}
    kept = _records(after)
    lost = [span for span in before.spans if _record(span) not in kept]
    return [span for span in lost if not _sentence_keys(span) & became and not _joined(span, after.spans, became)]


@pytest.mark.parametrize("drawn", [
    # A line of d0 copied twice into d3, five sentences apart: the Traditional
    # copy of sentence 37 makes d3's fifth sentence boilerplate, which brought
    # the two copies within the gap, and one of them was lost.
    {"d0": [0], "d1": [37], "d2": [37], "d3": [0, 1, 1, 1, 37, 0]},
    {"d0": [37], "d1": [37, 0], "d2": [0, 1, 37, 0]},
    # The passages on either side of the new boilerplate line join into one span.
    {"d0": [0, 1, 37, 0], "d1": [0, 2, 37, 0], "d2": [37]},
])
def test_found_cases_of_a_neighbour_making_a_line_boilerplate(detector, drawn):
    related, _, other = _pools(detector)
    documents = [Document(name, "\n".join(related[i] for i in drawn[name])) for name in drawn]
    extra = Document("u", next(s for s in other if s.startswith("tail(1)")))
    assert not _lost_unexplained(detector, documents, extra)
