"""A second look at near misses, on characters.

Low-IDF-Sig gives a short sentence two or three features, and one changed
character (deleted, doubled or replaced: what a light edit does) can change
the words jieba sees and so break one of them; bag-Jaccard then falls to 1/2
or 1/3 while the two sentences are the same but for that character. A pair
the inverted index found (the sentences share features) whose bag-Jaccard
lies below τ but at least at τ / 2 is compared once more on its normalised
letters and digits, and is a copy when their rapidfuzz ``ratio`` reaches
:attr:`~partialdup.core.config.Config.near_ratio`. Candidates still come only from the index; only
pairs with both texts known are looked at.

The same look finds *embedded* copies: a sentence copied into another
without a sentence boundary between it and the host's text (pasted after a
heading or a sentence that lacks its final stop, glued to the previous
sentence without a space) or quoted inside a longer sentence. Their bags
differ by the host's features and by the chains across the junction, so
bag-Jaccard is low, but most of the shorter bag lies in the longer. Such a
pair is a copy when the shorter sentence's letters lie inside the longer
one's at rapidfuzz ``partial_ratio``
:attr:`~partialdup.core.config.Config.embedded_ratio`, the shorter
sentence is long enough to be evidence (:data:`MIN_EMBEDDED_LETTERS` letters
and :data:`MIN_EMBEDDED_TOKENS` tokens) and not a numbered heading (inside a
sentence a heading is a cross-reference: "see Section 9.2.1.4, “Creating
Encrypted Tunnels with Port Forwarding”"). Refinement then trims the longer
side to the aligned characters.

A sentence pair that shares only one or two features and has no
neighbouring pair it could chain with is *confirmed* here too
(:meth:`NearMissCheck.confirmed`, called through
:func:`partialdup.match.pairs.evident`): different sentences share a chain or two
by chance (the opening 也可以使用 of two unrelated sentences), so its letters
must agree, whole or the shorter inside the longer, with no minimum length
(the features already matched).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Iterable, Sequence

import numpy as np
from rapidfuzz import fuzz

from partialdup.match.keyed import KeyedMatches, Pending, RowPart
from partialdup.match.pair_rows import PairRows
from partialdup.match.pairs import FoundPairs, SentenceKey
from partialdup.match.refine import DEFAULT_MIN_RATIO as TRIM_RATIO, Normaliser
from partialdup.match.score import letters, normalised_letters
from partialdup.core.types import DocumentFeatures, Sentence

__all__ = [
    "EMBEDDED_CONTAINMENT",
    "EMBEDDED_MIN_FEATURES",
    "LETTERS_OF_WORDS",
    "NUMBERED_HEADING",
    "NearMissCheck",
    "NearSentences",
    "SentenceLetters",
    "letter_flags",
    "words_letters",
]

#: An embedded copy's shorter sentence has at least this many letters and
#: digits (about four English words, or a Chinese clause) ...
MIN_EMBEDDED_LETTERS = 20

#: ... and this many tokens: a code fragment such as ``INSERT INTO table
#: (column, ...)`` lies inside many a longer line of SQL.
MIN_EMBEDDED_TOKENS = 5

#: The longer sentence has at least this many times the shorter's letters:
#: the length ratio from which :mod:`partialdup.match.refine` trims the longer
#: side to the copy. Below it, the two are a whole copy with edits, which
#: ``ratio`` judges.
EMBEDDED_LENGTH_RATIO = TRIM_RATIO

#: Candidates for embedded copies come from the index like near misses: pairs
#: where at least this share of the smaller bag lies in the larger ...
EMBEDDED_CONTAINMENT = 0.5

#: ... and the smaller bag holds at least this many features.
EMBEDDED_MIN_FEATURES = 2

# A numbered heading: "9.2.1.4. Creating ...", "2.7.13.\xa0移植 ..." (two levels or more).
_NUMBERED_HEADING = re.compile(r"\s*\d+(?:\.\d+)+\.?\s")
#: Marks a sentence whose letters are not made yet (None: made, no text).
_ABSENT: Any = object()

#: Flags of a sentence (:func:`letter_flags`): its letters are its words'
#: letters (:func:`words_letters`) ...
LETTERS_OF_WORDS = 1
#: ... and it starts with a numbered heading.
NUMBERED_HEADING = 2


@dataclass(frozen=True, slots=True)
class SentenceLetters:
    """What the character checks need of a sentence.

    Attributes:
        letters: Its normalised letters and digits.
        tokens: Its number of tokens.
        numbered_heading: Whether it starts with a section number of two
            levels or more ("5.4.2. ...").
    """

    letters: str
    tokens: int
    numbered_heading: bool


@dataclass(frozen=True)
class NearSentences:
    """The sentences of near misses, as the character checks read them and
    nothing more (:meth:`NearMissCheck.copied_rows`): small enough to send
    to another process.

    Attributes:
        texts: Each sentence's text (None: its document came without).
        tokens: Each sentence's token count.
    """

    texts: Sequence[str | None]
    tokens: np.ndarray


#: Letters of distinct sentences, where each position's are in that list,
#: and each position's (letters' length, tokens, numbered heading) row.
_LettersAt = tuple[list[Any], np.ndarray, np.ndarray]


def _remembered_letters(
    where: np.ndarray, keys: Sequence[Any], seen: dict, make: Callable[[Any], SentenceLetters | None],
) -> _LettersAt:
    """The letters of the distinct sentences ``keys`` (each made by ``make``
    once, kept in ``seen`` under its key), ``where`` each position's are,
    and each position's (letters' length, tokens, numbered heading) row
    (-1, 0, 0: no letters)."""
    made = []
    for key in keys:
        letters = seen.get(key, _ABSENT)
        if letters is _ABSENT:
            letters = seen[key] = make(key)
        made.append(letters)
    columns = np.array(
        [(-1, 0, 0) if one is None else (len(one.letters), one.tokens, one.numbered_heading) for one in made], np.int64
    ).reshape(-1, 3)
    where = where.reshape(-1)
    return made, where, columns[where]


def _numbered_heading(text: str, sentence: Sentence) -> bool:
    """Whether the sentence starts with a section number of two levels or more."""
    return _NUMBERED_HEADING.match(text, sentence.start, sentence.end) is not None


def words_letters(words: Sequence[str]) -> str:
    """The letters and digits of a sentence's normalised words: its
    normalised letters (:func:`~partialdup.match.score.normalised_letters`)
    where the words hold every letter of it in its own form, which
    :func:`letter_flags` tells."""
    return letters("".join(words))


def letter_flags(doc: DocumentFeatures, normalise: Normaliser) -> list[int]:
    """Per sentence of a document with its text, :data:`LETTERS_OF_WORDS`
    when :func:`words_letters` of its words are its normalised letters, and
    :data:`NUMBERED_HEADING` when it starts with a numbered heading.

    A store keeps them, so that a check reads a stored sentence's letters
    from its words (a chunk of a few sentences) instead of decompressing the
    whole stored text. The words are converted to one Chinese usage word by
    word (檔案 becomes 文件) and the letters character by character (檔案
    becomes 档案): those sentences, and any whose words leave a letter out,
    are read from the text.
    """
    if doc.text is None:
        raise ValueError(f"{doc.id}: letter flags need the text")
    words = doc.words if len(doc.words) == len(doc.sentences) else None
    flags = []
    for index, sentence in enumerate(doc.sentences):
        heading = _numbered_heading(doc.text, sentence)
        same = words is not None and words_letters(words[index]) == normalised_letters(doc.text[sentence.start:sentence.end], normalise)
        flags.append(LETTERS_OF_WORDS * same | NUMBERED_HEADING * heading)
    return flags


class NearMissCheck:
    """Decides on characters whether a near-miss sentence pair is a copy,
    and whether a pair found on little evidence is confirmed.

    Args:
        normalise: The tokenizer's normaliser (NFKC, case folding, Traditional
            to Simplified), so a copy that changed width or script compares
            equal.
        min_ratio: Least rapidfuzz ratio of whole sentences, 0-100; 0 turns
            that check off.
        min_inside: Least rapidfuzz partial_ratio of an embedded copy, 0-100;
            0 turns that check off.
    """

    def __init__(self, normalise: Normaliser, min_ratio: float, min_inside: float = 0.0) -> None:
        if not (0.0 <= min_ratio <= 100.0 and 0.0 <= min_inside <= 100.0) or not (min_ratio or min_inside):
            raise ValueError("min_ratio and min_inside must lie in [0, 100], and one be above 0")
        self.normalise = normalise
        self.min_ratio = min_ratio
        self.min_inside = min_inside

    def letters(self, text: str, sentence: Sentence) -> str:
        """A sentence's normalised letters and digits."""
        return normalised_letters(text[sentence.start : sentence.end], self.normalise)

    def sentence_letters(self, text: str, sentence: Sentence, tokens: int) -> SentenceLetters:
        """A sentence as the character checks see it; ``tokens`` is its token count."""
        return SentenceLetters(self.letters(text, sentence), tokens, _numbered_heading(text, sentence))

    def of_sentence(self, doc: DocumentFeatures, index: int) -> SentenceLetters | None:
        """:meth:`sentence_letters` of sentence ``index`` of a document; None
        when the document came without its text.

        A document that can tell a sentence's letters itself (a stored one,
        from its words where they give them, see :func:`letter_flags`, else
        from its text, made once for the copies of a text) has a
        ``letters_of(index, normalise)`` giving them, or None where it cannot.
        """
        letters_of = getattr(doc, "letters_of", None)
        if letters_of is not None:
            known = letters_of(index, self.normalise)
            if known is not None:
                return known  # type: ignore[no-any-return]
        if doc.text is None:
            return None
        return self.sentence_letters(doc.text, doc.sentences[index], doc.tokens[index])

    def same(self, first: str, second: str) -> bool:
        """Whether two sentences' letters agree at ``min_ratio`` or more."""
        if not (self.min_ratio and first and second):
            return False
        return fuzz.ratio(first, second, score_cutoff=self.min_ratio) >= self.min_ratio

    def embedded(self, first: SentenceLetters, second: SentenceLetters) -> bool:
        """Whether the shorter sentence is copied inside the longer (see the module notes)."""
        shorter, longer = (first, second) if len(first.letters) <= len(second.letters) else (second, first)
        if not self.min_inside or shorter.numbered_heading:
            return False
        if len(shorter.letters) < MIN_EMBEDDED_LETTERS or shorter.tokens < MIN_EMBEDDED_TOKENS:
            return False
        if len(longer.letters) < EMBEDDED_LENGTH_RATIO * len(shorter.letters):
            return False
        return self._inside(shorter.letters, longer.letters)

    def confirmed(self, first: SentenceLetters, second: SentenceLetters) -> bool:
        """Whether a pair the features accepted on little evidence agrees on
        characters: whole, or the shorter inside the longer."""
        if self.same(first.letters, second.letters):
            return True
        shorter, longer = sorted((first.letters, second.letters), key=len)
        return self._inside(shorter, longer)

    def _inside(self, shorter: str, longer: str) -> bool:
        # The shorter letters lie inside the longer at min_inside (0: never).
        return bool(self.min_inside and shorter) and fuzz.partial_ratio(shorter, longer, score_cutoff=self.min_inside) >= self.min_inside

    def copied(self, first: SentenceLetters, second: SentenceLetters) -> bool:
        """Whether a near-miss pair is a copy: whole (:meth:`same`) or embedded."""
        return self.same(first.letters, second.letters) or self.embedded(first, second)

    def accepted(
        self,
        near_misses: Iterable[tuple[SentenceKey, SentenceKey, float]],
        first_docs: Sequence[DocumentFeatures],
        second_docs: Sequence[DocumentFeatures],
        memo: dict | None = None,
    ) -> list[tuple[SentenceKey, SentenceKey, float]]:
        """The near misses whose characters agree (:meth:`copied`), in order.

        A pure function of the records' sentences: a worker process may
        judge a chunk of them (:mod:`partialdup.pipeline.sidework`).
        ``memo`` keeps each sentence's letters between calls over the same
        documents (a new one per call when None).
        """
        seen: dict[tuple[int, SentenceKey], SentenceLetters | None] = {} if memo is None else memo
        other_side = 0 if first_docs is second_docs else 1  # detect: one set of documents
        if isinstance(near_misses, Pending):
            near_misses = near_misses.part(0, len(near_misses))
        if isinstance(near_misses, RowPart):
            return self._accepted_rows(near_misses, first_docs, second_docs, seen, other_side)
        near_misses = list(near_misses)
        for docs, second_side in ((first_docs, False), (second_docs, True)):
            # Documents read from elsewhere (a store's) are read together:
            # one statement for the hundreds a check pairs, not one each.
            prefetch = getattr(docs, "prefetch", None)
            if prefetch is not None:
                prefetch(sorted({(second if second_side else first)[0] for first, second, _ in near_misses}))
        # One loop, no call per record but the checks' own (hundreds of
        # thousands of records on the English bench corpus). The letters'
        # lengths alone rule out both checks for most records (232,000 near
        # misses on the Chinese bench corpus, 1,500 copies): Indel ratio is
        # at most 200 * shorter / (sum of lengths), and an embedded copy
        # needs the lengths of :meth:`embedded`. A test checks that this
        # gives what :meth:`accepted_plain` gives.
        of_sentence, same, embedded, absent = self.of_sentence, self.same, self.embedded, _ABSENT
        least, inside, least_letters, length_ratio = self.min_ratio, self.min_inside, MIN_EMBEDDED_LETTERS, EMBEDDED_LENGTH_RATIO
        accepted = []
        for first, second, score in near_misses:
            a = seen.get((0, first), absent)
            if a is absent:
                a = seen[(0, first)] = of_sentence(first_docs[first[0]], first[1])
            b = seen.get((other_side, second), absent)
            if b is absent:
                b = seen[(other_side, second)] = of_sentence(second_docs[second[0]], second[1])
            if a is None or b is None:
                continue
            la, lb = len(a.letters), len(b.letters)
            shorter, longer = (la, lb) if la <= lb else (lb, la)
            if (200 * shorter + 1e-6 >= least * (la + lb) and same(a.letters, b.letters)) or (
                inside and shorter >= least_letters and longer >= length_ratio * shorter and embedded(a, b)
            ):  # copied(a, b)
                accepted.append((first, second, score))
        return accepted

    def _accepted_rows(
        self, part: RowPart, first_docs: Sequence[DocumentFeatures], second_docs: Sequence[DocumentFeatures],
        seen: dict[tuple[int, SentenceKey], SentenceLetters | None], other_side: int,
    ) -> list[tuple[SentenceKey, SentenceKey, float]]:
        """:meth:`accepted` of records read as arrays: each sentence's letters
        made once; what :meth:`same` and :meth:`embedded` test before they
        compare letters tested on the arrays (it rules out 238,000 of the
        828,000 near misses of the English bench corpus, 130,000 of the
        232,000 Chinese); the letters compared only for the others, in order,
        without a tuple or a look-up per record (the judging of the English
        near misses took 2.1-2.3 s of CPU with one loop over the records,
        1.5-1.9 s this way)."""
        first_keys, second_keys = part.records.first_keys, part.records.second_keys
        accepted = []
        for first, second, score in part.rows():
            a = self._letters_at(first, first_keys, first_docs, seen, 0)
            b = self._letters_at(second, second_keys, second_docs, seen, other_side)
            for row in self._copied_rows(a, b).tolist():
                accepted.append((first_keys[first[row]], second_keys[second[row]], float(score[row])))
        later = part.later()
        return accepted + (self.accepted(later, first_docs, second_docs, seen) if later else [])

    def copied_rows(
        self, first: np.ndarray, second: np.ndarray, sentences: NearSentences, seen: dict[int, SentenceLetters | None],
    ) -> np.ndarray:
        """The rows (ascending) of the pairs (``first[i]``, ``second[i]``) of
        ``sentences`` that are copies (:meth:`copied`), as :meth:`accepted`
        judges them: the same pretests on arrays, the same comparisons. A
        pure function of its arguments, which read none of the documents'
        objects: a process forked before the documents were read can judge
        them (:mod:`partialdup.pipeline.lookups`). ``seen`` keeps each
        sentence's letters between calls."""
        letters_of = partial(self._letters_of_numbers, sentences=sentences, seen=seen)
        # Both sides' sentences read in one pass, in order: texts read from
        # their documents (SentenceTexts, the calling process's own pieces)
        # then inflate each document once, not once a side.
        letters_of(np.concatenate((first, second)))
        return self._copied_rows(letters_of(first), letters_of(second))

    def _copied_rows(self, a: _LettersAt, b: _LettersAt) -> np.ndarray:
        # The rows whose sentences' letters agree, pretested on the arrays.
        same, inside = self.same, self._inside
        (a_made, a_where, a_columns), (b_made, b_where, b_columns) = a, b
        whole, inner = self._may_copy(a_columns, b_columns)
        rows = np.flatnonzero(whole | inner)
        copied = []
        for row, first_letters, second_letters, is_whole, is_inner in zip(
            rows.tolist(), map(a_made.__getitem__, a_where[rows].tolist()), map(b_made.__getitem__, b_where[rows].tolist()),
            whole[rows].tolist(), inner[rows].tolist(),
        ):
            x, y = first_letters.letters, second_letters.letters
            if (is_whole and same(x, y)) or (is_inner and (inside(x, y) if len(x) <= len(y) else inside(y, x))):
                copied.append(row)
        return np.array(copied, np.int64)

    def _letters_of_numbers(
        self, numbers: np.ndarray, sentences: NearSentences, seen: dict[int, SentenceLetters | None],
    ) -> _LettersAt:
        # _letters_at of sentences given by their numbers in `sentences`: what
        # of_sentence makes of a sentence of a document with its text, the
        # sentence's text standing for the document's.
        def letters_of(number: int) -> SentenceLetters | None:
            text = sentences.texts[number]
            if text is None:
                return None
            return self.sentence_letters(text, Sentence(0, 0, len(text)), int(sentences.tokens[number]))

        distinct, where = np.unique(numbers, return_inverse=True)
        return _remembered_letters(where, distinct.tolist(), seen, letters_of)

    def _may_copy(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which records :meth:`same` may accept, and which :meth:`embedded`
        may, told by their sentences' (letters, tokens, numbered heading)
        columns (letters -1: no text, never accepted): the tests of
        :meth:`accepted`'s loop and :meth:`embedded`'s before it compares
        letters."""
        count = len(a)
        a_letters, b_letters = a[:, 0], b[:, 0]
        shorter, longer = np.minimum(a_letters, b_letters), np.maximum(a_letters, b_letters)
        # Both tests ask for a shorter side of at least one letter, which rules out -1.
        whole = np.zeros(count, bool)
        if self.min_ratio:
            whole = (shorter > 0) & (200 * shorter + 1e-6 >= self.min_ratio * (a_letters + b_letters))
        inner = np.zeros(count, bool)
        if self.min_inside:
            short_side = np.where((a_letters <= b_letters)[:, None], a, b)  # embedded()'s shorter sentence
            inner = (shorter >= max(MIN_EMBEDDED_LETTERS, 1)) & (longer >= EMBEDDED_LENGTH_RATIO * shorter)
            inner &= (short_side[:, 1] >= MIN_EMBEDDED_TOKENS) & (short_side[:, 2] == 0)
        return whole, inner

    def _letters_at(
        self, positions: np.ndarray, keys: Sequence[SentenceKey], docs: Sequence[DocumentFeatures],
        seen: dict[tuple[int, SentenceKey], SentenceLetters | None], side: int,
    ) -> _LettersAt:
        """The letters of each distinct sentence at ``positions`` (made once,
        kept in ``seen``), where each position's are in that list, and each
        position's (letters' length, tokens, numbered heading) row (-1, 0, 0:
        no letters, the document came without its text)."""
        distinct, where = np.unique(positions, return_inverse=True)
        sentences = [keys[position] for position in distinct.tolist()]
        prefetch = getattr(docs, "prefetch", None)
        if prefetch is not None:
            prefetch(sorted({d for d, _ in sentences}))
        of_sentence = self.of_sentence
        return _remembered_letters(
            where, [(side, sentence) for sentence in sentences], seen, lambda key: of_sentence(docs[key[1][0]], key[1][1]))

    def accepted_plain(
        self,
        near_misses: Iterable[tuple[SentenceKey, SentenceKey, float]],
        first_docs: Sequence[DocumentFeatures],
        second_docs: Sequence[DocumentFeatures],
    ) -> list[tuple[SentenceKey, SentenceKey, float]]:
        """:meth:`accepted`, plainly: :meth:`copied` of every record (the
        reference of its tests)."""
        accepted = []
        for first, second, score in near_misses:
            a, b = self.of_sentence(first_docs[first[0]], first[1]), self.of_sentence(second_docs[second[0]], second[1])
            if a is not None and b is not None and self.copied(a, b):
                accepted.append((first, second, score))
        return accepted

    def add_to(
        self,
        found: FoundPairs,
        near_misses: KeyedMatches | Sequence[tuple[SentenceKey, SentenceKey, float]],
        first_docs: Sequence[DocumentFeatures],
        second_docs: Sequence[DocumentFeatures],
        *,
        judged: Callable[[Iterable[tuple[SentenceKey, SentenceKey, float]]], Iterable[tuple[SentenceKey, SentenceKey, float]]]
        | None = None,
        verdicts: Callable[[], Sequence[tuple[SentenceKey, SentenceKey, float]] | PairRows] | None = None,
    ) -> list[tuple[SentenceKey, SentenceKey]] | PairRows:
        """Record the near misses whose characters agree as copies; returns them.

        Args:
            found: The pairs found so far; pairs already there are passed over.
            near_misses: (first sentence, second sentence, bag-Jaccard) of the
                pairs found at half the threshold (or, when embedded copies
                are looked for, at :data:`EMBEDDED_CONTAINMENT`).
            first_docs: The documents of the first sentences.
            second_docs: The documents of the second sentences (the same list
                in ``detect``).
            judged: Returns, in order, the records :meth:`accepted` accepts
                among those it is given (an engine's worker processes judge
                them, see :mod:`partialdup.pipeline.sidework`); None:
                :meth:`accepted`, here.
            verdicts: Gives what ``judged`` would give, judged already (the
                look-ups started it over the records not among the pairs
                ``found`` holds); None: judged now. Given as rows, they
                are recorded and returned as rows.

        A near copy of a template in many documents is boilerplate like a
        whole match: the detector decides it once every pair is known
        (:mod:`partialdup.match.boilerplate`).
        """
        # `found` does not change until every verdict is in: the pairs to
        # judge are the same whoever judges them, and whenever.
        if verdicts is not None:
            given = verdicts()
            if isinstance(given, PairRows):
                found.add_all(given)
                return given
            accepted = list(given)
        else:
            pending = Pending.not_found(near_misses, found)
            accepted = self.accepted(pending, first_docs, second_docs) if judged is None else list(judged(pending))
        found.add_all(accepted)
        return [(first, second) for first, second, _ in accepted]
