"""Normalisation and tokenization of sentences, with exact offsets.

Matching happens on a normalised copy of the text: NFKC (full width to half
width), case folding and Traditional to Simplified Chinese, invisible
characters dropped and combining marks composed (see
:mod:`partialdup.text.normalise`). Every normalised character knows the
original character it came from, so every :class:`~partialdup.core.types.Token`
maps back to the original text. Chinese words then get one form for Taiwan
and mainland usage (see :mod:`partialdup.text.common_forms`); jieba is taught the
Taiwan words it lacks (``data/taiwan_words.tsv``) so that it keeps them whole. (Per-character conversion also makes the
Traditional/Simplified mapping a plain function of the character, which is
what matching needs: both sides of a copy are converted the same way.)

Chinese runs are segmented in jieba's accurate mode (or its full or search
mode, ``--jieba-mode``, whose words overlap), by jieba or by rjieba
(``--segmenter``; see :mod:`partialdup.text.segmenters`), all the runs of a
stretch in one call; Latin and digit runs by a regular expression (see
:mod:`partialdup.text.token_patterns`). Punctuation is not a token, so a copy whose
punctuation was changed still matches.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from itertools import chain, filterfalse, islice, repeat
from typing import Any, Iterable, Iterator, Sequence, TypeVar

import regex

from partialdup.core.chars import HAN_CLASS as _HAN
from partialdup.core.chars import is_han
from partialdup.core.config import Config
from partialdup.core.types import Token
from partialdup.text import common_forms
from partialdup.text.normalise import Normaliser, normalise_char
from partialdup.text.segmenters import Segmenter, jieba_cache_dir, make_segmenter
from partialdup.text.token_patterns import GROUPED_PATTERN as _GROUPED_PATTERN
from partialdup.text.token_patterns import TOKEN_FLAGS as _TOKEN_FLAGS
from partialdup.text.token_patterns import WORD_PATTERN as _WORD
from partialdup.text.token_patterns import beyond_bmp, bmp_patterns

__all__ = ["Tokenizer", "normalise_char", "DEFAULT_TAIWAN_WORDS", "DEFAULT_SEGMENTER", "jieba_cache_dir"]

#: Taiwan words jieba's dictionary lacks, in the Simplified script the
#: tokenizer segments (made by ``scripts/build_taiwan_words.py``).
DEFAULT_TAIWAN_WORDS = Path(__file__).resolve().parent / "data" / "taiwan_words.tsv"

#: The segmenter a Tokenizer uses unless told: Config's default (``--segmenter``).
DEFAULT_SEGMENTER: str = Config().segmenter

#: Han runs whose segmentation is remembered (oldest forgotten first):
#: about 9 MB at most. Repeats come close together (boilerplate, a copy
#: near its source): on the Chinese bench corpus in one process, a bound
#: of 100,000 left 169,735 of 284,288 runs to segment, 25,000 left 176,744
#: of 286,118; with two, the calling process held 84,592 runs in 29 MB
#: against 18,770 in 6.6 MB (docs/benchmark.md, session 32).
_SEGMENT_CACHE = 25_000

#: Sentences whose words are remembered (oldest forgotten first): about
#: 4 MB at most. On the Chinese bench corpus, a bound of 50,000 left
#: 123,535 of 159,950 sentences to tokenize, 12,500 left 125,127.
_SENTENCE_CACHE = 12_500

_K = TypeVar("_K")
_V = TypeVar("_V")

#: A Han run as segmented: each word's length (in the run), each word's
#: common form, and, in the full and search modes, where each word starts
#: (``()`` in accurate mode, where the words follow each other).
_Segmented = tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...]]


def _compact(run: str) -> str:
    # A Han run that goes on across a line break, without the break and the
    # spaces around it: what the segmenter sees.
    return run if run.isalpha() else "".join(char for char in run if not char.isspace())


class Tokenizer:
    """Turns text into normalised tokens with offsets into the original.

    One instance holds the segmenter (jieba's dictionary) and the OpenCC
    converters; create it once per process and pass it around (nothing is
    loaded at import time).

    Args:
        segmenter: The Chinese word segmenter, ``jieba`` (the reference) or
            ``rjieba`` (see :mod:`partialdup.text.segmenters`).
        jieba_dictionary: Path to a jieba main dictionary; jieba's own when
            None (``jieba`` only).
        taiwan_words: TSV of words (``word<TAB>frequency<TAB>...``, ``#``
            comments) added to the segmenter's dictionary: Taiwan words in
            Simplified script, so that 位元組 (位元组 once converted) stays one
            word and meets its mainland form 字节. None adds nothing.
        jieba_mode: jieba's mode, ``accurate``, ``full`` or ``search`` (see
            :data:`partialdup.text.segmenters.MODES`); in the last two a
            Han run's tokens overlap, each with its own exact offsets.

    Raises:
        ConfigError: An unknown segmenter or mode, or a segmenter that cannot be loaded.
    """

    def __init__(
        self,
        *,
        segmenter: str = DEFAULT_SEGMENTER,
        jieba_dictionary: str | None = None,
        taiwan_words: str | Path | None = DEFAULT_TAIWAN_WORDS,
        jieba_mode: str = "accurate",
    ) -> None:
        self._segmenter: Segmenter = make_segmenter(
            segmenter, dictionary=jieba_dictionary, extra_words=_extra_words(taiwan_words), mode=jieba_mode
        )
        self._converter = common_forms.opencc_converter("t2s")
        # The reference patterns, and the same on the ``re`` engine for text
        # within the BMP (see :func:`~partialdup.text.token_patterns.bmp_patterns`).
        self._grouped = regex.compile(_GROUPED_PATTERN, _TOKEN_FLAGS)
        self._latin_words = regex.compile(_WORD, _TOKEN_FLAGS)
        self._bmp_grouped, self._bmp_latin_words = bmp_patterns()
        # A Han character (ranges of code points: the same in either engine,
        # ``re`` the faster): text without one has only words.
        self._han = re.compile(f"[{_HAN}]")
        self._normalise = Normaliser(self._converter)
        # Each Chinese word's one form for Taiwan and mainland usage.
        self._common = common_forms.CommonForms()
        # Han run -> (its words, their common forms, their starts in the run
        # when they overlap, else ()): see _segmented.
        self._segments: dict[str, _Segmented] = {}
        # Sentence text -> its words (see sentence_words).
        self._sentences: dict[str, tuple[str, ...]] = {}

    @property
    def segmenter(self) -> str:
        """The segmenter's name (``jieba`` or ``rjieba``)."""
        return self._segmenter.name

    @property
    def jieba_mode(self) -> str:
        """The segmentation mode (``accurate``, ``full`` or ``search``)."""
        return self._segmenter.mode

    @property
    def backend(self) -> str:
        """The segmenter's package and version (``jieba 0.42.1``), which
        stores record."""
        return self._segmenter.version

    def normalise(self, text: str) -> tuple[str, Sequence[int] | None]:
        """Normalise text for matching.

        Returns:
            The normalised string and, when some character of the text does not
            normalise to exactly one character of its own, the list giving for
            every normalised character the offset of its original character
            (``None`` means offsets are the identity; see
            :class:`~partialdup.text.normalise.Normaliser`).
        """
        return self._normalise(text)

    def tokenize(self, text: str, start: int = 0, end: int | None = None) -> list[Token]:
        """Tokens of ``text[start:end]``, with offsets into ``text``.

        Args:
            text: The whole document text.
            start: Offset where the stretch to tokenize starts.
            end: Offset one past its end (the text's end when None).
        """
        stretch = text[start:end]
        normalised, origin, ends = self._normalise.mapped(stretch)
        mapping = _Mapping(origin, ends, start)
        grouped = self._patterns(normalised)[0]
        matches = [(match.start(), match[1], match[2]) for match in grouped.finditer(normalised)]
        segmented = self._segmented([_compact(run) for _, run, _ in matches if run])
        tokens: list[Token] = []
        for lo, run, word in matches:
            if run:
                self._add_chinese(run, lo, next(segmented), mapping, tokens)
            else:
                tokens.append(mapping.token(word, lo, lo + len(word)))
        return tokens

    def match_form(self, word: str) -> str:
        """The form a single word takes for matching (used to key IDF tables)."""
        normalised, _ = self.normalise(word)
        return self._common.of(normalised) if normalised and is_han(normalised[0]) else normalised

    def words(self, text: str, start: int = 0, end: int | None = None) -> list[str]:
        """The token strings of ``text[start:end]``, as :meth:`tokenize` gives them.

        The same tokens without their offsets, which matching does not need
        and which cost a fifth of tokenization; a property test checks the two
        agree.
        """
        normalised, _ = self.normalise(text[start:end])
        pieces = self._patterns(normalised)[0].findall(normalised)
        segmented = self._segmented([_compact(run) for run, _ in pieces if run])
        words: list[str] = []
        for run, word in pieces:
            if run:
                words.extend(next(segmented)[1])
            else:
                words.append(sys.intern(word))
        return words

    def sentence_words(self, text: str, spans: Iterable[tuple[int, int]]) -> list[tuple[str, ...]]:
        """The words of each stretch ``text[start:end]`` of ``spans``, as
        :meth:`words` gives them (a property test checks they agree).

        A document's sentences at once (:meth:`sentence_words_many` of one
        document). A sentence met before (boilerplate, copies: a quarter of
        the sentences of the bench corpora) gets the words it had, the same
        tuple (held once), for a bounded number of sentences. For the others
        the text is normalised once when its normalisation keeps every
        offset (most documents; otherwise each stretch on its own, as
        :meth:`words` does), each stretch is searched in place, and their
        Han runs go to the segmenter together: a few C calls and a loop over
        its pieces per sentence, where :meth:`words` pays a chain of calls.
        """
        return self.sentence_words_many([(text, spans)])[0]

    def sentence_words_many(
        self, documents: Iterable[tuple[str, Iterable[tuple[int, int]]]]
    ) -> list[list[tuple[str, ...]]]:
        """:meth:`sentence_words` of each (text, spans), the Han runs of all
        of them segmented, and their new words given their common forms, in
        one call each: OpenCC converting a document's few new words at a
        time, between the rest of the work, took 0.6 s of the Chinese bench
        corpus's features, where converting the same words back to back
        takes 0.13 s (its dictionaries no longer in the processor's caches).
        A sentence met twice among them is made once."""
        known = self._sentences
        stretches_of: list[list[str]] = []
        made: list[list[tuple[str, ...] | None]] = []
        missing: list[tuple[str, dict[str, tuple[int, int]]]] = []
        wanted: set[str] = set()
        for text, spans in documents:
            spans = list(spans)
            stretches = [text[start:end] for start, end in spans]
            out = list(map(known.get, stretches))
            fresh_here: dict[str, tuple[int, int]] = {}
            for stretch, span, words in zip(stretches, spans, out):
                if words is None and stretch not in wanted:
                    wanted.add(stretch)
                    fresh_here[stretch] = span
            stretches_of.append(stretches)
            made.append(out)
            missing.append((text, fresh_here))
        if not wanted:
            return made  # type: ignore[return-value]  # every sentence known
        fresh = self._fresh_words(missing)
        self._sentences = _remembered(known, fresh, _SENTENCE_CACHE)
        return [[words if words is not None else fresh[stretch] for stretch, words in zip(stretches, out)]
                for stretches, out in zip(stretches_of, made)]

    def _fresh_words(self, documents: Sequence[tuple[str, dict[str, tuple[int, int]]]]) -> dict[str, tuple[str, ...]]:
        """The words of sentences not met before (``{stretch: (start, end)}``
        of each document's text), the Han runs of all of them segmented together."""
        intern = sys.intern
        # Per document: its sentences' words when it holds no Han character,
        # else the pieces found in each sentence, its runs segmented below.
        words_of: list[list[tuple[str, ...]] | None] = []
        found_of: list[list[list[tuple[str, str]]]] = []
        runs: list[str] = []
        for text, stretches in documents:
            spans = list(stretches.values())
            whole = self._normalise.in_place(text) if spans else None
            if whole is not None and (whole.isascii() or not self._han.search(whole)):
                # No Han character: every piece is a word (most English documents).
                words_in = self._patterns(whole)[1].findall
                words_of.append([tuple(map(intern, words_in(whole, start, end))) for start, end in spans])
                found_of.append([])
                continue
            if whole is not None:
                find = self._patterns(whole)[0].findall
                found = [find(whole, start, end) for start, end in spans]
            else:
                normalised = [self._normalise(text[start:end])[0] for start, end in spans]
                found = [self._patterns(stretch)[0].findall(stretch) for stretch in normalised]
            own = [run for pieces in found for run, _ in pieces if run]
            # Runs across no line break (all letters) are their compact selves.
            runs.extend(own if "".join(own).isalpha() else map(_compact, own))
            words_of.append(None)
            found_of.append(found)
        cuts = self._segmented_list(runs) if runs else []
        next_cut = 0
        fresh: dict[str, tuple[str, ...]] = {}
        for (_, stretches), words, found in zip(documents, words_of, found_of):
            if words is None:
                words = []
                for pieces in found:
                    sentence: list[str] = []
                    for run, word in pieces:
                        if run:
                            sentence.extend(cuts[next_cut][1])
                            next_cut += 1
                        else:
                            sentence.append(intern(word))
                    words.append(tuple(sentence))
            fresh.update(zip(stretches, words))
        return fresh

    def _patterns(self, text: str) -> tuple[Any, Any]:
        """The grouped and word patterns to search ``text`` with: on the
        ``re`` engine when it is within the BMP (see :func:`~partialdup.text.token_patterns.bmp_patterns`)."""
        if text.isascii() or not beyond_bmp(text):
            return self._bmp_grouped, self._bmp_latin_words
        return self._grouped, self._latin_words

    def words_across(self, first: str, second: str) -> bool:
        """Whether a token may run from text ending in ``first`` into text
        starting with ``second`` across white space (a line break inside a Han
        run: jieba sees the run whole). Otherwise the words of the two texts
        read as one are the words of each, one after the other."""
        before, _ = self.normalise(first[-1:])
        after, _ = self.normalise(second[:1])
        return bool(before) and bool(after) and is_han(before[-1]) and is_han(after[0])

    def _add_chinese(
        self,
        run: str,
        lo: int,
        segmented: _Segmented,
        mapping: _Mapping,
        out: list[Token],
    ) -> None:
        # Line breaks (and the spaces around them) inside the run are left out
        # of what the segmenter saw; `where` maps each kept character back.
        where = [i for i, char in enumerate(run) if not char.isspace()] if not run.isalpha() else None
        lengths, commons, starts = segmented
        if starts:  # full and search modes: the words overlap
            for length, common, position in zip(lengths, commons, starts):
                end = position + length
                first, last = (where[position], where[end - 1]) if where is not None else (position, end - 1)
                out.append(mapping.token(common, lo + first, lo + last + 1))
            return
        position = 0
        for length, common in zip(lengths, commons):
            end = position + length
            first, last = (where[position], where[end - 1]) if where is not None else (position, end - 1)
            out.append(mapping.token(common, lo + first, lo + last + 1))
            position = end

    def clear_cache(self) -> None:
        """Forget the remembered segmentations and sentences: once a run's
        features are made (they were about 40 MB of a Chinese run of 160,000
        sentences, and a process forked later would keep their pages), or
        for a benchmark's runs to start cold."""
        self._segments.clear()
        self._sentences.clear()

    @property
    def remembered(self) -> int:
        """How many Han runs and sentences are remembered (:meth:`clear_cache`)."""
        return len(self._segments) + len(self._sentences)

    def _segmented(self, runs: list[str]) -> Iterator[_Segmented]:
        """The lengths of the words of each Han run (compacted), their common forms
        (:meth:`~partialdup.text.common_forms.CommonForms.of`), in order, and, in the full and search modes,
        where each word starts in the run (else ``()``: they follow each other).

        The runs not seen before go to the segmenter in one call (per-run
        calls cost more than the segmentation on punctuation-dense text).
        Copies and boilerplate make the same runs recur across documents (a
        quarter of the gold set's Han text), so their words are kept, for a
        bounded number of runs.
        """
        return iter(self._segmented_list(runs))

    def _segmented_list(self, runs: list[str]) -> list[_Segmented]:
        """:meth:`_segmented` as a list, in the order of ``runs``."""
        known = self._segments
        missing = list(filterfalse(known.__contains__, dict.fromkeys(runs)))
        if not missing:
            return list(map(known.__getitem__, runs))
        cuts: Sequence[tuple[str, ...]]
        starts: Iterable[tuple[int, ...]]
        if self._segmenter.mode != "accurate":
            located = self._segmenter.segment_located(missing)
            cuts, starts = [words for words, _ in located], [where for _, where in located]
        else:
            cuts, starts = self._segmenter.segment(missing), repeat(())
        common = self._common.of_all(dict.fromkeys(chain.from_iterable(cuts))).__getitem__
        # Built by C loops (zip, map, dict) but for two tuples per run. The
        # remembered runs keep their words' lengths, not the words: the
        # segmenter makes each word anew, and one string per occurrence was
        # a third of the memory of the features of the Chinese bench corpus
        # (the common forms are one string per distinct word).
        lengths = [tuple(map(len, words)) for words in cuts]
        fresh: dict[str, _Segmented] = dict(zip(missing, zip(lengths, [tuple(map(common, words)) for words in cuts], starts)))
        found = [fresh[run] if run in fresh else known[run] for run in runs]
        self._segments = _remembered(known, fresh, _SEGMENT_CACHE)
        return found

    def prepare(self, texts: Iterable[str]) -> None:
        """Load now what tokenizing ``texts`` will need (the segmenter's
        dictionary and the converters of Chinese word forms, when one holds a
        Han character): processes forked afterwards inherit them instead of
        each loading its own."""
        loaded = self._common.loaded and self._segmenter.loaded
        if not loaded and any(map(self._han.search, texts)):
            self.load()

    def load(self) -> None:
        """Load the segmenter's dictionary and the converters of Chinese word
        forms now, whatever the texts will be (:meth:`prepare` loads them
        for texts that need them)."""
        self._common.load()
        self._segmenter.load()

    def unload(self) -> None:
        """Let the segmenter's dictionary and the converters go (rjieba's and
        OpenCC's: 50 MB of a process, 76 MB before OpenCC's merged
        ``s2twp``); what needs them next loads them again
        (0.2 s). For a process whose tokenizing is done."""
        self._common.unload()
        self._segmenter.unload()


def _remembered(known: dict[_K, _V], fresh: dict[_K, _V], bound: int) -> dict[_K, _V]:
    """``known`` with ``fresh`` added, at most ``bound`` entries: the oldest
    forgotten in one go, down to three quarters of the bound (popping the
    oldest one at a time costs a scan of the dict's deleted slots each time:
    quadratic, a third of the Chinese bench corpus's tokenization)."""
    if len(known) + len(fresh) > bound:
        keep = max(bound * 3 // 4 - len(fresh), 0)
        known = dict(islice(known.items(), len(known) - keep, None)) if keep else {}
    known.update(islice(fresh.items(), max(len(fresh) - bound, 0), None))
    return known


class _Mapping:
    """Normalised offsets of one stretch back to offsets into the whole text.

    Args:
        origin: Original offset of each normalised character (None: identity).
        ends: Offset one past its last original character (None: origin + 1).
        base: Offset of the stretch in the whole text.
    """

    __slots__ = ("origin", "ends", "base")

    def __init__(self, origin: Sequence[int] | None, ends: Sequence[int] | None, base: int) -> None:
        self.origin, self.ends, self.base = origin, ends, base

    def token(self, word: str, lo: int, hi: int) -> Token:
        """The token of normalised characters ``lo`` to ``hi``, in original offsets."""
        origin, base = self.origin, self.base
        if origin is None:
            return Token(word, base + lo, base + hi)
        end = self.ends[hi - 1] if self.ends is not None else origin[hi - 1] + 1
        return Token(word, base + origin[lo], base + end)


def _extra_words(path: str | Path | None) -> list[tuple[str, int]]:
    if path is None:
        return []
    words = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, frequency = line.split("\t")[:2]
            words.append((word, int(frequency)))
    return words

