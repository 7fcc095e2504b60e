"""The candidate search of headlines (partialdup.match.headline_search) against its plain reference, on real words.

The word lists are the sentences of real pages (goldenset/src, samples/; licences
in goldenset/LICENSES and samples/LICENSE.md), some put inside others.
"""

from collections import Counter
from itertools import chain
from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings, strategies as st

from partialdup.index.word_columns import WordColumns
from partialdup.match.embedded import MIN_TOKENS
from partialdup.match.headline_search import KEY_POSTINGS, candidate_pairs, headline_candidate_numbers, plain_candidate_pairs
from partialdup.text.sentences import SentenceSplitter

from tests.paths import REPO, SAMPLES

DEBREF_EN_CH02 = (REPO / "goldenset" / "src" / "debref_en_ch02_s04_p0.txt").read_text(encoding="utf-8")
LS = (SAMPLES / "man_ls.1.zh_CN.txt").read_text(encoding="utf-8")
GPL_SENTENCE = (
    "This General Public License applies to most of the Free Software Foundation's software and to any other "
    "program whose authors commit to using it."
)


# Real words: those of the sentences of a real page, to draw the property cases from.
def _real_word_lists(tokenizer):
    text = DEBREF_EN_CH02 + "\n" + LS
    return [tuple(tokenizer.words(text, s.start, s.end)) for s in SentenceSplitter().split(text)]


def _planted(tokenizer, data, most_longs):
    # Titles and long sentences drawn from real word lists, some titles
    # planted inside long sentences, so that there are pairs to find.
    pick = st.sampled_from(_real_word_lists(tokenizer))
    shorts = data.draw(st.lists(pick, min_size=1, max_size=8))
    longs = data.draw(st.lists(pick, min_size=1, max_size=most_longs))
    for short in data.draw(st.lists(st.sampled_from(shorts), max_size=4)):
        host = data.draw(pick)
        cut = data.draw(st.integers(0, len(host)))
        longs.append(host[:cut] + short + host[cut:])
    return shorts, longs


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_candidate_search_equals_the_plain_reference(tokenizer, data):
    shorts, longs = _planted(tokenizer, data, 8)
    short_docs = data.draw(st.lists(st.integers(0, 2), min_size=len(shorts), max_size=len(shorts)))
    long_docs = data.draw(st.lists(st.integers(0, 2), min_size=len(longs), max_size=len(longs)))
    for docs in ((None, None), (short_docs, long_docs)):
        fast = candidate_pairs(shorts, longs, short_docs=docs[0], long_docs=docs[1])
        assert fast == plain_candidate_pairs(shorts, longs, short_docs=docs[0], long_docs=docs[1])


def test_the_candidate_search_finds_a_planted_title(tokenizer):
    short = tuple(tokenizer.words("Safeguarding for package problems"))
    host = tuple(tokenizer.words(GPL_SENTENCE))
    long = host[:5] + short + host[5:]
    assert candidate_pairs([short, host], [host, long]) == [(0, 1)]


def test_a_title_of_common_words_only_finds_no_candidates(tokenizer):
    short = tuple(tokenizer.words("Safeguarding for package problems"))
    host = tuple(tokenizer.words(GPL_SENTENCE))
    long = host[:5] + short + host[5:]
    # Every word of the title held by more long sentences than KEY_POSTINGS.
    assert candidate_pairs([short], [long] * (KEY_POSTINGS + 1)) == []
    assert candidate_pairs([short], [long] * KEY_POSTINGS) == [(0, row) for row in range(KEY_POSTINGS)]


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_part_of_the_long_sentences_with_the_collections_counts_pairs_as_the_whole(tokenizer, data):
    # The store hands the search only the long sentences a query's titles can
    # meet, with the counts of all of them: the pairs are those of the whole.
    shorts, longs = _planted(tokenizer, data, 10)
    part = sorted(data.draw(st.sets(st.integers(0, len(longs) - 1))))
    whole = candidate_pairs(shorts, longs)
    counts = Counter(chain.from_iterable(longs))
    found = candidate_pairs(shorts, [longs[i] for i in part], counts=counts)
    assert found == [(row, part.index(long)) for row, long in whole if long in part]


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_search_on_words_numbered_finds_the_pairs_of_the_words(tokenizer, data):
    # The run's sentences as documents (words numbered: WordColumns): the
    # rows holding a title's two key words are found on the arrays.
    shorts, longs = _planted(tokenizer, data, 10)
    sentences = [*shorts, *longs]
    where = data.draw(st.lists(st.integers(0, 3), min_size=len(sentences), max_size=len(sentences)))
    docs = [[s for s, d in zip(sentences, where) if d == doc] for doc in range(4)]
    columns = WordColumns.of([SimpleNamespace(sentences=doc, tokens=tuple(map(len, doc)), words=tuple(doc)) for doc in docs])
    numbers = [columns.sentence(d, i) for d, doc in enumerate(docs) for i in range(len(doc))]
    words = [columns.words_of(number) for number in numbers]
    titles = data.draw(st.lists(st.sampled_from(numbers), max_size=6))
    long_numbers = [number for number, ws in zip(numbers, words) if len(ws) > MIN_TOKENS]
    title_docs, long_docs = (columns.documents(np.array(n, np.int64)).tolist() for n in (titles, long_numbers))
    title_words = [columns.words_of(n) for n in titles]
    expected = candidate_pairs(title_words, [columns.words_of(n) for n in long_numbers], short_docs=title_docs, long_docs=long_docs)
    found = headline_candidate_numbers(columns, np.array(titles, np.int64))
    assert found == [(row, long_numbers[long]) for row, long in expected]
