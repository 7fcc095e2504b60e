"""Bags as three flat arrays, bag after bag: no dict per bag.

The vectorised index (:mod:`partialdup.index.sparse`) works on a bag's
(feature, multiplicity) entries as arrays. Bags that already live as arrays
(a store's features blobs, :mod:`partialdup.store.codec`) are handed to it
as they are, and dicts are flattened once (:meth:`FlatBags.of`), in the order
each dict lists its features.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import islice
from typing import Sequence

import numpy as np

from partialdup.core.arrays import ranges
from partialdup.core.types import Bag

__all__ = ["FlatBags"]


@dataclass(frozen=True)
class FlatBags:
    """Bags as arrays.

    Attributes:
        sizes: Distinct features of each bag (int64).
        features: Every bag's features, bag after bag (uint64).
        counts: Their multiplicities (int64).
    """

    sizes: np.ndarray
    features: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(cls, bags: Sequence[Bag]) -> FlatBags:
        """The bags, flattened in the order each lists its features."""
        features: list[int] = []
        counts: list[int] = []
        for bag in bags:
            features.extend(bag.keys())
            counts.extend(bag.values())
        sizes = np.fromiter(map(len, bags), np.int64, len(bags))
        return cls(sizes, np.array(features, np.uint64), np.array(counts, np.int64))

    def __len__(self) -> int:
        return len(self.sizes)

    @cached_property
    def starts(self) -> np.ndarray:
        """Where each bag's entries start (int64; made once: the digests, the
        totals and every :meth:`take` read it)."""
        return np.cumsum(self.sizes) - self.sizes

    @cached_property
    def totals(self) -> np.ndarray:
        """Each bag's size, multiplicities counted (int64; made once: the
        store's partial index and its sparse index both read it)."""
        totals = np.zeros(len(self.sizes), np.int64)
        full = self.sizes > 0
        if full.any():
            totals[full] = np.add.reduceat(self.counts, self.starts[full])
        return totals

    def take(self, rows: np.ndarray) -> FlatBags:
        """The bags at ``rows`` (int64 positions), in that order."""
        rows = np.asarray(rows, np.int64)
        lengths = self.sizes[rows]
        entries = np.repeat(self.starts[rows] - (np.cumsum(lengths) - lengths), lengths)
        entries += np.arange(int(lengths.sum()), dtype=np.int64)
        return FlatBags(lengths, self.features[entries], self.counts[entries])

    def bag(self, row: int) -> Bag:
        """The bag at ``row`` as a dict (one bag: :class:`~partialdup.index.inverted.FlatSentences`
        makes the few a check reads)."""
        start = int(self.starts[row])
        end = start + int(self.sizes[row])
        return dict(zip(self.features[start:end].tolist(), self.counts[start:end].tolist()))

    def same_entries(self, rows: np.ndarray, others: np.ndarray) -> np.ndarray:
        """Whether the bag at each of ``rows`` lists the same entries as the
        one at ``others``, in the same order (then the bags are equal; equal
        bags listed in another order are not found here)."""
        rows, others = np.asarray(rows, np.int64), np.asarray(others, np.int64)
        same = self.sizes[rows] == self.sizes[others]
        owner, within = ranges(self.sizes[rows[same]])
        mine = self.starts[rows[same]][owner] + within
        theirs = self.starts[others[same]][owner] + within
        differ = (self.features[mine] != self.features[theirs]) | (self.counts[mine] != self.counts[theirs])
        checked = np.flatnonzero(same)
        same[checked[np.unique(owner[differ])]] = False
        return same

    def dicts(self) -> list[Bag]:
        """The bags as dicts (the plain form the rest of the pipeline reads)."""
        pairs = zip(self.features.tolist(), self.counts.tolist())
        return [dict(islice(pairs, size)) for size in self.sizes.tolist()]
