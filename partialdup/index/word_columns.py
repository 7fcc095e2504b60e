"""Every sentence's words as numbers: a run's words in a few arrays.

Three steps read the words of every sentence of a ``detect`` run: the word
sets of edited copies (:class:`~partialdup.index.words.WordSets`), the word
filters of the loose candidates
(:class:`~partialdup.match.word_filter.WordFilters`) and the headline
candidates' search (:mod:`partialdup.match.headline_search`). Read as
tuples of strings, each walks millions of Python objects; and a process
forked from the calling one that reads an object writes its reference
count, and so copies the memory page it lies on.

:class:`WordColumns` numbers the words once, in the calling process:
afterwards the steps read arrays, which can be sent to a helper process
(:class:`~partialdup.pipeline.shared_work.HelperProcess`). Words are
numbered in order of first occurrence (the searches' results do not depend
on the numbering: :class:`~partialdup.index.words.WordSets` breaks ties by
the words themselves, and a filter's bit comes from the word's hash).
:meth:`WordColumns.words_of` gives a sentence's words back, the plain
reference the tests compare with.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import chain, compress
from typing import Iterable, Sequence

import numpy as np

from partialdup.core.arrays import ranges, sorted_isin, sorted_unique, weighted_slices
from partialdup.core.packed_words import PackedWords
from partialdup.core.shared_arrays import shared_arrays
from partialdup.core.types import DocumentFeatures
from partialdup.core.word_lines import WordLines, word_counts
from partialdup.index.inverted import SentenceKeys
from partialdup.index.words import WordNumbering, word_numbers

__all__ = ["NumberedWords", "PieceWords", "WordColumns", "aligned_words"]


@dataclass(frozen=True)
class WordColumns:
    """The words of every sentence of a list of documents, numbered.

    Sentence numbers run over the documents in order: sentence ``s`` of
    document ``d`` is number ``doc_starts[d] + s``.

    Attributes:
        words: Each column's word (column = position), in order of first
            occurrence, held as one string (sent so to the helpers that
            search the columns: :mod:`partialdup.core.packed_words`).
        doc_starts: Number of each document's first sentence, and the
            sentences in all last (int64, one more than the documents).
        known: Whether each sentence's words are known (its document came
            with them).
        tokens: Tokens of each sentence (int64; its document's ``tokens``).
        lengths: Words of each sentence (int64; 0 for a document whose words
            are not known).
        starts: Where each sentence's words begin in ``columns`` (int64).
        columns: Every sentence's words, in order, as columns (int32).
    """

    words: PackedWords
    doc_starts: np.ndarray
    known: np.ndarray
    tokens: np.ndarray
    lengths: np.ndarray
    starts: np.ndarray
    columns: np.ndarray

    @classmethod
    def of(cls, docs: Sequence[DocumentFeatures], pieces: Sequence[PieceWords] | None = None) -> WordColumns:
        """The words of ``docs`` (each document's ``words``; a document without
        them counts its sentences with no words). ``pieces``: the words of
        ``docs`` already numbered piece by piece, the pieces covering the
        documents in order (:class:`PieceWords`): only their distinct words
        are numbered here, not every word. The arrays are read-only, and lie
        in one memory file where one can be made
        (:func:`~partialdup.core.shared_arrays.shared_arrays`)."""
        counts = np.fromiter((len(doc.sentences) for doc in docs), np.int64, len(docs))
        doc_starts = np.zeros(len(docs) + 1, np.int64)
        np.cumsum(counts, out=doc_starts[1:])
        tokens = np.fromiter(chain.from_iterable(doc.tokens for doc in docs), np.int64, int(doc_starts[-1]))
        sentences = [aligned_words(doc) for doc in docs]
        known = np.repeat(np.fromiter((len(doc.words) == len(doc.sentences) for doc in docs), bool, len(docs)), counts)
        numbered = WordNumbering()
        if pieces is None:
            lengths, columns = word_numbers(list(chain.from_iterable(sentences)), numbered)
        else:
            lengths = np.fromiter(chain.from_iterable(map(word_counts, sentences)), np.int64, int(doc_starts[-1]))
            columns = _renumbered(pieces, numbered)
            if len(columns) != int(lengths.sum()):
                raise ValueError("the pieces' words are not those of the documents")
        starts = np.zeros(len(lengths), np.int64)
        if len(lengths):
            np.cumsum(lengths[:-1], out=starts[1:])
        # In a memory file: the helpers that search them map it, and hold no
        # copy of their own (core/shared_arrays.py).
        return cls(PackedWords.of(numbered), *shared_arrays([doc_starts, known, tokens, lengths, starts, columns]))

    def hold_words(self, docs: Sequence[DocumentFeatures]) -> None:
        """Each of ``docs``' words held as numbers
        (:class:`~partialdup.core.word_lines.WordLines`) read from these
        columns from now on, ``docs`` being the documents numbered here:
        their pieces' words and numbers (:class:`PieceWords`) go, a copy of
        every word of the run (6 MB of numbers and 3-5 MB of packed words on the
        Chinese bench corpus)."""
        if len(docs) + 1 != len(self.doc_starts):
            raise ValueError(f"{len(docs)} documents for columns of {len(self.doc_starts) - 1}")
        firsts = self.doc_starts[:-1].tolist()
        for doc, first in zip(docs, firsts):
            words = doc.words
            if isinstance(words, WordLines) and len(words):
                words.read_from(self.words, self.columns, int(self.starts[first]))

    def columns_of(self, words: Iterable[str]) -> dict[str, int]:
        """The column of each of ``words`` that has one: the run's words
        read once, no dict made of all of them (a few hundred thousand: the
        headline search asks for its titles' words only)."""
        wanted = frozenset(words)
        held = compress(range(len(self.words)), map(wanted.__contains__, self.words))
        return {self.words[column]: column for column in held}

    def sentence(self, doc: int, sentence: int) -> int:
        """The number of sentence ``sentence`` of document ``doc``."""
        return int(self.doc_starts[doc]) + sentence

    def documents(self, numbers: np.ndarray) -> np.ndarray:
        """The document of each sentence number of ``numbers`` (int64)."""
        return np.searchsorted(self.doc_starts, numbers, side="right") - 1

    def sentence_keys(self) -> SentenceKeys:
        """(document, sentence) of every sentence number, in order, held as
        arrays (:class:`~partialdup.index.inverted.SentenceKeys`)."""
        counts = np.diff(self.doc_starts)
        documents = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
        return SentenceKeys(documents, np.arange(int(self.doc_starts[-1]), dtype=np.int64) - self.doc_starts[documents])

    def keys(self, numbers: np.ndarray) -> list[tuple[int, int]]:
        """(document, sentence) of each sentence number of ``numbers``."""
        documents = self.documents(numbers)
        return list(zip(documents.tolist(), (numbers - self.doc_starts[documents]).tolist()))

    def column_counts(self, numbers: np.ndarray) -> np.ndarray:
        """How many times the sentences ``numbers`` (ascending) hold each
        column, one count per word, read a stretch of rows at a time (as
        :meth:`holding_pairs` reads them)."""
        counts = np.zeros(len(self.words), np.int64)
        for low, high in weighted_slices(self.lengths[numbers], _WORDS_AT_ONCE):
            counts += np.bincount(self.rows_columns(numbers[low:high])[1], minlength=len(self.words))
        return counts

    def holding_pairs(self, numbers: np.ndarray, pairs: Iterable[tuple[str, str]]) -> np.ndarray:
        """The positions in ``numbers`` (sentence numbers) of the sentences
        holding both words of one of ``pairs`` (a word paired with itself:
        holding it), in order, on arrays: each place of a pair's first word
        asks whether its sentence holds one of that word's second words.

        The pairs' first words are the rare ones (the titles' rarest key
        words), so the questions are few: on the Chinese bench corpus 150,000
        places of a first word ask 10,251 pairs' seconds. Meeting each first
        word with every word of its sentence made 1.7 million meetings there
        and 162 MB of arrays at once (traced), the peak of the process that
        runs the headline search.
        """
        pairs = list(pairs)
        column_of, width = self.columns_of(chain.from_iterable(pairs)), max(len(self.words), 1)
        wanted = [column_of[a] * width + column_of[b] for a, b in pairs if a in column_of and b in column_of]
        codes = sorted_unique(np.array(wanted, np.int64))  # by first word, then second
        pair_firsts, pair_seconds = np.divmod(codes, width)
        # A stretch of rows at a time, each stretch's words read on their
        # own: every row's words at once (and their first words' places)
        # were a third of the work's peak in the helper that runs the
        # headline search (6 MB of the English bench corpus's 8x, memray).
        # Only a row holding a first word can hold a pair: the second words
        # are looked for in those rows alone (a second word may be common:
        # its places in every row were 4 to 5 MB of the headline search's
        # peak on the bench corpora, traced), in the stretch's rows (their
        # places in every asking row at once were the search's peak: 1.5
        # million on the English bench corpus, 12 MB of int64 and as much
        # again for their rows, memray). Each place of a first word then
        # asks for each of its pairs' second words, a slice of the places at
        # a time (the questions are several times the places).
        found = []
        for low, high in weighted_slices(self.lengths[numbers], _WORDS_AT_ONCE):
            lengths, columns = self.rows_columns(numbers[low:high])
            ends = np.cumsum(lengths)
            rows, cols = _marked(ends, columns, pair_firsts, width)
            if not len(rows):
                continue
            held = _held_seconds(ends, columns, 0, high - low, rows, pair_seconds, width)
            del lengths, columns, ends
            found += [
                _holding_rows(rows[part], cols[part], pair_firsts, pair_seconds, held, width) + low
                for part in (slice(at, at + _PLACES_AT_ONCE) for at in range(0, len(rows), _PLACES_AT_ONCE))
            ]
        return sorted_unique(np.concatenate([np.empty(0, np.int64), *found]))

    def words_of(self, number: int) -> tuple[str, ...]:
        """The words of sentence ``number`` (the plain reference)."""
        start = int(self.starts[number])
        return self.words.words_at(self.columns[start : start + int(self.lengths[number])].tolist())

    @cached_property
    def _laid_in_order(self) -> bool:
        # Whether each sentence's words follow the previous sentence's in
        # the columns, with nothing else between (of() lays them so).
        if len(self.columns) != int(self.lengths.sum()):
            return False
        return len(self.starts) == 0 or (int(self.starts[0]) == 0 and np.array_equal(self.starts[1:], np.cumsum(self.lengths[:-1])))

    def rows_columns(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The word counts of sentences ``rows`` and their words' columns, in
        order, as :func:`~partialdup.index.words.WordSets` numbers them."""
        lengths = self.lengths[rows]
        if self._laid_in_order and (len(rows) < 2 or bool((rows[1:] > rows[:-1]).all())):
            # Rows ascending, each once, of columns laid out sentence after
            # sentence (as of() lays them): their words are those a mask
            # keeps, with no array of each word's place (int64, and as much
            # again to make it: the largest arrays of the word-set and
            # headline searches; for 3 million words, 50 MB at the peak
            # against 16 MB, traced).
            # The mask spans the rows' own stretch of sentences only (a
            # stretch of rows asked at a time reads that stretch's words).
            if not len(rows):
                return lengths, self.columns[:0]
            first, last = int(rows[0]), int(rows[-1]) + 1
            chosen = np.zeros(last - first, bool)
            chosen[rows - first] = True
            start, spanned = int(self.starts[first]), self.lengths[first:last]
            return lengths, self.columns[start : start + int(spanned.sum())][np.repeat(chosen, spanned)]
        # Each chosen word's place in the columns: its place among the chosen
        # words, moved by its sentence's start less where the sentence's
        # words begin among them (made in place).
        at = np.arange(int(lengths.sum()), dtype=np.int64)
        at += np.repeat(self.starts[rows] - (np.cumsum(lengths) - lengths), lengths)
        return lengths, self.columns[at]


@dataclass(frozen=True)
class PieceWords:
    """The words of a piece of a run's documents numbered on their own:
    made where the piece's features are (a worker process), so that the
    calling process numbers each piece's distinct words only, not every
    word (:meth:`WordColumns.of`).

    Attributes:
        words: Each of the piece's columns' word, in order of first
            occurrence, as one string (sent so, and held so by the
            piece's documents' :class:`~partialdup.core.word_lines.WordLines`).
        columns: Every word of every sentence of the piece, in order, as
            the piece's column numbers (int32).
    """

    words: PackedWords
    columns: np.ndarray

    @classmethod
    def of(cls, docs: Sequence[DocumentFeatures]) -> PieceWords:
        """The words of ``docs``, numbered as :meth:`WordColumns.of` numbers them."""
        numbered = WordNumbering()
        _, columns = word_numbers(list(chain.from_iterable(aligned_words(doc) for doc in docs)), numbered)
        return cls(PackedWords.of(numbered), columns)


def _renumbered(pieces: Sequence[PieceWords], numbered: WordNumbering) -> np.ndarray:
    # The pieces' columns numbered on into `numbered`: each piece's words in
    # its order of first occurrence, pieces in order, are the words of all in
    # their order of first occurrence, so the numbers are those of one pass.
    parts = [np.fromiter(map(numbered.__getitem__, piece.words), np.int32, len(piece.words))[piece.columns] for piece in pieces]
    return np.concatenate(parts) if parts else np.empty(0, np.int32)


def aligned_words(doc: DocumentFeatures) -> Sequence[Sequence[str]]:
    """A document's words per sentence as its words are numbered (here and
    in :class:`PieceWords`): none for each sentence when they are not known."""
    if len(doc.words) == len(doc.sentences):
        return doc.words
    return [()] * len(doc.sentences)


class NumberedWords(Sequence[tuple[str, ...]]):
    """The words of some sentences of a :class:`WordColumns`, by sentence
    number, each tuple made when asked for.

    Args:
        columns: The run's words numbered.
        numbers: The sentences, in order (row ``i`` is sentence ``numbers[i]``).
    """

    def __init__(self, columns: WordColumns, numbers: np.ndarray) -> None:
        self._columns, self._numbers = columns, numbers

    def __len__(self) -> int:
        return len(self._numbers)

    def __getitem__(self, row: int) -> tuple[str, ...]:  # type: ignore[override]
        return self._columns.words_of(int(self._numbers[row]))


#: Places of first words whose questions are asked at once (:meth:`WordColumns.holding_pairs`).
_PLACES_AT_ONCE = 1 << 15


#: Words of the rows whose second words' places are held at once (:meth:`WordColumns.holding_pairs`).
#: 2**18 made its arrays the headline search's peak once its titles were held
#: small (17 MB on either bench corpus, traced, against 12-13 MB at 2**16).
_WORDS_AT_ONCE = 1 << 16


def _held_seconds(
    ends: np.ndarray, columns: np.ndarray, low: int, high: int, asking: np.ndarray, seconds: np.ndarray, width: int,
) -> np.ndarray:
    """Row x ``width`` + column of each place of a word of ``seconds`` in the
    rows ``asking`` (sorted, each in ``low``..``high`` - 1), sorted."""
    start = int(ends[low - 1]) if low else 0
    stretch_ends = ends[low:high] - start
    chosen = np.zeros(high - low, bool)
    chosen[asking - low] = True
    within = np.repeat(chosen, np.diff(stretch_ends, prepend=0))
    rows, cols = _marked(stretch_ends, columns[start : int(ends[high - 1])], seconds, width, within)
    del within
    rows += low
    rows *= width
    rows += cols
    rows.sort()
    return rows


def _holding_rows(
    rows: np.ndarray, columns: np.ndarray, pair_firsts: np.ndarray, pair_seconds: np.ndarray, held: np.ndarray, width: int,
) -> np.ndarray:
    """The rows of the places (``rows``, ``columns``) of first words whose
    row holds one of the word's pairs' second words (``held``: row x
    ``width`` + column of every second word's place, sorted), with repeats."""
    low = np.searchsorted(pair_firsts, columns, side="left")
    asked, offset = ranges(np.searchsorted(pair_firsts, columns, side="right") - low)
    asking = rows[asked]
    found = sorted_isin(asking * width + pair_seconds[low[asked] + offset], held, among_sorted=True)
    return asking[found]  # type: ignore[no-any-return]


def _marked(
    ends: np.ndarray, columns: np.ndarray, chosen: np.ndarray, width: int, within: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns (int64) of the words of ``columns`` whose column
    is one of ``chosen`` (among the words ``within`` marks, when given);
    row ``i``'s words end at ``ends[i]``."""
    marked = np.zeros(width, bool)
    marked[chosen] = True
    found = marked[columns]
    if within is not None:
        found &= within
    where = np.flatnonzero(found)
    return np.searchsorted(ends, where, side="right"), columns[where].astype(np.int64)
