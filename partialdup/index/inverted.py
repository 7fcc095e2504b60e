"""Inverted feature index: feature -> the indexed sentences holding it.

Only sentences that share a feature are ever compared, and prefix filtering
reads only the posting lists of a query's rarest features. The index is built
in full first, then queried, so the set of over-frequent features does not
depend on the order documents arrive in. It is searched by
:class:`partialdup.index.sparse.SparseIndex` (vectorised, used by the
pipeline) and by :func:`partialdup.index.plain.plain_query` (one query at a
time: the plain reference that the tests prove the fast search equal to).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from operator import eq
from typing import Callable, Iterator, Sequence, overload

import numpy as np

from partialdup.core.bags import FlatBags
from partialdup.core.types import Bag

__all__ = [
    "FeatureIndex", "FlatSentences", "HeldSentences", "IndexedSentence", "SentenceKeys", "entry_columns", "entry_documents", "entry_keys", "rarest_prefix",
]


@dataclass(frozen=True, slots=True)
class IndexedSentence:
    """A sentence as the index knows it.

    Attributes:
        doc: Number of its document (dense, from 0).
        sentence: Its index in the document.
        bag: Its features.
        size: Number of features, counting multiplicities.
    """

    doc: int
    sentence: int
    bag: Bag
    size: int


class FlatSentences(Sequence[IndexedSentence]):
    """Indexed sentences held as arrays, each :class:`IndexedSentence` (and
    its bag's dict) made when first read: a store's check indexes ten
    thousand candidate sentences and reads a few hundred.

    Args:
        documents: Document of each (int64).
        positions: Its sentence (int64).
        bags: Their bags, in the same order.
    """

    def __init__(self, documents: np.ndarray, positions: np.ndarray, bags: FlatBags) -> None:
        self.documents, self.positions, self.bags = documents, positions, bags
        self._made: dict[int, IndexedSentence] = {}

    @classmethod
    def of(cls, documents: Sequence[int], positions: Sequence[int], bags: Sequence[Bag]) -> FlatSentences:
        """The sentences (document, position) with these bags, made arrays."""
        return cls(np.array(documents, np.int64), np.array(positions, np.int64), FlatBags.of(bags))

    def __len__(self) -> int:
        return len(self.documents)

    @overload
    def __getitem__(self, key: int) -> IndexedSentence: ...

    @overload
    def __getitem__(self, key: slice) -> list[IndexedSentence]: ...

    def __getitem__(self, key: int | slice) -> IndexedSentence | list[IndexedSentence]:
        if isinstance(key, slice):
            return [self[k] for k in range(*key.indices(len(self)))]
        if not -len(self) <= key < len(self):
            raise IndexError(key)
        key = int(key) % len(self)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = IndexedSentence(
                int(self.documents[key]), int(self.positions[key]), self.bags.bag(key), int(self.bags.totals[key])
            )
        return made


@dataclass(frozen=True)
class HeldSentences:
    """Sentences indexed as arrays (:class:`FlatSentences`), searched through
    :class:`~partialdup.index.sparse.SparseIndex` only, which reads nothing
    else of a :class:`FeatureIndex`."""

    sentences: FlatSentences
    max_postings: int


class SentenceKeys(Sequence[tuple[int, int]]):
    """(document, sentence) keys held as two arrays, each key made when it
    is read: a sequence equal to the list of the same tuples.

    The look-ups and the tail read the key of each indexed sentence by its
    position. As a list, the keys were a tuple and an int object per
    indexed sentence (about 90 bytes each: 11.8 MB of the Chinese bench
    corpus's look-ups), held to the end of the run; here 16 bytes.

    Attributes:
        documents: Each key's document (int64).
        positions: Each key's sentence in its document (int64).
    """

    __slots__ = ("documents", "positions", "_documents", "_positions")

    def __init__(self, documents: np.ndarray, positions: np.ndarray) -> None:
        self.documents = np.ascontiguousarray(documents, np.int64)
        self.positions = np.ascontiguousarray(positions, np.int64)
        if len(self.documents) != len(self.positions):
            raise ValueError(f"{len(self.documents)} documents but {len(self.positions)} positions")
        # Memoryviews of native int64: indexing one gives an int, not a NumPy scalar.
        self._documents, self._positions = self.documents.data, self.positions.data

    def __len__(self) -> int:
        return len(self.documents)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, int] | list[tuple[int, int]]:
        if isinstance(index, slice):
            return list(zip(self._documents[index], self._positions[index]))
        return self._documents[index], self._positions[index]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return zip(self._documents, self._positions)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SentenceKeys):
            return bool(np.array_equal(self.documents, other.documents) and np.array_equal(self.positions, other.positions))
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(map(eq, self, other))

    __hash__ = None  # type: ignore[assignment]  # compared as the list it stands for

    def __repr__(self) -> str:
        return f"SentenceKeys({list(self)!r})"


def entry_keys(entries: Sequence[IndexedSentence]) -> Sequence[tuple[int, int]]:
    """(document, sentence) of each indexed sentence, by position (from the
    arrays of :class:`FlatSentences`, without making them: :class:`SentenceKeys`)."""
    if isinstance(entries, FlatSentences):
        return SentenceKeys(entries.documents, entries.positions)
    return [(entry.doc, entry.sentence) for entry in entries]


def entry_columns(entries: Sequence[IndexedSentence]) -> tuple[np.ndarray, np.ndarray]:
    """The document and the sentence of each indexed sentence (int64 arrays;
    as :func:`entry_keys`)."""
    if isinstance(entries, FlatSentences):
        return entries.documents.astype(np.int64), entries.positions.astype(np.int64)
    documents = np.fromiter((entry.doc for entry in entries), np.int64, len(entries))
    return documents, np.fromiter((entry.sentence for entry in entries), np.int64, len(entries))


def entry_documents(entries: Sequence[IndexedSentence]) -> np.ndarray:
    """The document of each indexed sentence (int64; see :func:`entry_columns`)."""
    return entry_columns(entries)[0]


class FeatureIndex:
    """Feature -> sentences holding it, with bag-Jaccard verification.

    Sentences with identical bags form a group (see
    :mod:`partialdup.index.groups`); a feature's frequency is the number of
    distinct bags holding it, so a sentence repeated many times does not make
    its own features over-frequent, and the members of a group are each
    other's copies whatever their features.

    Args:
        max_postings: A feature held by more distinct bags than this is not
            used to find candidates (it would make the search quadratic);
            pairs sharing other features, and identical bags, are still found
            and scored on their full bags.
    """

    def __init__(self, *, max_postings: int = 2000) -> None:
        self.max_postings = max_postings
        self.sentences: list[IndexedSentence] = []
        self._lists: dict[int, list[int]] = defaultdict(list)
        self._listed = 0  # sentences already in the posting lists
        self._group_of: list[int] = []
        self._members: list[list[int]] = []
        self._group_lists: dict[int, list[int]] = defaultdict(list)
        self._by_bag: dict[tuple[tuple[int, int], ...], int] = {}

    def add(self, doc: int, sentence: int, bag: Bag) -> int:
        """Index a sentence; returns its key (keys increase from 0)."""
        key = len(self.sentences)
        self.sentences.append(IndexedSentence(doc, sentence, bag, sum(bag.values())))
        return key

    @property
    def postings(self) -> dict[int, list[int]]:
        """Feature -> keys of the sentences holding it, in increasing key order."""
        # Posting lists are made when first read: the vectorised search
        # (partialdup.index.sparse) builds its own matrices and never needs them.
        for key in range(self._listed, len(self.sentences)):
            for feature in self.sentences[key].bag:
                self._lists[feature].append(key)
        self._listed = len(self.sentences)
        return self._lists

    @property
    def members(self) -> list[list[int]]:
        """Keys of each group of identical bags, groups numbered by first key."""
        # Keyed on the exact sorted bag: the plain reference for the digest
        # the vectorised search groups by.
        for key in range(len(self._group_of), len(self.sentences)):
            bag = self.sentences[key].bag
            group = self._by_bag.setdefault(_exact(bag), len(self._members))
            if group == len(self._members):
                self._members.append([])
                for feature in bag:
                    self._group_lists[feature].append(group)
            self._members[group].append(key)
            self._group_of.append(group)
        return self._members

    @property
    def group_postings(self) -> dict[int, list[int]]:
        """Feature -> groups whose bag holds it, in increasing group order."""
        _ = self.members
        return self._group_lists

    def group_of_bag(self, bag: Bag) -> int | None:
        """The group whose bag equals ``bag``, if any."""
        _ = self.members
        return self._by_bag.get(_exact(bag))

    def frequent_features(self) -> int:
        """How many features are held by more than ``max_postings`` distinct bags."""
        return sum(1 for groups in self.group_postings.values() if len(groups) > self.max_postings)

    def frequent_sentences(self) -> int:
        """Sentences holding a feature over ``max_postings``."""
        frequent = {f for f, groups in self.group_postings.items() if len(groups) > self.max_postings}
        return sum(1 for entry in self.sentences if frequent.intersection(entry.bag))

    def feature_count(self) -> int:
        """Distinct features indexed."""
        return len(self.postings)

    def posting_count(self) -> int:
        """Postings stored (sentence-feature incidences)."""
        return sum(len(keys) for keys in self.postings.values())


def _exact(bag: Bag) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(bag.items()))


def rarest_prefix(bag: Bag, held: Callable[[int], int], threshold: float | None) -> list[int]:
    """The features of ``bag`` of which a match must share one (prefix filtering).

    A match at bag-Jaccard ``threshold`` shares at least ceil(threshold *
    |bag|) features, multiplicities counted, so it holds one of the bag's
    ``|bag| - ceil(threshold * |bag|) + 1`` rarest ones.

    Args:
        bag: The query's features.
        held: How many indexed sentences hold a feature (its postings).
        threshold: τ; None when any feature may be the shared one
            (containment), and all of them are returned.

    Returns:
        The prefix, rarest first (ties by feature value).
    """
    size = sum(bag.values())
    budget = size + 1 if threshold is None else size - math.ceil(threshold * size - 1e-9) + 1
    prefix = []
    for feature, count in sorted(bag.items(), key=lambda item: (held(item[0]), item[0])):
        if budget <= 0:
            break
        prefix.append(feature)
        budget -= count
    return prefix
