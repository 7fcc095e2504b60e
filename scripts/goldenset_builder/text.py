"""Character classes, text cleaning and the label-side sentence rule.

The gold set splits sentences by its own rule, independent of the detector's
splitter, so that the labels do not inherit the detector's choices.
"""
from __future__ import annotations

import re
import unicodedata

__all__ = [
    "CLOSERS", "ZH_END", "clean_text", "display_width", "is_cjk", "is_cjk_or_punct",
    "n_cjk", "sentences",
]

ZH_END = "。！？；"
CLOSERS = "”’」』）)》】\"'"
_EN_BOUND = re.compile(r"[.!?][\"')\]”’]*(?=\s+[\"'(“‘]?[A-Z])")


def is_cjk(ch: str) -> bool:
    """Tell whether a character is a CJK ideograph (BMP blocks and planes 2-3).

    Args:
        ch: One character.

    Returns:
        True for CJK Unified Ideographs, Extension A, compatibility ideographs
        and the supplementary ideograph planes.
    """
    o = ord(ch)
    return (0x3400 <= o <= 0x9FFF) or (0xF900 <= o <= 0xFAFF) or (0x20000 <= o <= 0x2FFFF)


def is_cjk_or_punct(ch: str) -> bool:
    """Tell whether a character is CJK or CJK / full-width punctuation.

    Args:
        ch: One character.

    Returns:
        True for ideographs, CJK symbols, full-width forms and curly quotes.
    """
    o = ord(ch)
    return is_cjk(ch) or (0x3000 <= o <= 0x303F) or (0xFF00 <= o <= 0xFFEF) or ch in "“”‘’"


def n_cjk(s: str) -> int:
    """Count the CJK ideographs of a string.

    Args:
        s: Any text.

    Returns:
        The number of characters for which :func:`is_cjk` holds.
    """
    return sum(1 for ch in s if is_cjk(ch))


def display_width(s: str) -> int:
    """Terminal columns of a line: wide and full-width characters take two.

    Args:
        s: One line of text.

    Returns:
        Its width in terminal columns.
    """
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def clean_text(t: str) -> str:
    """Normalise line ends and blank lines of a document text.

    Control characters other than newline and tab are dropped, tabs become
    spaces, trailing blanks are cut, runs of blank lines shrink to one.

    Args:
        t: Raw text.

    Returns:
        The cleaned text, ending in exactly one newline.
    """
    t = t.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")
    t = "".join(ch for ch in t if ch in "\n\t" or unicodedata.category(ch) != "Cc")
    t = t.replace("\t", " ")
    lines = [ln.rstrip() for ln in t.split("\n")]
    t = "\n".join(lines)
    t = re.sub(r"\n{3,}", "\n\n", t).strip("\n")
    return t + "\n"


def _zh_cuts(line: str) -> list:
    """Offsets just after each Chinese sentence end (plus closers) of a line."""
    cuts = []
    i, n = 0, len(line)
    while i < n:
        if line[i] in ZH_END:
            j = i + 1
            while j < n and line[j] in CLOSERS:
                j += 1
            cuts.append(j)
            i = j
            continue
        i += 1
    return cuts


def _line_spans(line: str, pos: int) -> list:
    """Trimmed, non-empty sentence spans of one line starting at offset pos."""
    cuts = sorted(set(_zh_cuts(line) + [m.end() for m in _EN_BOUND.finditer(line)]))
    out = []
    prev = 0
    for c in cuts + [len(line)]:
        seg = line[prev:c]
        a = len(seg) - len(seg.lstrip())
        b = len(seg.rstrip())
        if b > a:
            out.append((pos + prev + a, pos + prev + b))
        prev = c
    return out


def sentences(text: str) -> list:
    """Sentence spans (start, end) by the gold set's own rule.

    A line break always ends a sentence.  Inside a line a sentence ends after
    one of 。！？； plus any closing quotes/brackets, or after . ! ? (plus
    closers) when followed by whitespace and a capital letter.  Spans are
    trimmed of surrounding whitespace; empty spans are dropped.

    Args:
        text: A document text.

    Returns:
        A list of (start, end) character offsets, end exclusive, in order.
    """
    out = []
    pos = 0
    for line in text.split("\n"):
        out += _line_spans(line, pos)
        pos += len(line) + 1
    return out
