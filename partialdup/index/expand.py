"""From matches between groups of identical sentences to matches between sentences.

:class:`partialdup.index.sparse.SparseIndex` searches one representative of
each group (see :mod:`partialdup.index.groups`); every member of a group has
the representative's bag, so a match of the representative is a match of
each member, at the same score. The functions here expand group matches to
member pairs, vectorised, and find the groups whose members are all
boilerplate without expanding anything.

The expansion is as large as the answer: a sentence held by n documents has
n (n - 1) / 2 pairs of copies. :func:`crowded_groups` finds the sentences
that are boilerplate whatever else is found (their copies alone lie in
enough documents), so that a caller can have the pairs between two of them,
the quadratic part, never made.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from partialdup.core.arrays import fits_int32, ranges, sorted_unique
from partialdup.index.groups import BagGroups

__all__ = ["Blocks", "crowded_groups", "expand_across", "expand_queries", "expand_within", "narrowed", "omitted_links", "sorted_pairs"]


def expand_queries(
    query: np.ndarray, group: np.ndarray, groups: BagGroups, docs: np.ndarray, query_docs: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(position in the input, member key) for each (query, group) match and
    each member of a document other than the query's, in (query, key) order."""
    sizes = groups.sizes[group]
    item, offset = ranges(sizes)
    key = groups.members[groups.starts[group][item] + offset]
    keep = docs[key] != query_docs[query[item]]
    item, key = item[keep], key[keep]
    order = np.lexsort((key, query[item]))
    return item[order], key[order]


@dataclass(frozen=True)
class Blocks:
    """The members of each group cut by document: a block is one group's
    members in one document, so that pairs of one document are never made.

    Attributes:
        keys: Every key, sorted by (group, document, key) (int64).
        start: First position in ``keys`` of each block (int64).
        size: Keys in each block (int64).
        doc: Document of each block (int64).
        first: First block of each group (int64).
        count: Blocks of each group (int64).
    """

    keys: np.ndarray
    start: np.ndarray
    size: np.ndarray
    doc: np.ndarray
    first: np.ndarray
    count: np.ndarray

    @classmethod
    def of(cls, groups: BagGroups, docs: np.ndarray) -> Blocks:
        """The blocks of ``groups`` given each key's document."""
        keys = np.lexsort((np.arange(len(docs)), docs, groups.group_of)).astype(np.int64)
        group, doc = groups.group_of[keys], docs[keys]
        new = np.ones(len(keys), bool)
        new[1:] = (group[1:] != group[:-1]) | (doc[1:] != doc[:-1])
        start = np.flatnonzero(new).astype(np.int64)
        size = np.diff(np.append(start, len(keys))).astype(np.int64)
        count = np.bincount(group[start], minlength=len(groups)).astype(np.int64)
        return cls(keys, start, size, doc[start], np.cumsum(count) - count, count)


def _block_product(first: np.ndarray, second: np.ndarray, blocks: Blocks) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pair position, key of block first[p], key of block second[p]) for every two keys of each block pair."""
    width = blocks.size[second]
    item, offset = ranges(blocks.size[first] * width)
    a = blocks.keys[blocks.start[first][item] + offset // width[item]]
    b = blocks.keys[blocks.start[second][item] + offset % width[item]]
    return item, a, b


def _oriented(item: np.ndarray, a: np.ndarray, b: np.ndarray, crowded: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    keep = ~(crowded[a] & crowded[b])
    item, a, b = item[keep], a[keep], b[keep]
    return item, np.maximum(a, b), np.minimum(a, b)


def expand_across(
    first: np.ndarray, second: np.ndarray, blocks: Blocks, crowded: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pair position, larger key, smaller key) for every member of group
    ``first[p]`` with every member of group ``second[p]`` (different groups),
    of different documents, not both ``crowded``."""
    pair, one = ranges(blocks.count[first])
    one = blocks.first[first][pair] + one
    which, other = ranges(blocks.count[second][pair])
    one, pair = one[which], pair[which]
    other = blocks.first[second][pair] + other
    apart = blocks.doc[one] != blocks.doc[other]
    one, other, pair = one[apart], other[apart], pair[apart]
    item, a, b = _block_product(one, other, blocks)
    return _oriented(pair[item], a, b, crowded)


def expand_within(group: np.ndarray, blocks: Blocks, crowded: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(position in ``group``, larger key, smaller key) for every two members
    of each group, of different documents, not both ``crowded``."""
    count = blocks.count[group]
    pair, t = ranges(count * (count - 1) // 2)
    # The t-th pair (j, i), i < j, of a group's blocks: j(j - 1)/2 <= t < j(j + 1)/2.
    j = ((1 + np.sqrt(1 + 8 * t.astype(np.float64))) // 2).astype(np.int64)
    j = np.where(j * (j - 1) // 2 > t, j - 1, j)
    j = np.where((j + 1) * j // 2 <= t, j + 1, j)
    i = t - j * (j - 1) // 2
    base = blocks.first[group][pair]
    item, a, b = _block_product(base + j, base + i, blocks)
    return _oriented(pair[item], a, b, crowded)


def sorted_pairs(parts: list[tuple[np.ndarray, ...]], width: int) -> list[np.ndarray]:
    """The columns of the pairs made in ``parts`` (query, key, then any
    others), each joined, sorted by (query, key) (``width``: more than any
    key), integer columns as int64. ``parts`` is emptied, and each column
    replaced as it is joined and as it is sorted, so that the pairs are held
    about once: joined all together, then sorted, the English bench
    corpus's near misses took 77 MB more than the pairs they are (traced).
    Parts whose integer columns are narrower (:func:`narrowed`) are held so
    until the pairs are sorted."""
    columns = [list(column) for column in zip(*parts)]
    parts.clear()
    joined = []
    for number, column in enumerate(columns):
        joined.append(np.concatenate(column))
        columns[number] = []
    code = joined[0].astype(np.int64)
    code *= width
    code += joined[1]
    if len(code) and not bool((code[1:] > code[:-1]).all()):  # one group's pairs come out sorted
        order = np.argsort(code, kind="stable")
        del code
        for number in range(len(joined)):
            joined[number] = joined[number][order]
        del order
    else:
        del code
    for number in range(len(joined)):
        if joined[number].dtype.kind == "i":
            joined[number] = joined[number].astype(np.int64, copy=False)
    return joined


def narrowed(part: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """``part``'s integer columns (keys, shared features) as int32 where
    their values fit: the parts of a search are held until
    :func:`sorted_pairs` sorts them, and 8-byte keys and counts made them a
    third larger (the English bench corpus's near misses: 944,000 pairs,
    30 MB joined at the caller's peak, traced)."""
    return tuple(column.astype(np.int32) if fits_int32(column) else column for column in part)


def crowded_groups(
    first: np.ndarray, second: np.ndarray, matched_self: np.ndarray, groups: BagGroups, docs: np.ndarray, limit: int
) -> np.ndarray:
    """Groups whose every member matches sentences of ``limit`` or more other documents.

    A member matches the other members of its group (when the group matches
    itself: it is not empty) and every member of a group matched with its
    own; so the documents it matches are those of all these sentences but
    its own, the same count for each member. Only the first ``limit`` + 1
    documents of each group are looked at, so the work is bounded by the
    group matches times ``limit``, however large the groups.

    Args:
        first: One side of each match between two different groups.
        second: The other side.
        matched_self: Whether each group's members match each other.
        groups: The groups.
        docs: Document of each key.
        limit: The boilerplate bound (> 0).

    Returns:
        Mask over groups.
    """
    count = len(groups)
    if not count:
        return np.zeros(0, bool)
    # Distinct (group, document), at most limit + 1 per group.
    width = int(docs.max()) + 1 if len(docs) else 1
    code = sorted_unique(groups.group_of * width + docs)
    owner, doc = code // width, code % width
    rank = np.arange(len(code), dtype=np.int64) - np.searchsorted(owner, owner)
    few = rank <= limit
    owner, doc = owner[few], doc[few]
    held = np.bincount(owner, minlength=count).astype(np.int64)
    start = np.concatenate(([0], np.cumsum(held)))[:-1]
    # Each group reaches its own documents (when it matches itself) and its partners' documents.
    source = np.concatenate((first, second))
    target = np.concatenate((second, first))
    item, offset = ranges(held[target])
    reached_group = np.concatenate((owner[matched_self[owner]], source[item]))
    reached_doc = np.concatenate((doc[matched_self[owner]], doc[start[target][item] + offset]))
    distinct = sorted_unique(reached_group * width + reached_doc) // width
    documents = np.bincount(distinct, minlength=count)
    # A member's own document is among them whenever it matches anything.
    return (documents - 1 >= limit) & matched_self


def omitted_links(first: np.ndarray, second: np.ndarray, out: np.ndarray, copies: np.ndarray, blocks: Blocks) -> np.ndarray:
    """A few of the pairs a search leaves out between crowded sentences, as
    many as keep the graph of those pairs connected as it is.

    The pairs between two groups that are both ``out`` (see
    :meth:`partialdup.index.sparse.SparseIndex.search_all`) are never made:
    a sentence in n documents has n (n - 1) / 2. The boilerplate rule still
    needs the groups of copies they link (:mod:`partialdup.match.boilerplate`),
    so this returns, for each out group, a spanning star of its members
    (each member linked to a member of another document) and, for each
    match between two out groups, one pair joining them, or, for a group all
    in one document, a pair for each of its members. Every returned pair is
    one the search left out, and two sentences are linked through the
    returned pairs exactly when they are through all the left-out pairs.

    Args:
        first: One side of each match between two different groups.
        second: The other side.
        out: Whether each group's pairs with other out groups are left out.
        copies: Whether each group's members match each other.
        blocks: The groups' members cut by document.

    Returns:
        (n, 2) int64 keys, each row a left-out pair.
    """
    links: list[tuple[int, int]] = []
    rep = blocks.keys[blocks.start]  # the first key of each block

    def members(block: int) -> list[int]:
        return blocks.keys[blocks.start[block] : blocks.start[block] + blocks.size[block]].tolist()

    def pick(group: int, avoid: int) -> int:
        # A block of the group in a document other than `avoid` (-1: none).
        block = int(blocks.first[group])
        if blocks.doc[block] != avoid:
            return block
        return block + 1 if blocks.count[group] > 1 else -1

    for group in np.flatnonzero(out & copies & (blocks.count > 1)).tolist():
        head = int(blocks.first[group])
        for block in range(head + 1, head + int(blocks.count[group])):
            links += [(key, int(rep[head])) for key in members(block)]
        links += [(key, int(rep[head + 1])) for key in members(head)[1:]]
    both = out[first] & out[second]
    for g, h in zip(first[both].tolist(), second[both].tolist()):
        if blocks.count[g] > 1 and blocks.count[h] > 1:
            head = int(blocks.first[g])
            links.append((int(rep[head]), int(rep[pick(h, int(blocks.doc[head]))])))
            continue
        for single, other in ((g, h), (h, g)):
            if blocks.count[single] == 1:
                block = int(blocks.first[single])
                partner = pick(other, int(blocks.doc[block]))
                if partner >= 0:
                    links += [(key, int(rep[partner])) for key in members(block)]
    return np.array(links, np.int64).reshape(-1, 2)
