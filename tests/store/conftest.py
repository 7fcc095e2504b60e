"""Fixtures of the store tests: one detector per session, real text from the gold-set slice."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from partialdup.core.config import Config
from partialdup.index import words as word_sets
from partialdup.match.embedded import MAX_TOKENS, MIN_TOKENS, is_han_word, line_shaped, title_words
from partialdup.match import headline_search
from partialdup.pipeline.factory import make_detector
from partialdup.store import codec
from partialdup.store.records import signed
from partialdup.store.wordtable import unpack_places, unpack_titles, word_key
from partialdup.store.writer import bag_keys


@pytest.fixture(scope="session")
def detector(tokenizer, idf):
    return make_detector("low-idf-sig", idf, Config(), tokenizer=tokenizer)


def rebuilt_counts(path: Path) -> tuple[dict[int, tuple[int, ...]], set[tuple[int, int]], tuple[dict[int, int], dict[int, int]]]:
    """The features, postings and bags tables recomputed from the stored blobs
    alone, plainly: distinct bags told apart by their sorted items, not by digest."""
    db = sqlite3.connect(str(path))
    in_sentences: Counter[int] = Counter()
    in_joins: Counter[int] = Counter()
    postings: set[tuple[int, int]] = set()
    distinct: tuple[Counter, Counter] = (Counter(), Counter())  # sorted bag items -> copies
    for doc, blob in db.execute("SELECT doc, features FROM bodies"):
        packed = codec.unpack_features(blob)
        matchable = packed.matchable.astype(bool)[packed.sentence_rows()]
        own_s = Counter(codec.to_signed(packed.features[matchable]).tolist())
        own_j = Counter(codec.to_signed(packed.join_features).tolist())
        in_sentences.update(own_s)
        in_joins.update(own_j)
        postings.update((f, doc) for f in own_s.keys() | own_j.keys())
        sentence_bags = [b for b, ok in zip(codec.bags(packed.bag_sizes, packed.features, packed.counts), packed.matchable) if ok]
        join_bags = codec.bags(packed.join_sizes, packed.join_features, packed.join_counts)
        for kind, bag_list in enumerate((sentence_bags, join_bags)):
            distinct[kind].update(tuple(sorted(bag.items())) for bag in bag_list if bag)
    db.close()
    bag_counts = [Counter(signed(f) for items in kind for f, _ in items) for kind in distinct]
    features = {
        f: (in_sentences[f], in_joins[f], bag_counts[0][f], bag_counts[1][f]) for f in in_sentences.keys() | in_joins.keys()
    }
    bags = tuple({bag_keys([dict(items)])[0]: n for items, n in kind.items()} for kind in distinct)
    return features, postings, (bags[0], bags[1])


def stored_tables(path: Path) -> tuple[dict[int, tuple[int, ...]], set[tuple[int, int]], list[tuple]]:
    """(features, postings, document rows) as stored."""
    db = sqlite3.connect(str(path))
    features = {f: tuple(counts) for f, *counts in db.execute("SELECT feature, sentences, joins, sentence_bags, join_bags FROM features")}
    postings = set(db.execute("SELECT feature, doc FROM postings"))
    documents = db.execute("SELECT doc, id, sha256, chars, sentences FROM documents ORDER BY doc").fetchall()
    db.close()
    return features, postings, documents


def stored_bags(path: Path) -> tuple[dict[int, int], dict[int, int]]:
    """The bags and join_bags tables: digest -> copies."""
    db = sqlite3.connect(str(path))
    bags = tuple(dict(db.execute(f"SELECT digest, members FROM {table}")) for table in ("bags", "join_bags"))
    db.close()
    return bags[0], bags[1]


def assert_consistent(path: Path) -> list[tuple]:
    """Integrity, every document complete, every count equal to what the blobs hold.

    Returns:
        The stored document rows.
    """
    db = sqlite3.connect(str(path))
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    blobs = {doc: (features, text) for doc, features, text in db.execute("SELECT doc, features, text FROM bodies")}
    db.close()
    features, postings, documents = stored_tables(path)
    assert sorted(blobs) == [doc for doc, *_ in documents]
    for doc, doc_id, _, chars, sentences in documents:
        whole = codec.unpack_document(doc_id, codec.unpack_features(blobs[doc][0]), blobs[doc][1])
        assert len(whole.sentences) == sentences and len(whole.text or "") == chars
    assert (features, postings, stored_bags(path)) == rebuilt_counts(path)
    assert_words_consistent(path)
    return documents


def rebuilt_words(path: Path, min_tokens: int = Config().min_tokens) -> tuple[dict[int, tuple[int, int]], dict[int, set], dict]:
    """The word table recomputed plainly from the stored blobs: per word key
    (sentences of >= min_tokens words holding it, occurrences in sentences of
    > MIN_TOKENS tokens), its places, and the title rows with their key words."""
    db = sqlite3.connect(str(path))
    counts: dict[int, list[int]] = {}
    places: dict[int, set] = {}
    titles = {}
    for doc, doc_id, features, text in db.execute("SELECT d.doc, d.id, b.features, b.text FROM documents d JOIN bodies b USING (doc)"):
        whole = codec.unpack_document(doc_id, codec.unpack_features(features), text)
        for s, words in enumerate(whole.words):
            for word in words:
                row = counts.setdefault(word_key(word), [0, 0])
                if whole.tokens[s] > MIN_TOKENS:
                    row[1] += 1
                if len(words) >= min_tokens or whole.tokens[s] > MIN_TOKENS:
                    places.setdefault(word_key(word), set()).add((doc, s, len(set(words))))
            for word in set(words) if len(words) >= min_tokens else ():
                counts[word_key(word)][0] += 1
            title = words[title_words(words):]
            if MIN_TOKENS <= len(words) <= MAX_TOKENS + 3 and MIN_TOKENS <= len(title) <= MAX_TOKENS:
                if line_shaped(whole.text, whole.sentences[s]):
                    inner = set(title[1:-1]) | {w for w in (title[0], title[-1]) if not is_han_word(w)}
                    titles[(doc, s)] = {word_key(w) for w in inner}
    db.close()
    return {key: (a, b) for key, (a, b) in counts.items() if a or b}, places, titles


def assert_words_consistent(path: Path) -> None:
    """The word table holds the counts recomputed from the blobs, the places
    of every word a search may ask for (those of the others, when kept), and
    each title once, under one of its key words."""
    counts, places, titles = rebuilt_words(path)
    db = sqlite3.connect(str(path))
    rows = {key: (s, l, p, t) for key, s, l, p, t in db.execute("SELECT word, sentences, longs, places, titles FROM words")}
    db.close()
    assert {key: (s, l) for key, (s, l, _, _) in rows.items() if s or l} == counts
    for key, (s, l, kept, _) in rows.items():
        if kept is None:
            assert s > word_sets.WORD_POSTINGS and l > headline_search.KEY_POSTINGS
        else:
            assert set(unpack_places(kept, 3)) == places.get(key, set())
    listed = [(place, key, fragments) for key, (_, _, _, t) in rows.items() if t for place, fragments in unpack_titles(t).items()]
    assert sorted(place for place, _, _ in listed) == sorted(titles)
    assert all(key in titles[place] for place, key, _ in listed)
    assert all(list(fragments) == sorted({key & 0xFFFF for key in titles[place]}) for place, _, fragments in listed)
