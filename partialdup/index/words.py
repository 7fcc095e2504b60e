"""Word sets: a second candidate search of sentences, on their words.

The feature index finds an edited copy only while one of its Low-IDF-Sig
chains survives the edits. A chain starts at one of a sentence's *n*
lowest-IDF tokens and runs over the next ones, so a short sentence with one
word in five changed (``转义字符串一个`` / ``转义一个字符串``) often keeps none:
about one Chinese edited sentence in eight shares no feature with its source
at r = 0.2. Its words, though, are mostly still there. :class:`WordSets`
finds the sentence pairs whose sets of normalised words reach a Jaccard
similarity (:data:`WORD_JACCARD`); the edited-copy stage then judges them on
their word order (:mod:`partialdup.match.edited`) like any other candidate.

The search is exact and stays cheap by *prefix filtering* (Chaudhuri et al.
2006; Xiao et al., PPJoin, 2008): order every word by how many sentences hold
it, rarest first; two sets of Jaccard at least t share one of the first
``|x| - ceil(t |x|) + 1`` words of each. Only those prefixes are multiplied
(one sparse product per block of queries), so the common words (的, the,
使用), which would make the candidates quadratic, never pair two sentences
on their own. Before a candidate's sets are compared, two bounds rule most
out: PPJoin's positional one, and one from a 64-bit filter of each set's
words (the bits both filters set plus the words beyond each filter's
distinct bits: nine candidates in ten on the Chinese bench corpus); the
rest are scored on their whole sets. The plain reference,
:func:`plain_word_pairs`, compares every pair; the tests check that the two
agree.
"""

from __future__ import annotations

from itertools import chain
from math import ceil
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence

import numpy as np

from partialdup.core.arrays import mix64, overlap_bound, popcount, weighted_slices

if TYPE_CHECKING:
    from scipy import sparse

__all__ = [
    "WORD_JACCARD", "WORD_POSTINGS", "WordNumbering", "WordSets", "distinct_sizes", "distinct_words", "plain_word_pairs", "prefix_words",
    "word_jaccard", "word_numbers",
]

#: Least Jaccard of two sentences' word sets for a candidate pair: one word
#: in five replaced leaves two sets of ten words at 8 / 12 = 0.67, one in
#: three at about 0.5; sentences of one subject that are no copies share a
#: word or two of ten.
WORD_JACCARD = 0.4

#: Words held by more sentences than this find no candidates (see
#: :class:`WordSets`): they would make the candidates quadratic (every pair
#: of the 2,000 sentences holding 使用), and a copy shares rarer words too.
#: On the r = 0.2 edit set (85,000 sentences), 100 keeps 24,000 of the
#: 115,000 pairs at Jaccard 0.4 and nearly all the gain in plagdet, at a
#: fifteenth of the time of no cap (docs/evaluation.md, *Edited copies*).
WORD_POSTINGS = 100

#: Query rows per sparse product (bounds the memory of one block: at 2,048
#: a block's candidates were the peak of the Chinese bench corpus's 8x
#: word-set search, 37.3 MB traced against 32.6 at 1,024, for the same time).
_BLOCK_ROWS = 1024

#: Candidate pairs whose shared words are counted at once (bounds the memory
#: of the rows copied out for it).
_PAIRS_AT_ONCE = 1 << 15


def word_jaccard(first: Sequence[str], second: Sequence[str]) -> float:
    """Jaccard similarity of two sentences' word sets (0 when both are empty)."""
    a, b = set(first), set(second)
    union = len(a | b)
    return len(a & b) / union if union else 0.0


class WordSets:
    """Word sets of two collections of sentences (or one, searched against itself).

    Args:
        left: Word sequences of the query sentences.
        right: Word sequences of the indexed sentences; None: ``left`` is
            searched against itself (each pair once).
        threshold: Least Jaccard of a returned pair, in (0, 1].
        max_postings: A word held by more sentences than this (both sides
            counted) finds no candidates: pairs sharing it are still found
            through their rarer words and scored on every word.
        right_held: Per word, the sentences of the whole collection ``right``
            is part of that hold it (absent: none), counted instead of
            ``right``'s own: searched with the collection's counts, the rows
            of ``right`` pair exactly as they do among all of the
            collection's sentences (the word order, the prefixes and the
            common words are the collection's). None: ``right`` is the
            whole collection.
    """

    def __init__(
        self,
        left: Sequence[Sequence[str]],
        right: Sequence[Sequence[str]] | None,
        threshold: float,
        *,
        max_postings: int = WORD_POSTINGS,
        right_held: Mapping[str, int] | None = None,
    ) -> None:
        columns = WordNumbering()
        # Numbered, then made sets, one side at a time (the words' arrays go
        # once their sets are made: each is tens of MB on large runs).
        left_sets = distinct_sizes(*word_numbers(left, columns))
        right_sets = None if right is None else distinct_sizes(*word_numbers(right, columns))
        outside = None
        if right is not None and right_held is not None:
            outside = np.zeros(len(columns), np.int64)
            for word, column in columns.items():
                outside[column] = right_held.get(word, 0)
        self._setup(left_sets, right_sets, list(columns), threshold, max_postings, outside)

    @classmethod
    def of_columns(
        cls, lengths: np.ndarray, columns: np.ndarray, words: Sequence[str], threshold: float, *,
        max_postings: int = WORD_POSTINGS,
    ) -> WordSets:
        """The word sets of sentences already numbered, searched against
        themselves (the pairs of ``WordSets(sentences, None, threshold)``).

        Args:
            lengths: Words of each sentence.
            columns: Every sentence's words, in order, as column numbers.
            words: Each column's word (ties in rarity go by the word).
            threshold: As for the class.
            max_postings: As for the class.
        """
        return cls.of_sizes(*distinct_sizes(np.asarray(lengths, np.int64), np.asarray(columns, np.int32)), words, threshold,
                            max_postings=max_postings)

    @classmethod
    def of_sets(
        cls, rows: np.ndarray, columns: np.ndarray, count: int, words: Sequence[str], threshold: float, *,
        max_postings: int = WORD_POSTINGS,
    ) -> WordSets:
        """:meth:`of_columns` of the sentences' distinct words already made
        (:func:`distinct_words` of ``count`` sentences)."""
        return cls.of_sizes(np.bincount(rows, minlength=count).astype(np.int64), columns, words, threshold, max_postings=max_postings)

    @classmethod
    def of_sizes(
        cls, sizes: np.ndarray, columns: np.ndarray, words: Sequence[str], threshold: float, *,
        max_postings: int = WORD_POSTINGS,
    ) -> WordSets:
        """:meth:`of_columns` of the sentences' distinct words already made,
        as :func:`distinct_sizes` gives them (each sentence's count and every
        sentence's columns, no row number a word): a caller that lets the
        words' columns go once they are made holds them only until then."""
        sets = cls.__new__(cls)
        sets._setup((sizes, columns), None, words, threshold, max_postings, None)
        return sets

    def _setup(
        self, left_sets: tuple[np.ndarray, np.ndarray], right_sets: tuple[np.ndarray, np.ndarray] | None,
        words: Sequence[str], threshold: float, max_postings: int, outside: np.ndarray | None,
    ) -> None:
        # Each side's distinct words (each row's count, every row's columns); ``words``: each column's
        # word; ``outside``: per column, the sentences of the collection
        # counted instead of the right side's own (see the class).
        if not 0.0 < threshold <= 1.0 or max_postings < 1:
            raise ValueError("threshold must lie in (0, 1] and max_postings be >= 1")
        self.threshold = threshold
        self.max_postings = max_postings
        self._self = right_sets is None
        width = len(words)
        held = np.bincount(left_sets[1], minlength=width)
        if outside is not None:
            held += outside
        elif right_sets is not None:
            held += np.bincount(right_sets[1], minlength=width)
        # Rarest first, ties by the word itself: with capped postings the
        # prefixes, and so the pairs found, must not depend on the order of
        # the input (columns are numbered in input order).
        alphabetical = np.empty(width, np.int64)
        # The words made strings for the sort only (words held packed make one a read).
        listed = words if isinstance(words, list) else list(words)
        alphabetical[np.fromiter(sorted(range(width), key=listed.__getitem__), np.int64, width)] = np.arange(width)
        del listed
        rank = np.empty(width, np.int64)
        rank[np.lexsort((alphabetical, held))] = np.arange(width)
        common = held > self.max_postings
        self._left = _SideSets(*left_sets, rank, threshold, width, common)
        self._right = self._left if right_sets is None else _SideSets(*right_sets, rank, threshold, width, common)

    def pairs(self) -> Iterator[tuple[int, int, float]]:
        """(query row, indexed row, Jaccard) of every pair reaching the
        threshold, sorted by (query row, indexed row); against itself, the
        query row is the larger."""
        for query, key, score in self.pair_blocks():
            yield from zip(query.tolist(), key.tolist(), score.tolist())

    def pair_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`pairs` as three arrays (query rows and indexed rows int64,
        Jaccard float64), without a tuple and three numbers made for each
        pair."""
        blocks = list(self.pair_blocks())
        if not blocks:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float64)
        query, key, score = (np.concatenate(column) for column in zip(*blocks))
        return query, key, score

    def pair_blocks(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """:meth:`pairs` block by block of query rows, as arrays."""
        left, right = self._left, self._right
        right_t = right.prefix.T.tocsr()
        for start in range(0, len(left.sizes), _BLOCK_ROWS):
            stop = min(start + _BLOCK_ROWS, len(left.sizes))
            candidates = (left.prefix[start:stop] @ right_t).tocoo()
            # The product's own int32 rows and columns, each test narrowing
            # them before the next reads them (seven million candidates on
            # the bench corpora, a half of them the same pair twice).
            query, key, prefix_shared = candidates.row + start, candidates.col, candidates.data
            if self._self:
                below = np.flatnonzero(key < query)
                query, key, prefix_shared = query[below], key[below], prefix_shared[below]
            # As positions (intp), once: each look-up below would convert them anew.
            query, key = query.astype(np.int64, copy=False), key.astype(np.int64, copy=False)
            a, b = left.sizes[query], right.sizes[key]
            # Sizes alone bound the Jaccard: min / max.
            keep = np.flatnonzero(np.minimum(a, b) >= self.threshold * np.maximum(a, b))
            del a, b
            # Prefix filtering's positional bound: of the two prefixes, the one
            # ending on the rarer word (x) meets the other sentence only in
            # its prefix, so they share at most the prefix words both hold
            # (the product's count, plus x's common words left out of it)
            # and the words after x's prefix; a pair needs t (|x| + |y|) / (1 + t).
            query, key, prefix_shared = query[keep], key[keep], prefix_shared[keep]
            x_is_query = left.last_rank[query] <= right.last_rank[key]
            bound = prefix_shared + np.where(
                x_is_query,
                left.common_in_prefix[query] + left.after_prefix[query],
                right.common_in_prefix[key] + right.after_prefix[key],
            )
            needed = self.threshold * (left.sizes[query] + right.sizes[key]) / (1 + self.threshold) - 1e-9
            keep = np.flatnonzero(bound >= needed)
            query, key, needed = query[keep], key[keep], needed[keep]
            # The filters' bound (see _SideSets): nine pairs in ten of those
            # left here go, without comparing their words.
            most = overlap_bound(left.filters[query], left.spare[query], right.filters[key], right.spare[key])
            keep = np.flatnonzero(most >= needed)
            if not len(keep):
                continue
            query, key = query[keep], key[keep]
            shared = left.shared_with(query, right, key)
            score = shared / (left.sizes[query] + right.sizes[key] - shared)
            accept = score >= self.threshold
            query, key, score = query[accept], key[accept], score[accept]
            order = np.lexsort((key, query))
            yield query[order], key[order], score[order]


class WordNumbering(dict):
    """Words and their column numbers: a word not yet held is numbered on
    when first looked up (in order of first occurrence)."""

    __slots__ = ()

    def __missing__(self, word: str) -> int:
        number = self[word] = len(self)
        return number


def word_numbers(sentences: Sequence[Sequence[str]], columns: WordNumbering) -> tuple[np.ndarray, np.ndarray]:
    """Each sentence's length (int64) and every word of every sentence as
    its column number (int32: fewer than 2**31 distinct words long before
    such a run fits in memory); the words ``columns`` lacks are numbered on,
    in order of first occurrence, into it."""
    lengths = np.fromiter(map(len, sentences), np.int64, len(sentences))
    # Every word looked up by C loops (map, fromiter) straight into an array,
    # in one pass: a Python step per new word only (WordNumbering), where
    # numbering the distinct words first read every word twice (a third
    # more time); a list would hold an int object per word (1.5 million on
    # the Chinese bench corpus, 54 MB).
    numbers = np.fromiter(map(columns.__getitem__, chain.from_iterable(sentences)), np.int32, int(lengths.sum()))
    return lengths, numbers


def distinct_words(lengths: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct words of each sentence, from each sentence's length and
    every sentence's words as column numbers: (row, column) pairs sorted by
    row, then column (as int32: a row or column number is below 2**31 long
    before such a run fits in memory)."""
    sizes, kept = distinct_sizes(lengths, cols)
    return np.repeat(np.arange(len(sizes), dtype=np.int32), sizes), kept


#: Words whose distinct words are sorted out at once (:func:`distinct_sizes`).
_DISTINCT_AT_ONCE = 1 << 18


def distinct_sizes(lengths: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`distinct_words` as each sentence's count of distinct words
    (int64) and their columns, row after row, each row's sorted (int32): no
    row number a word, which the word sets never need (4 bytes a word, held
    through the word-set search's peak)."""
    # One int64 key per word, sorted a stretch of whole rows at a time (a
    # row's words sort among themselves): every word's key at once, and a
    # copy without the repeats, were 8 to 16 bytes a word at the peak of the
    # process running the word-set search. The columns kept go into one
    # array as they come, cut to their count at the end.
    lengths = np.asarray(lengths, np.int64)
    stride = int(cols.max()) + 1 if len(cols) else 1
    kept = np.empty(len(cols), np.int32)
    sizes = np.zeros(len(lengths), np.int64)
    read = filled = 0
    for low, high in weighted_slices(lengths, _DISTINCT_AT_ONCE):
        keys = np.repeat(np.arange(high - low, dtype=np.int64) * stride, lengths[low:high])
        keys += cols[read : read + len(keys)]
        read += len(keys)
        # In place; sorting, not np.unique: 70x faster on these nearly sorted
        # keys; and a stable sort (a merge of runs) 5x faster than the default here.
        keys.sort(kind="stable")
        repeated = keys[1:] == keys[:-1]
        if repeated.any():  # (copied only then: sets already distinct, as a prefix's, are not)
            keys = keys[np.concatenate(([True], ~repeated))]
        del repeated
        sizes[low:high] = np.bincount(keys // stride, minlength=high - low)
        keys %= stride
        kept[filled : filled + len(keys)] = keys
        filled += len(keys)
    kept.resize(filled, refcheck=False)  # in place: nothing else holds it
    return sizes, kept


#: Rows whose sets' filters are made at once (bounds the array of a word each).
_FILTER_ROWS = 1 << 15


def _set_filters(column_bits: np.ndarray, cols: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    # Each row's filter: the OR of its words' bits (0 for an empty row), a
    # block of rows at a time (a uint64 a word at once was 8 bytes a word).
    filters = np.zeros(len(sizes), np.uint64)
    for low in range(0, len(sizes), _FILTER_ROWS):
        high = min(low + _FILTER_ROWS, len(sizes))
        filled = np.flatnonzero(sizes[low:high] > 0) + low
        if len(filled):
            first, last = int(starts[low]), int(starts[high - 1] + sizes[high - 1])
            filters[filled] = np.bitwise_or.reduceat(column_bits[cols[first:last]], starts[filled] - first)
    return filters


#: Words whose (row, rank) keys are sorted at once (:func:`_ranks_by_row`).
_RANKED_AT_ONCE = 1 << 18


def _ranks_by_row(sizes: np.ndarray, cols: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The rank of each word of each row (row ``i`` holds ``sizes[i]``
    words of ``cols``, rows in order), each row's ranks sorted, rows in
    place (int32). Sorted as (row, rank) keys a stretch of whole rows at a
    time: one int64 key a word at once was 8 bytes a word, the peak of the
    process running the word-set search (13 MB on the English bench corpus,
    traced)."""
    ranks = np.empty(len(cols), np.int32)
    read = 0
    # A row longer than a stretch is a stretch of its own.
    for low, high in weighted_slices(sizes, _RANKED_AT_ONCE):
        key = np.repeat(np.arange(high - low, dtype=np.int64), sizes[low:high])
        key <<= 32
        key |= rank[cols[read : read + len(key)]]
        key.sort()
        key &= 0xFFFFFFFF
        ranks[read : read + len(key)] = key
        read += len(key)
    return ranks


def _rows_matrix(cols: np.ndarray, sizes: np.ndarray, width: int, data: type = np.float32) -> sparse.csr_matrix:
    from scipy import sparse  # lazily: imported once the index is built, not at every start

    # The 0/1 matrix of each row's columns (``sizes`` of them a row, in order), made
    # as CSR at once (through COO it would copy the pairs twice more). Half
    # the memory of float64 and int64: float32 counts shared words exactly
    # (up to 2**24 words a sentence), and int32 indexes hold 2**31 - 1
    # pairs (SciPy would widen int32 columns to an int64 indptr's type).
    index = np.int32 if len(cols) < np.iinfo(np.int32).max and width < np.iinfo(np.int32).max else np.int64
    indptr = np.zeros(len(sizes) + 1, index)
    np.cumsum(sizes, out=indptr[1:])
    return sparse.csr_matrix((np.ones(len(cols), data), cols.astype(index, copy=False), indptr), shape=(len(sizes), width))


class _SideSets:
    """One side's word sets: the 0/1 matrix of the sets, their sizes, and
    the matrix of their prefixes."""

    def __init__(
        self, sizes: np.ndarray, cols: np.ndarray, rank: np.ndarray, threshold: float, width: int, common: np.ndarray,
    ) -> None:
        # Each row's distinct words and their columns, row after row (no row
        # number a word: 4 bytes a word, held through the search's peak).
        self.sizes = np.asarray(sizes, np.int64)
        count = len(self.sizes)
        # Bool: only multiplied element-wise and counted (shared_with), a
        # quarter of float32's bytes (4 MB less on the English bench corpus).
        self.full = _rows_matrix(cols, self.sizes, width, np.bool_)
        starts = np.concatenate(([0], np.cumsum(self.sizes)[:-1])).astype(np.int64) if count else self.sizes
        # Each row's words rarest first; the first |x| - ceil(t |x|) + 1 of
        # them are its prefix (a set of Jaccard >= t with another shares one
        # of them with it), less the common words.
        # Rows (sorted) then rank, as one integer key, sorted in place: the
        # ranks of a row's distinct words differ, so each row keeps its place
        # (position i is still a word of rows[i]) and its words come rarest
        # first; a word's column is read back from its rank. (No order of
        # positions is made: argsort's int64 copy was 8 bytes a word, the
        # peak of the process running the search. The arrays of a side are
        # tens of MB each on large runs: they are made in place where they
        # can be, and go once used.)
        ranks = _ranks_by_row(self.sizes, cols, rank.astype(np.int32))  # each position's word's rank, rows in place
        longest = self.sizes - np.ceil(threshold * self.sizes - 1e-9).astype(np.int64) + 1
        # For the overlap bound of WordSets.pairs: the rank of each prefix's
        # last word, the common words it holds, and the words after it.
        filled = self.sizes > 0
        self.last_rank = np.full(count, -1, np.int64)
        self.last_rank[filled] = ranks[(starts + longest - 1)[filled]]
        # A row's first `longest` words are its prefix: the mask repeats
        # True and False for each row (no position or row number a word,
        # int32 or more: the peak of the process running the search).
        take = np.minimum(longest, self.sizes)
        spans = np.empty(2 * count, np.int64)
        spans[0::2], spans[1::2] = take, self.sizes - take
        in_prefix = np.repeat(np.tile(np.array([True, False]), count), spans)
        del spans
        column_of_rank = np.empty(width, np.int32)
        column_of_rank[rank] = np.arange(width, dtype=np.int32)
        prefix_cols = column_of_rank[ranks[in_prefix]]
        del ranks, in_prefix
        prefix_rows = np.repeat(np.arange(count, dtype=np.int32), take)
        is_common = common[prefix_cols]
        self.common_in_prefix = np.bincount(prefix_rows[is_common], minlength=count)
        is_common = ~is_common
        # Back in (row, column) order (distinct already: each once a row).
        prefix_sizes = np.bincount(prefix_rows[is_common], minlength=count)
        chosen = distinct_sizes(prefix_sizes, prefix_cols[is_common])[1]
        del prefix_rows, prefix_cols, is_common, take
        self.prefix = _rows_matrix(chosen, prefix_sizes, width)
        del chosen  # before the filters' array of a word each
        self.after_prefix = self.sizes - np.where(filled, longest, 0)
        # A 64-bit filter of each set (one bit per word, from its column):
        # two sets share at most the bits both filters set, plus the words
        # of either beyond its filter's distinct bits (``spare``).
        # Each column's bit made once (mix64 works value by value), then
        # looked up per word.
        column_bits = np.left_shift(np.uint64(1), mix64(np.arange(width, dtype=np.uint64)) & np.uint64(63))
        self.filters = _set_filters(column_bits, cols, starts, self.sizes)
        self.spare = self.sizes - popcount(self.filters)

    def shared_with(self, rows: np.ndarray, other: "_SideSets", other_rows: np.ndarray) -> np.ndarray:
        """Words shared by each sentence ``rows[i]`` of this side and
        ``other_rows[i]`` of ``other`` (int64; an element-wise product of
        the rows' 0/1 vectors, faster here than looking each word up)."""
        if not len(rows):
            return np.zeros(0, np.int64)
        # In pieces: the rows picked out are copies (a block's candidates, 90 MB at once).
        return np.concatenate([
            np.asarray(self.full[rows[at:at + _PAIRS_AT_ONCE]].multiply(
                other.full[other_rows[at:at + _PAIRS_AT_ONCE]]).sum(axis=1)).ravel()
            for at in range(0, len(rows), _PAIRS_AT_ONCE)
        ])


def prefix_words(words: Sequence[str], held: Mapping[str, int], threshold: float, max_postings: int) -> list[str]:
    """The words through which :class:`WordSets` pairs one sentence: the
    first ``|x| - ceil(t |x|) + 1`` of its distinct words, rarest first by
    ``held`` (the sentences holding each, both sides counted; ties by the
    word), less those held by more than ``max_postings``. Two sentences are
    candidates exactly when their prefix words meet (a plain restatement of
    :class:`_SideSets`' prefixes, for a search that reads the candidates of
    a few words only: :mod:`partialdup.store`)."""
    distinct = sorted(set(words), key=lambda word: (held.get(word, 0), word))
    longest = len(distinct) - ceil(threshold * len(distinct) - 1e-9) + 1
    return [word for word in distinct[:longest] if held.get(word, 0) <= max_postings]


def plain_word_pairs(
    left: Sequence[Sequence[str]], right: Sequence[Sequence[str]] | None, threshold: float
) -> list[tuple[int, int, float]]:
    """The plain reference of :meth:`WordSets.pairs`: every pair compared."""
    found = []
    for i, first in enumerate(left):
        others = left[:i] if right is None else right
        for j, second in enumerate(others):
            if first and second:
                score = word_jaccard(first, second)
                if score >= threshold:
                    found.append((i, j, score))
    return found
