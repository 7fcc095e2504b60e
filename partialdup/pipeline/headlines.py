"""The headline rule's look-ups: a headline (a line of its own, no terminator)
of one document copied inside a longer sentence of another.

Candidates are found on the documents' words alone
(:mod:`partialdup.match.headline_search`; in ``detect`` on the words
numbered, :mod:`partialdup.index.word_columns`, possibly in a helper
process), then confirmed on their tokens
(:func:`partialdup.match.embedded.embedded_span`). :class:`HeadlineStage`
is the look-ups' part of the detector that does it
(:mod:`partialdup.pipeline.lookups`).
"""

from __future__ import annotations

from collections import defaultdict
from functools import partial
from itertools import groupby
from typing import Callable, Iterator, Sequence, Union

import numpy as np

from partialdup.core.types import DocumentFeatures, Token, sentence_offsets
from partialdup.index.word_columns import WordColumns
from partialdup.match.embedded import (
    MAX_TOKENS,
    MIN_TOKENS,
    Tokenize,
    embedded_span,
    is_headline,
    line_shaped,
    line_shaped_rows,
    may_open_number,
    title_words,
)
from partialdup.match.headline_search import candidate_pairs, headline_candidate_numbers
from partialdup.match.keyed import KeyedMatches
from partialdup.match.pair_rows import PairRows
from partialdup.match.pairs import SentenceKey
from partialdup.pipeline.edits import EditedStage, collection_words, scanned_sentences
from partialdup.pipeline.sidework import Apart, Beside, inline_beside

__all__ = ["HeadlineCandidate", "HeadlineStage", "Records", "WholeMatches"]

#: (side, headline, other side, longer sentence): a headline candidate.
HeadlineCandidate = tuple[int, SentenceKey, int, SentenceKey]

#: (first sentence, second sentence, score) records: a list, or a search's
#: arrays read as records (match/keyed.py).
Records = Union[KeyedMatches, list[tuple[SentenceKey, SentenceKey, float]]]

#: The whole matches, (first sentence, second sentence, score, weak): a
#: list, or their arrays (``detect``'s, match/pair_rows.py).
WholeMatches = Union[PairRows, list[tuple[SentenceKey, SentenceKey, float, bool]]]


class HeadlineStage(EditedStage):
    """The headline rule's candidates and confirmations, for the look-ups."""

    def _headline_hits(
        self,
        a_docs: Sequence[DocumentFeatures],
        b_docs: Sequence[DocumentFeatures],
        whole: WholeMatches,
        near: Records,
        candidates: list[HeadlineCandidate] | None = None,
    ) -> list[tuple[SentenceKey, SentenceKey, float]]:
        """(A sentence, B sentence, score) of the headlines of either side
        copied inside a longer sentence of the other (see
        :mod:`partialdup.match.embedded`); ``detect`` passes one list twice
        (a document's headline is not looked for in itself). Empty when the
        rule is off.

        A longer sentence that a whole match or a near miss of whole
        sentences (``whole``, ``near``) pairs with a sentence of the
        headline's document is a copy of that sentence, not of the headline:
        a section's first sentence often repeats its title (如下是文本数据转换工具。
        under 11.1. 文本数据转换工具), and a copy of that sentence is no copy
        of the title. ``candidates``: :meth:`_headline_candidates`, when
        already found.
        """
        if not self.config.headlines:
            return []
        own = a_docs is b_docs
        if candidates is None:
            candidates = self._headline_candidates(a_docs, b_docs)
        wanted = {(other, long) for _, _, other, long in candidates}
        others = _paired_with(whole, near, self.threshold / 2, wanted, own=own)
        confirm = _Confirmation(self.tokenizer.tokenize, (a_docs, b_docs))
        hits: list[tuple[SentenceKey, SentenceKey, float]] = []
        for side, short, other, long in candidates:
            # Paired with another sentence of the headline's document (the
            # near misses hold the pair itself: the headline's features lie in
            # the longer sentence).
            if any(key[0] == short[0] and key != short for key in others.get((other, long), ())):
                continue
            if confirm.embedded(side, short, other, long):
                first, second = (short, long) if side == 0 else (long, short)
                score = self.method.similarity(a_docs[first[0]].bags[first[1]], b_docs[second[0]].bags[second[1]])
                hits.append((first, second, score))
        return sorted(hits)

    def _headline_search(self, docs: Sequence[DocumentFeatures], beside: Beside | None = None) -> Callable[[], list[HeadlineCandidate]] | None:
        """``detect``'s headline candidates (:meth:`_headline_candidates`),
        started (beside the caller, when ``beside`` can); calling the result
        gives them. None when the headline rule is off."""
        if not self.config.headlines:
            return None
        return (beside or inline_beside)(partial(self._headline_candidates, docs, docs), sum(len(doc.bags) for doc in docs))

    def _headline_candidates(
        self, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures], columns: WordColumns | None = None
    ) -> list[HeadlineCandidate]:
        """(side, headline, other side, longer sentence) of the candidates of
        :meth:`_headline_hits`, found on the documents' words alone;
        ``columns``: ``detect``'s documents' words numbered, read where they
        can be instead of the words (the same candidates)."""
        own = a_docs is b_docs
        if own and columns is not None:
            return self._own_headline_candidates(a_docs, columns)
        candidates: list[HeadlineCandidate] = []
        for side in (0, 1) if not own else (0,):
            other = 1 - side if not own else 0
            docs, long_docs = (a_docs, b_docs)[side], (a_docs, b_docs)[other]
            shorts = _title_rows(docs)
            longs = _long_rows(long_docs)
            collection = collection_words(long_docs)
            pairs = candidate_pairs(
                [docs[d].words[s] for d, s in shorts], [long_docs[d].words[s] for d, s in longs],
                short_docs=[d for d, _ in shorts] if own else None, long_docs=[d for d, _ in longs] if own else None,
                counts=collection.long_words if collection else None,
            )
            candidates += [(side, shorts[row], other, longs[long_row]) for row, long_row in pairs]
        return candidates

    def _own_headline_candidates(self, docs: Sequence[DocumentFeatures], columns: WordColumns) -> list[HeadlineCandidate]:
        """:meth:`_headline_candidates` of ``detect`` (one list of documents)
        read from their words numbered (see :func:`~partialdup.match.headline_search.headline_candidate_numbers`)."""
        titles, (search, arguments) = self._headline_work(docs, columns)
        return _headline_of_numbers(titles, columns, search(*arguments))

    def _headline_work(
        self, docs: Sequence[DocumentFeatures], columns: WordColumns
    ) -> tuple[list[SentenceKey], tuple[Callable[..., list[tuple[int, int]]], tuple]]:
        """The titles (:meth:`_title_keys`), chosen here where the texts are,
        and the search of their candidates as a work to run anywhere
        (:func:`~partialdup.match.headline_search.headline_candidate_numbers`
        and its arguments)."""
        titles = self._title_keys(docs, columns)
        # Sent as sentence numbers: the helper reads their words from the columns.
        numbers = np.array([columns.sentence(d, s) for d, s in titles], np.int64)
        return titles, (headline_candidate_numbers, (columns, numbers))

    def _headline_search_apart(
        self, docs: Sequence[DocumentFeatures], columns: WordColumns, apart: Apart
    ) -> Callable[[], list[HeadlineCandidate]]:
        """``detect``'s headline candidates on the words numbered, their
        search sent ``apart`` (:meth:`_headline_work`; the titles chosen
        here); calling the result gives them."""
        titles, work = self._headline_work(docs, columns)
        (found,) = apart([work])
        return partial(_headline_of_numbers_later, titles, columns, found)

    def _title_keys(self, docs: Sequence[DocumentFeatures], columns: WordColumns) -> list[SentenceKey]:
        """:func:`_title_rows` of ``detect``'s documents, their lengths read
        from their words numbered: only the sentences of a title's length are
        looked at."""
        lengths = np.where(columns.known, columns.lengths, -1)
        maybe = np.flatnonzero((lengths >= MIN_TOKENS) & (lengths <= MAX_TOKENS + 3))
        # A sentence whose first word cannot open a section number has no
        # title words (see title_words): its length alone decides, read from
        # the columns (most sentences: no words of theirs read one by one).
        first = columns.columns[columns.starts[maybe]]
        distinct = np.unique(first)
        opening = np.zeros(len(columns.words), bool)
        opening[distinct] = [may_open_number(columns.words[column]) for column in distinct.tolist()]
        opens, short = opening[first].tolist(), (lengths[maybe] <= MAX_TOKENS).tolist()
        keys = columns.keys(maybe)
        lines = _line_shaped_rows(docs, keys, short)
        return [(d, s) for (d, s), open_, line in zip(keys, opens, lines) if (_title_row(docs, d, s) if open_ else line)]


def _pairs_touching(
    whole: WholeMatches,
    near: Records,
    least: float,
    first: set[SentenceKey],
    second: set[SentenceKey],
) -> Iterator[tuple[SentenceKey, SentenceKey]]:
    # The (first, second) sentences of the whole matches and of the near
    # misses of whole sentences (bag-Jaccard `least` or more; not those found
    # by containment only: a sentence sharing a phrase with the longer one),
    # but the near misses whose first sentence is not in `first` nor second in
    # `second` (they pair no sentence wanted: a million on the English bench
    # corpus, passed over on their arrays); the same for the whole matches
    # held as arrays.
    if isinstance(whole, PairRows):
        yield from whole.touching(first, second)
    else:
        yield from ((a, b) for a, b, _, _ in whole)
    if isinstance(near, KeyedMatches):
        yield from ((a, b) for a, b, _ in near.touching(first, second, least))
    else:
        yield from ((a, b) for a, b, score in near if score >= least)


def _paired_with(
    whole: WholeMatches,
    near: Records,
    least: float,
    wanted: set[tuple[int, SentenceKey]],
    *,
    own: bool,
) -> dict[tuple[int, SentenceKey], set[SentenceKey]]:
    # (side, sentence) -> the sentences the pairs of _pairs_touching pair it
    # with, for the wanted sentences (side 0: the first of a pair; 1: the
    # second, or 0 in detect, whose two sides are one list of documents).
    paired: dict[tuple[int, SentenceKey], set[SentenceKey]] = defaultdict(set)
    second_side = 0 if own else 1
    firsts = {key for side, key in wanted if side == 0}
    seconds = {key for side, key in wanted if side == second_side}
    for first, second in _pairs_touching(whole, near, least, firsts, seconds):
        if (0, first) in wanted:
            paired[(0, first)].add(second)
        if (second_side, second) in wanted:
            paired[(second_side, second)].add(first)
    return paired


def _long_rows(docs: Sequence[DocumentFeatures]) -> list[SentenceKey]:
    # (document, sentence) of the sentences long enough to hold a title and
    # more, in order (of the documents whose words are known).
    return [(d, s) for d, s, _ in scanned_sentences(docs, "headlines") if docs[d].tokens[s] > MIN_TOKENS]


def _title_rows(docs: Sequence[DocumentFeatures]) -> list[SentenceKey]:
    # (document, sentence) of the sentences whose title (section number
    # aside) has a headline's length, in order; only those that are lines of
    # their own where the document's text is at hand (a stored reference's
    # text is read for its candidates only, and judged then).
    return [(d, s) for d, s, words in scanned_sentences(docs, "headlines") if _title_row(docs, d, s, words)]


def _title_row(docs: Sequence[DocumentFeatures], d: int, s: int, words: Sequence[str] | None = None) -> bool:
    # Whether sentence s of document d (its words, when at hand) is one of
    # _title_rows'. (A section number is at most three tokens.)
    words = docs[d].words[s] if words is None else words
    if MIN_TOKENS <= len(words) <= MAX_TOKENS + 3 and MIN_TOKENS <= len(words) - title_words(words) <= MAX_TOKENS:
        return _line_shaped_row(docs, d, s)
    return False


def _line_shaped_row(docs: Sequence[DocumentFeatures], d: int, s: int) -> bool:
    # The rest of _title_row: the sentence is a whole line (when its text is known).
    text = _known_text(docs[d])
    return text is None or line_shaped(text, docs[d].sentences[s])


def _known_text(doc: DocumentFeatures) -> str | None:
    # A document's text when it is at hand (a stored reference's is read for
    # its candidates only, and judged then).
    return doc.text if isinstance(doc, DocumentFeatures) else None


def _line_shaped_rows(docs: Sequence[DocumentFeatures], keys: Sequence[SentenceKey], wanted: Sequence[bool]) -> list[bool]:
    # _line_shaped_row of each key (in document order) that is wanted, else
    # False: each document's text and offsets read once, no sentence made
    # (the Chinese bench corpus's 86,000 candidate titles: 0.17-0.24 s of
    # the calling process, before the headline search is sent apart).
    shaped: list[bool] = []
    for d, rows in groupby(zip(keys, wanted), lambda row: row[0][0]):
        text = _known_text(docs[d])
        if text is None:
            shaped.extend(want for _, want in rows)
            continue
        shaped += line_shaped_rows(text, *sentence_offsets(docs[d].sentences), ((s, want) for (_, s), want in rows))
    return shaped


def _headline_of_numbers(
    titles: Sequence[SentenceKey], columns: WordColumns, found: Sequence[tuple[int, int]]
) -> list[HeadlineCandidate]:
    # headline_candidate_numbers' (title row, long sentence number) as
    # _headline_candidates gives them.
    longs = columns.keys(np.array([number for _, number in found], np.int64))
    return [(0, titles[row], 0, long) for (row, _), long in zip(found, longs)]


def _headline_of_numbers_later(
    titles: Sequence[SentenceKey], columns: WordColumns, found: Callable[[], Sequence[tuple[int, int]]]
) -> list[HeadlineCandidate]:
    # The same, once the search's result has come.
    return _headline_of_numbers(titles, columns, found())


class _Confirmation:
    """Confirms headline candidates on their tokens (see
    :func:`partialdup.match.embedded.embedded_span`), each sentence tokenized
    and each headline judged once."""

    def __init__(self, tokenize: Tokenize, sides: tuple[Sequence[DocumentFeatures], ...]) -> None:
        self._tokenize = tokenize
        self._sides = sides
        self._tokens: dict[tuple[int, SentenceKey], list[Token]] = {}
        self._headline: dict[tuple[int, SentenceKey], bool] = {}

    def tokens(self, side: int, key: SentenceKey) -> list[Token]:
        """The tokens of a sentence, with offsets into its document."""
        if (side, key) not in self._tokens:
            doc = self._sides[side][key[0]]
            sentence = doc.sentences[key[1]]
            assert doc.text is not None
            self._tokens[(side, key)] = self._tokenize(doc.text, sentence.start, sentence.end)
        return self._tokens[(side, key)]

    def headline(self, side: int, key: SentenceKey) -> bool:
        """Whether a sentence is a headline (False when its text is not known)."""
        if (side, key) not in self._headline:
            doc = self._sides[side][key[0]]
            sentence = doc.sentences[key[1]]
            text = doc.text
            self._headline[(side, key)] = (
                text is not None and line_shaped(text, sentence) and is_headline(text, sentence, self.tokens(side, key))
            )
        return self._headline[(side, key)]

    def embedded(self, side: int, short: SentenceKey, other: int, long: SentenceKey) -> bool:
        """Whether sentence ``short`` of side ``side`` is a headline copied
        inside ``long`` of side ``other`` (False when a text is not known)."""
        if not self.headline(side, short):
            return False
        doc, long_doc = self._sides[side][short[0]], self._sides[other][long[0]]
        if doc.text is None or long_doc.text is None:
            return False
        if line_shaped(long_doc.text, long_doc.sentences[long[1]]):
            return False  # no running text (embedded_span says so too, after tokenizing)
        short_tokens, long_tokens = self.tokens(side, short), self.tokens(other, long)
        found = embedded_span(doc.text, doc.sentences[short[1]], short_tokens, long_doc.text, long_doc.sentences[long[1]], long_tokens)
        return found is not None
