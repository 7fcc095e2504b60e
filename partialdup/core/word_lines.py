"""A document's words, sentence by sentence, held as numbers.

``detect`` holds every sentence's words from the features to the end of the
run, for the word checks of edited copies, the headline candidates and the
spans' word ratios. As a tuple of strings a sentence, that is a tuple
(56 bytes and 8 a word) for every sentence of the run: 19 MB of the
calling process on the Chinese bench corpus's 160,000 sentences, held
through every one of its memory peaks. :class:`WordLines` holds 4 bytes a
word, numbers into a list of words shared by the documents of a piece of
the run (in ``detect``, once the run's words are numbered, into the run's
list: :meth:`WordLines.read_from`), and makes a sentence's tuple when it is
read: the calling process reads about 133,000 sentences' words there (the
edited copies' checks, the headlines), and its CPU was no higher in runs
measured (docs/benchmark.md, session 44). The list is held as one string
(:mod:`partialdup.core.packed_words`, session 64).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import eq
from typing import Any, Iterable, Iterator, overload

import numpy as np

from partialdup.core.arrays import offsets_array
from partialdup.core.packed_words import PackedWords

__all__ = ["WordLines", "word_counts"]


class WordLines(Sequence[tuple[str, ...]]):
    """Each sentence's words, as numbers into ``words``; a sequence of
    tuples of strings (sentence ``i``'s made when it is read), equal to the
    tuple of the same tuples.

    Args:
        words: The words the numbers name (shared, not copied): a
            :class:`~partialdup.core.packed_words.PackedWords` as a run
            holds them, whose words read are kept made.
        numbers: Every sentence's words, sentence after sentence, from
            ``start`` on, as positions in ``words`` (int32; the array is
            kept, not copied: a piece's or a run's, shared by its documents).
        counts: Words of each sentence.
        start: Where the first sentence's words start in ``numbers``.
    """

    __slots__ = ("_words", "_numbers", "_ends")

    def __init__(self, words: Sequence[str], numbers: np.ndarray, counts: Sequence[int], start: int = 0) -> None:
        # Where each sentence's words end in the numbers (after where the
        # first starts), read as Python ints (not numpy's scalars), 4 bytes
        # each where they fit (a list would hold an int object of 28 more);
        # the numbers' own array held, not a view of a document's (an array
        # object each, 1 MB on the Chinese bench corpus's 9,161 documents).
        self._ends = offsets_array([start, *(np.cumsum(np.asarray(counts, np.int64)) + start).tolist()])
        if not 0 <= start <= self._ends[-1] <= len(numbers):
            raise ValueError(f"{len(numbers)} words but the sentences count {self.total()} from {start}")
        self._words, self._numbers = words, numbers

    def __len__(self) -> int:
        return len(self._ends) - 1

    @overload
    def __getitem__(self, index: int) -> tuple[str, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[str, ...], ...]: ...

    def __getitem__(self, index: int | slice) -> tuple[str, ...] | tuple[tuple[str, ...], ...]:
        if isinstance(index, slice):
            return tuple(map(self.__getitem__, range(len(self))[index]))
        position = range(len(self._ends) - 1)[index]  # negative indexes and IndexError as a tuple's
        numbers = self._numbers[self._ends[position] : self._ends[position + 1]].tolist()
        words = self._words
        if type(words) is PackedWords:
            return words.words_at(numbers)
        return tuple(map(words.__getitem__, numbers))

    def read_from(self, words: Sequence[str], numbers: np.ndarray, start: int) -> None:
        """Read the same words from now on as ``numbers`` into ``words``,
        from ``start`` on (the run's words numbered once,
        :meth:`~partialdup.index.word_columns.WordColumns.hold_words`): the
        piece's words and numbers held before can go."""
        total = self.total()
        if not 0 <= start <= start + total <= len(numbers):
            raise ValueError(f"{len(numbers)} words do not hold sentences of {total} from {start}")
        shift = start - self._ends[0]
        self._ends = offsets_array([end + shift for end in self._ends])
        self._words, self._numbers = words, numbers

    def total(self) -> int:
        """Words of all the sentences."""
        return self._ends[-1] - self._ends[0]

    def lengths(self) -> list[int]:
        """Words of each sentence, no tuple made."""
        ends = self._ends
        return [high - low for low, high in zip(ends, ends[1:])]

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        return map(self.__getitem__, range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(map(eq, self, other))

    def __hash__(self) -> int:
        return hash(tuple(self))  # as the tuple of the same tuples, which it equals

    def __repr__(self) -> str:
        return f"WordLines({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return tuple, (tuple(self),)  # sent as the tuples: the numbers name a piece's words


def word_counts(lines: Sequence[Sequence[str]]) -> Iterable[int]:
    """Words of each sentence of ``lines`` (a sequence of each sentence's
    words): held as numbers, no sentence's tuple is made."""
    return lines.lengths() if isinstance(lines, WordLines) else map(len, lines)
