"""The word table: per word, what the searches over every sentence's words count, and where the rare ones are.

Two stages of the detector search every reference sentence's *words*
rather than the feature index: the word sets of edited copies
(:class:`~partialdup.index.words.WordSets`) and the headlines copied inside
longer sentences (:func:`~partialdup.match.headline_search.candidate_pairs`).
Both find candidates through rare words only, ranked by counts over the
whole collection. The ``words`` table keeps, per word (a stable 64-bit hash
of the normalised word, as features are):

* ``sentences``: the stored sentences of at least ``min_tokens`` words
  holding it (the word sets' count, each sentence once);
* ``longs``: how many times the stored sentences of more than
  :data:`~partialdup.match.embedded.MIN_TOKENS` tokens hold it (the
  headline search's count, repeats counted);
* ``places``: (document, sentence, its distinct words) of the sentences of
  either kind holding it, while the word is rare enough for a search to use
  them; NULL once it is held by more than :func:`keep_sentences` sentences
  and more than :func:`keep_longs` times (twice the searches' bounds), so a
  common word costs one row;
* ``titles``: (document, sentence, the low 16 bits of its key words' keys)
  of the stored lines shaped like a headline's title listed under it: each
  title is listed under one of the words a long sentence must hold to be
  looked at for it (the least common one when stored).

Removal: counts fall, places are removed; a word whose places were dropped
and whose count falls back to a searched bound (``WORD_POSTINGS``,
``KEY_POSTINGS``) gets them again by one scan of the stored words
(:func:`rederive`): rare (it takes removing as many sentences holding it as
the margin), exact, proven by a test.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

import numpy as np

from partialdup.core.hashing import stable_hash
from partialdup.core.types import DocumentFeatures
from partialdup.index import words as word_sets
from partialdup.match import headline_search
from partialdup.match.embedded import MAX_TOKENS, MIN_TOKENS, is_han_word, line_shaped, title_words
from partialdup.store import codec
from partialdup.store.records import signed, slices

__all__ = [
    "PLACE_WIDTH", "DocumentWords", "WordDeltas", "WordRow", "document_words", "keep_longs", "keep_sentences",
    "key_fragment", "merge_places", "pack_many_places", "pack_places", "pack_titles", "read_rows", "rederive", "title_keys", "unpack_many_places",
    "unpack_many_titles", "unpack_places", "unpack_titles", "word_key",
]

#: (document, sentence) of a stored sentence.
Place = tuple[int, int]


def word_key(word: str) -> int:
    """A word's key in the ``words`` table: its stable 64-bit hash, signed as SQLite stores it."""
    return signed(stable_hash((word,)))


def keep_sentences() -> int:
    """A word's places are kept while at most this many sentences hold it (or :func:`keep_longs`)."""
    return 2 * word_sets.WORD_POSTINGS


def keep_longs() -> int:
    """... or while the long sentences hold it at most this many times."""
    return 2 * headline_search.KEY_POSTINGS


def pack_places(places: Iterable[tuple[int, ...]]) -> bytes:
    """Sorted places ((document, sentence, ...) tuples of one width) as
    varints: the document as a delta from the previous one, the rest as is."""
    out = bytearray()
    previous = 0
    for place in sorted(places):
        for value in (place[0] - previous, *place[1:]):
            while value >= 0x80:
                out.append((value & 0x7F) | 0x80)
                value >>= 7
            out.append(value)
        previous = place[0]
    return bytes(out)


def _varints(blob: bytes) -> list[int]:
    """The varints of a blob, in order."""
    values = []
    value = shift = 0
    for byte in blob:
        value |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
        else:
            values.append(value)
            value = shift = 0
    return values


def unpack_places(blob: bytes, width: int = 2) -> list[tuple[int, ...]]:
    """The places :func:`pack_places` packed, of ``width`` values each."""
    values = _varints(blob)
    places = []
    doc = 0
    for at in range(0, len(values), width):
        doc += values[at]
        places.append((doc, *values[at + 1:at + width]))
    return places


def _decoded(blobs: Sequence[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """The varints of many blobs, decoded at once with NumPy (int64), and
    where each blob's values start (one more entry than blobs)."""
    data = np.frombuffer(b"".join(blobs), np.uint8)
    ends = np.flatnonzero(data < 0x80)
    # A blob's values start after the varints ending before its first byte.
    bounds = np.searchsorted(ends, np.cumsum([0, *map(len, blobs)]))
    if not len(ends):
        return np.zeros(0, np.int64), bounds
    starts = np.concatenate(([0], ends[:-1] + 1))
    within = np.arange(len(data), dtype=np.int64) - np.repeat(starts, ends - starts + 1)
    return np.add.reduceat((data & 0x7F).astype(np.int64) << (7 * within), starts), bounds


def unpack_many_places(blobs: Sequence[bytes], width: int) -> tuple[np.ndarray, np.ndarray]:
    """The places of many blobs at once, with NumPy: (the blob each place
    comes from, the places as an array of ``width`` columns); equal to
    :func:`unpack_places` blob by blob (a test checks it)."""
    values, bounds = _decoded(blobs)
    if not len(values):
        return np.zeros(0, np.int64), np.zeros((0, width), np.int64)
    values = values.reshape(-1, width)
    # Each blob's first document is absolute, the next ones deltas.
    counts = np.diff(bounds) // width
    owner = np.repeat(np.arange(len(blobs), dtype=np.int64), counts)
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    running = np.cumsum(values[:, 0])
    first = np.minimum(first, len(values) - 1)  # (an empty blob's is never repeated)
    values[:, 0] = running - np.repeat(running[first] - values[first, 0], counts)
    return owner, values


def _varint_bytes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Non-negative integers as varints, with NumPy: (their bytes in order,
    how many bytes each takes), as :func:`pack_places` writes them."""
    lengths = np.ones(len(values), np.int64)
    rest = values >> 7
    while rest.any():
        lengths += rest > 0
        rest >>= 7
    starts = np.cumsum(lengths) - lengths
    out = np.empty(int(lengths.sum()), np.uint8)
    for at in range(int(lengths.max(initial=0))):
        has = lengths > at
        more = (lengths[has] > at + 1).astype(np.int64) << 7
        out[starts[has] + at] = ((values[has] >> (7 * at)) & 0x7F) | more
    return out, lengths


def pack_many_places(owner: np.ndarray, places: np.ndarray, count: int) -> list[bytes]:
    """The blobs of ``count`` place lists at once, with NumPy: ``owner`` the
    list (0 to count - 1) of each row of ``places`` (non-negative, one column
    per value, rows distinct); equal to :func:`pack_places` list by list (a
    test checks it), an empty list giving ``b""``."""
    if not len(owner):
        return [b""] * count
    order = np.lexsort((*places.T[::-1], owner))
    owner, values = owner[order], places[order].astype(np.int64)
    first = np.concatenate(([True], owner[1:] != owner[:-1]))
    values[1:, 0] -= np.where(first[1:], 0, values[:-1, 0])  # each list's first document absolute, then deltas
    data, lengths = _varint_bytes(values.reshape(-1))
    per_list = np.bincount(owner, lengths.reshape(len(owner), -1).sum(axis=1), minlength=count).astype(np.int64)
    ends = np.cumsum(per_list).tolist()
    blob = data.tobytes()
    return [blob[start:end] for start, end in zip([0, *ends[:-1]], ends)]


def merge_places(old: Sequence[bytes], changes: np.ndarray, width: int) -> np.ndarray:
    """Per list, its stored places with a batch's changes applied, with NumPy.

    Args:
        old: The stored blob of each list (``b""`` when none).
        changes: Rows (list, the place's ``width`` values, net change): a
            place with a positive net is added, with a negative one removed.
        width: Values per place.

    Returns:
        Rows (list, the place's values) of the places kept, each once.
    """
    owner, values = unpack_many_places(old, width)
    rows = np.concatenate((
        np.column_stack((owner, values, np.zeros(len(owner), np.int64), np.ones(len(owner), np.int64))),
        np.column_stack((changes, np.zeros(len(changes), np.int64))).reshape(-1, width + 3),
    )).astype(np.int64)
    if not len(rows):
        return np.zeros((0, width + 1), np.int64)
    rows = rows[np.lexsort(rows[:, width::-1].T)]
    place = rows[:, : width + 1]
    starts = np.flatnonzero(np.concatenate(([True], (place[1:] != place[:-1]).any(axis=1))))
    net = np.add.reduceat(rows[:, width + 1], starts)
    stored = np.maximum.reduceat(rows[:, width + 2], starts)
    return place[starts[(net > 0) | ((stored > 0) & (net == 0))]]


def key_fragment(key: int) -> int:
    """The low 16 bits of a word key: a title lists those of its key words,
    so that a check rules out, before reading its words, a title whose key
    words the query does not all hold (a fragment shared by chance only
    keeps a title that is then read and ruled out)."""
    return key & 0xFFFF


def pack_titles(titles: Mapping[Place, Sequence[int]]) -> bytes:
    """Titles ((document, sentence) -> their key words' fragments) as varints:
    document delta, sentence, how many fragments, the fragments."""
    return pack_places((*place, len(fragments), *fragments) for place, fragments in titles.items())


def unpack_titles(blob: bytes) -> dict[Place, tuple[int, ...]]:
    """The titles :func:`pack_titles` packed."""
    return unpack_many_titles([blob])[0]


def unpack_many_titles(blobs: Sequence[bytes]) -> list[dict[Place, tuple[int, ...]]]:
    """The titles of many blobs (their varints decoded at once, with NumPy:
    a check reads those of hundreds of words)."""
    values, bounds = _decoded(blobs)
    flat, at = values.tolist(), bounds.tolist()
    return [_titles(flat, start, stop) for start, stop in zip(at, at[1:])]


def _titles(flat: list[int], at: int, stop: int) -> dict[Place, tuple[int, ...]]:
    """The titles of one blob, whose varints are ``flat[at:stop]``."""
    titles: dict[Place, tuple[int, ...]] = {}
    doc = 0
    while at < stop:
        doc += flat[at]
        count = flat[at + 2]
        titles[(doc, flat[at + 1])] = tuple(flat[at + 3:at + 3 + count])
        at += 3 + count
    return titles


#: A word's places are (document, sentence, distinct words of the sentence):
#: the size lets a check rule most candidates out without reading their words.
PLACE_WIDTH = 3


def title_keys(words: Sequence[str]) -> frozenset[str] | None:
    """The words a long sentence must all hold to be looked at for the
    title of a sentence of these words (those
    :func:`~partialdup.match.headline_search.key_words` chooses among), or
    None when the sentence is not shaped like a headline's title (the
    length checks of ``_title_rows`` and ``candidate_pairs``)."""
    if not MIN_TOKENS <= len(words) <= MAX_TOKENS + 3:
        return None
    title = words[title_words(words):]
    if not MIN_TOKENS <= len(title) <= MAX_TOKENS:
        return None
    edges = [word for word in (title[0], title[-1]) if not is_han_word(word)] if len(title) > 2 else []
    return frozenset(title[1:-1] if len(title) > 2 else title).union(edges)


@dataclass
class DocumentWords:
    """What one stored document adds to the word table.

    Attributes:
        sentences: Per word, its sentences of at least ``min_tokens`` words holding it.
        longs: Per word, how many times its long sentences hold it.
        places: Per word, (sentence, its distinct words) of the sentences of either kind holding it.
        titles: (sentence, its title's key words) of its line-shaped titles.
    """

    sentences: Counter[str] = field(default_factory=Counter)
    longs: Counter[str] = field(default_factory=Counter)
    places: dict[str, list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))
    titles: list[tuple[int, frozenset[str]]] = field(default_factory=list)


def document_words(doc: DocumentFeatures, min_tokens: int) -> DocumentWords:
    """A document's share of the word table (empty when its words are not known)."""
    found = DocumentWords()
    for s, words in enumerate(doc.words):
        word_row, long_row = len(words) >= min_tokens, doc.tokens[s] > MIN_TOKENS
        if word_row or long_row:
            distinct = set(words)
            if word_row:
                found.sentences.update(distinct)
            if long_row:
                found.longs.update(words)
            place = (s, len(distinct))
            for word in distinct:
                found.places[word].append(place)
        keys = title_keys(words)
        if keys and doc.text is not None and line_shaped(doc.text, doc.sentences[s]):
            found.titles.append((s, keys))
    return found


@dataclass(frozen=True)
class WordRow:
    """A row of the ``words`` table (places None: dropped, the word is common)."""

    sentences: int
    longs: int
    places: bytes | None
    titles: bytes | None


def read_rows(db: sqlite3.Connection, keys: Iterable[int]) -> dict[int, WordRow]:
    """The stored rows of these word keys (absent ones left out)."""
    rows: dict[int, WordRow] = {}
    for chunk in slices(sorted(set(keys))):
        marks = ",".join("?" * len(chunk))
        for key, *values in db.execute(
            f"SELECT word, sentences, longs, places, titles FROM words WHERE word IN ({marks})", chunk
        ):
            rows[key] = WordRow(*values)
    return rows


class WordDeltas:
    """The changes one batch makes to the word table, written at once by :meth:`flush`.

    Places and titles are counted +1 / -1 per (word, place), so a document
    removed and stored again in one batch (a replacement) nets out exactly.
    The places are kept as arrays and merged with the stored ones with NumPy
    (:func:`merge_places`, :func:`pack_many_places`): a batch rewrites the
    blobs of every rare word it touches, and unpacking and packing them one
    varint at a time in Python was most of the cost of storing.
    """

    def __init__(self) -> None:
        self._keys: dict[str, int] = {}
        self.clear()

    def clear(self) -> None:
        """Forget the changes (written, or rolled back)."""
        self._counts: list[np.ndarray] = []  # rows (word key, sentences, longs), signed
        self._places: list[np.ndarray] = []  # rows (word key, document, sentence, size, sign)
        self._titles: Counter[tuple[Place, tuple[int, ...]]] = Counter()  # (place, its key words' keys)

    def _key(self, word: str) -> int:
        key = self._keys.get(word)
        if key is None:
            key = self._keys[word] = word_key(word)
        return key

    def add(self, number: int, found: DocumentWords, sign: int) -> None:
        """Add (``sign`` 1) or remove (-1) document ``number``'s share."""
        # Every word counted is placed: one key per distinct word of the document.
        words = list(found.places)
        keyed = np.fromiter(map(self._key, words), np.int64, len(words))
        counts = np.empty((len(words), 3), np.int64)
        counts[:, 0] = keyed
        counts[:, 1] = np.fromiter(map(found.sentences.__getitem__, words), np.int64, len(words)) * sign
        counts[:, 2] = np.fromiter(map(found.longs.__getitem__, words), np.int64, len(words)) * sign
        self._counts.append(counts)
        if words:
            lists = list(found.places.values())
            rows = np.empty((sum(map(len, lists)), 5), np.int64)
            rows[:, 0], rows[:, 1], rows[:, 4] = np.repeat(keyed, [len(places) for places in lists]), number, sign
            rows[:, 2:4] = np.array([place for places in lists for place in places], np.int64).reshape(-1, 2)
            self._places.append(rows)
        for s, keys in found.titles:
            self._titles[((number, s), tuple(sorted(self._key(word) for word in keys)))] += sign

    def flush(self, db: sqlite3.Connection, min_tokens: int) -> None:
        """Write the batch's changes (inside the caller's transaction)."""
        places = np.concatenate(self._places) if self._places else np.zeros((0, 5), np.int64)
        counts = np.concatenate(self._counts) if self._counts else np.zeros((0, 3), np.int64)
        counted, at = np.unique(counts[:, 0], return_inverse=True)
        held = dict(zip(counted.tolist(), np.bincount(at, counts[:, 1], len(counted)).astype(np.int64).tolist()))
        held_long = dict(zip(counted.tolist(), np.bincount(at, counts[:, 2], len(counted)).astype(np.int64).tolist()))
        touched = set(held)
        touched.update(key for (_, keys) in self._titles for key in keys)
        rows = read_rows(db, touched)
        new: dict[int, list] = {}
        for key in touched:
            old = rows.get(key, WordRow(0, 0, b"", None))
            titles = unpack_titles(old.titles) if old.titles else {}
            new[key] = [old.sentences + held.get(key, 0), old.longs + held_long.get(key, 0), old.places, titles]
        for (title, keys), net in self._titles.items():
            if net < 0:
                for key in keys:
                    new[key][3].pop(title, None)
        for (title, keys), net in self._titles.items():
            if net > 0:
                chosen = min(keys, key=lambda key: (new[key][1], new[key][0], key))
                new[chosen][3][title] = sorted({key_fragment(key) for key in keys})
        lost, kept = [], []
        for key, (sentences, longs, stored, titles) in new.items():
            if stored is not None and sentences > keep_sentences() and longs > keep_longs():
                new[key][2] = None
            elif stored is None and (sentences <= word_sets.WORD_POSTINGS or longs <= headline_search.KEY_POSTINGS):
                lost.append(key)
            elif stored is not None:
                kept.append(key)
        kept.sort()
        listed = np.array(kept, np.int64)
        at = np.searchsorted(listed, places[:, 0])
        mine = at < len(listed)
        mine[mine] = listed[at[mine]] == places[mine, 0]
        changes = np.column_stack((at[mine], places[mine, 1:]))
        merged = merge_places([new[key][2] or b"" for key in kept], changes, PLACE_WIDTH)
        for key, blob in zip(kept, pack_many_places(merged[:, 0], merged[:, 1:], len(kept))):
            new[key][2] = blob
        if lost:
            for key, found in rederive(db, lost, min_tokens).items():
                new[key][2] = pack_places(set(found))
        db.executemany("DELETE FROM words WHERE word = ?", [
            (key,) for key, (sentences, longs, blob, titles) in sorted(new.items())
            if not (sentences or longs or titles or blob)
        ])
        db.executemany("INSERT OR REPLACE INTO words VALUES (?, ?, ?, ?, ?)", [
            (key, sentences, longs, blob, pack_titles(titles) if titles else None)
            for key, (sentences, longs, blob, titles) in sorted(new.items())
            if sentences or longs or titles or blob
        ])
        self.clear()


def rederive(db: sqlite3.Connection, keys: Sequence[int], min_tokens: int) -> dict[int, list[tuple[int, ...]]]:
    """The places of these words, found by reading every stored document's
    words (for words whose places were dropped and are needed again)."""
    wanted = set(keys)
    found: dict[int, list[tuple[int, ...]]] = {key: [] for key in keys}
    for number, doc_id, features, text in db.execute(
        "SELECT d.doc, d.id, b.features, b.text FROM documents d JOIN bodies b USING (doc) ORDER BY d.doc"
    ):
        doc = codec.unpack_document(doc_id, codec.unpack_features(features), text)
        for word, sentences in document_words(doc, min_tokens).places.items():
            key = word_key(word)
            if key in wanted:
                found[key].extend((number, s, size) for s, size in sentences)
    return found

