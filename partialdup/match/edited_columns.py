"""Edited copies judged many at a time, on the run's words numbered.

``detect``'s loose candidates (pairs sharing a feature below τ, pairs whose
word sets agree) are judged on their words: a word ratio, the numbers, and
whether a pair stands alone (:meth:`~partialdup.pipeline.edits.EditedStage._edited_copies`,
the plain reference, one record at a time). Read record by record as tuples
of strings, that was most of what the calling process did between the near
misses and the pair tails: 0.22-0.27 s for 29,717 records on the Chinese
bench corpus, while the other core waited.

Here the records come as sentence numbers of a
:class:`~partialdup.index.word_columns.WordColumns`, a chunk at a time. Each
sentence's words become one string, a character per word (its number in the
run): rapidfuzz's ratio of two such strings is the word ratio (each token is
one symbol either way, equal when the words are equal). The lengths and the
numbers are read from arrays; the pairs whose sentences hold different
numbers compare them as the reference does, once per two sets of numbers.
The tests hold the two to the same verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz

from partialdup.index.word_columns import WordColumns
from partialdup.match.edited import EditedCheck, is_number_word, numbers_agree_of

__all__ = ["EditedVerdicts", "edited_verdicts"]

#: Records judged at once: bounds the strings made for their sentences
#: (a sentence met in two chunks is made twice).
RECORDS_AT_ONCE = 1 << 16

#: Words a run's sentences can be strings of: the code points, less the
#: surrogates (which a string cannot hold alone). A run of more words is
#: judged on tuples.
_SURROGATES = range(0xD800, 0xE000)
_SYMBOLS = 0x110000 - len(_SURROGATES)


@dataclass(frozen=True)
class EditedVerdicts:
    """The edited copies among a list of records.

    Attributes:
        accepted: The positions of the records whose words make an edited
            copy, ascending (int64).
        tentative: Whether each accepted record is tentative: its words
            agree too little for a copy on its own (bool, as ``accepted``).
    """

    accepted: np.ndarray
    tentative: np.ndarray


def edited_verdicts(check: EditedCheck, words: WordColumns, first: np.ndarray, second: np.ndarray) -> EditedVerdicts:
    """The verdicts of ``check`` on records given as the sentence numbers
    (in ``words``) of their first and second sentences: what the plain
    reference accepts, in order, and which are tentative. A record whose
    sentences' words are not known is not a copy (the reference passes it
    over)."""
    # Which words are numbers, told once (the run's distinct words: 45,634 on the English bench corpus).
    is_number = np.fromiter(map(is_number_word, words.words), bool, len(words.words))
    accepted, tentative = [np.empty(0, np.int64)], [np.empty(0, bool)]
    for low in range(0, len(first), RECORDS_AT_ONCE):
        rows, alone = _chunk_verdicts(check, words, is_number, first[low : low + RECORDS_AT_ONCE], second[low : low + RECORDS_AT_ONCE])
        accepted.append(rows + low)
        tentative.append(~alone)
    return EditedVerdicts(np.concatenate(accepted), np.concatenate(tentative))


def _chunk_verdicts(
    check: EditedCheck, words: WordColumns, is_number: np.ndarray, first: np.ndarray, second: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    # (rows accepted, whether each stands alone) of one chunk of records.
    distinct, where = np.unique(np.concatenate([first, second]), return_inverse=True)
    a, b = where[: len(first)], where[len(first) :]
    lengths, columns = words.rows_columns(distinct)
    texts = _symbol_texts(lengths, columns, len(words.words))
    ratios = np.fromiter(map(fuzz.ratio, map(texts.__getitem__, a.tolist()), map(texts.__getitem__, b.tolist())),
                         np.float64, len(a))
    shorter = np.minimum(lengths[a], lengths[b])
    ratios[shorter == 0] = 0.0  # word_ratio: no words on a side, no agreement
    known = words.known[distinct]
    keep = known[a] & known[b] & (ratios >= check.neighbour_ratio)
    _keep_agreeing_numbers(keep, a, b, lengths, columns, is_number)
    rows = np.flatnonzero(keep)
    return rows, check.alone_at_many(ratios[rows], shorter[rows])


def _symbol_texts(lengths: np.ndarray, columns: np.ndarray, count: int) -> list[str] | list[tuple[int, ...]]:
    """Each sentence's words (``lengths`` of ``columns``, laid end to end,
    the words numbered below ``count``) as a string of a character per word
    number; as a tuple of the numbers when there are more of them than
    characters (rapidfuzz compares tuples element by element: the same
    ratio, slower)."""
    ends = np.cumsum(lengths).tolist()
    starts = [0, *ends[:-1]]
    if count > _SYMBOLS:
        listed = columns.tolist()
        return [tuple(listed[start:end]) for start, end in zip(starts, ends)]
    symbols = columns.astype(np.uint32)
    symbols[symbols >= _SURROGATES.start] += len(_SURROGATES)
    joined = symbols.astype("<u4").tobytes().decode("utf-32-le")
    return [joined[start:end] for start, end in zip(starts, ends)]


def _keep_agreeing_numbers(
    keep: np.ndarray, a: np.ndarray, b: np.ndarray, lengths: np.ndarray, columns: np.ndarray, is_number: np.ndarray
) -> None:
    """Unkeep (in place) the kept records whose sentences' numbers disagree
    (:func:`~partialdup.match.edited.numbers_agree_of`). The sentences'
    words: ``lengths`` of ``columns``, laid end to end (each word's
    number); ``is_number``: whether each word is a number.

    Each sentence's numbers are a multiset, compared as the sorted tuple of
    their words' numbers: the same multisets agree, as do two
    records where a side holds none; two different ones of as many numbers
    disagree; the rest are compared once per two multisets (on the English bench
    corpus 152,367 of the 217,875 records judged hold numbers on both
    sides, naming few multisets)."""
    numbered = is_number[columns]
    sentence = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)[numbered]
    held = columns[numbered].astype(np.int64)
    order = np.lexsort((held, sentence))  # by sentence, then word number
    sentence, held = sentence[order], held[order]
    holding, starts, counts = np.unique(sentence, return_index=True, return_counts=True)
    multisets: dict[tuple[int, ...], int] = {}  # each distinct multiset's number
    number_set = np.full(len(lengths), -1, np.int64)  # -1: no numbers
    listed = held.tolist()
    number_set[holding] = [multisets.setdefault(tuple(listed[low : low + count]), len(multisets))
                           for low, count in zip(starts.tolist(), counts.tolist())]
    sizes = np.zeros(len(lengths), np.int64)
    sizes[holding] = counts
    first, second = number_set[a], number_set[b]
    asked = keep & (first >= 0) & (second >= 0) & (first != second)
    keep[asked & (sizes[a] == sizes[b])] = False  # as many numbers, not the same: neither lies in the other
    asked &= sizes[a] != sizes[b]
    numbered_sets = list(multisets)  # (a dict keeps its keys in the order numbered)
    verdicts: dict[tuple[int, int], bool] = {}
    for row, x, y in zip(np.flatnonzero(asked).tolist(), first[asked].tolist(), second[asked].tolist()):
        if (x, y) not in verdicts:
            verdicts[(x, y)] = numbers_agree_of(numbered_sets[x], numbered_sets[y])
        keep[row] = verdicts[(x, y)]
