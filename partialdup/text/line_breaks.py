"""Stage 1 of sentence splitting: the line breaks that end a sentence.

The rules are those of :mod:`partialdup.text.sentences` (its docstring, stage
1): a blank line always ends a sentence; inside a block of non-blank lines a
break is *hard* after a structural start, a symbol line, or, unless the line
ends with a continuing mark, in a line-structured block or after a short line.

:func:`line_cuts` is the fast path: most blocks are one line (a paragraph per
line, as text extracted from HTML is), and one line has no break to judge,
so display widths are measured only in blocks of several lines, and each
break's cheapest tests run first (the tests are pure, so their order changes
no verdict). :func:`line_cuts_py` is the plain reference, one test after the
other as the rules are written; a test proves both agree on real text.
"""

from __future__ import annotations

import re

from partialdup.core.chars import CJK_CLASS

__all__ = ["MAX_WRAP_WIDTH", "MIN_WRAP_WIDTH", "SHORT_RATIO", "line_cuts", "line_cuts_py"]

#: Start of a line (after indentation) that begins a new sentence.
_STRUCTURAL_START = re.compile(
    r"""
    [-*+•·▪‣◦●○■□◆◇►▶➢✓✔※→](?=\s)                    # bullet
  | -{1,2}[A-Za-z0-9]                                  # option: -a, --all
  | \d{1,3}(?:\.\d{1,3})*[.)](?=\s)                    # 1.  1.2.  1)
  | [(（](?:\d{1,3}|[A-Za-z]|[ivxIVX]{1,5}|[一二三四五六七八九十]{1,3})[)）]  # (a) （一）
  | [A-Za-z]\)(?=\s)                                   # a)
  | (?:\d{1,3}|[一二三四五六七八九十百]{1,4})[、．]     # 1、 一、
  | 第[一二三四五六七八九十百千\d]{1,5}[章節节條条款篇部回卷]  # 第三章
  | [\u2460-\u24ff\u2776-\u2793]                       # ① ❶
  | \#{1,6}\s | \|                                     # Markdown heading, table row
  | (?:[1-3]\s?)?[A-Z][a-z]{1,15}\.?\s?\d{1,3}:\d{1,3}(?=\s)  # verse: Genesis 1:1
    """,
    re.VERBOSE,
)
#: A line made only of symbols: a rule, an underline, a fortune separator.
_SYMBOL_LINE = re.compile(r"[-=_*~#%+.·•<>/\\|^\s]+")
#: A line ending that says the sentence goes on in the next line.
_CONTINUES = re.compile(r"(?:[,，、(（\[{“‘«—–]|(?<=[^\W\d_])[-‐\u00ad])\Z")
_WIDE = re.compile(f"[{CJK_CLASS}]")

MIN_WRAP_WIDTH = 40  #: narrower typical lines are line-structured text
MAX_WRAP_WIDTH = 160  #: wider typical lines were not wrapped at all
SHORT_RATIO = 0.6  #: a line narrower than this share of the width is short


def _display_width(line: str) -> int:
    """Columns a line takes in a terminal: CJK characters count two."""
    if line.isascii():
        return len(line.expandtabs()) if "\t" in line else len(line)
    return len(line) + len(_WIDE.findall(line))


# --- the fast path ----------------------------------------------------------------


def line_cuts(text: str) -> list[int]:
    """Offsets where a line starts a new sentence; equal to :func:`line_cuts_py`."""
    cuts: list[int] = []
    starts: list[int] = []  # offset of each line of the current block
    lines: list[str] = []  # its content, without line end and trailing space
    pos = 0
    for line in text.splitlines(keepends=True):
        content = line.rstrip()
        if content:
            starts.append(pos)
            lines.append(content)
        else:
            if starts:
                _block_cuts(starts, lines, cuts)
                starts, lines = [], []
            cuts.append(pos)  # a blank line ends the sentence before it
        pos += len(line)
    if starts:
        _block_cuts(starts, lines, cuts)
    return cuts


def _block_cuts(starts: list[int], lines: list[str], cuts: list[int]) -> None:
    """Appends the cut positions of one non-empty block of non-blank lines."""
    cuts.append(starts[0])
    if len(lines) == 1:
        return
    widths = [_display_width(line) for line in lines[:-1]]
    typical = sorted(widths)[len(widths) // 2]
    structured = not MIN_WRAP_WIDTH <= typical <= MAX_WRAP_WIDTH
    last = len(lines) - 1
    for i in range(last):
        prev = lines[i]
        nxt = lines[i + 1]
        # Whether prev ends with a continuing mark: _CONTINUES anchored at
        # the end, tried at the last character only (its lookbehind still
        # sees the one before).
        if not _CONTINUES.search(prev, len(prev) - 1):
            if structured:
                cuts.append(starts[i + 1])
                continue
            nxt_width = widths[i + 1] if i + 1 < last else _display_width(nxt)
            if widths[i] < SHORT_RATIO * max(typical, nxt_width):
                cuts.append(starts[i + 1])
                continue
        stripped = nxt.lstrip()
        if _STRUCTURAL_START.match(stripped) or _SYMBOL_LINE.fullmatch(prev) or _SYMBOL_LINE.fullmatch(stripped):
            cuts.append(starts[i + 1])


# --- the reference ------------------------------------------------------------------


def line_cuts_py(text: str) -> list[int]:
    """Offsets where a line starts a new sentence (see the module docstring)."""
    cuts: list[int] = []
    block: list[tuple[int, str, int]] = []  # (offset, content, width) per line
    pos = 0
    for line in text.splitlines(keepends=True):
        content = line.rstrip()
        if content:
            block.append((pos, content, _display_width(content)))
        else:
            _block_cuts_py(block, cuts)
            block = []
            cuts.append(pos)  # a blank line ends the sentence before it
        pos += len(line)
    _block_cuts_py(block, cuts)
    return cuts


def _block_cuts_py(block: list[tuple[int, str, int]], cuts: list[int]) -> None:
    """Appends the cut positions of one block of non-blank lines."""
    if not block:
        return
    cuts.append(block[0][0])
    if len(block) == 1:
        return
    widths = sorted(w for _, _, w in block[:-1])
    typical = widths[len(widths) // 2]
    structured = not MIN_WRAP_WIDTH <= typical <= MAX_WRAP_WIDTH
    for (_, prev, prev_width), (nxt_pos, nxt, nxt_width) in zip(block, block[1:]):
        if _is_hard_break(prev, prev_width, nxt.lstrip(), nxt_width, typical, structured):
            cuts.append(nxt_pos)


def _is_hard_break(
    prev: str, prev_width: int, nxt: str, nxt_width: int, typical: int, structured: bool
) -> bool:
    """Whether the line break between two non-blank lines ends a sentence.

    Args:
        prev: The previous line, without its line end and trailing whitespace.
        prev_width: Its display width.
        nxt: The next line, without indentation.
        nxt_width: The next line's display width (with indentation).
        typical: The block's typical line width.
        structured: Whether the block is line-structured text rather than
            wrapped prose.
    """
    if _STRUCTURAL_START.match(nxt):
        return True
    if _SYMBOL_LINE.fullmatch(prev) or _SYMBOL_LINE.fullmatch(nxt):
        return True
    if _CONTINUES.search(prev):
        return False
    if structured:
        return True
    return prev_width < SHORT_RATIO * max(typical, nxt_width)
