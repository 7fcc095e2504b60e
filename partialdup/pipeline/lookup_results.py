"""What the look-ups found, in the one shape ``detect`` and ``check`` hand
to the shared tail (:class:`Lookups`), and the run statistics their
searches give (:func:`search_stats`); the look-ups themselves are
:mod:`partialdup.pipeline.lookups`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from partialdup.core.deferred import Deferred
from partialdup.core.types import RunStats
from partialdup.index.exact_first import exact_run_stats
from partialdup.index.sparse import PairMatches, ReferenceIndex
from partialdup.match.edited_columns import EditedVerdicts
from partialdup.match.keyed import KeyedMatches
from partialdup.match.pair_rows import PairRows
from partialdup.match.pairs import SentenceKey
from partialdup.pipeline.headlines import Records, WholeMatches

__all__ = ["Lookups", "counts_only", "search_stats"]


@dataclass(frozen=True)
class Lookups:
    """What the index look-ups found, in the one shape ``detect`` and ``check`` share.

    Attributes:
        whole: (A sentence, B sentence, score, weak) of the whole-sentence
            matches; ``detect``'s as arrays (:class:`~partialdup.match.pair_rows.PairRows`:
            the tail records and judges them so). Nothing is left out as
            boilerplate here: the rule decides once every pair is known (see
            :mod:`partialdup.match.boilerplate`).
        near: (A sentence, B sentence, score) of the near misses, for the
            character checks (empty when they are off).
        loose: (A sentence, B sentence, score) of every pair sharing a
            feature (bag-Jaccard at least
            :data:`~partialdup.match.edited.CANDIDATE_JACCARD`) and of every
            pair whose word sets agree (:mod:`partialdup.index.words`), for
            the word checks of edited copies (empty when they are off).
        quoted: (A sentence, B sentence, score) of the embedded copies: a
            sentence holding a quotation and the sentence the quotation
            matches whole; a headline and a longer sentence holding it (see
            :mod:`partialdup.match.embedded`), unless ``headline_hits`` gives
            those (read them all with :meth:`embedded_copies`).
        rejoined: (the two rejoined sentences, the other sentence, score,
            whether the rejoined ones are on the first side) of the matches
            of rejoined sentences.
        stats: The run's statistics the look-ups know (candidate pairs,
            frequent features and sentences, skipped postings, the exact
            stage's counts): the tail adds the rest, and needs neither the
            raw searches nor the index.
        a_boilerplate: Boilerplate sentences of the A side, which do not
            count in a span's gap: empty from the look-ups, filled by the
            tail once the rule has decided (:mod:`partialdup.match.boilerplate`).
        b_boilerplate: The same for the B side.
        crowded: ``detect``: sentences copied in
            :func:`~partialdup.match.boilerplate.crowd_documents` or more
            other documents (when the boilerplate rule is on). The pairs
            between two of them are never made (a sentence in 30,000
            documents would make 450 million); they are boilerplate, as is
            every pair of one of them with another sentence.
        crowd_links: ``detect``: some of the pairs never made between
            crowded sentences, enough to link them as all of them would (see
            :func:`~partialdup.index.expand.omitted_links`): the boilerplate
            rule judges the same groups of copies as with every pair made.
        near_verdicts: ``detect``: the near misses accepted on their
            characters (those the tail would judge: not whole matches), in
            order, judged from the look-ups on (see
            :meth:`~partialdup.pipeline.lookups.LookupStage._near_judged_soon`); None: the tail judges them.
        edited_verdicts: ``detect``: gives the edited copies among
            ``loose`` (by their positions in it), judged on the words
            numbered (:mod:`partialdup.match.edited_columns`); None: the
            tail judges them a record at a time.
        headline_hits: ``detect``: gives the headline hits, made when first
            asked for (by the tail, once the look-ups' working memory is
            given back: their confirmations tokenize, which on Chinese text
            loads the tokenizer's dictionaries again); None: ``quoted`` holds
            them. Asked for before :meth:`release_judged` (they read the
            near misses).
    """

    whole: WholeMatches
    near: Records
    loose: Records
    quoted: list[tuple[SentenceKey, SentenceKey, float]]
    rejoined: list[tuple[tuple[SentenceKey, SentenceKey], SentenceKey, float, bool]]
    stats: RunStats
    a_boilerplate: set[SentenceKey] = field(default_factory=set)
    b_boilerplate: set[SentenceKey] = field(default_factory=set)
    crowded: frozenset[SentenceKey] = frozenset()
    crowd_links: tuple[tuple[SentenceKey, SentenceKey], ...] = ()
    near_verdicts: Callable[[], PairRows] | None = None
    edited_verdicts: Callable[[], EditedVerdicts] | None = None
    headline_hits: Callable[[], list[tuple[SentenceKey, SentenceKey, float]]] | None = None

    def embedded_copies(self) -> list[tuple[SentenceKey, SentenceKey, float]]:
        """``quoted`` and the headline hits (``headline_hits``, made now when
        they are not yet): every embedded copy, in that order."""
        if self.headline_hits is None:
            return self.quoted
        return self.quoted + self.headline_hits()

    def release_judged(self) -> None:
        """Let the near misses' and the loose candidates' arrays and their
        verdicts go, once the tail has judged them: a million records and
        more on large runs, held otherwise while the spans' workers are
        forked (docs/benchmark.md, session 24)."""
        for records in (self.near, self.loose):
            if isinstance(records, KeyedMatches):
                records.release()
        # The verdicts too, once read: the tail's pairs hold their own rows
        # of them (the near misses' copies, 4 MB on the English bench corpus,
        # were held through the spans otherwise).
        for verdicts in (self.near_verdicts, self.edited_verdicts):
            if isinstance(verdicts, Deferred):
                verdicts.release()


def counts_only(found: PairMatches) -> PairMatches:
    """A search's counts, all :func:`search_stats` reads, without its pairs:
    held in their place, the pairs' arrays go once read (the English bench
    corpus's near misses' shared counts, 7 MB, were held through the loose
    search, the calling process's peak)."""
    none = np.empty(0, np.int64)
    return PairMatches(none, none, np.empty(0, np.float64), none, found.candidates, found.skipped_postings)


def search_stats(index: ReferenceIndex, searches: Sequence[PairMatches]) -> RunStats:
    """The :class:`~partialdup.core.types.RunStats` fields the look-ups know:
    the searches' candidate pairs and skipped postings, the index's frequent
    features and sentences and its exact stage's counts."""
    return RunStats(
        candidate_pairs=sum(search.candidates for search in searches),
        frequent_features=index.sentences.frequent_features(),
        frequent_sentences=index.sentences.frequent_sentences(),
        skipped_postings=sum(search.skipped_postings for search in searches),
        **exact_run_stats(index),
    )
