"""A search's accepted sentence pairs, kept as arrays, read as records.

The look-ups hand the tail the near misses and the loose candidates of
edited copies as (first sentence, second sentence, score) records. On the
bench corpora they are a million and more: as Python tuples (a tuple, a
float and a list slot each, about 100 bytes) they were the largest part of a
run's peak memory after the features. :class:`KeyedMatches` keeps the three
columns as NumPy arrays (24 bytes a pair) and the sentences' keys once, and
makes the records only while they are read, in the same order, as often as
they are read.
"""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np

from partialdup.match.pairs import SentenceKey

__all__ = ["KeyedMatches"]

#: Records made at once while reading (bounds the memory of one chunk).
_CHUNK = 1 << 16

#: A record: (first sentence, second sentence, score).
Record = tuple[SentenceKey, SentenceKey, float]


class KeyedMatches:
    """(first sentence, second sentence, score) records held as arrays.

    Args:
        first: Position of each record's first sentence in ``first_keys``.
        second: Position of each record's second sentence in ``second_keys``.
        score: Each record's score.
        first_keys: The sentence at each position of ``first``.
        second_keys: The sentence at each position of ``second`` (None:
            ``first_keys``, as when an index is searched against itself).
        more: Records read after the arrays' (a second search's few).
    """

    def __init__(
        self,
        first: np.ndarray,
        second: np.ndarray,
        score: np.ndarray,
        first_keys: Sequence[SentenceKey],
        second_keys: Sequence[SentenceKey] | None = None,
        more: Sequence[Record] = (),
    ) -> None:
        self._first = np.asarray(first, np.int64)
        self._second = np.asarray(second, np.int64)
        self._score = np.asarray(score, np.float64)
        self._first_keys = first_keys
        self._second_keys = first_keys if second_keys is None else second_keys
        self._more = list(more)

    def __len__(self) -> int:
        return len(self._first) + len(self._more)

    def __iter__(self) -> Iterator[Record]:
        first_key, second_key = self._first_keys.__getitem__, self._second_keys.__getitem__
        for low in range(0, len(self._first), _CHUNK):
            high = low + _CHUNK
            yield from zip(
                map(first_key, self._first[low:high].tolist()),
                map(second_key, self._second[low:high].tolist()),
                self._score[low:high].tolist(),
            )
        yield from self._more

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (KeyedMatches, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-like: compared by records

    def with_more(self, more: Sequence[Record]) -> KeyedMatches:
        """These records, then ``more``."""
        joined = KeyedMatches(self._first, self._second, self._score, self._first_keys, self._second_keys, self._more)
        joined._more.extend(more)
        return joined
