"""Joining hard-wrapped lines (fortunes-zh, GPL-2) and dropping box-drawn tables."""
from __future__ import annotations

import re
import unicodedata

from .text import clean_text, display_width, is_cjk_or_punct

__all__ = ["BOX_DRAWING", "TABLE_CAPTION", "drop_tables", "unwrap"]

BOX_DRAWING = "┌┐└┘├┤┬┴┼│─"
TABLE_CAPTION = re.compile(r"^表\s*\d+(\.\d+)*\.?\s")
_BLANKS = " \t\u00a0\u3000"
_LIST_ITEM = re.compile(r"^([*\-•]|\d+\.|\(\w\)|[a-z]\))\s")
# A line ending in one of these closes a sentence or introduces what follows.
_LINE_ENDERS = "。！？：:"


def _first_word(line: str) -> str:
    line = line.strip(_BLANKS)
    if not line or unicodedata.east_asian_width(line[0]) in "WF":
        return line[:1]
    return line.split()[0]


def _was_wrapped(line: str, following: str, fill: int) -> bool:
    # A renderer wraps a line only when the next word would not fit; a
    # shorter line (a command, a code line, a list row) ended there.  w3m
    # keeps some punctuation off a line start, so a wrapped line may end up
    # to 4 columns short of the fill column.
    width = display_width(line.rstrip())
    return width <= fill and width + 1 + display_width(_first_word(following)) >= fill - 4


def _join_paragraph(para: str, fill: int | None) -> list:
    """The lines of one paragraph after joining its wrapped lines."""
    raw = [ln for ln in para.split("\n") if ln.strip(_BLANKS)]
    lines = [ln.strip(_BLANKS) for ln in raw]
    out = []
    cur = ""
    for k, ln in enumerate(lines):
        if not cur:
            cur = ln
            continue
        kept = fill is not None and not _was_wrapped(raw[k - 1], raw[k], fill)
        if _LIST_ITEM.match(ln) or kept or cur[-1] in _LINE_ENDERS:
            out.append(cur)
            cur = ln
            continue
        # Chinese lines join without a space, English ones with one.
        joiner = "" if (is_cjk_or_punct(cur[-1]) and is_cjk_or_punct(ln[0])) else " "
        cur = cur + joiner + ln
    if cur:
        out.append(cur)
    return out


def unwrap(text: str, fill: int | None = None) -> str:
    """Join hard-wrapped lines of a paragraph (used for fortunes and GPL-2).

    With ``fill`` (the renderer's wrap column), a line is joined to the next
    only when it was wrapped there, so preformatted lines stay lines.

    Args:
        text: Text whose paragraphs are separated by blank lines.
        fill: The wrap column, or None to join every line not ending a sentence.

    Returns:
        The cleaned text, one paragraph line per wrapped paragraph line.
    """
    out = []
    for para in re.split(r"\n\s*\n", text):
        out += _join_paragraph(para, fill)
        out.append("")
    return clean_text("\n".join(out))


def drop_tables(text: str) -> str:
    """Remove box-drawn tables and their captions ("表 4.3. ...").

    The Debian Reference sources leave HTML tables out (SKIP_CLASSES), so
    the fortunes' renderings of the same tables are left out too: a table
    in only one of the two texts could be neither matched nor labelled.

    Args:
        text: A fortune text.

    Returns:
        The text without table lines and without a caption line right before a table.
    """
    lines = text.split("\n")
    stripped = [ln.strip(_BLANKS) for ln in lines]
    is_table = [bool(ln) and ln[0] in BOX_DRAWING for ln in stripped]
    kept = []
    for k, ln in enumerate(lines):
        if is_table[k]:
            continue
        following = next((j for j in range(k + 1, len(lines)) if stripped[j]), None)
        if following is not None and is_table[following] and TABLE_CAPTION.match(stripped[k]):
            continue
        kept.append(ln)
    return "\n".join(kept)
