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
on their own; every candidate is then scored on its whole sets. The plain
reference, :func:`plain_word_pairs`, compares every pair; the tests check
that the two agree.
"""

from __future__ import annotations

import math
from typing import Iterator, Sequence

import numpy as np
from scipy import sparse

__all__ = ["WORD_JACCARD", "WORD_POSTINGS", "WordSets", "plain_word_pairs", "word_jaccard"]

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

#: Query rows per sparse product (bounds the memory of one block).
_BLOCK_ROWS = 4096


def word_jaccard(first: Sequence[str], second: Sequence[str]) -> float:
    """Jaccard similarity of two sentences' word sets (0 when both are empty)."""
    a, b = set(first), set(second)
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def _prefix_length(size: int, threshold: float) -> int:
    # A set of Jaccard >= t with another shares one of its first
    # size - ceil(t * size) + 1 words (in the global order) with it.
    return size - math.ceil(threshold * size - 1e-9) + 1


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
    """

    def __init__(
        self,
        left: Sequence[Sequence[str]],
        right: Sequence[Sequence[str]] | None,
        threshold: float,
        *,
        max_postings: int = WORD_POSTINGS,
    ) -> None:
        if not 0.0 < threshold <= 1.0 or max_postings < 1:
            raise ValueError("threshold must lie in (0, 1] and max_postings be >= 1")
        self.threshold = threshold
        self.max_postings = max_postings
        self._self = right is None
        columns: dict[str, int] = {}
        left_sets = [_columns(words, columns) for words in left]
        right_sets = left_sets if right is None else [_columns(words, columns) for words in right]
        held = np.zeros(len(columns), np.int64)
        for sets in (left_sets,) if right is None else (left_sets, right_sets):
            for row in sets:
                held[row] += 1
        # Rarest first, ties by the word itself: with capped postings the
        # prefixes, and so the pairs found, must not depend on the order of
        # the input (columns are numbered in input order).
        alphabetical = np.empty(len(columns), np.int64)
        alphabetical[[column for _, column in sorted(columns.items())]] = np.arange(len(columns))
        rank = np.empty(len(columns), np.int64)
        rank[np.lexsort((alphabetical, held))] = np.arange(len(columns))
        self._width = len(columns)
        common = held > self.max_postings
        self._left = _matrices(left_sets, rank, threshold, self._width, common)
        self._right = self._left if right is None else _matrices(right_sets, rank, threshold, self._width, common)

    def pairs(self) -> Iterator[tuple[int, int, float]]:
        """(query row, indexed row, Jaccard) of every pair reaching the
        threshold, sorted by (query row, indexed row); against itself, the
        query row is the larger."""
        full_left, prefix_left, size_left = self._left
        full_right, prefix_right, size_right = self._right
        right_t = prefix_right.T.tocsr()
        for start in range(0, full_left.shape[0], _BLOCK_ROWS):
            stop = min(start + _BLOCK_ROWS, full_left.shape[0])
            candidates = (prefix_left[start:stop] @ right_t).tocoo()
            query, key = candidates.row.astype(np.int64) + start, candidates.col.astype(np.int64)
            keep = key < query if self._self else np.ones(len(query), bool)
            a, b = size_left[query], size_right[key]
            # Sizes alone bound the Jaccard: min / max.
            keep &= np.minimum(a, b) >= self.threshold * np.maximum(a, b)
            query, key = query[keep], key[keep]
            if not len(query):
                continue
            shared = np.asarray(full_left[query].multiply(full_right[key]).sum(axis=1)).ravel()
            score = shared / (size_left[query] + size_right[key] - shared)
            accept = score >= self.threshold
            query, key, score = query[accept], key[accept], score[accept]
            order = np.lexsort((key, query))
            yield from zip(query[order].tolist(), key[order].tolist(), score[order].tolist())


def _columns(words: Sequence[str], columns: dict[str, int]) -> np.ndarray:
    # The distinct words of a sentence as column numbers (new words numbered on).
    return np.fromiter(sorted({columns.setdefault(w, len(columns)) for w in words}), np.int64)


def _matrices(
    sets: Sequence[np.ndarray], rank: np.ndarray, threshold: float, width: int, common: np.ndarray
) -> tuple[sparse.csr_matrix, sparse.csr_matrix, np.ndarray]:
    """The 0/1 matrix of the sets, the matrix of their prefixes, their sizes."""
    sizes = np.fromiter((len(s) for s in sets), np.int64, len(sets))
    rows = np.repeat(np.arange(len(sets)), sizes)
    cols = np.concatenate(sets) if len(sets) else np.empty(0, np.int64)
    full = sparse.csr_matrix((np.ones(len(cols), np.float64), (rows, cols)), shape=(len(sets), width))
    prefix_rows, prefix_cols = [], []
    for row, columns in enumerate(sets):
        if len(columns):
            rarest = columns[np.argsort(rank[columns], kind="stable")][: _prefix_length(len(columns), threshold)]
            rarest = rarest[~common[rarest]]
            prefix_rows.append(np.full(len(rarest), row, np.int64))
            prefix_cols.append(rarest)
    if prefix_rows:
        pr, pc = np.concatenate(prefix_rows), np.concatenate(prefix_cols)
    else:
        pr = pc = np.empty(0, np.int64)
    prefix = sparse.csr_matrix((np.ones(len(pc), np.float64), (pr, pc)), shape=(len(sets), width))
    return full, prefix, sizes


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
