"""Hooks for the steps between the two parallel stages: pure verdicts over
many sentence pairs, and a search run while another runs.

Between the features and the pair tails the calling process works alone:
the look-ups, then the tail's character checks of near misses
(:meth:`~partialdup.match.verify.NearMissCheck.accepted`) and word checks
of edited copies (:meth:`~partialdup.pipeline.edits.EditedStage._edited_copies`).
Parts of that work are independent of the rest and can run on other
cores with the same results:

* each near miss's and each loose candidate's verdict is a pure function of
  its two sentences, so an engine may judge chunks of them elsewhere
  (:data:`Judged`) and hand back, in order, the records it accepts; the
  bookkeeping (which pairs are already found, adding the copies in order)
  stays with the caller;
* the word-set search of edited copies needs only the documents, so an
  engine may run it beside the feature searches (:data:`Beside`);
* ``detect``'s near misses are known once the look-ups have searched them,
  and their verdicts need only the sentences' texts: an engine may start
  judging them in processes forked as the reading starts, sent the texts and
  the records as numbers (:class:`NearPieces`), while the look-ups go on
  (:data:`PiecesSoon`).

The pipeline's stages take these as plain callables from the engine
(:mod:`partialdup.pipeline.parallel` runs them on worker processes), never
the engine itself; without one, the work is done here, in order
(:func:`inline_judged`, :func:`inline_beside`). A judge is a module-level
function (a pool names it when it sends work) of the detector, the A and B
documents, a chunk of records and a memo the judge may keep between the
chunks of one pass (a worker's own).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence, TypeVar

import numpy as np

from partialdup.core.joined_texts import JoinedTexts
from partialdup.core.types import DocumentFeatures
from partialdup.match.pairs import SentenceKey
from partialdup.match.verify import NearSentences

if TYPE_CHECKING:
    from partialdup.pipeline.edits import EditedStage

__all__ = [
    "Apart",
    "Beside",
    "Judge",
    "Judged",
    "NearPieces",
    "PiecesSoon",
    "Record",
    "edited_copies",
    "inline_apart",
    "inline_beside",
    "inline_judged",
    "inline_pieces",
    "judging",
    "near_copies",
    "near_copy_rows",
]

T = TypeVar("T")

#: (first sentence, second sentence, score): a near miss or a loose candidate.
Record = tuple[SentenceKey, SentenceKey, float]

#: judge(detector, A documents, B documents, records, memo) -> the chunk's
#: results, in order (a pure function of the records' sentences).
Judge = Callable[[Any, Sequence[DocumentFeatures], Sequence[DocumentFeatures], Iterable[Any], dict], list[Any]]

#: judged(judge, A documents, B documents, records) -> the judge's results
#: over every record, in the records' order (the chunks' results put together).
Judged = Callable[[Judge, Sequence[DocumentFeatures], Sequence[DocumentFeatures], Iterable[Any]], Iterable[Any]]

#: pieces_soon(count, there, data, here, weight=) -> a callable that gives
#: the pieces' results in order, the work started now where it can be
#: (``data()`` made only when the pieces are sent elsewhere; see
#: :meth:`~partialdup.pipeline.parallel.Engine.pieces_soon`).
PiecesSoon = Callable[..., Callable[[], list[Any]]]

#: beside(work, weight) -> a callable that returns work()'s result (the work
#: may run meanwhile in another process, or only when the result is asked
#: for); ``weight``: the sentences it reads (small work is not worth a process).
Beside = Callable[[Callable[[], T], int], Callable[[], T]]


#: apart(works) -> a callable per work that gives its result: each work a
#: module-level function and its (picklable) arguments, run in a process
#: that holds little of the caller's memory (the arrays it is sent), or here
#: when its result is asked for.
Apart = Callable[[Sequence[tuple[Callable[..., Any], tuple]]], list[Callable[[], Any]]]


def near_copies(
    detector: Any, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures], records: Iterable[Record],
    memo: dict,
) -> list[Record]:
    """The near misses whose characters agree (see
    :meth:`~partialdup.match.verify.NearMissCheck.accepted`); ``memo`` keeps
    the sentences' letters."""
    return detector._near.accepted(records, a_docs, b_docs, memo)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class NearPieces:
    """``detect``'s near misses to judge, compact, in pieces (see
    :meth:`~partialdup.pipeline.lookups.LookupStage._near_judged_soon`).

    Attributes:
        sentences: The sentences the records name, by number.
        first: Each record's first sentence's number (int32).
        second: Each record's second sentence's number (int32).
        size: Records a piece.
        memo: The sentences' letters made so far in this process (each
            process its own copy).
    """

    sentences: NearSentences
    first: np.ndarray
    second: np.ndarray
    size: int
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        """How many pieces."""
        return -(-len(self.first) // self.size)

    def joined(self) -> NearPieces:
        """The pieces as sent to a helper: their sentences' texts made and
        joined (:class:`~partialdup.core.joined_texts.JoinedTexts`: the
        helper reads no document), a memo of its own."""
        sentences = NearSentences(JoinedTexts.of(self.sentences.texts), self.sentences.tokens)
        return replace(self, sentences=sentences, memo={})


def near_copy_rows(detector: Any, pieces: NearPieces, number: int) -> np.ndarray:
    """The rows (in the whole list, ascending) of piece ``number``'s records
    whose characters agree (:meth:`~partialdup.match.verify.NearMissCheck.copied_rows`)."""
    low = number * pieces.size
    rows = detector._near.copied_rows(pieces.first[low : low + pieces.size], pieces.second[low : low + pieces.size],
                                      pieces.sentences, pieces.memo)
    return rows + low  # type: ignore[no-any-return]


def edited_copies(
    detector: EditedStage, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures], records: Iterable[Record],
    memo: dict,
) -> list[tuple[SentenceKey, SentenceKey, float, bool]]:
    """The loose candidates whose words make an edited copy, with whether
    each is tentative (see :meth:`~partialdup.pipeline.edits.EditedStage._edited_copies`);
    ``memo`` keeps the sentences' words."""
    return detector._edited_copies(records, a_docs, b_docs, memo)


def inline_pieces(
    count: int, there: Callable[[Any, Any, int], T], data: Callable[[], Any], here: Callable[[int], T], *, weight: int,
) -> Callable[[], list[T]]:
    """``pieces_soon`` that computes every piece here (``here(k)``), when
    the results are asked for (``data`` is never made)."""
    return lambda: [here(k) for k in range(count)]


def inline_judged(detector: Any) -> Judged:
    """``judged`` that runs the judge here, over every record at once."""

    def judged(judge: Judge, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures], records: Iterable[Any]) -> list[Any]:
        return judge(detector, a_docs, b_docs, records, {})

    return judged


def judging(
    judged: Judged | None, judge: Judge, a_docs: Sequence[DocumentFeatures], b_docs: Sequence[DocumentFeatures]
) -> Callable[[Iterable[Any]], Iterable[Any]] | None:
    """``judged`` bound to a judge and its documents (None: none given, the
    caller judges in order itself)."""
    if judged is None:
        return None
    return lambda records: judged(judge, a_docs, b_docs, records)


def inline_beside(work: Callable[[], T], weight: int = 0) -> Callable[[], T]:
    """``beside`` that runs nothing beside: the work is done when its result
    is asked for."""
    return work


def inline_apart(works: Sequence[tuple[Callable[..., Any], tuple]]) -> list[Callable[[], Any]]:
    """``apart`` that runs each work here, at once and in order, each result
    held until asked for. ``detect`` sends its side searches before it
    builds the index: run then, their working arrays do not come on top of
    the look-ups' results (asked for at the look-ups' end, the word sets'
    were the peak of a run in one process: zh 8x ``--jobs 1`` 316-318 MB,
    293-296 MB run at once; docs/benchmark.md, session 49)."""
    return [partial(_given, function(*args)) for function, args in works]


def _given(result: T) -> T:
    return result
