"""Sentence splitting for Chinese (Simplified and Traditional) and English text.

:class:`SentenceSplitter` cuts a document into :class:`~partialdup.core.types.Sentence`
spans. It never edits the text: every sentence is a ``text[start:end]`` slice
trimmed of surrounding whitespace, and every non-whitespace character belongs
to exactly one sentence.

The text is cut in four stages; each stage only adds cut positions, so nothing
can be lost.

1. **Lines.** A blank line (only whitespace) always ends a sentence. Inside a
   block of non-blank lines, a line break ends a sentence (a *hard* break) when

   * the next line starts a list item (``-``, ``*``, ``•``, ``1.``, ``1)``,
     ``(a)``, ``一、``, ``（一）``, ``①``, ``第三章``, a man-page option like
     ``-a``/``--all``), a Markdown heading, a table row, or a verse reference
     (``Genesis 1:1``, ``Ge1:1``, ``1 John 2:3``);
   * either line consists only of symbols (``----``, ``====``, ``%``);
   * otherwise, unless the line ends with a continuing mark (comma, ``、``,
     an opening bracket or quote, a dash, or a hyphen right after a letter),
     when the block is *line structured*: its typical line width (median
     display width of all lines but the last, CJK characters counting two
     columns) is below 40 or above 160 columns, i.e. the lines were not
     produced by wrapping running text at a fixed column;
   * or, in a wrapped block, when the line is *short*: narrower than 60 % of
     the larger of the typical width and the next line's width. A wrapped
     line is only that short at the end of a paragraph or after a heading.

   All other line breaks are *soft*: hard-wrapped prose (man pages, e-mail,
   Chinese text wrapped at 80 columns) stays one sentence.

2. **Chinese terminators.** ``。｡！？；﹒﹔﹖﹗``, ``．`` (not before a digit), runs
   of ``…``/``⋯``, and the ASCII ``! ? ;`` and ``.`` (the latter before
   whitespace, CJK or a closer, or as ``..``/``...``) written right after a CJK
   character end a sentence. Runs of terminators count as one, and closing
   quotes and brackets (``”’」』）》】`` ...) that follow stay in the sentence:
   ``他说：“好。”`` is one sentence.

3. **English (NLTK Punkt).** Pieces that contain ``.``, ``!`` or ``?`` before
   whitespace or their end go through :class:`nltk.tokenize.punkt.PunktSentenceTokenizer`
   with parameters trained offline on Debian documentation and the KJV
   (``partialdup/text/data/punkt_en.json``, see ``PUNKT_PROVENANCE.md``), via
   ``span_tokenize`` so offsets are exact; abbreviations (``e.g.``, ``Mr.``,
   ``etc.``), initials and decimals do not end sentences. In a piece that
   also holds CJK, Punkt runs on each stretch of non-CJK text separately; a
   stretch followed by CJK text gets a neutral capitalised sentinel word
   appended so that Punkt can decide whether its final period ends a
   sentence (``It works. 然后`` is cut, ``例如 e.g. 这个`` is not). Punkt's
   cuts after titles and ``e.g.``-like abbreviations (``Mr.``, ``Dr.``,
   ``St.``, ``vs.``, ``cf.`` ...) are dropped: a name or example always follows;
   so are cuts after a number that opens its line (``1.11. The key ...``).
   Long stretches go to Punkt in windows of 20,000 characters.

4. **Length cap.** A sentence longer than ``max_chars`` is cut into pieces of
   at most ``max_chars`` characters, preferably at the last whitespace, comma,
   ``、`` / ``，`` / ``；`` / ``：`` in the second half of the window, else hard.

Every stage is a compiled regular expression or work proportional to the
input, so splitting is linear in the text length.

Stage 1 lives in :mod:`partialdup.text.line_breaks`, Punkt's ends are read by
:mod:`partialdup.text.punkt_ends`. Each fast path (line cuts, the terminator
pattern, Punkt's ends) keeps its plain reference beside it;
``SentenceSplitter(reference=True)`` runs the references, and the tests
prove both give the same sentences on real text.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from functools import partial
from pathlib import Path
from typing import Callable, Iterator, Sequence

from partialdup.core.chars import CJK_CLASS
from partialdup.core.types import Sentence, SentenceOffsets, sentence_offsets
from partialdup.text.line_breaks import line_cuts, line_cuts_py
# NLTK's Punkt, without scipy.stats (start-up)
from partialdup.text.punkt import PunktParameters, PunktSentenceTokenizer, punkt_tokenizer
from partialdup.text.punkt_ends import PunktEnds, punkt_ends_py

__all__ = ["SentenceSplitter", "rejoinable"]

DEFAULT_PUNKT_PARAMS = Path(__file__).resolve().parent / "data" / "punkt_en.json"

# --- character classes ----------------------------------------------------

#: CJK ideographs, kana, hangul, CJK and full-width punctuation and forms.
_CJK = CJK_CLASS
#: Characters that close a quotation or parenthesis after a terminator.
_CLOSERS = "\"'”’」』）》】〕〗〙〛〉〞〟｣)\\]}›»"
#: Terminators that end a sentence wherever they are.
_CJK_STOPS = "。｡！？；﹒﹔﹖﹗…⋯"

# --- stage 2: Chinese terminators ------------------------------------------

#: Stage 2's terminator and what follows it; matches where
#: :data:`_TERMINATOR_PY` matches and ends where it ends. It opens with the
#: set of every character a terminator can start with, so the engine skips
#: to the next such character instead of trying each alternative (and the
#: lookbehind) at every position; the alternatives then test, behind that
#: character, what the reference tests before it.
_TERMINATOR = re.compile(
    rf"""
    [{_CJK_STOPS}．!?;.]
    (?: (?<=[{_CJK_STOPS}])
      | (?<=．)(?![0-9０-９])
      | (?<=[{_CJK}][!?;])
      | (?<=[{_CJK}]\.)(?=[.\s{_CJK}{_CLOSERS}]|\Z)
    )
    [{_CJK_STOPS}．!?;.]*
    [{_CLOSERS}]*
    """,
    re.VERBOSE,
)
#: The reference: the rule as the module docstring states it. A run of dots
#: after CJK (``\.{2,}``) needs no alternative of its own above: the run
#: after the first character takes the other dots.
_TERMINATOR_PY = re.compile(
    rf"""
    (?: [{_CJK_STOPS}]
      | ．(?![0-9０-９])
      | (?<=[{_CJK}]) (?: [!?;] | \.{{2,}} | \.(?=[\s{_CJK}{_CLOSERS}]|\Z) )
    )
    [{_CJK_STOPS}．!?;.]*
    [{_CLOSERS}]*
    """,
    re.VERBOSE,
)

# --- stage 3: English --------------------------------------------------------

#: A Latin sentence end Punkt may accept: [.!?] (and closers) before whitespace,
#: the end, or CJK ("It works.然后" is two sentences: English pasted into Chinese).
_LATIN_END = re.compile(rf"[.!?][{_CLOSERS}]*(?:\s|\Z|(?=[{_CJK}]))")
_NON_CJK_RUN = re.compile(f"[^{_CJK}]+")
_HAS_CJK = re.compile(f"[{_CJK}]")
_ALNUM = re.compile(r"[^\W_]")
#: Appended to a Latin stretch that CJK text follows: a capitalised word with
#: no orthographic statistics, so Punkt cuts after an ordinary word's period
#: and keeps an abbreviation's.
_SENTINEL = " Zqxjv"
#: Longest text handed to Punkt at once.
PUNKT_WINDOW = 20_000
#: Abbreviations that are always followed by more of the sentence (a name, an
#: example). Punkt's orthographic rule would still cut "Mr. Brown" because
#: "brown" is seen in lower case, so such cuts are dropped afterwards.
_NEVER_FINAL = re.compile(
    r"(?<![^\W\d_])(?:mr|mrs|ms|messrs|dr|prof|st|mt|capt|col|gen|lt|sgt|rev|hon"
    rf"|e\.g|i\.e|vs|cf|viz)\.[{_CLOSERS}]*\Z",
    re.IGNORECASE,
)

#: A section or list number ("1.", "9.4.4.") right before a cut.
_NUMBER_BEFORE = re.compile(r"(?<!\S)\d{1,3}(?:\.\d{1,3})*\.\Z")


def _is_line_number(run: str, end: int) -> bool:
    """Whether ``run[:end]`` ends with a number that opens its line (``1.11.``).

    Punkt cuts after such numbers when a capitalised word follows, leaving
    "1.11." alone as a sentence; the number belongs to the heading or list
    item. Only the 200 characters before the number are looked at, so the
    check stays constant-time.
    """
    m = _NUMBER_BEFORE.search(run, max(0, end - 16), end)
    if m is None:
        return False
    start = m.start()
    before = run[max(0, start - 200) : start].rstrip(" \t")
    return before.endswith(("\n", "\r")) or (not before and start <= 200)


# --- stage 4: length cap ----------------------------------------------------

#: Last whitespace (group 1) or comma-like mark (group 2) in a window.
_LAST_BREAK = re.compile(r".*(?:(\s)|([,，、;；:：]))", re.DOTALL)
_NON_SPACE = re.compile(r"\S")


class SentenceSplitter:
    """Splits text into trimmed, non-overlapping sentences with exact offsets.

    The object loads the Punkt parameters once; reuse it for many documents.
    The module docstring describes the rules.

    Args:
        max_chars: Longest sentence, in characters; longer runs are cut.
        punkt_params_path: Punkt parameters JSON written by
            ``scripts/train_punkt.py``; defaults to the shipped
            ``partialdup/text/data/punkt_en.json``.
        reference: Run the plain reference code of every fast path (line
            breaks, terminators, Punkt's ends) instead: the same sentences,
            slower; for the tests that prove it.

    Raises:
        ValueError: If ``max_chars`` is smaller than 1.
    """

    def __init__(
        self,
        *,
        max_chars: int = 1000,
        punkt_params_path: str | Path | None = None,
        reference: bool = False,
    ) -> None:
        if max_chars < 1:
            raise ValueError(f"max_chars must be at least 1, got {max_chars}")
        self.max_chars = max_chars
        path = Path(punkt_params_path) if punkt_params_path else DEFAULT_PUNKT_PARAMS
        # The fast paths, or (reference) the plain code each is proven against.
        self._reference = reference
        self._line_cuts = line_cuts_py if reference else line_cuts
        self._terminator_cuts = _terminator_cuts_py if reference else _terminator_cuts
        self._punkt = punkt_tokenizer(_load_punkt_params(path))

    @property
    def _punkt(self) -> PunktSentenceTokenizer:
        """The Punkt tokenizer (NLTK's), which decides English sentence ends."""
        return self._tokenizer

    @_punkt.setter
    def _punkt(self, tokenizer: PunktSentenceTokenizer) -> None:
        # A tokenizer swapped in (a test compares NLTK's own classes) must
        # reach the code that reads Punkt's ends too.
        self._tokenizer = tokenizer
        self._punkt_ends: Callable[[str], list[int]] = (
            partial(punkt_ends_py, tokenizer) if self._reference or not PunktEnds.proven() else PunktEnds(tokenizer)
        )

    def split(self, text: str) -> SentenceOffsets:
        """Splits ``text`` into sentences.

        Args:
            text: The document text.

        Returns:
            The sentences in order, indexed from 0, held as offsets; empty
            (equal to ``()``) for a text with no non-whitespace character.
        """
        cuts = sorted(set(self._line_cuts(text)).union(self._terminator_cuts(text)))
        cuts.append(len(text))
        starts: list[int] = []
        ends: list[int] = []
        latin_end = _LATIN_END.search
        limit = self.max_chars
        start = 0
        for end in cuts:
            if end <= start:
                continue
            seg = text[start:end]
            body = seg.lstrip()
            if body:  # not blank (as the line end after a terminator is)
                if latin_end(text, start, end):
                    for s, e in self._english_pieces(text, start, end):
                        self._trim(text, s, e, starts, ends)
                else:
                    # self._trim inlined for the common piece: a call per
                    # piece was a fifth of the splitting time.
                    s = start + len(seg) - len(body)
                    e = s + len(body.rstrip())
                    if e - s > limit:
                        self._trim(text, s, e, starts, ends)
                    else:
                        starts.append(s)
                        ends.append(e)
            start = end
        return SentenceOffsets(starts, ends)

    # -- stage 3 ---------------------------------------------------------

    def _english_pieces(self, text: str, start: int, end: int) -> list[tuple[int, int]]:
        """Cuts ``text[start:end]``, which has a Latin end, at Punkt's sentence ends."""
        piece = text[start:end]
        if _HAS_CJK.search(piece):
            cuts = list(self._mixed_cuts(piece))
        else:
            cuts = self._punkt_cuts(piece, False)
        pieces = []
        prev = 0
        for cut in cuts:
            if cut > prev:
                pieces.append((start + prev, start + cut))
                prev = cut
        pieces.append((start + prev, end))
        return pieces

    def _mixed_cuts(self, piece: str) -> Iterator[int]:
        """Punkt cuts in each non-CJK stretch of a piece that also holds CJK text."""
        for run in _NON_CJK_RUN.finditer(piece):
            start, end = run.span()
            # A stretch needs a Latin end (searched up to the stretch's end,
            # which is one: the text beyond is CJK or nothing) and a letter or
            # digit: a lone "." between Chinese words (``隐含的 . 和 ..``) is a
            # file name, not a sentence end.
            if not _LATIN_END.search(piece, start, end) or not _ALNUM.search(piece, start, end):
                continue
            for cut in self._punkt_cuts(run.group(), end < len(piece)):
                yield start + cut

    def _punkt_cuts(self, run: str, followed: bool) -> list[int]:
        """Offsets in ``run`` where Punkt ends a sentence (excluding the run's end).

        Long runs are fed to Punkt in windows of about :data:`PUNKT_WINDOW`
        characters (NLTK aborts a regular expression running longer than a few
        seconds): the cuts of a window up to its last one are kept, and the
        next window starts there, so every decision sees its context.

        Args:
            run: Text without CJK characters.
            followed: Whether more (CJK) text follows the run; then a sentinel
                word stands in for it, and a cut at the run's very end counts.
        """
        cuts: list[int] = []
        pos = 0
        while len(run) - pos > PUNKT_WINDOW:
            stop = run.rfind(" ", pos + PUNKT_WINDOW // 2, pos + PUNKT_WINDOW)
            stop = stop if stop > pos else pos + PUNKT_WINDOW
            found = self._punkt_window(run[pos:stop], False)
            cuts.extend(pos + c for c in found)
            pos = pos + found[-1] if found else stop
        cuts.extend(pos + c for c in self._punkt_window(run[pos:], followed))
        return cuts

    def _punkt_window(self, run: str, followed: bool) -> list[int]:
        """Punkt's cuts in one window; see :meth:`_punkt_cuts`."""
        probe = run + _SENTINEL if followed else run
        limit = len(run) if followed else len(run) - 1
        ends = self._punkt_ends(probe)[:-1]
        return [
            e
            for e in ends
            if 0 < e <= limit
            and not _NEVER_FINAL.search(probe, max(0, e - 12), e)
            and not _is_line_number(probe, e)
        ]

    # -- stage 4 ---------------------------------------------------------

    def _trim(self, text: str, start: int, end: int, starts: list[int], ends: list[int]) -> None:
        """Appends ``text[start:end]`` trimmed, cut into pieces of at most ``max_chars``."""
        seg = text[start:end]
        body = seg.lstrip()
        if not body:
            return
        start += len(seg) - len(body)
        end = start + len(body.rstrip())
        limit = self.max_chars
        while end - start > limit:
            cut = _cut_point(text, start, start + limit, limit)
            piece_end = cut
            while text[piece_end - 1].isspace():  # bounded: the piece starts non-space
                piece_end -= 1
            starts.append(start)
            ends.append(piece_end)
            m = _NON_SPACE.search(text, cut, end)
            start = m.start() if m else end  # end is non-space, so m is found
        starts.append(start)
        ends.append(end)


def _cut_point(text: str, start: int, stop: int, limit: int) -> int:
    """Where to cut a too-long run that starts at ``start`` and may reach ``stop``.

    Prefers the last whitespace (cut before it) or comma-like mark (cut after
    it) in the second half of the window, else cuts hard at ``stop``.
    """
    m = _LAST_BREAK.match(text, start + limit // 2, stop)
    if m is None:
        return stop
    if m.group(1) is not None and m.start(1) > start:
        return m.start(1)
    if m.group(2) is not None:
        return m.end(2)
    return stop


# --- line breaks that may have cut a sentence ----------------------------------

#: A sentence that ends like this was finished before its line break.
_FINISHED = re.compile(rf"(?:[{_CJK_STOPS}．.!?;:：]|\.\.\.)[{_CLOSERS}]*\Z")


def rejoinable(text: str, sentences: Sequence[Sentence]) -> tuple[int, ...]:
    """Sentences cut from the next one by a line break that may be a wrap.

    The splitter must decide at every line break whether a sentence ends, and
    a block of one or two lines gives it little to judge by: an edited copy
    that breaks a line in mid-sentence ("Let's\\nstore the passphrase") is
    split where its source is not. Matching also tries such neighbours read as
    one sentence. A break qualifies when exactly one line break (and no other
    text) lies between the two sentences and the first does not end with a
    terminator or a colon (after which the break is a real sentence end).

    Args:
        text: The document text.
        sentences: Its sentences, as :meth:`SentenceSplitter.split` gives them.

    Returns:
        The index ``i`` of every sentence that may continue in sentence ``i + 1``.
    """
    starts, ends = sentence_offsets(sentences)
    indexes = range(len(sentences)) if isinstance(sentences, SentenceOffsets) else [s.index for s in sentences]
    found = []
    for index, start, end, following in zip(indexes, starts, ends, starts[1:]):
        between = text[end:following]
        if between.count("\n") == 1 and not between.strip() and not _FINISHED.search(text, start, end):
            found.append(index)
    return tuple(found)


# --- stage 2 -----------------------------------------------------------------


def _terminator_cuts(text: str) -> list[int]:
    """Offsets just after each Chinese terminator run and its closers."""
    return [m.end() for m in _TERMINATOR.finditer(text)]


def _terminator_cuts_py(text: str) -> list[int]:
    """The reference of :func:`_terminator_cuts`."""
    return [m.end() for m in _TERMINATOR_PY.finditer(text)]


# --- Punkt parameters ---------------------------------------------------------


def _load_punkt_params(path: Path) -> PunktParameters:
    """Reads Punkt parameters from the JSON written by ``scripts/train_punkt.py``."""
    with path.open(encoding="utf-8") as f:
        data = json.load(f)
    params = PunktParameters()
    params.abbrev_types = set(data["abbrev_types"])
    params.collocations = {(a, b) for a, b in data["collocations"]}
    params.sent_starters = set(data["sent_starters"])
    params.ortho_context = defaultdict(int, {k: int(v) for k, v in data["ortho_context"]})
    return params
