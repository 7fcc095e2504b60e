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
sentence's words become one string, a character per distinct word of the
chunk: rapidfuzz's ratio of two such strings is the word ratio (each token
is one symbol either way, equal when the words are equal). The lengths and
the numbers are read from arrays; the few pairs whose sentences both hold
numbers compare them as the reference does.
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

#: Symbols a chunk's words can take: the code points, less the surrogates
#: (which a string cannot hold alone).
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
    accepted, tentative = [np.empty(0, np.int64)], [np.empty(0, bool)]
    for low in range(0, len(first), RECORDS_AT_ONCE):
        rows, alone = _chunk_verdicts(check, words, first[low : low + RECORDS_AT_ONCE], second[low : low + RECORDS_AT_ONCE])
        accepted.append(rows + low)
        tentative.append(~alone)
    return EditedVerdicts(np.concatenate(accepted), np.concatenate(tentative))


def _chunk_verdicts(check: EditedCheck, words: WordColumns, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # (rows accepted, whether each stands alone) of one chunk of records.
    distinct, where = np.unique(np.concatenate([first, second]), return_inverse=True)
    a, b = where[: len(first)], where[len(first) :]
    lengths, columns = words.rows_columns(distinct)
    # The chunk's words, numbered from 0 (a symbol each).
    chunk_words, symbols = np.unique(columns, return_inverse=True)
    texts = _symbol_texts(lengths, symbols)
    ratios = np.fromiter(map(fuzz.ratio, map(texts.__getitem__, a.tolist()), map(texts.__getitem__, b.tolist())),
                         np.float64, len(a))
    shorter = np.minimum(lengths[a], lengths[b])
    ratios[shorter == 0] = 0.0  # word_ratio: no words on a side, no agreement
    known = words.known[distinct]
    keep = known[a] & known[b] & (ratios >= check.neighbour_ratio)
    _keep_agreeing_numbers(keep, a, b, lengths, symbols, [words.words[c] for c in chunk_words.tolist()])
    rows = np.flatnonzero(keep)
    return rows, check.alone_at_many(ratios[rows], shorter[rows])


def _symbol_texts(lengths: np.ndarray, numbers: np.ndarray) -> list[str] | list[tuple[int, ...]]:
    """Each sentence's words (``lengths`` of ``numbers``, laid end to end,
    the words numbered from 0) as a string of a character per word number;
    as a tuple of the numbers when there are more than characters
    (rapidfuzz compares tuples element by element: the same ratio, slower)."""
    ends = np.cumsum(lengths).tolist()
    starts = [0, *ends[:-1]]
    if len(numbers) and int(numbers.max()) >= _SYMBOLS:
        listed = numbers.tolist()
        return [tuple(listed[start:end]) for start, end in zip(starts, ends)]
    symbols = numbers.astype(np.uint32)
    symbols[symbols >= _SURROGATES.start] += len(_SURROGATES)
    joined = symbols.astype("<u4").tobytes().decode("utf-32-le")
    return [joined[start:end] for start, end in zip(starts, ends)]


def _keep_agreeing_numbers(
    keep: np.ndarray, a: np.ndarray, b: np.ndarray, lengths: np.ndarray, symbols: np.ndarray, vocabulary: list[str]
) -> None:
    """Unkeep (in place) the kept records whose sentences' numbers disagree
    (:func:`~partialdup.match.edited.numbers_agree_of`); only records whose
    two sentences both hold a number are asked (a sentence without numbers
    agrees with any). The sentences' words: ``lengths`` of ``symbols``,
    laid end to end, each the number of its word in ``vocabulary``."""
    is_number = np.fromiter(map(is_number_word, vocabulary), bool, len(vocabulary))
    numbered = is_number[symbols]
    sentence = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    holds = np.bincount(sentence[numbered], minlength=len(lengths)) > 0
    asked = np.flatnonzero(keep & holds[a] & holds[b])
    if not len(asked):
        return
    starts = np.cumsum(lengths) - lengths
    numbers: dict[int, tuple[str, ...]] = {}

    def numbers_of(s: int) -> tuple[str, ...]:
        if s not in numbers:
            held = symbols[starts[s] : starts[s] + lengths[s]][numbered[starts[s] : starts[s] + lengths[s]]]
            numbers[s] = tuple(sorted(vocabulary[c] for c in held.tolist()))
        return numbers[s]

    for row, first, second in zip(asked.tolist(), a[asked].tolist(), b[asked].tolist()):
        if not numbers_agree_of(numbers_of(first), numbers_of(second)):
            keep[row] = False
