"""Boilerplate: text that recurs in so many documents that it is a template, not a copy.

One rule for every stage and every command, decided once, after every copied
sentence pair of a run is known (whole matches, near misses, edited copies,
quotations, rejoined sentences alike), and decided per *passage*, not per
document pair:

* the copies of a sentence are the sentences linked to it by copied pairs,
  directly or through other copies: a *group* (a connected component of the
  graph of pairs). All copies of a passage fall in one group, so the verdict,
  made per group, is the same for every document pair that shares the
  passage (*all or none*): with a passage in five documents, the ten pairs
  are all copies or all boilerplate, never three of them;
* a group is boilerplate when most of its copies (at least half) are each
  copied, pair for pair, in ``limit`` or more *other* documents: template
  text, which every copy of it shares with many documents. One document
  that finds a sentence in many others (a man page quoting several
  licences) does not make the copies of the others boilerplate. In
  ``check`` and the ``plagiarism`` job the query sentences of a group judge,
  and only *reference* documents count: text that several queries share
  but fewer references hold is never boilerplate (template text is what
  recurs among the sources). Each stage counts apart (whole matches, near
  misses, edited copies, quotations), as the separate counts of before
  did; rejoined sentences join a group but count no document.

Boilerplate pairs are left out of the copies (their sentences do not count
in a span's gap) and the sentences are listed (:class:`BoilerplateSentence`);
the spans of the boilerplate pairs are built apart
(:attr:`partialdup.pipeline.base.Detection.boilerplate_spans`) on request:
the plagiarism job asks, for its common regions; ``detect`` and ``check``
don't by default, where a footer in every document would make a span for
every pair of documents, and a licence paragraph in a query one for every
stored document holding it. The spans between two documents do
not depend on other documents: adding a document can move a span between
two others from the copies to the boilerplate spans (one more copy makes a
passage boilerplate), never remove it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from partialdup.core.config import CROWD_DOCUMENTS
# The named list of boilerplate sentences, re-exported: its home is boilerplate_listing.
from partialdup.match.boilerplate_listing import EXCERPT_CHARS, BoilerplateListing, BoilerplateSentence, boilerplate_sentences
from partialdup.match.pair_rows import PairRows, PairSource, codes_of, pair_rows_of
from partialdup.match.pairs import SentenceKey

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "Boilerplate",
    "BoilerplateListing",
    "BoilerplateSentence",
    "EXCERPT_CHARS",
    "NO_BOILERPLATE",
    "boilerplate_sentences",
    "boilerplate_verdict",
    "collection_boilerplate",
    "CROWD_DOCUMENTS",
    "crowd_documents",
    "reference_boilerplate",
]

# CROWD_DOCUMENTS (core/config.py): the search never makes the pairs among
# sentences whole-matched in that many other documents, n (n - 1) / 2 for a
# line in n documents: a help text's "To access this command..." in 900
# pages made 400,000 of the 1.2 million whole matches of the Chinese bench
# corpus. Outputs measured equal to making every pair up to 2,000 documents
# (gold set, the bench corpora) from 20 up: docs/jobs.md.


def crowd_documents(limit: int) -> int:
    """Other documents from which a sentence is boilerplate whatever else is
    found, under the rule's ``limit`` (0: the rule is off, no sentence is)."""
    return max(limit, CROWD_DOCUMENTS) if limit else 0


@dataclass(frozen=True)
class Boilerplate:
    """The rule's verdict on the copied sentence pairs of one run.

    Attributes:
        first: Boilerplate sentences of the first side (the queries in
            ``check``; every document in ``detect``), with how many other
            documents (in ``check``: reference documents) hold a copy.
        second: The same for the second side (the references in ``check``;
            the same sentences as ``first`` in ``detect``).
    """

    first: Mapping[SentenceKey, int] = field(default_factory=dict)
    second: Mapping[SentenceKey, int] = field(default_factory=dict)

    def pair(self, first: SentenceKey, second: SentenceKey) -> bool:
        """Whether the copied pair (first side, second side) is boilerplate
        (both of its sentences are: they are copies of one another)."""
        return first in self.first or second in self.second

    def with_crowded(self, keys: Iterable[SentenceKey], documents: int) -> Boilerplate:
        """The verdict with ``keys`` added on both sides (``detect``): sentences
        copied in ``documents`` or more other documents, whose pairs among
        themselves the search never made (see :attr:`partialdup.pipeline.lookup_results.Lookups.crowded`)."""
        added = {key: documents for key in keys}
        if not added:
            return self
        return Boilerplate({**added, **self.first}, {**added, **self.second})

    def pairs_of(self, rows: PairRows) -> np.ndarray:
        """:meth:`pair` of each pair of ``rows``, at once (a mask)."""
        from partialdup.core.arrays import sorted_isin

        return sorted_isin(rows.first_codes(), self._first_codes, among_sorted=True) | sorted_isin(
            rows.second_codes(), self._second_codes, among_sorted=True)

    @cached_property
    def _first_codes(self) -> np.ndarray:
        return _sorted_key_codes(self.first)

    @cached_property
    def _second_codes(self) -> np.ndarray:
        return self._first_codes if self.second is self.first else _sorted_key_codes(self.second)

    def second_keys(self) -> set[SentenceKey]:
        """Boilerplate sentences of the second side (they do not count in a span's gap)."""
        return set(self.second)

    def __len__(self) -> int:
        return len(self.first)


def _sorted_key_codes(keys: Mapping[SentenceKey, int]) -> Any:
    # The keys' codes (pair_rows.key_codes), sorted.
    import numpy as np

    return np.sort(codes_of(keys))


#: The verdict of a rule that is off.
NO_BOILERPLATE = Boilerplate()

#: A sentence in the pair graph: (side, (document, sentence)).
_Node = tuple[int, SentenceKey]


def _groups(pairs: Iterable[tuple[_Node, _Node]]) -> dict[_Node, _Node]:
    """Each sentence's group (its root): the connected components of the
    graph of copied pairs, found with union-find. Deterministic: the
    smallest node of a group is its root."""
    parent: dict[_Node, _Node] = {}

    def root(node: _Node) -> _Node:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]  # path halving
            node = parent[node]
        return node

    for first, second in pairs:
        a, b = root(first), root(second)
        if a != b:
            parent[max(a, b)] = min(a, b)
    return {node: root(node) for node in parent}


def _components(pairs: Iterable[tuple[_Node, _Node]]) -> dict[_Node, int]:
    """Each sentence's group, as :func:`_groups` finds them (the same
    partition; a group is named by a number here, not its smallest node):
    the connected components of the pair graph, on the sentences numbered in
    order of appearance, by NumPy (:func:`_smallest_linked`). A run pairs
    hundreds of thousands of sentences, mostly boilerplate: the plain
    union-find is the reference, kept for the tests."""
    import numpy as np  # imported here: only a run needs it

    numbers: dict[_Node, int] = {}
    ends = [numbers.setdefault(node, len(numbers)) for pair in pairs for node in pair]
    first, second = np.array(ends[0::2], np.int64), np.array(ends[1::2], np.int64)
    return dict(zip(numbers, _smallest_linked(first, second, len(numbers)).tolist()))


def _smallest_linked(first: Any, second: Any, size: int) -> Any:
    """For each of ``size`` nodes, the smallest node linked to it through
    the edges ``first[i]``-``second[i]`` (int64 arrays).

    Each round, every root (a node that is its own label) takes the smallest
    label among the roots it is linked to, then every label is followed to
    its root. A round that changes nothing ends it: then both ends of every
    edge have one root, the smallest node of their component. (SciPy's
    ``connected_components`` did it before; importing ``scipy.sparse.csgraph``
    imports ``scipy.linalg``, 60 ms of every run's start.)
    """
    import numpy as np

    labels = np.arange(size, dtype=np.int64)
    while True:
        a, b = labels[first], labels[second]
        low = np.minimum(a, b)
        hooked = labels.copy()
        np.minimum.at(hooked, a, low)
        np.minimum.at(hooked, b, low)
        while True:  # follow every label to its root
            followed = hooked[hooked]
            if np.array_equal(followed, hooked):
                break
            hooked = followed
        if np.array_equal(hooked, labels):
            return labels
        labels = hooked


def collection_boilerplate(
    pairs: Iterable[tuple[SentenceKey, SentenceKey]], counted: Sequence[Iterable[tuple[SentenceKey, SentenceKey]]], limit: int
) -> Boilerplate:
    """``detect``: the groups of copies (sentences linked by copied pairs,
    directly or through other copies) most of whose sentences are each
    copied, pair for pair, in ``limit`` or more other documents.

    Args:
        pairs: Every copied sentence pair of the run, both keys in one
            numbering of documents.
        counted: The pairs that count documents, per stage (see :func:`boilerplate_verdict`).
        limit: Least number of other documents (0: the rule is off).
    """
    return boilerplate_verdict(pairs, counted, limit, one_collection=True)


def reference_boilerplate(
    pairs: Iterable[tuple[SentenceKey, SentenceKey]], counted: Sequence[Iterable[tuple[SentenceKey, SentenceKey]]], limit: int
) -> Boilerplate:
    """``check``: the groups of copies most of whose query sentences are
    each copied, pair for pair, in ``limit`` or more reference documents.
    Only reference documents are counted: several queries holding a passage
    that fewer references hold never make it boilerplate.

    Args:
        pairs: Every copied (query sentence, reference sentence) pair of the run.
        counted: The pairs that count documents, per stage (see :func:`boilerplate_verdict`).
        limit: Least number of reference documents (0: the rule is off).
    """
    return boilerplate_verdict(pairs, counted, limit, one_collection=False)


def boilerplate_verdict(
    pairs: PairSource,
    counted: Sequence[PairSource],
    limit: int,
    *,
    one_collection: bool,
    crowded: Iterable[SentenceKey] = (),
) -> Boilerplate:
    """The rule for a run: :func:`collection_boilerplate` for ``detect`` (one
    collection), :func:`reference_boilerplate` for ``check``.

    Args:
        pairs: Every copied sentence pair of the run (as
            :data:`~partialdup.match.pair_rows.PairSource` allows): they make the groups.
        counted: The pairs that count documents (the same): copies of a whole sentence
            on its features or its characters (whole matches, near misses,
            quotations); edited copies (words) and rejoined sentences join
            groups but do not count, as before the rule was one.
        limit: Least number of other documents (0: the rule is off).
        one_collection: ``detect`` (both keys number one collection) or
            ``check`` (first: queries, second: references).
        crowded: ``detect``: sentences known to be copied in ``limit`` or
            more other documents whose pairs among themselves ``pairs`` and
            ``counted`` leave out (:attr:`~partialdup.pipeline.lookup_results.Lookups.crowded`).

    Worked on arrays: a run pairs hundreds of thousands of sentences, and
    one dictionary entry per sentence and stage was 1.2 s of the English
    bench corpus, while the other cores waited. The sentences are numbered
    in order of first appearance, as :func:`boilerplate_verdict_plain` (the
    reference) numbers them, so the verdict's dictionaries come out in its order.
    """
    if not limit:
        return NO_BOILERPLATE
    import numpy as np  # imported here: only a run needs it

    from partialdup.core.arrays import sorted_isin

    other = 0 if one_collection else 1  # the second side's numbering
    # Sentences copied in `limit` or more other documents in one stage (found
    # first: each stage's arrays are dropped before the pairs' are made).
    widely = _widely(crowded, counted, limit, one_collection)
    ends = pair_rows_of(pairs)  # first, second, first, ...
    side = np.tile(np.array([0, other], np.int8), len(ends) // 2)
    number, first_row = _numbered(_node_codes(ends, side))
    node_side, node_key = side[first_row], ends[first_row]
    del ends, side
    size = len(first_row)
    group = _smallest_linked(number[0::2], number[1::2], size)  # each node's, by number
    del number
    wide_node = sorted_isin(_node_codes(node_key, node_side), widely, among_sorted=True)
    judging = node_side == 0  # in check, the query sentences judge
    members = np.bincount(group[judging], minlength=size)
    wide = np.bincount(group[judging & wide_node], minlength=size)
    counting = np.ones(size, bool) if one_collection else node_side == 1  # in check, reference documents count
    held_by = _distinct_firsts(group[counting] * 2 + node_side[counting], node_key[counting, 0])
    documents = np.bincount(held_by // 2, minlength=size) - (1 if one_collection else 0)  # not its own document
    # Groups most of whose copies are widely copied.
    decided = np.flatnonzero((2 * wide[group] >= members[group]) & (wide[group] > 0))
    keys = list(zip(node_key[decided, 0].tolist(), node_key[decided, 1].tolist()))
    counts = documents[group[decided]].tolist()
    sides = node_side[decided].tolist()
    first_side = {key: count for key, count, at in zip(keys, counts, sides) if at == 0}
    second_side = {key: count for key, count, at in zip(keys, counts, sides) if at == other}
    return Boilerplate(first_side, second_side)


def _key_rows(keys: Iterable[SentenceKey]) -> Any:
    # (document, sentence) keys as an (n, 2) int32 array (numbers below
    # 2**31, see _node_codes; half the memory of int64).
    import numpy as np

    return np.fromiter(chain.from_iterable(keys), np.int32).reshape(-1, 2)


def _node_codes(keys: Any, side: Any) -> Any:
    import numpy as np

    # One int64 per node (side, (document, sentence)): documents and their
    # sentences are numbered below 2**31 (a list of 2**31 documents would
    # not fit in memory), so the codes stay below 2**63.
    return (keys[:, 0].astype(np.int64) * _SENTENCES + keys[:, 1]) * 2 + side


#: The sentence numbers' room in a node's code.
_SENTENCES = 1 << 31


def _numbered(codes: Any) -> tuple[Any, Any]:
    """Each code's number, distinct codes numbered in order of first
    appearance (as a dictionary's ``setdefault`` numbers them), and where
    each number first appears."""
    import numpy as np

    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty(len(first), np.int64)
    rank[order] = np.arange(len(first))
    return rank[np.ravel(inverse)], first[order]


def _widely(crowded: Iterable[SentenceKey], counted: Sequence[PairSource], limit: int, one_collection: bool) -> Any:
    """The node codes (sorted, side 0) of the ``crowded`` sentences and of
    those copied in ``limit`` or more other documents in one stage of
    ``counted``, pair for pair."""
    import numpy as np

    widely = [_node_codes(_key_rows(crowded), 0)]
    for stage in counted:
        rows = pair_rows_of(stage)  # first, second, first, ...
        first, second = rows[0::2], rows[1::2]
        node, doc = _node_codes(first, 0), second[:, 0]
        if one_collection:  # in check, only reference documents count
            node, doc = np.concatenate([node, _node_codes(second, 0)]), np.concatenate([doc, first[:, 0]])
        nodes, counts = np.unique(_distinct_firsts(node, doc), return_counts=True)
        widely.append(nodes[counts >= limit])
    return np.unique(np.concatenate(widely))


def _distinct_firsts(first: Any, second: Any) -> Any:
    """The first value of each distinct (first, second) pair of two int64
    arrays (:func:`~partialdup.core.arrays.equal_rows`)."""
    import numpy as np

    from partialdup.core.arrays import equal_rows

    rows = np.stack([first, second], axis=1)
    return rows[equal_rows(rows)[0], 0]


def boilerplate_verdict_plain(
    pairs: Iterable[tuple[SentenceKey, SentenceKey]],
    counted: Sequence[Iterable[tuple[SentenceKey, SentenceKey]]],
    limit: int,
    *,
    one_collection: bool,
    crowded: Iterable[SentenceKey] = (),
) -> Boilerplate:
    """:func:`boilerplate_verdict` in plain Python, one node at a time: the
    reference the tests hold the arrays to (the same dictionaries, in the
    same order)."""
    if not limit:
        return NO_BOILERPLATE
    other = 0 if one_collection else 1  # the second side's numbering
    groups = _components(((0, first), (other, second)) for first, second in pairs)
    # Sentences copied in `limit` or more other documents in one stage.
    widely: set[_Node] = {(0, key) for key in crowded}
    for stage in counted:  # each stage counts apart
        neighbours: dict[_Node, set[int]] = defaultdict(set)
        for first, second in stage:
            neighbours[(0, first)].add(second[0])
            if one_collection:  # in check, only reference documents count
                neighbours[(0, second)].add(first[0])
        widely.update(node for node, docs in neighbours.items() if len(docs) >= limit)
    members: dict[int, int] = defaultdict(int)
    wide: dict[int, int] = defaultdict(int)
    documents: dict[int, set[tuple[int, int]]] = defaultdict(set)
    for node, group in groups.items():
        if one_collection or node[0] == 0:  # in check, the query sentences judge
            members[group] += 1
            wide[group] += node in widely
        if one_collection or node[0] == 1:
            documents[group].add((node[0], node[1][0]))
    held = 1 if one_collection else 0  # a sentence's own document is not "other"
    first_side: dict[SentenceKey, int] = {}
    second_side: dict[SentenceKey, int] = {}
    for (side, key), group in groups.items():
        if 2 * wide[group] < members[group] or not wide[group]:  # most copies are widely copied
            continue
        count = len(documents[group]) - held
        if side == 0:
            first_side[key] = count
        if side == other:
            second_side[key] = count
    return Boilerplate(first_side, second_side)
