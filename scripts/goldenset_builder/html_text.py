"""HTML pages of the Debian books to text blocks, and their splitting at headings."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from .text import clean_text, is_cjk_or_punct

__all__ = ["blocks_text", "heading_pieces", "html_blocks", "split_blocks"]

BLOCK_TAGS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd", "pre",
              "br", "tr", "blockquote", "ul", "ol", "dl", "title", "hr", "caption"}
VOID_TAGS = {"br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr"}
# Navigation, tables of contents, tables and footnotes are not running text:
# a copy detector should not be judged on them.
SKIP_CLASSES = {"navheader", "navfooter", "toc", "docnav", "table", "informaltable",
                "list-of-tables", "list-of-figures", "footnotes", "indexterm",
                "legalnotice-dummy"}
SKIP_TAGS = {"script", "style", "head", "table"}
SKIP_IDS = {"banner", "title", "site_footer"}
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _collapse_ws(raw: str) -> str:
    """Collapse the whitespace of a non-<pre> block to single spaces.

    A run containing a line break between two CJK characters is removed:
    Chinese HTML sources break lines between characters, which a reader
    never sees as a space.
    """
    def ws(m):
        a = raw[m.start() - 1] if m.start() > 0 else ""
        b = raw[m.end()] if m.end() < len(raw) else ""
        if "\n" in m.group(0) and a and b and is_cjk_or_punct(a) and is_cjk_or_punct(b):
            return ""
        return " "
    return re.sub(r"[ \t\r\n\f]+", ws, raw).strip()


class _HTMLText(HTMLParser):
    """Collects (kind, text) blocks: kind is a heading tag or ``"p"``."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # (tag, skipping_started_here)
        self.skip = 0
        self.pre = 0
        self.buf = []
        self.blocks = []         # (kind, text)
        self.kind = "p"

    def _flush(self):
        raw = "".join(self.buf)
        self.buf = []
        if self.pre:
            lines = [ln.rstrip() for ln in raw.split("\n")]
            t = "\n".join(lines).strip("\n")
        else:
            t = _collapse_ws(raw)
        if t.strip():
            self.blocks.append((self.kind, t))
        self.kind = "p"

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = set((a.get("class") or "").split())
        starts_skip = (tag in SKIP_TAGS or bool(cls & SKIP_CLASSES)
                       or (a.get("id") in SKIP_IDS))
        if tag in BLOCK_TAGS and not self.skip:
            self._flush()
            if tag in HEADINGS:
                self.kind = tag
        if tag in VOID_TAGS:
            return
        if starts_skip:
            self.skip += 1
        if tag == "pre" and not self.skip:
            self.pre += 1
        self.stack.append((tag, starts_skip))

    def handle_startendtag(self, tag, attrs):
        if tag in BLOCK_TAGS and not self.skip:
            self._flush()

    def handle_endtag(self, tag):
        if tag in VOID_TAGS:
            return
        # An end tag without its start tag (sloppy HTML) must not unwind the stack.
        if not any(t == tag for t, _ in self.stack):
            return
        while self.stack:
            t, sk = self.stack.pop()
            if t in BLOCK_TAGS and not self.skip:
                self._flush()
            if t == "pre" and not self.skip and self.pre:
                self.pre -= 1
            if sk:
                self.skip -= 1
            if t == tag:
                break

    def handle_data(self, data):
        if not self.skip:
            self.buf.append(data)


def html_blocks(path: str) -> list:
    """Text blocks of an HTML file.

    Args:
        path: An HTML file in UTF-8.

    Returns:
        A list of (kind, text): kind is ``"h1"``..``"h6"`` for headings, else ``"p"``.
    """
    with open(path, encoding="utf-8") as f:
        src = f.read()
    p = _HTMLText()
    p.feed(src)
    p.close()
    p._flush()
    return p.blocks


def blocks_text(blocks) -> str:
    """Document text of blocks: one block a paragraph.

    Args:
        blocks: (kind, text) blocks.

    Returns:
        The cleaned text, blocks separated by a blank line.
    """
    return clean_text("\n\n".join(t for _, t in blocks))


def heading_pieces(blocks, level: str) -> list:
    """Split blocks before every heading of one level.

    Args:
        blocks: (kind, text) blocks.
        level: The heading kind that starts a piece (e.g. ``"h2"``); a kind
            that never occurs gives one piece.

    Returns:
        A list of block lists; the first may start without the heading.
    """
    pieces: list = []
    cur: list = []
    for b in blocks:
        if b[0] == level and cur:
            pieces.append(cur)
            cur = []
        cur.append(b)
    if cur:
        pieces.append(cur)
    return pieces


def _split_big(idx: int, piece, cap: int, sub: str) -> list:
    """Cut a piece larger than cap at ``sub`` headings, each part >= cap / 3."""
    out = []
    part: list = []
    sz, k = 0, 0
    for b in piece:
        if b[0] == sub and part and sz >= cap / 3:
            out.append((idx, k, part))
            part, sz, k = [], 0, k + 1
        part.append(b)
        sz += len(b[1])
    if part:
        out.append((idx, k, part))
    return out


def split_blocks(blocks, level: str = "h2", cap: int = 30000, sub: str = "h3") -> list:
    """Split a chapter into sect1 pieces; big ones further at sect2 headings.

    Args:
        blocks: (kind, text) blocks of one HTML page.
        level: Heading kind that starts a piece.
        cap: Pieces with more characters than this are cut further.
        sub: Heading kind at which a big piece is cut.

    Returns:
        A list of (piece index, part index, blocks).
    """
    out = []
    for idx, pc in enumerate(heading_pieces(blocks, level)):
        if sum(len(t) for _, t in pc) <= cap:
            out.append((idx, 0, pc))
        else:
            out += _split_big(idx, pc, cap, sub)
    return out
