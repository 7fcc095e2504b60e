"""Headlines copied into running text (issue #11), end to end on real text.

A case is a real heading line of one real document (goldenset/src: Debian
Reference, the Debian handbook, the installation guide, man pages) put,
without its section number, at the start or in the middle of a real sentence
of another real document of the same language, as the quotation cases of
test_edited_copies.py put real sentences in real frames. Nothing else is
written.

``python -m tests.pipeline.test_headline`` measures every case of both
languages with the rule on and off (``--no-headlines``) and prints how many
are found with exact offsets on both sides.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.config import Config
from partialdup.core.types import Document
from partialdup.match.embedded import MAX_TOKENS, MIN_TOKENS, is_headline, line_shaped, title_words
from partialdup.pipeline.factory import make_detector
from partialdup.text.sentences import SentenceSplitter
from partialdup.text.tokens import Tokenizer

from tests.paths import REPO

SRC = REPO / "goldenset" / "src"
_TERMINATORS = "。.！？!?"


@dataclass(frozen=True)
class Case:
    """A heading's title put inside a sentence of another document.

    Attributes:
        source: The heading's document (name, text).
        title: Where the heading's title lies in it (start, end).
        host: The host document with the title put in (name, text).
        planted: Where the title lies in the host (start, end).
        shaped: Whether the heading is a headline by the rule (not a command
            line, a list item or a term too short).
    """

    source: tuple[str, str]
    title: tuple[int, int]
    host: tuple[str, str]
    planted: tuple[int, int]
    shaped: bool


def _language(name: str) -> str:
    return "zh" if "_zh" in name else "en"


def _heading_lines(tokenizer: Tokenizer, splitter: SentenceSplitter, text: str):
    # Lines of their own without a terminator whose title holds 4-15 tokens
    # (the shape), with whether the rule takes them for headlines.
    for sentence in splitter.split(text):
        if not line_shaped(text, sentence):
            continue
        tokens = tokenizer.tokenize(text, sentence.start, sentence.end)
        number = title_words([t.text for t in tokens])
        if MIN_TOKENS <= len(tokens) - number <= MAX_TOKENS:
            yield sentence, tokens[number].start, is_headline(text, sentence, tokens)


def _host_sentences(tokenizer: Tokenizer, splitter: SentenceSplitter, text: str):
    # Running sentences: a line of their own, ending with a terminator, 15 tokens or more.
    for sentence in splitter.split(text):
        line = text[sentence.start : sentence.end]
        whole_line = (sentence.start == 0 or text[sentence.start - 1] == "\n") and text[sentence.end : sentence.end + 1] in ("", "\n")
        if "\n" not in line and line[-1] in _TERMINATORS and whole_line:
            if len(tokenizer.words(text, sentence.start, sentence.end)) >= 15:
                yield sentence


def _plant(title: str, host: str, middle: bool, language: str) -> tuple[str, int] | None:
    # The title at the host sentence's start, or after the space or ， nearest its middle.
    if not middle:
        at = 0
    else:
        cuts = [i + 1 for i, char in enumerate(host) if char == (" " if language == "en" else "，")]
        if not cuts:
            return None
        at = min(cuts, key=lambda i: (abs(i - len(host) // 2), i))
    before, after = host[:at], host[at:]
    # A space where the title would touch a Latin letter or digit.
    left = " " if before and (language == "en" or before[-1].isascii() and before[-1].isalnum()) else ""
    right = " " if language == "en" or (after[0].isascii() and after[0].isalnum()) or title[-1].isascii() else ""
    return before + left + title + right + after, len(before) + len(left)


@lru_cache(maxsize=None)
def cases(language: str, count: int, seed: int = 11) -> tuple[Case, ...]:
    """``count`` cases of one language: headings and host sentences drawn
    from goldenset/src (sorted files, ``random.Random(seed)``)."""
    tokenizer, splitter = _tools()
    documents = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(SRC.glob("*.txt")) if _language(p.name) == language]
    headings = [(name, text, s, start, shaped) for name, text in documents for s, start, shaped in _heading_lines(tokenizer, splitter, text)]
    hosts = [(name, text, s) for name, text in documents for s in _host_sentences(tokenizer, splitter, text)]
    rng = random.Random(seed)
    rng.shuffle(headings)
    rng.shuffle(hosts)
    found = []
    for k, (name, text, heading, start, shaped) in enumerate(headings[:count]):
        host_name, host_text, host = next(h for h in hosts[k:] + hosts[:k] if h[0] != name)
        title = text[start : heading.end]
        planted = _plant(title, host_text[host.start : host.end], k % 3 != 0, language)
        # A title the source holds twice (a table of contents and the
        # heading) has two origins, either one right.
        if planted is None or title in host_text or text.count(title) > 1:
            continue
        sentence, at = planted
        new_text = host_text[: host.start] + sentence + host_text[host.end :]
        where = host.start + at
        found.append(Case((name, text), (start, heading.end), (host_name, new_text), (where, where + len(title)), shaped))
    return tuple(found)


@lru_cache(maxsize=None)
def _tools() -> tuple[Tokenizer, SentenceSplitter]:
    return Tokenizer(), SentenceSplitter()


def outcome(detector, case: Case) -> str:
    """``exact`` (one span, on the title on both sides), ``overlap`` or ``missed``."""
    source = Document("a:" + case.source[0], case.source[1])
    host = Document("b:" + case.host[0], case.host[1])
    over = [
        s for s in detector.detect([source, host]).spans
        if s.b_start < case.planted[1] and case.planted[0] < s.b_end and s.a_start < case.title[1] and case.title[0] < s.a_end
    ]
    if not over:
        return "missed"
    return "exact" if [(s.a_start, s.a_end, s.b_start, s.b_end) for s in over] == [(*case.title, *case.planted)] else "overlap"


# --- tests --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(jobs=1), tokenizer=tokenizer)


@pytest.fixture(scope="module")
def without(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(jobs=1, headlines=False), tokenizer=tokenizer)


def _first_headlines(language: str, count: int) -> list[Case]:
    return [case for case in cases(language, 40) if case.shaped][:count]


@pytest.mark.parametrize("case", [*_first_headlines("en", 3), *_first_headlines("zh", 3)], ids=lambda case: case.source[0])
def test_a_headline_in_running_text_is_found_with_exact_offsets(detector, without, case):
    source, host = case.source[1], case.host[1]
    assert source[slice(*case.title)] == case.host[1][slice(*case.planted)]
    assert outcome(detector, case) == "exact"
    documents = [Document("a", source), Document("b", host)]
    (span,) = [s for s in detector.check(documents[1:], documents[:1]).spans if s.a_start < case.planted[1] and case.planted[0] < s.a_end]
    assert (span.a_start, span.a_end, span.b_start, span.b_end) == (*case.planted, *case.title)
    assert span.score == 1.0


def test_without_the_rule_most_headlines_are_missed(without):
    # Measured on these cases: the rule is what finds them.
    outcomes = Counter(outcome(without, case) for case in [*_first_headlines("en", 3), *_first_headlines("zh", 3)])
    assert outcomes["missed"] >= 4, outcomes


def test_scattered_words_of_a_headline_are_no_copy(detector):
    case = _first_headlines("en", 1)[0]
    source, host = case.source[1], case.host[1]
    title = source[slice(*case.title)]
    words = title.split()
    # The title's words put back in the host sentence, apart: first word,
    # then the rest at the end.
    start, end = case.planted
    scattered = host[:start] + host[end + 1 :]
    sentence_end = scattered.index(".", start) if "." in scattered[start:] else len(scattered)
    scattered = scattered[:start] + words[0] + " " + scattered[start:sentence_end] + " " + " ".join(words[1:]) + scattered[sentence_end:]
    spans = detector.detect([Document("a", source), Document("b", scattered)]).spans
    assert not [s for s in spans if s.a_start < case.title[1] and case.title[0] < s.a_end], spans


def test_a_quoted_title_is_a_cross_reference_and_no_copy(detector):
    # Real: debref_en_ch02_s03 refers to "2.4.3. Safeguarding for package
    # problems" of debref_en_ch02_s04 as 'see Section 2.4.3, “Safeguarding for
    # package problems”': the quotation rule does not count a quoted title,
    # and neither does the headline rule.
    heading = (SRC / "debref_en_ch02_s04_p0.txt").read_text(encoding="utf-8")
    reference = (SRC / "debref_en_ch02_s03_p0.txt").read_text(encoding="utf-8")
    at = reference.index("“Safeguarding for package problems”")
    spans = detector.detect([Document("a", heading), Document("b", reference)]).spans
    assert not [s for s in spans if s.b_start <= at < s.b_end]


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["en", "zh"]), st.integers(0, 39), st.integers(0, 10_000))
def test_spans_stay_inside_both_documents(detector, language, number, cut):
    # A real heading's title put at any character of a real host document.
    case = cases(language, 40)[number % len(cases(language, 40))]
    title = case.source[1][slice(*case.title)]
    original = case.host[1][: case.planted[0]] + case.host[1][case.planted[1] :]
    at = cut % (len(original) + 1)
    host = original[:at] + title + original[at:]
    documents = [Document("a", case.source[1]), Document("b", host)]
    texts = {d.id: d.text for d in documents}
    for span in (*detector.detect(documents).spans, *detector.check(documents[1:], documents[:1]).spans):
        assert 0 <= span.a_start < span.a_end <= len(texts[span.a])
        assert 0 <= span.b_start < span.b_end <= len(texts[span.b])


@pytest.mark.parametrize("case", [*_first_headlines("zh", 1), *_first_headlines("en", 1)], ids=lambda case: case.source[0])
def test_detects_headline_hits_are_left_to_the_tail_and_are_those_of_the_look_ups(detector, case, monkeypatch):
    # Their confirmations tokenize (on Chinese text, loading the dictionaries
    # again): the look-ups tokenize nothing, the hits come when first asked for.
    docs = [detector.features(Document("a", case.source[1])), detector.features(Document("b", case.host[1]))]
    tokenized = []
    tokenize = detector.tokenizer.tokenize
    monkeypatch.setattr(detector.tokenizer, "tokenize", lambda *args: tokenized.append(args) or tokenize(*args))
    lookups = detector._self_lookups(docs, detector.build_index(docs, joins=False))
    assert lookups.headline_hits is not None and not lookups.headline_hits.done and not tokenized
    hits = detector._headline_hits(docs, docs, lookups.whole, lookups.near, detector._headline_candidates(docs, docs))
    expected = [hit for hit in hits if not (hit[0] in lookups.crowded and hit[1] in lookups.crowded)]
    assert expected and tokenized  # the planted title is found
    tokenized.clear()
    quoted = list(lookups.quoted)
    assert lookups.embedded_copies() == quoted + expected and tokenized
    assert lookups.embedded_copies() == quoted + expected and lookups.quoted == quoted  # made once, quoted not added to


def main(count: int = 80) -> None:
    """Print, per language and setting, how the cases come out."""
    tokenizer, _ = _tools()
    from partialdup.text.resources import load_idf

    idf = load_idf()
    for headlines in (False, True):
        detector = make_detector("low-idf-sig", idf, dataclasses.replace(Config(jobs=1), headlines=headlines), tokenizer=tokenizer)
        for language in ("en", "zh"):
            all_cases = cases(language, count)
            results = [(case.shaped, outcome(detector, case)) for case in all_cases]
            shaped = Counter(result for is_shaped, result in results if is_shaped)
            print(f"headlines={'on' if headlines else 'off'} {language}: {len(all_cases)} heading-shaped lines "
                  f"{dict(Counter(r for _, r in results))}; of them {sum(shaped.values())} headlines by the rule {dict(shaped)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 80)
