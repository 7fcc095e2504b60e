"""Normalisation and tokenization of sentences, with exact offsets.

Matching happens on a normalised copy of the text: NFKC (full width to half
width), case folding and Traditional to Simplified Chinese, invisible
characters dropped and combining marks composed (see
:mod:`partialdup.text.normalise`). Every normalised character knows the
original character it came from, so every :class:`~partialdup.core.types.Token`
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

import contextlib
import hashlib
import logging
import os
import stat
from pathlib import Path
from typing import Iterator, Sequence

import regex

from partialdup.core.chars import HAN_CLASS, is_han
from partialdup.core.types import Token
from partialdup.text.normalise import Normaliser, normalise_char

__all__ = ["Tokenizer", "normalise_char", "DEFAULT_TAIWAN_WORDS", "jieba_cache_dir"]

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


#: Where jieba's prefix dictionary is cached when no cache folder can be
#: used: a path under a file, so jieba finds no cache there and cannot write
#: one (it has no switch to turn its cache off).
_NO_CACHE = os.devnull


def jieba_cache_dir() -> str:
    """The folder for jieba's dictionary cache: ``$XDG_CACHE_HOME/partialdup``
    or ``~/.cache/partialdup``, made private (0700) when missing.

    jieba's own default is ``/tmp/jieba.cache``, one file for every user of
    the machine: once another user made it, writing it fails with a
    traceback, and reading it trusts a file anyone could have written. So the
    cache lives in the user's own folder, and when that folder cannot be made,
    is not a folder of this user's or is not writable, there is no cache
    (jieba builds its dictionary each time, about a second): a string that
    jieba cannot use as a folder is returned.
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG specification: relative values are ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "partialdup")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return _NO_CACHE
    own = not hasattr(os, "geteuid") or info.st_uid == os.geteuid()
    usable = stat.S_ISDIR(info.st_mode) and own and os.access(folder, os.W_OK | os.X_OK)
    return folder if usable else _NO_CACHE


@contextlib.contextmanager
def _jieba_silenced() -> Iterator[None]:
    # jieba logs a traceback when it cannot write its cache; that is not the
    # user's concern (there is simply no cache), so nothing below CRITICAL.
    logger = logging.getLogger("jieba")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _cache_name(dictionary: str) -> str:
    # One cache per dictionary file and version of it: jieba reloads its
    # default dictionary's cache without comparing dates.
    info = os.stat(dictionary)
    key = f"{os.path.abspath(dictionary)}\0{info.st_size}\0{info.st_mtime_ns}"
    return f"jieba-{hashlib.blake2b(key.encode('utf-8', 'surrogateescape'), digest_size=8).hexdigest()}.cache"


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
        self._jieba.tmp_dir = jieba_cache_dir()
        dictionary = jieba_dictionary or os.path.join(os.path.dirname(jieba.__file__), jieba.DEFAULT_DICT_NAME)
        self._jieba.cache_file = _cache_name(dictionary)
        with _jieba_silenced():
            self._jieba.initialize()
        for word, frequency in _extra_words(taiwan_words):
            self._jieba.add_word(word, frequency)
        self._converter = _converter("t2s")
        self._words = regex.compile(_TOKEN_PATTERN, _TOKEN_FLAGS)
        self._normalise = Normaliser(self._converter)
        self._to_taiwan = _converter("s2twp")
        self._to_mainland = _converter("tw2sp")
        self._words_cache: dict[str, str] = {}
        self._segments: dict[str, tuple[str, ...]] = {}

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
        tokens: list[Token] = []
        for match in self._words.finditer(normalised):
            (lo, hi), piece = match.span(), match.group()
            if piece[0] > "\u2fff" and is_han(piece[0]):
                self._add_chinese(piece, lo, mapping, tokens)
            else:
                tokens.append(mapping.token(piece, lo, hi))
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

    def _add_chinese(self, run: str, lo: int, mapping: _Mapping, out: list[Token]) -> None:
        # Line breaks (and the spaces around them) inside the run are left out
        # of what jieba sees; `where` maps each kept character back.
        where = [i for i, char in enumerate(run) if not char.isspace()] if not run.isalpha() else None
        compact = "".join(run[i] for i in where) if where is not None else run
        position = 0
        for word in self._segment(compact):
            end = position + len(word)
            first, last = (where[position], where[end - 1]) if where is not None else (position, end - 1)
            out.append(mapping.token(self._common_word(word), lo + first, lo + last + 1))
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

