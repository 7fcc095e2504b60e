"""Sentences with identical bags, grouped: the search works on one of each.

A sentence repeated tens of thousands of times (a licence line, a log line, a
pasted paragraph) would otherwise fill the posting list of every one of its
features, make them all over-frequent, and so hide its own copies; and
comparing its copies pairwise is quadratic. Grouped, such a sentence is one
row of the index however often it occurs: its features count once towards
``max_postings``, its copies match each other at bag-Jaccard 1.0 without any
look-up, and a group's matches are expanded to its members only at the end
(see :mod:`partialdup.index.expand`).

Groups are found by a stable 128-bit digest of the bag (vectorised, never
Python's salted ``hash()``; the bags it joins are checked equal) and numbered
in the order of their first member, so a group's number, like its first
member's key, only depends on the order the sentences were indexed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from partialdup.core.bags import FlatBags
from partialdup.core.types import Bag
from partialdup.core.arrays import equal_rows, mix64

__all__ = ["BagGroups", "bag_digests", "flat_digests", "group_bags", "group_flat"]


#: Seeds of the two 64-bit halves of a digest.
_SEEDS = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xD1B54A32D192ED03))


def bag_digests(bags: Sequence[Bag]) -> np.ndarray:
    """A stable 128-bit digest of each bag, shape (len(bags), 2), uint64.

    The digest of a bag is a sum, modulo 2**64, of a strong mix of each
    (feature, count): it does not depend on the order a bag lists its
    features in, takes one vectorised pass over all bags, and is the same on
    every machine and run (no salted ``hash()``). Equal bags have equal
    digests; :func:`group_bags` still checks the bags a digest joins.
    """
    return flat_digests(FlatBags.of(bags))


def flat_digests(flat: FlatBags) -> np.ndarray:
    """:func:`bag_digests` of bags given as arrays."""
    digests = np.zeros((len(flat), 2), np.uint64)
    full = flat.sizes > 0
    starts = flat.starts[full]
    counts = flat.counts.astype(np.uint64)
    with np.errstate(over="ignore"):
        for half, seed in enumerate(_SEEDS):
            element = mix64(mix64(flat.features ^ seed) + counts * seed)
            if len(element):
                digests[full, half] = np.add.reduceat(element, starts)
    return digests


@dataclass(frozen=True)
class BagGroups:
    """Indexed sentences grouped by identical bags.

    Attributes:
        group_of: Group of each key (int64).
        first: The first (smallest) key of each group, its representative (int64).
        members: Every key, sorted by (group, key) (int64).
        starts: ``members[starts[g]:starts[g + 1]]`` are the keys of group
            ``g`` (int64, one more entry than groups).
        digests: Digest of each group's bag (two halves, uint64), sorted,
            for :meth:`find` (an array: a dict of hundreds of thousands of
            tuples held 50 bytes a group more).
        digest_groups: The group of each row of ``digests`` (int64).
    """

    group_of: np.ndarray
    first: np.ndarray
    members: np.ndarray
    starts: np.ndarray
    digests: np.ndarray
    digest_groups: np.ndarray

    @property
    def sizes(self) -> np.ndarray:
        """Members of each group (int64)."""
        return np.diff(self.starts)

    def __len__(self) -> int:
        return len(self.first)

    def find(self, bags: Sequence[Bag], representative: Callable[[int], Bag]) -> tuple[np.ndarray, np.ndarray]:
        """(position in ``bags``, group) of each non-empty bag equal to a group's bag.

        Args:
            bags: The bags to look up.
            representative: The bag of a group's first member, by key.
        """
        rows, groups = [], []
        for row, group in enumerate(self._digest_groups(bag_digests(bags)).tolist()):
            if group >= 0 and bags[row] and _equal(bags[row], representative(int(self.first[group]))):
                rows.append(row)
                groups.append(group)
        return np.array(rows, np.int64), np.array(groups, np.int64)

    def _digest_groups(self, digests: np.ndarray) -> np.ndarray:
        """The group holding each digest, -1 for none."""
        found = np.full(len(digests), -1, np.int64)
        if not (len(digests) and len(self.digests)):
            return found
        # First halves sorted; a first half shared by two digests is as rare
        # as a collision, so its run is searched in turn.
        low = np.searchsorted(self.digests[:, 0], digests[:, 0], side="left")
        high = np.searchsorted(self.digests[:, 0], digests[:, 0], side="right")
        for row in np.flatnonzero(high > low).tolist():
            for at in range(int(low[row]), int(high[row])):
                if self.digests[at, 1] == digests[row, 1]:
                    found[row] = self.digest_groups[at]
                    break
        return found


def group_bags(bags: Sequence[Bag], digests: np.ndarray | None = None) -> BagGroups:
    """Group bags that are equal (same features, same counts), numbered by first occurrence.

    ``digests``: the bags' :func:`bag_digests`, when already known.
    """
    if digests is None:
        digests = bag_digests(bags)
    return _grouped(
        digests, lambda keys, firsts: all(_equal(bags[k], bags[f]) for k, f in zip(keys.tolist(), firsts.tolist())), lambda: bags
    )


def group_flat(flat: FlatBags, digests: np.ndarray | None = None) -> BagGroups:
    """:func:`group_bags` of bags as arrays: two bags of one digest that list
    the same entries are equal without a dict (a store's check groups ten
    thousand candidate sentences, half of them repeats, and reads the bags of
    a few hundred); the others are compared as dicts.

    ``digests``: the bags' :func:`flat_digests`, when already known.
    """
    if digests is None:
        digests = flat_digests(flat)

    def equal(keys: np.ndarray, firsts: np.ndarray) -> bool:
        unsure = ~flat.same_entries(keys, firsts)
        return all(_equal(flat.bag(k), flat.bag(f)) for k, f in zip(keys[unsure].tolist(), firsts[unsure].tolist()))

    return _grouped(digests, equal, flat.dicts)


def _grouped(
    digests: np.ndarray, equal: Callable[[np.ndarray, np.ndarray], bool], bags: Callable[[], Sequence[Bag]]
) -> BagGroups:
    """The groups of equal digests, checked with ``equal`` (whether the bags
    of the keys given equal those of their groups' firsts); regrouped from
    ``bags()`` if not."""
    first_seen, inverse = equal_rows(digests)
    # Number groups by their first member, not by digest.
    rank = np.empty(len(first_seen), np.int64)
    rank[np.argsort(first_seen, kind="stable")] = np.arange(len(first_seen), dtype=np.int64)
    group_of = rank[inverse]
    first = np.sort(first_seen).astype(np.int64)
    joined = np.flatnonzero(first[group_of] != np.arange(len(digests)))  # members but the first
    if not equal(joined, first[group_of[joined]]):
        group_of, first = _exact_groups(bags())  # two bags share a 128-bit digest: never seen, but exact
    members = np.argsort(group_of, kind="stable").astype(np.int64)
    sizes = np.bincount(group_of, minlength=len(first)).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    held = digests[first]
    order = np.lexsort((held[:, 1], held[:, 0]))
    return BagGroups(group_of, first, members, starts, held[order], order.astype(np.int64))


def _equal(first: Bag, second: Bag) -> bool:
    # dict's own comparison, in C; a Counter's == is a Python loop.
    if isinstance(first, dict) and isinstance(second, dict):
        return dict.__eq__(first, second) is True
    return first == second


def _exact_groups(bags: Sequence[Bag]) -> tuple[np.ndarray, np.ndarray]:
    seen: dict[tuple[tuple[int, int], ...], int] = {}
    group_of = np.fromiter((seen.setdefault(tuple(sorted(b.items())), len(seen)) for b in bags), np.int64, len(bags))
    first = np.unique(group_of, return_index=True)[1].astype(np.int64)
    return group_of, first
