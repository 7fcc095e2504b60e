"""Vectorised sentence-pair search: the inverted index as a sparse matrix.

:func:`partialdup.index.plain.plain_query` is the plain reference, one
Python loop per query sentence; on a corpus it spends most of its time on
per-query overhead. :class:`SparseIndex` finds exactly the same matches for a
whole block of queries with one sparse matrix product (scipy's compiled
SpGEMM), then scores every candidate with NumPy. The property tests check
the two agree pair for pair and score for score.

A bag becomes a row of 0/1 entries over *(feature, occurrence)* columns: a
feature held twice fills columns (f, 0) and (f, 1). The dot product of two
such rows is then exactly the bag intersection, Σ min counts, and the
bag-Jaccard follows from the two sizes. Features held by more than
``max_postings`` sentences sit in a matrix of their own: they never make two
sentences candidates (that is what would make the search quadratic), but they
count in the score of a pair found through another feature, as in the
reference.

Sentences with identical bags are one row (see :mod:`partialdup.index.groups`):
a feature's postings count the distinct bags holding it, members of a group
match each other at score 1.0 without a look-up, and group matches are
expanded to sentence pairs last (:mod:`partialdup.index.expand`), so a
sentence repeated tens of thousands of times costs one row, not a quadratic
search.
"""

from __future__ import annotations

import collections
import copy
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterable, Iterator, Protocol, Sequence

import numpy as np

from partialdup.core.bags import FlatBags
from partialdup.core.arrays import sorted_isin, weighted_slices_of
from partialdup.index.expand import (
    Blocks, crowded_groups, expand_across, expand_queries, expand_within, narrowed, omitted_links, sorted_pairs,
)
from partialdup.index.accepted import Accepted, AcceptedParts, GroupMatches, SharedProduct
from partialdup.index.groups import group_flat
from partialdup.index.inverted import IndexedSentence, entry_documents
from partialdup.index.matrix import (
    PairFilter,
    accept,
    expand_flat,
    index_columns,
    kept_pairs,
    numbered_features,
    own_columns,
    rows_matrix,
)
from partialdup.index.partitioned import Candidates, CandidateProduct, ProductRequest, block_candidates
from partialdup.methods.similarity import CopyRule
from partialdup.core.types import Bag

if TYPE_CHECKING:
    from scipy import sparse

__all__ = ["SparseIndex", "PairMatches", "ReferenceIndex", "load_sparse"]

#: Query sentences per matrix product, at most ...
BLOCK_ROWS = 4096

#: ... and postings a block may reach (each a candidate pair before the sum
#: per pair): bounds the memory of one product, about 12 bytes each, whatever
#: the corpus and however common its features.
BLOCK_POSTINGS = 20_000_000

#: About how many sentence pairs :meth:`SparseIndex.search_all` makes from its
#: group pairs at once (the most a ``keep`` filter is applied to at once).
EXPAND_PAIRS = 1 << 16


@dataclass(frozen=True)
class PairMatches:
    """Accepted sentence pairs, sorted by (query, key).

    Attributes:
        query: Position of the query sentence in the list searched (int64).
        key: Index key of the matching indexed sentence (int64).
        score: Their bag-Jaccard (float64), computed as the reference does.
        shared: Features they share, Σmin of the two bags (int64).
        candidates: Pairs sharing a feature that were scored (a group of
            identical sentences counts once, see :mod:`partialdup.index.groups`).
        skipped_postings: Postings of over-frequent features not used to find
            candidates (each query sentence counts the postings it skipped).
        boilerplate: Keys (sorted, int64) that match sentences of the
            ``boilerplate`` number of other documents or more, when
            :meth:`SparseIndex.search_all` was asked for them; the pairs
            between two of them are left out of the arrays above.
        links: With ``boilerplate``: some of the left-out pairs, as (n, 2)
            keys, that link the boilerplate sentences as all of them would
            (:func:`~partialdup.index.expand.omitted_links`): the groups of
            copies the boilerplate rule judges stay whole.
    """

    query: np.ndarray
    key: np.ndarray
    score: np.ndarray
    shared: np.ndarray
    candidates: int
    skipped_postings: int
    boilerplate: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))
    links: np.ndarray = field(default_factory=lambda: np.empty((0, 2), np.int64))

    def sharing(self, least: int) -> PairMatches:
        """The pairs sharing at least ``least`` features (same counters)."""
        keep = self.shared >= least
        return replace(self, query=self.query[keep], key=self.key[keep], score=self.score[keep], shared=self.shared[keep])


class Indexed(Protocol):
    """What :class:`SparseIndex` reads of an index: a
    :class:`~partialdup.index.inverted.FeatureIndex`, or sentences held as
    arrays (:class:`~partialdup.index.inverted.HeldSentences`)."""

    @property
    def sentences(self) -> Sequence[IndexedSentence]: ...

    @property
    def max_postings(self) -> int: ...


class SparseIndex:
    """A read-only matrix view of a built :class:`FeatureIndex`.

    Build it once the index holds every reference sentence; adding to the
    index afterwards is not seen. Rows are groups of identical bags.

    Args:
        index: The inverted index to search.
        flat: The bags of its sentences as arrays, in key order, when the
            caller has them (a store's check): else made from the dicts.
    """

    def __init__(self, index: Indexed, flat: FlatBags | None = None) -> None:
        self.index = index
        if flat is None:
            flat = FlatBags.of([entry.bag for entry in index.sentences])
        self._docs = entry_documents(index.sentences)
        self._sizes = flat.totals
        self._groups = group_flat(flat)
        self._group_sizes = self._sizes[self._groups.first]
        rows, features, occurrences = expand_flat(flat.take(self._groups.first))
        distinct, where = numbered_features(features)
        del features  # the build's peak: every feature occurrence's arrays
        self._columns = index_columns(distinct, where, occurrences, rows, index.max_postings, self._groups.sizes)
        column, frequent = own_columns(self._columns, where, occurrences)
        del where, occurrences
        self._usual, self._frequent = self._own_matrices(rows, column, frequent)
        del rows, column, frequent
        self._usual_t = self._usual.T.tocsr()
        self._product: CandidateProduct | None = None
        self._shared: SharedProduct | None = None

    def using(self, product: CandidateProduct | None) -> SparseIndex:
        """This index, its candidate products run by ``product`` (an engine's,
        see :mod:`partialdup.index.partitioned`) instead of in this process;
        None: this index. The same matches either way."""
        if product is None:
            return self
        view = copy.copy(self)  # shares the matrices
        view._product = product
        return view

    def sharing_candidates(self, rules: Sequence[CopyRule]) -> SparseIndex:
        """This index, its :meth:`search_all` of each of ``rules`` (in any
        order, once each) scoring the candidates of one blocked product, made
        at the first of them, instead of one product per search: the product
        is most of a search's cost, and ``detect`` asks for three (whole
        matches, near misses, loose candidates). Each rule's accepted group
        pairs are held until its search. The same matches either way."""
        view = copy.copy(self)
        view._shared = SharedProduct(collections.Counter(rules))
        return view

    def feature_count(self) -> int:
        """Distinct features indexed (as :meth:`FeatureIndex.feature_count`)."""
        return len(self._columns.features)

    def posting_count(self) -> int:
        """Postings stored (as :meth:`FeatureIndex.posting_count`)."""
        return int(self._columns.sentences.sum())

    def frequent_features(self) -> int:
        """How many features exceed ``max_postings`` (as :meth:`FeatureIndex.frequent_features`)."""
        return int(self._columns.frequent.sum())

    def frequent_sentences(self) -> int:
        """Indexed sentences holding a feature over ``max_postings`` (as
        :meth:`FeatureIndex.frequent_sentences`)."""
        holding = np.diff(self._frequent.indptr) > 0
        return int(self._groups.sizes[holding].sum())

    def search(
        self,
        bags: Sequence[Bag],
        rule: CopyRule,
        *,
        docs: Sequence[int] | None = None,
    ) -> PairMatches:
        """Indexed sentences that ``rule`` accepts as copies of each query bag.

        Args:
            bags: Query sentences' bags.
            rule: When a pair is a copy.
            docs: Document number of each query; an indexed sentence of the
                same document is never returned. None: no exclusion.
        """
        return self.search_each(bags, [rule], docs=docs)[0]

    def search_each(
        self, bags: Sequence[Bag], rules: Sequence[CopyRule], *, docs: Sequence[int] | None = None,
    ) -> list[PairMatches]:
        """:meth:`search` of the same bags for each of ``rules``, their
        candidates made by one product (``check`` asks for three)."""
        flat = FlatBags.of(bags)  # as they are when flat already (a document's)
        rows, features, occurrences = expand_flat(flat)
        usual, frequent, skipped = self._query_matrices(rows, features, occurrences, len(bags))
        sizes = flat.totals
        query_docs = np.full(len(bags), -1, np.int64) if docs is None else np.asarray(docs, np.int64)
        identical = self._groups.find(bags, lambda key: self.index.sentences[key].bag)  # the same for every rule
        searched = []
        for rule, accepted in zip(rules, self._blocks(usual, frequent, sizes, rules, below_self=False)):
            found = self._with_identical(self._matched(accepted, sizes, rule), identical, sizes)
            item, key = expand_queries(found.query, found.group, self._groups, self._docs, query_docs)
            searched.append(PairMatches(found.query[item], key, found.score[item], found.shared[item], found.candidates, skipped))
        return searched

    def search_all(
        self, rule: CopyRule, *, boilerplate: int = 0, crowded: Sequence[int] | np.ndarray = (), keep: PairFilter | None = None
    ) -> PairMatches:
        """Every pair of indexed sentences of different documents that ``rule``
        accepts, once: ``query`` is the larger key, ``key`` the smaller.

        The pairs are as many as the answer holds: a sentence in n documents
        has n (n - 1) / 2. The two options leave out, without ever making
        them, the pairs between two sentences a caller takes for boilerplate
        anyway (the search itself stays linear in the groups of identical
        sentences and their matches); a pair of such a sentence with any
        other is kept.

        Args:
            rule: When a pair is a copy.
            boilerplate: When > 0, the sentences that this search matches
                with sentences of this many other documents or more are
                returned in :attr:`PairMatches.boilerplate`, and the pairs
                between two of them are left out.
            crowded: Keys the pairs between two of which are left out.
            keep: Which pairs to return, told by (query, key, score) arrays
                (a mask): applied as the pairs are made, part by part, so
                that a search whose caller keeps a few of many pairs never
                holds them all. None: every pair.
        """
        # The k-th sentence holding a frequent feature skips the k - 1 before it.
        held = self._columns.sentences[self._columns.frequent].astype(np.int64)  # squared below
        skipped = int(np.sum(held * (held - 1) // 2))
        # The group pairs stay narrow and unscored: each slice is scored as it
        # is expanded (Accepted.scored_at).
        found = self._all_blocks(rule)
        sizes = self._group_sizes
        copies = accept(sizes, sizes, sizes, rule)[0]  # a bag is a copy of itself unless empty
        apart = np.zeros(len(self._docs), bool)
        apart[np.asarray(crowded, np.int64)] = True
        common = np.empty(0, np.int64)
        wide: tuple[np.ndarray, np.ndarray] | None = None  # the group pairs as int64, for the boilerplate rule
        if boilerplate > 0:
            wide = (found.query.astype(np.int64), found.group.astype(np.int64))
            many = crowded_groups(*wide, copies, self._groups, self._docs, boilerplate)
            common = np.sort(self._groups.members[np.repeat(many, self._groups.sizes)])
            apart[common] = True
        # Pairs between two groups all of whose members are apart are never made.
        out = np.bincount(self._groups.group_of[apart], minlength=len(self._groups)) == self._groups.sizes
        # int32, as the group pairs are (held while they are expanded).
        pairs = np.flatnonzero(~(found.of_query(out) & out[found.group])).astype(np.int32)
        blocks = Blocks.of(self._groups, self._docs)
        parts: list[tuple[np.ndarray, ...]] = []
        # A few sentence pairs at a time: the expansion's arrays are several times its
        # pairs (74 MB at once for the English bench corpus's 790,000 near misses).
        sizes_of = self._groups.sizes
        # The sentence pairs of each group pair, a part of the group pairs at
        # a time (an array of them at once was the loose search's peak).
        weights = (sizes_of[found.query_at(part)] * sizes_of[found.group[part]] for part in _parts(pairs, EXPAND_PAIRS))
        for low, high in weighted_slices_of(weights, EXPAND_PAIRS):
            chosen = found.scored_at(pairs[low:high], sizes, self._group_sizes, rule)
            item, query, key = expand_across(chosen.query, chosen.group, blocks, apart)
            parts.append(narrowed(kept_pairs(query, key, chosen.score[item], chosen.shared[item], keep)))
        del pairs
        selves = np.flatnonzero(copies & ~out & (self._groups.sizes > 1))
        within, larger, smaller = expand_within(selves, blocks, apart)
        parts.append(narrowed(kept_pairs(larger, smaller, np.ones(len(within), np.float64), sizes[selves][within], keep)))
        del within, larger, smaller  # the parts hold what is kept, narrow
        links = omitted_links(*wide, out, copies, blocks) if wide is not None else np.empty((0, 2), np.int64)
        query, key, score, shared = sorted_pairs(parts, max(len(self._docs), 1))
        return PairMatches(query, key, score, shared, found.candidates, skipped, common, links)

    def _with_identical(self, found: GroupMatches, identical: tuple[np.ndarray, np.ndarray], sizes: np.ndarray) -> GroupMatches:
        """Add each query's identical group (``identical``: query rows and
        their groups): a bag made only of over-frequent features shares no
        usual one with its copies, yet is their copy."""
        rows, groups = identical
        width = max(len(self._groups), 1)
        new = ~sorted_isin(rows * width + groups, found.query * width + found.group)
        rows, groups = rows[new], groups[new]
        query = np.concatenate((found.query, rows))
        group = np.concatenate((found.group, groups))
        score = np.concatenate((found.score, np.ones(len(rows), np.float64)))
        shared = np.concatenate((found.shared, sizes[rows]))
        return GroupMatches(query, group, score, shared, found.candidates + len(rows))

    def _blocks(
        self,
        usual: sparse.csr_matrix,
        frequent: sparse.csr_matrix,
        sizes: np.ndarray,
        rules: Sequence[CopyRule],
        *,
        below_self: bool,
    ) -> list[Accepted]:
        """The candidates of the blocked product, scored once for each of ``rules``."""
        parts = [AcceptedParts(usual.shape[0]) for _ in rules]
        candidates = 0
        for query, group, shared in self._products(usual, frequent, below_self):
            candidates += len(query)
            size_a, size_b = sizes[query], self._group_sizes[group]
            for rule, kept in zip(rules, parts):
                keep = accept(shared, size_a, size_b, rule)[0]
                kept.add(query[keep], group[keep], shared[keep])
        return [kept.accepted(candidates) for kept in parts]

    def _matched(self, accepted: Accepted, sizes: np.ndarray, rule: CopyRule) -> GroupMatches:
        """The group pairs ``rule`` accepted, with their scores (computed as
        when they were accepted: the same floats)."""
        return accepted.scored(sizes, self._group_sizes, rule)

    def _all_blocks(self, rule: CopyRule) -> Accepted:
        """:meth:`search_all`'s accepted group pairs of ``rule`` (narrow,
        unscored): those kept by the one product of :meth:`sharing_candidates`
        when ``rule`` is one of its rules, else a product of their own."""
        shared, sizes = self._shared, self._group_sizes
        if shared is None or not shared.expects(rule):
            return self._blocks(self._usual, self._frequent, sizes, [rule], below_self=True)[0]
        if shared.found is None:
            rules = list(shared.waiting)
            shared.found = dict(zip(rules, self._blocks(self._usual, self._frequent, sizes, rules, below_self=True)))
        return shared.take(rule)

    def _products(self, usual: sparse.csr_matrix, frequent: sparse.csr_matrix, below_self: bool) -> Iterable[Candidates]:
        """Each block's candidates with their full shared counts: the blocked
        product here, or the one the index is :meth:`using`."""
        bounds = self._block_bounds(usual)
        if self._product is None:
            return (self._candidates(usual, frequent, low, high, below_self) for low, high in bounds)
        c = self._columns
        usual_features = np.repeat(c.features[~c.frequent], c.width[~c.frequent])  # one a usual column
        request = ProductRequest(usual, self._usual_t, usual_features, bounds, below_self)
        return (self._with_frequent(frequent, *found) for found in self._product(request))

    def _block_bounds(self, usual: sparse.csr_matrix) -> list[tuple[int, int]]:
        """Row ranges of at most BLOCK_ROWS rows and, but for a single row,
        at most BLOCK_POSTINGS postings reached."""
        held = np.diff(self._usual_t.indptr).astype(np.int64)  # groups holding each column
        cost = usual @ held if usual.shape[1] else np.zeros(usual.shape[0], np.int64)
        bounds, low, spent = [], 0, 0
        for row, reach in enumerate(cost.tolist()):
            if row > low and (row - low >= BLOCK_ROWS or spent + reach > BLOCK_POSTINGS):
                bounds.append((low, row))
                low, spent = row, 0
            spent += reach
        if low < usual.shape[0]:
            bounds.append((low, usual.shape[0]))
        return bounds

    def _candidates(
        self,
        usual: sparse.csr_matrix,
        frequent: sparse.csr_matrix,
        low: int,
        high: int,
        below_self: bool,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(query row, group) pairs sharing a usual feature, with their full
        shared count (documents are told apart when groups are expanded)."""
        return self._with_frequent(frequent, *block_candidates(usual, self._usual_t, low, high, below_self))

    def _with_frequent(
        self, frequent: sparse.csr_matrix, query: np.ndarray, group: np.ndarray, shared: np.ndarray
    ) -> Candidates:
        """The shared counts of candidate pairs with their frequent features added."""
        if frequent.nnz and len(query):
            # Frequent features count in the score of a pair found otherwise.
            both = frequent[query].multiply(self._frequent[group])
            shared = shared + np.asarray(both.sum(axis=1), np.int64).ravel()
        return query, group, shared

    def _own_matrices(
        self, rows: np.ndarray, column: np.ndarray, frequent: np.ndarray
    ) -> tuple[sparse.csr_matrix, sparse.csr_matrix]:
        """:meth:`_query_matrices` of the index's own groups, whose features
        are all columns (:func:`~partialdup.index.matrix.own_columns`)."""
        return self._split_matrices(rows, column, ~frequent, frequent, len(self._groups))

    def _query_matrices(
        self, rows: np.ndarray, features: np.ndarray, occurrences: np.ndarray, count: int
    ) -> tuple[sparse.csr_matrix, sparse.csr_matrix, int]:
        """Rows over the usual and over the frequent columns (features the index
        lacks drop out), and the postings (sentences) the frequent ones hold."""
        c = self._columns
        if not len(c.features):
            empty = rows_matrix(rows[:0], rows[:0], count, 0)
            return empty, empty, 0
        where = np.minimum(np.searchsorted(c.features, features), len(c.features) - 1)
        known = (c.features[where] == features) & (occurrences < c.width[where])
        column = c.start[where] + occurrences
        usual, frequent = known & ~c.frequent[where], known & c.frequent[where]
        skipped = int(c.sentences[where[frequent & (occurrences == 0)]].sum())
        return (*self._split_matrices(rows, column, usual, frequent, count), skipped)

    def _split_matrices(
        self, rows: np.ndarray, column: np.ndarray, usual: np.ndarray, frequent: np.ndarray, count: int
    ) -> tuple[sparse.csr_matrix, sparse.csr_matrix]:
        """The ``count`` rows' matrices over the usual columns and over the
        frequent ones, of the entries (``rows``, ``column``) each mask picks."""
        c = self._columns
        return (
            rows_matrix(rows[usual], column[usual], count, int(c.width[~c.frequent].sum())),
            rows_matrix(rows[frequent], column[frequent], count, int(c.width[c.frequent].sum())),
        )


def load_sparse() -> None:
    """Imports SciPy's sparse matrices, which building an index needs (0.2 s;
    not at every start: ``--help``, reading, the features), for a caller with
    time to spare before it builds one."""
    import scipy.sparse  # noqa: F401


@dataclass(frozen=True)
class ReferenceIndex:
    """Reference documents, indexed for :meth:`partialdup.pipeline.detector.Detector.check_against`.

    Attributes:
        sentences: One row per matchable sentence; its ``index`` is the plain
            :class:`partialdup.index.inverted.FeatureIndex` it was built from.
        joins: One row per rejoined pair of neighbouring sentences (see
            :attr:`partialdup.core.types.DocumentFeatures.joins`); an entry's ``sentence`` is the
            first of the two.
    """

    sentences: SparseIndex
    joins: SparseIndex

    def using(self, product: CandidateProduct | None) -> ReferenceIndex:
        """This index, the candidate products of its sparse indexes run by
        ``product`` (see :meth:`SparseIndex.using`; other kinds of index are
        searched as they are)."""
        if product is None:
            return self
        sentences, joins = (i.using(product) if isinstance(i, SparseIndex) else i for i in (self.sentences, self.joins))
        return replace(self, sentences=sentences, joins=joins)

    def sharing_candidates(self, rules: Sequence[CopyRule]) -> ReferenceIndex:
        """This index, its sparse sentence index's ``search_all`` of each of
        ``rules`` scoring one product's candidates (see
        :meth:`SparseIndex.sharing_candidates`; other kinds of index are
        searched as they are)."""
        if not isinstance(self.sentences, SparseIndex):
            return self
        return replace(self, sentences=self.sentences.sharing_candidates(rules))

    def frequent_sentences(self) -> int:
        """Sentences holding a feature over ``max_postings`` (0 when the index
        cannot tell, as a store's partial index)."""
        count = getattr(self.sentences, "frequent_sentences", None)
        return int(count()) if count is not None else 0

    def feature_count(self) -> int:
        """Distinct features stored, counted in each of the two indexes."""
        return self.sentences.feature_count() + self.joins.feature_count()

    def posting_count(self) -> int:
        """Postings stored in the two indexes."""
        return self.sentences.posting_count() + self.joins.posting_count()


def _parts(items: np.ndarray, size: int) -> Iterator[np.ndarray]:
    """``items`` in consecutive slices of ``size`` (views)."""
    return (items[low : low + size] for low in range(0, len(items), size))
