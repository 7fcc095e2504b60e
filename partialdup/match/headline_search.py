"""The candidate search of headlines: which longer sentences may hold a title.

A headline's title (see :mod:`partialdup.match.embedded`) is looked for in
the longer sentences that hold its two rarest words; a candidate's units must
hold the title's units as one contiguous run. :func:`candidate_pairs` looks
up each long sentence's words once in the set of the titles' rarest words;
:func:`plain_candidate_pairs` is the plain reference that tests every pair
(the tests check the two agree).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import chain
from typing import Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from partialdup.index.word_columns import NumberedWords, WordColumns
from partialdup.match.embedded import MAX_TOKENS, MIN_TOKENS, is_han_word, may_open_number, run_at, title_words, word_units

__all__ = ["KEY_POSTINGS", "candidate_pairs", "headline_candidate_numbers", "key_words", "plain_candidate_pairs"]

#: A title whose rarest key word the long sentences hold more often than
#: this (counting repeats) finds no candidates: it is made of common words
#: only ("GNU General Public License"), and would make a candidate of every
#: sentence that mentions them.
KEY_POSTINGS = 200


def candidate_pairs(
    shorts: Sequence[Sequence[str]],
    longs: Sequence[Sequence[str]],
    *,
    short_docs: Sequence[int] | np.ndarray | None = None,
    long_docs: Sequence[int] | np.ndarray | None = None,
    counts: Mapping[str, int] | None = None,
    holding: Callable[[list[tuple[str, str]]], Iterable[int]] | None = None,
) -> list[tuple[int, int]]:
    """(short row, long row) of the pairs where the short sentence's title
    (:func:`title_words`) holds :data:`MIN_TOKENS` to :data:`MAX_TOKENS`
    tokens, the long sentence's own title holds more tokens and the
    title's two key words (:func:`key_words`, ranked by how many times the
    long sentences hold each word), and the title's units are one
    contiguous run of the long sentence's (:func:`run_at` on
    :func:`word_units`); sorted.

    Only the long sentences holding a title's rarest key word are looked at
    for it, so common words (the, 的) never make candidates: a set look-up
    per long sentence, and a check per sentence that holds a key word.

    Args:
        shorts: The words of each short sentence (section number included).
        longs: The words of each long sentence.
        short_docs: Document of each short row; with ``long_docs``, a pair
            within one document is never made. None: no exclusion.
        long_docs: Document of each long row (a list or an array: read
            for the rows that hold a title's words only).
        counts: How many times the long sentences of the whole collection
            ``longs`` is part of hold each word of the titles (absent: 0),
            in place of ``longs``' own counts: the key words, and so the
            pairs of the rows of ``longs``, are then those of the whole
            collection (:mod:`partialdup.store` hands a part of it). None:
            ``longs`` is the whole collection.
        holding: The long rows holding both words of one of some pairs of
            words (the titles' two key words), in order: the only rows then
            read from ``longs`` (a search that holds the words as numbers
            finds them at once, see :mod:`partialdup.index.word_columns`).
            None: every row is read.
    """
    # Identical titles (a man page's colophon line in every page) are
    # looked up once, as one group of rows.
    groups: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for row, words in enumerate(shorts):
        title = tuple(words[title_words(words) :])
        if MIN_TOKENS <= len(title) <= MAX_TOKENS:
            groups[title].append(row)
    counts = Counter(chain.from_iterable(longs)) if counts is None else Counter(counts)
    # Rarest key word -> second key word -> the titles looked up through them.
    by_key: dict[str, dict[str, list[tuple[str, ...]]]] = defaultdict(lambda: defaultdict(list))
    for title in groups:
        rarest, second = key_words(title, counts)
        if counts[rarest] <= KEY_POSTINGS:
            by_key[rarest][second].append(title)
    keys = frozenset(by_key)
    looked_up: dict[tuple[str, ...], _Title] = {}
    units_held: dict[str, str] = {}  # one string per distinct unit, shared by the titles
    found = []
    key_pairs = [(rarest, second) for rarest, by_second in by_key.items() for second in by_second]
    for long_row in range(len(longs)) if holding is None else holding(key_pairs):
        words = longs[long_row]
        hit = keys.intersection(words) if len(words) > MIN_TOKENS else None
        if not hit:
            continue
        held = frozenset(words)
        size = len(words) - title_words(words) if may_open_number(words[0]) else len(words)
        characters: set[str] | None = None
        long_units: list[str] | None = None
        for key in hit:
            by_second = by_key[key]
            # The titles whose second key word the sentence holds, found by
            # one set operation, not a test per title.
            for second in held.intersection(by_second):
                for title in by_second[second]:
                    if len(title) >= size:
                        continue
                    looked = looked_up.get(title) or looked_up.setdefault(title, _Title.of(title, units_held))
                    # A run holds every word of the title that is one unit and
                    # every character of its Han words (cheap to rule out; the
                    # units are compared only then).
                    if not all(map(held.__contains__, looked.whole_words)):
                        continue
                    characters = set("".join(words)) if characters is None and looked.characters else characters
                    if characters is not None and not all(map(characters.__contains__, looked.characters)):
                        continue
                    long_units = word_units(words) if long_units is None else long_units
                    if run_at(looked.units, long_units) is None:
                        continue
                    for row in groups[title]:
                        if short_docs is None or long_docs is None or short_docs[row] != long_docs[long_row]:
                            found.append((row, long_row))
    return sorted(found)


def headline_candidate_numbers(columns: WordColumns, titles: np.ndarray) -> list[tuple[int, int]]:
    """:func:`candidate_pairs` of ``detect``'s titles against every longer
    sentence of the run (more than :data:`MIN_TOKENS` tokens, words known),
    read from the run's words numbered: (title row, long sentence's number),
    sorted. The words are counted on the arrays, and only the long
    sentences holding a title's key word are made words again. A pure
    function of its arguments: a helper process may run it.

    Args:
        columns: The run's words numbered.
        titles: The sentence numbers of the sentences that may be
            headlines (their words are read from ``columns``: sent to a
            helper as numbers, not as lists of strings; no pair within one
            document).
    """
    shorts = NumberedWords(columns, titles)
    long_numbers = np.flatnonzero(columns.known & (columns.tokens > MIN_TOKENS))
    held = columns.column_counts(long_numbers)
    # The titles' words' counts only (all candidate_pairs reads): not a dict
    # of every word of the run, copied again as a Counter there.
    title_columns = columns.columns_of(chain.from_iterable(shorts))
    counts = {word: count for word, column in title_columns.items() if (count := int(held[column]))}
    pairs = candidate_pairs(
        shorts, NumberedWords(columns, long_numbers), short_docs=columns.documents(titles),
        long_docs=columns.documents(long_numbers), counts=counts,
        holding=lambda pairs: columns.holding_pairs(long_numbers, pairs).tolist(),
    )
    return [(row, int(long_numbers[long_row])) for row, long_row in pairs]


@dataclass(frozen=True, slots=True)
class _Title:
    """A short sentence's title as :func:`candidate_pairs` compares it, held
    as tuples and a string, not sets: every title looked up stays until the
    search ends (4,600 on the Chinese bench corpus, whose frozensets and
    units were 8 MB of the headline search's 19 MB peak, traced).

    Attributes:
        whole_words: Its distinct words that are one unit each (not Han),
            sorted: a run holds each.
        characters: The distinct characters of its Han words, sorted: a run
            holds each.
        units: Its units (:func:`word_units`).
    """

    whole_words: tuple[str, ...]
    characters: str
    units: tuple[str, ...]

    @classmethod
    def of(cls, title: Sequence[str], held: dict[str, str]) -> _Title:
        """The title ``title`` as compared; its units taken from ``held``
        where it has them (added there otherwise), so that titles share
        one string per character rather than one per place."""
        han = [word for word in title if is_han_word(word)]
        units = tuple(held.setdefault(unit, unit) for unit in word_units(title))
        return cls(tuple(sorted(set(title).difference(han))), "".join(sorted(set("".join(han)))), units)


def key_words(title: Sequence[str], counts: Counter[str]) -> tuple[str, str]:
    """The two words a long sentence must hold to be looked at for a title:
    its two rarest distinct words by ``counts`` (ties: the first in code
    point order), a Han word only away from the title's edges (jieba may cut
    a Han title's first or last word otherwise inside a longer sentence)."""
    edges = [word for word in (title[0], title[-1]) if not is_han_word(word)] if len(title) > 2 else []
    inner = sorted(set(title[1:-1] if len(title) > 2 else title).union(edges))
    first = min(inner, key=counts.__getitem__)
    inner.remove(first)
    return first, min(inner, key=counts.__getitem__) if inner else first


def plain_candidate_pairs(
    shorts: Sequence[Sequence[str]],
    longs: Sequence[Sequence[str]],
    *,
    short_docs: Sequence[int] | None = None,
    long_docs: Sequence[int] | None = None,
) -> list[tuple[int, int]]:
    """The plain reference of :func:`candidate_pairs`: every pair tested."""
    counts = Counter(word for words in longs for word in words)
    return sorted(_plain_pairs(shorts, longs, short_docs, long_docs, counts))


def _plain_pairs(
    shorts: Sequence[Sequence[str]],
    longs: Sequence[Sequence[str]],
    short_docs: Sequence[int] | None,
    long_docs: Sequence[int] | None,
    counts: Counter[str],
) -> Iterator[tuple[int, int]]:
    for row, words in enumerate(shorts):
        title = words[title_words(words) :]
        if not MIN_TOKENS <= len(title) <= MAX_TOKENS:
            continue
        rarest, second = key_words(title, counts)
        if counts[rarest] > KEY_POSTINGS:
            continue
        keys = {rarest, second}
        for long_row, other in enumerate(longs):
            if short_docs is not None and long_docs is not None and short_docs[row] == long_docs[long_row]:
                continue
            if len(other) - title_words(other) > len(title) and keys <= set(other):
                if run_at(word_units(title), word_units(other)) is not None:
                    yield row, long_row
