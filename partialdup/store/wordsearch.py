"""The stored sentences a check's word searches can meet, found through the word table.

The word sets of edited copies (:class:`~partialdup.index.words.WordSets`)
pair a query sentence with a stored one only through a word in both of
their *prefixes* (their rarest words, ranked by the collection's counts)
held by at most :data:`~partialdup.index.words.WORD_POSTINGS` sentences, and
only when their word sets reach :data:`~partialdup.index.words.WORD_JACCARD`.
The headline search (:func:`~partialdup.match.headline_search.candidate_pairs`)
pairs a query title with a stored long sentence only through the title's
rarest key word held at most :data:`~partialdup.match.headline_search.KEY_POSTINGS`
times by the collection's long sentences, and a stored title with a query
sentence only when the query's long sentences hold every key word of it.
So a check (:func:`word_candidates`)

1. reads the word table's rows of the queries' words (counts, places, titles);
2. word sets: computes each query sentence's prefix with the collection's
   counts (:func:`~partialdup.index.words.prefix_words`), reads the places
   of its words, keeps the stored sentences whose word sets reach the
   threshold with a query sentence whose prefix holds one of their words
   (reading the words of those whose filters, :mod:`~partialdup.store.blooms`,
   leave it possible), and reads the counts of those sentences' words;
3. headlines: the places of each query title's rarest key word that hold
   its second one (and, by their filters, may hold its common words); the
   stored titles listed under a word of the query's long sentences whose
   key words those all hold;
4. hands the detector those sentences (a stored reference's ``scanned`` and
   ``scanned_headlines``) and the collection's counts
   (:class:`~partialdup.pipeline.edits.CollectionWords`): its searches then
   find among them exactly the pairs they find among every stored sentence.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

import numpy as np

from partialdup.core.arrays import ranges, sorted_unique
from partialdup.core.config import Config
from partialdup.core.types import DocumentFeatures
from partialdup.index import words as word_sets
from partialdup.index.words import WORD_JACCARD, prefix_words
from partialdup.match import headline_search
from partialdup.match.embedded import MIN_TOKENS, is_han_word, title_words
from partialdup.match.headline_search import key_words
from partialdup.pipeline.edits import CollectionWords
from partialdup.store.blooms import BITS, holds_all, shared_bound, word_bit
from partialdup.store.wordtable import (
    PLACE_WIDTH, WordRow, key_fragment, read_rows, title_keys, unpack_many_places, unpack_many_titles, word_key,
)

__all__ = ["WordCandidates", "word_candidates"]

#: Gives a stored document's words per sentence, by document number.
WordsOf = Callable[[int], Sequence[Sequence[str]]]
#: Reads the words of these documents at once, before :data:`WordsOf` asks for them.
Prefetch = Callable[[Iterable[int]], None]
#: Gives the filters of the words of stored sentences: (documents, sentences) -> uint64 per place.
BloomsOf = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _no_prefetch(numbers: Iterable[int]) -> None:
    """Read nothing ahead: each document when :data:`WordsOf` asks for it."""


@dataclass
class WordCandidates:
    """What a check's word searches can meet in the store.

    Attributes:
        words: Per document number, the sentences the word sets can pair.
        headlines: Per document number, the sentences the headline search can pair.
        collection: The collection's counts of the words those searches rank.
    """

    words: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    headlines: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    collection: CollectionWords = field(default_factory=lambda: CollectionWords({}, {}))

    def documents(self) -> set[int]:
        """The documents holding such a sentence."""
        return set(self.words) | set(self.headlines)


def word_candidates(
    db: sqlite3.Connection, config: Config, query_docs: Sequence[DocumentFeatures], words_of: WordsOf,
    prefetch: Prefetch = _no_prefetch, blooms_of: BloomsOf | None = None,
) -> WordCandidates:
    """The stored sentences the word searches of a check of ``query_docs``
    can pair, with the collection's counts (inside the caller's read transaction).

    ``prefetch`` is told the documents whose words are about to be read.
    ``blooms_of`` spares reading the words of the stored sentences whose
    filters rule them out (None: every candidate's words are read; the same
    sentences are found either way).
    """
    found = WordCandidates()
    rows = _rows(db, {word for doc in query_docs for words in doc.words for word in words})
    sentences = {word: row.sentences for word, row in rows.items()}
    if config.edited_ratio:
        kept = _word_set_places(rows, config.min_tokens, query_docs, words_of, prefetch, blooms_of)
        for doc, s in kept:
            found.words[doc].add(s)
        more = {word for doc, s in kept for word in words_of(doc)[s] if word not in rows}
        sentences.update((word, row.sentences) for word, row in _rows(db, more).items())
    if config.headlines:
        for doc, s in _headline_places(rows, query_docs, words_of, blooms_of, prefetch):
            found.headlines[doc].add(s)
    found.collection = CollectionWords(sentences, {word: row.longs for word, row in rows.items()})
    return found


def _rows(db: sqlite3.Connection, words: Iterable[str]) -> dict[str, WordRow]:
    """The word table's rows of these words, by word (absent words left out)."""
    keys = {word: word_key(word) for word in words}
    stored = read_rows(db, keys.values())
    return {word: stored[key] for word, key in keys.items() if key in stored}


def _word_set_places(
    rows: dict[str, WordRow], least: int, query_docs: Sequence[DocumentFeatures], words_of: WordsOf,
    prefetch: Prefetch = _no_prefetch, blooms_of: BloomsOf | None = None,
) -> set[tuple[int, int]]:
    """(document, sentence) of the stored sentences of at least ``least``
    words whose word sets reach the threshold with a query sentence through
    one of its prefix words (which the word table's places list).

    Most stored sentences holding a prefix word share nothing else with the
    query sentence. Before their words are read, the places of every query
    word the table lists (all but the common ones) say how many of those a
    stored sentence holds (k), and its size (n) is in its places: it shares
    at most k + min(the query sentence's common words, n - k) words, and a
    Jaccard of t needs t (|q| + n) / (1 + t) of them. With ``blooms_of``,
    only the common words whose bit the stored sentence's filter sets count
    (:mod:`~partialdup.store.blooms`): most of those left are ruled out
    before their words are read.
    """
    queries = [set(words) for doc in query_docs for words in doc.words if len(words) >= least]
    own = Counter(word for words in queries for word in words)
    held = {word: own[word] + (rows[word].sentences if word in rows else 0) for word in own}
    prefixes = [set(prefix_words(list(words), held, WORD_JACCARD, word_sets.WORD_POSTINGS)) for words in queries]
    listed = sorted(word for word in own if word in rows and rows[word].places is not None)
    if not listed:
        return set()
    owner, places = unpack_many_places([rows[word].places or b"" for word in listed], PLACE_WIDTH)
    keys = _place_keys_of(places)
    holding, in_prefix = _rows_of(listed, queries), _rows_of(listed, prefixes)
    met_key, met_query = _cross(owner, keys, in_prefix)
    pairs = sorted_unique(met_key * len(queries) + met_query)
    held_key, held_query = _cross(owner, keys, holding)
    shared, counts = np.unique(held_key * len(queries) + held_query, return_counts=True)
    known = counts[np.searchsorted(shared, pairs)]  # every met pair shares its prefix word
    key, query = pairs // len(queries), pairs % len(queries)
    order = np.argsort(keys, kind="stable")
    size = places[order[np.searchsorted(keys[order], key)], 2]
    commons = [sorted(word for word in words if word in rows and rows[word].places is None) for words in queries]
    common = np.array([len(words) for words in commons])
    need = WORD_JACCARD * (np.array([len(words) for words in queries])[query] + size) / (1 + WORD_JACCARD) - 1e-9
    hopeful = known + np.minimum(common[query], size - known) >= need
    if blooms_of is not None and hopeful.any():
        key, query, known, size, need = key[hopeful], query[hopeful], known[hopeful], size[hopeful], need[hopeful]
        may = shared_bound(blooms_of(*_split(key)), _bit_weights(commons)[query])
        hopeful = known + np.minimum(may, size - known) >= need
    kept: set[tuple[int, int]] = set()
    prefetch(sorted_unique(_split(key[hopeful])[0]).tolist())
    for place_key, rows_of_key in _grouped(key[hopeful], query[hopeful]):
        place = (place_key >> _SENTENCE_BITS, place_key & _SENTENCE_MASK)
        stored = words_of(place[0])[place[1]]
        if len(stored) >= least:
            distinct = set(stored)
            if any(_jaccard(queries[q], distinct) >= WORD_JACCARD for q in rows_of_key):
                kept.add(place)
    return kept


def _bit_weights(commons: Sequence[Sequence[str]]) -> np.ndarray:
    """Per query sentence, how many of its common words set each bit of a filter."""
    weights = np.zeros((len(commons), BITS), np.int64)
    for row, words in enumerate(commons):
        for word in words:
            weights[row, word_bit(word_key(word))] += 1
    return weights


def _rows_of(words: Sequence[str], sets: Sequence[set[str]]) -> tuple[np.ndarray, np.ndarray]:
    """Per word, the rows whose set holds it, as (starts, rows) (CSR)."""
    found: dict[str, list[int]] = defaultdict(list)
    for row, members in enumerate(sets):
        for word in members:
            found[word].append(row)
    lists = [found.get(word, []) for word in words]
    starts = np.concatenate(([0], np.cumsum([len(rows) for rows in lists]))).astype(np.int64)
    return starts, np.array([row for rows in lists for row in rows], np.int64)


def _cross(owner: np.ndarray, keys: np.ndarray, rows: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(key, row) of every place of a word with every row of that word."""
    starts, flat = rows
    entry, within = ranges((starts[1:] - starts[:-1])[owner])
    return keys[entry], flat[starts[owner[entry]] + within]


def _grouped(keys: np.ndarray, rows: np.ndarray) -> Iterable[tuple[int, list[int]]]:
    """(key, its rows) in key order, of (key, row) pairs sorted by key."""
    if not len(keys):
        return
    cuts = np.flatnonzero(np.diff(keys)) + 1
    for start, stop in zip(np.concatenate(([0], cuts)).tolist(), np.concatenate((cuts, [len(keys)])).tolist()):
        yield int(keys[start]), rows[start:stop].tolist()


def _jaccard(first: set[str], second: set[str]) -> float:
    """:func:`~partialdup.index.words.word_jaccard` of two sets."""
    union = len(first | second)
    return len(first & second) / union if union else 0.0


def _holding_keys(
    rows: dict[str, WordRow], title: Sequence[str], rarest: str, second: str, words_of: WordsOf,
    blooms_of: BloomsOf | None = None, prefetch: Prefetch = _no_prefetch,
) -> Iterable[tuple[int, int]]:
    """(document, sentence) of the stored sentences holding a title's two key
    words and every word of it that is one unit (not Han): all those a long
    sentence must hold to be looked at for the title (see
    :func:`~partialdup.match.headline_search.candidate_pairs`). The places
    of the rarest key word, kept when each word whose places the table
    keeps lists them too; read only when one of the words is common (and
    the place's filter may hold them all)."""
    needed = {rarest, second, *(word for word in title if not is_han_word(word))}
    found = _place_keys(rows.get(rarest))
    unlisted = []
    for word in sorted(needed - {rarest}):
        row = rows.get(word)
        if row is None:
            return []  # no stored sentence holds it
        if row.places is None:
            unlisted.append(word)
        else:
            found = np.intersect1d(found, _place_keys(row), assume_unique=True)
    if unlisted and len(found) and blooms_of is not None:
        found = found[holds_all(blooms_of(*_split(found)), [word_key(word) for word in unlisted])]
    places = list(zip(*(column.tolist() for column in _split(found))))
    if unlisted:
        prefetch({doc for doc, _ in places})
    return [place for place in places if all(word in words_of(place[0])[place[1]] for word in unlisted)]


def _place_keys(row: WordRow | None) -> np.ndarray:
    """A rare word's places as sorted distinct keys (:func:`_place_keys_of`)."""
    if row is None:
        return np.zeros(0, np.int64)
    assert row.places is not None, "a searched word's places are kept"
    _, places = unpack_many_places([row.places], PLACE_WIDTH)
    return sorted_unique(_place_keys_of(places))


#: A place (document, sentence) as one integer: document << 24 | sentence
#: (a document of 16M sentences: never).
_SENTENCE_BITS = 24
_SENTENCE_MASK = (1 << _SENTENCE_BITS) - 1


def _place_keys_of(places: np.ndarray) -> np.ndarray:
    """One integer per place, from its (document, sentence) columns."""
    return (places[:, 0] << _SENTENCE_BITS) | places[:, 1]


def _split(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (documents, sentences) of place keys."""
    return keys >> _SENTENCE_BITS, keys & _SENTENCE_MASK


def _headline_places(
    rows: dict[str, WordRow], query_docs: Sequence[DocumentFeatures], words_of: WordsOf, blooms_of: BloomsOf | None = None,
    prefetch: Prefetch = _no_prefetch,
) -> set[tuple[int, int]]:
    """(document, sentence) of the stored sentences the headline search can
    pair with a query sentence: long ones holding a query title's two key
    words, and titles whose key words the query's long sentences hold
    (``prefetch`` is told the documents whose words are about to be read)."""
    longs = Counter({word: row.longs for word, row in rows.items()})
    found: set[tuple[int, int]] = set()
    long_words: set[str] = set()
    for query in query_docs:
        for at, words in enumerate(query.words):
            if query.tokens[at] > MIN_TOKENS:
                long_words.update(words)
            if title_keys(words) is None:
                continue
            title = words[title_words(words):]
            rarest, second = key_words(title, longs)
            if longs[rarest] <= headline_search.KEY_POSTINGS:
                found.update(_holding_keys(rows, title, rarest, second, words_of, blooms_of, prefetch))
    fragments = {key_fragment(word_key(word)) for word in long_words}
    titled = [row.titles for word in sorted(long_words) if (row := rows.get(word)) is not None and row.titles]
    titles = [place for listing in unpack_many_titles(titled) for place, listed in listing.items() if fragments.issuperset(listed)]
    prefetch({doc for doc, _ in titles})
    for doc, s in titles:
        keys = title_keys(words_of(doc)[s])
        if keys is not None and keys <= long_words:
            found.add((doc, s))
    return found
