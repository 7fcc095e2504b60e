"""Normalisation and tokenization of sentences, with exact offsets.

Matching happens on a normalised copy of the text: NFKC (full width to half
width), case folding and Traditional to Simplified Chinese. Normalisation is
applied character by character, so every normalised character knows the
original character it came from and every :class:`~partialdup.core.types.Token`
maps back to the original text. Chinese words then get one form for Taiwan
and mainland usage (see ``Tokenizer._common_word``); jieba is taught the
Taiwan words it lacks (``data/taiwan_words.tsv``) so that it keeps them whole. (Per-character conversion also makes the
Traditional/Simplified mapping a plain function of the character, which is
what matching needs: both sides of a copy are converted the same way.)

Chinese runs are segmented by jieba in accurate mode; Latin and digit runs by
a regular expression (the ``regex`` engine NLTK uses). Punctuation is not a token, so a copy
whose punctuation was changed still matches.
"""

from __future__ import annotations

import logging
import unicodedata
from pathlib import Path
from typing import Sequence

import regex

from partialdup.core.chars import HAN_CLASS, is_han
from partialdup.core.types import Token

__all__ = ["Tokenizer", "normalise_char", "DEFAULT_TAIWAN_WORDS"]

#: Taiwan words jieba's dictionary lacks, in the Simplified script the
#: tokenizer segments (made by ``scripts/build_taiwan_words.py``).
DEFAULT_TAIWAN_WORDS = Path(__file__).resolve().parent / "data" / "taiwan_words.tsv"

_HAN = HAN_CLASS
# A Han run, or a word of letters/digits (with inner apostrophes, hyphens, dots,
# so "don't", "e-mail" and "3.14" stay one token) that contains no Han. A Han
# run goes on across one line break: hard-wrapped Chinese breaks lines inside
# words (开始菜\n单), and a copy wrapped elsewhere must give the same words.
_TOKEN_PATTERN = rf"[{_HAN}]+(?:[^\S\n]*\n[^\S\n]*[{_HAN}]+)*|[^\W_{_HAN}]+(?:['’\-.][^\W_{_HAN}]+)*"
# Compiled with the ``regex`` engine (installed with NLTK, which compiles
# RegexpTokenizer patterns with it): the same tokens as NLTK's
# RegexpTokenizer, without its per-call time-out guard, which is meant for
# caller-supplied patterns (this one is fixed and cannot backtrack without
# bound) and cost a quarter of the time of ``words``; and the same engine
# whichever NLTK version is installed.
_TOKEN_FLAGS = regex.UNICODE | regex.MULTILINE | regex.DOTALL


#: Han runs whose jieba segmentation is remembered (oldest forgotten first):
#: about 30 MB at most.
_SEGMENT_CACHE = 100_000


def _converter(config: str):  # type: ignore[no-untyped-def]
    import opencc  # imported here: the converter is built once per Tokenizer

    return opencc.OpenCC(config)


def normalise_char(char: str, converter) -> str:  # type: ignore[no-untyped-def]
    """Normalise one character: NFKC, case folding, Traditional to Simplified.

    The result may be empty (a format character) or longer than one character
    (a ligature such as U+FB01).
    """
    folded = unicodedata.normalize("NFKC", char).casefold()
    if folded and not folded.isascii():
        folded = converter.convert(folded)
    return folded


class Tokenizer:
    """Turns text into normalised tokens with offsets into the original.

    One instance holds the jieba dictionary and the OpenCC converter; create it
    once per process and pass it around (nothing is loaded at import time).

    Args:
        jieba_dictionary: Path to a jieba main dictionary; jieba's own when None.
        taiwan_words: TSV of words (``word<TAB>frequency<TAB>...``, ``#``
            comments) added to jieba's dictionary: Taiwan words in Simplified
            script, so that 位元組 (位元组 once converted) stays one word and
            meets its mainland form 字节. None adds nothing.
    """

    def __init__(
        self, *, jieba_dictionary: str | None = None, taiwan_words: str | Path | None = DEFAULT_TAIWAN_WORDS
    ) -> None:
        import jieba

        logging.getLogger("jieba").setLevel(logging.WARNING)  # no start-up chatter
        self._jieba = jieba.Tokenizer(jieba_dictionary or jieba.DEFAULT_DICT)
        self._jieba.initialize()
        for word, frequency in _extra_words(taiwan_words):
            self._jieba.add_word(word, frequency)
        self._converter = _converter("t2s")
        self._words = regex.compile(_TOKEN_PATTERN, _TOKEN_FLAGS)
        self._table = _NormalisationTable(self._converter)
        self._to_taiwan = _converter("s2twp")
        self._to_mainland = _converter("tw2sp")
        self._words_cache: dict[str, str] = {}
        self._segments: dict[str, tuple[str, ...]] = {}

    def normalise(self, text: str) -> tuple[str, Sequence[int] | None]:
        """Normalise text for matching.

        Returns:
            The normalised string and, when some character of the text does not
            normalise to exactly one character, the list giving for every
            normalised character the offset of its original character
            (``None`` means offsets are the identity).
        """
        if text.isascii():
            return text.lower(), None
        normalised = text.translate(self._table)  # C speed; the table fills itself
        if self._table.irregular.isdisjoint(text):
            return normalised, None
        pieces = [self._table[ord(char)] for char in text]
        return normalised, [i for i, piece in enumerate(pieces) for _ in piece]

    def tokenize(self, text: str, start: int = 0, end: int | None = None) -> list[Token]:
        """Tokens of ``text[start:end]``, with offsets into ``text``.

        Args:
            text: The whole document text.
            start: Offset where the stretch to tokenize starts.
            end: Offset one past its end (the text's end when None).
        """
        stretch = text[start:end]
        normalised, origin = self.normalise(stretch)
        tokens: list[Token] = []
        for match in self._words.finditer(normalised):
            (lo, hi), piece = match.span(), match.group()
            if piece[0] > "\u2fff" and is_han(piece[0]):
                self._add_chinese(piece, lo, origin, start, tokens)
            else:
                tokens.append(_token(piece, lo, hi, origin, start))
        return tokens

    def match_form(self, word: str) -> str:
        """The form a single word takes for matching (used to key IDF tables)."""
        normalised, _ = self.normalise(word)
        return self._common_word(normalised) if normalised and is_han(normalised[0]) else normalised

    def words(self, text: str, start: int = 0, end: int | None = None) -> list[str]:
        """The token strings of ``text[start:end]``, as :meth:`tokenize` gives them.

        The same tokens without their offsets, which matching does not need
        and which cost a fifth of tokenization; a property test checks the two
        agree.
        """
        normalised, _ = self.normalise(text[start:end])
        words: list[str] = []
        for piece in self._words.findall(normalised):
            if piece[0] > "\u2fff" and is_han(piece[0]):
                compact = piece if piece.isalpha() else "".join(c for c in piece if not c.isspace())
                words.extend(self._common_word(word) for word in self._segment(compact))
            else:
                words.append(piece)
        return words

    def words_across(self, first: str, second: str) -> bool:
        """Whether a token may run from text ending in ``first`` into text
        starting with ``second`` across white space (a line break inside a Han
        run: jieba sees the run whole). Otherwise the words of the two texts
        read as one are the words of each, one after the other."""
        before, _ = self.normalise(first[-1:])
        after, _ = self.normalise(second[:1])
        return bool(before) and bool(after) and is_han(before[-1]) and is_han(after[0])

    def _add_chinese(
        self, run: str, lo: int, origin: Sequence[int] | None, base: int, out: list[Token]
    ) -> None:
        # Line breaks (and the spaces around them) inside the run are left out
        # of what jieba sees; `where` maps each kept character back.
        where = [i for i, char in enumerate(run) if not char.isspace()] if not run.isalpha() else None
        compact = "".join(run[i] for i in where) if where is not None else run
        position = 0
        for word in self._segment(compact):
            end = position + len(word)
            first, last = (where[position], where[end - 1]) if where is not None else (position, end - 1)
            out.append(_token(self._common_word(word), lo + first, lo + last + 1, origin, base))
            position = end

    def clear_cache(self) -> None:
        """Forget the remembered segmentations (a benchmark's runs start cold)."""
        self._segments.clear()

    def _segment(self, run: str) -> tuple[str, ...]:
        # jieba (accurate mode) on one Han run. Copies and boilerplate make the
        # same runs recur across documents (a quarter of the gold set's Han
        # text), so their words are kept, for a bounded number of runs.
        words = self._segments.get(run)
        if words is None:
            words = tuple(self._jieba.cut(run, HMM=True))
            if len(self._segments) >= _SEGMENT_CACHE:
                self._segments.pop(next(iter(self._segments)))  # oldest first
            self._segments[run] = words
        return words

    def _common_word(self, word: str) -> str:
        # Taiwan and mainland usage differ in words, not only in characters
        # (檔案/文件, 使用者/用户, 預設/默认). Converting each word to Taiwan
        # phrasing and back (OpenCC s2twp, then tw2sp) gives both usages one
        # form. It is done per token: a whole-text phrase conversion would
        # change lengths and lose the offsets.
        common = self._words_cache.get(word)
        if common is None:
            common = self._words_cache[word] = self._to_mainland.convert(self._to_taiwan.convert(word))
        return common


class _NormalisationTable(dict):
    """``str.translate`` table: code point -> normalised string, computed on first use.

    ``irregular`` holds the characters that do not normalise to exactly one
    character; only text containing one of them needs an offset map.
    """

    def __init__(self, converter) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        self._converter = converter
        self.irregular: set[str] = set()

    def __missing__(self, code: int) -> str:
        char = chr(code)
        mapped = self[code] = normalise_char(char, self._converter)
        if len(mapped) != 1:
            self.irregular.add(char)
        return mapped


def _extra_words(path: str | Path | None) -> list[tuple[str, int]]:
    if path is None:
        return []
    words = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, frequency = line.split("\t")[:2]
            words.append((word, int(frequency)))
    return words


def _token(word: str, lo: int, hi: int, origin: Sequence[int] | None, base: int) -> Token:
    if origin is None:
        return Token(word, base + lo, base + hi)
    return Token(word, base + origin[lo], base + origin[hi - 1] + 1)
