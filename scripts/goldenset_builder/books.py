"""The HTML books: Debian Reference, Debian handbook, maint-guide, installation guide."""
from __future__ import annotations

import os
import re

from .docs import make_doc, stem_of
from .html_text import blocks_text, heading_pieces, html_blocks, split_blocks

__all__ = ["collect_debref", "collect_handbook", "collect_install", "collect_maint",
           "install_appendix"]

DEBREF_DIR = "/usr/share/debian-reference"
DEBREF_LANGS = (("zh-cn", "zh", "s", "debian-reference-zh-cn"),
                ("zh-tw", "zh", "t", "debian-reference-zh-tw"),
                ("en", "en", None, "debian-reference-en"))
INSTALL_DIR = "/usr/share/doc/installation-guide-amd64"
# Sections of a Debian Reference chapter are grouped until a group has this
# many characters, so that one document is more than a heading and a line.
DEBREF_GROUP_MIN = 2500


def _debref_chapters() -> list:
    matches = (re.match(r"(ch\d\d|apa|pr01)\.zh-cn\.html$", fn) for fn in os.listdir(DEBREF_DIR))
    return sorted(m.group(1) for m in matches if m)


def _section_groups(ref) -> list:
    """Consecutive section indices grouped to >= DEBREF_GROUP_MIN characters each."""
    groups, cur, size = [], [], 0
    for i, pc in enumerate(ref):
        cur.append(i)
        size += sum(len(t) for _, t in pc)
        if size >= DEBREF_GROUP_MIN:
            groups.append(cur)
            cur, size = [], 0
    if cur:
        # A short tail joins the last group rather than stand alone.
        if groups:
            groups[-1] += cur
        else:
            groups.append(cur)
    return groups


def _debref_chapter_docs(chap: str) -> list:
    pieces = {loc: heading_pieces(html_blocks(f"{DEBREF_DIR}/{chap}.{loc}.html"), "h2")
              for loc, *_ in DEBREF_LANGS}
    ref = pieces["zh-cn"]
    groups = _section_groups(ref)
    docs = []
    for loc, lang, script, pkg in DEBREF_LANGS:
        pcs = pieces[loc]
        # A translation whose sections do not line up is one group: its keys
        # then name the whole chapter rather than a wrong section.
        grp = groups if len(pcs) == len(ref) else [list(range(len(pcs)))]
        for g in grp:
            blocks = [b for i in g for b in pcs[i]]
            for _idx, k, part in split_blocks(blocks, level="__none__", cap=30000, sub="h3"):
                docs.append(make_doc(
                    stem_of("debref", loc.replace("-", ""), chap, f"s{g[0]:02d}", f"p{k}"),
                    lang, script, pkg, f"{DEBREF_DIR}/{chap}.{loc}.html",
                    f"debref:{chap}:{g[0]}", "debref:" + chap, blocks_text(part), "html"))
    return docs


def collect_debref() -> list:
    """Debian Reference chapters split into section groups of >= 2500 characters.

    The grouping is computed on zh-cn and applied to zh-tw and en (same DocBook
    source, same sections), so a work key names the same sections in every
    language.

    Returns:
        Document records of every language, chapter by chapter.
    """
    docs = []
    for chap in _debref_chapters():
        docs += _debref_chapter_docs(chap)
    return docs


def collect_handbook() -> list:
    """Debian handbook pages (zh-CN and en-US), big pages cut at h1/h3 headings.

    Returns:
        Document records.
    """
    docs = []
    for loc, lang, script in (("zh-CN", "zh", "s"), ("en-US", "en", None)):
        d = f"/usr/share/doc/debian-handbook/html/{loc}"
        for fn in sorted(os.listdir(d)):
            if not fn.endswith(".html") or fn in ("index.html",):
                continue
            blocks = html_blocks(f"{d}/{fn}")
            for idx, k, part in split_blocks(blocks, level="h1", cap=40000, sub="h3"):
                docs.append(make_doc(
                    stem_of("handbook", loc.replace("-", "").lower(), fn[:-5], f"p{idx}{k}"),
                    lang, script, "debian-handbook", f"{d}/{fn}",
                    "handbook:" + fn, "handbook", blocks_text(part), "html"))
    return docs


def collect_maint() -> list:
    """maint-guide chapters (zh-cn and zh-tw) split per section.

    Returns:
        Document records.
    """
    docs = []
    for loc, script in (("zh-cn", "s"), ("zh-tw", "t")):
        d = f"/usr/share/doc/maint-guide-{loc}/html"
        for fn in sorted(os.listdir(d)):
            m = re.match(r"(\w+)\." + loc + r"\.html$", fn)
            if not m or m.group(1) == "index":
                continue
            for idx, k, part in split_blocks(html_blocks(f"{d}/{fn}"), level="h2", cap=30000):
                docs.append(make_doc(
                    stem_of("maintguide", loc.replace("-", ""), m.group(1), f"s{idx:02d}", f"p{k}"),
                    "zh", script, f"maint-guide-{loc}", f"{d}/{fn}",
                    f"maint:{m.group(1)}:{idx}", "maint-guide", blocks_text(part), "html"))
    return docs


def _install_doc(loc: str, lang: str, script, fn: str, key: str) -> dict:
    path = f"{INSTALL_DIR}/{loc}/{fn}"
    return make_doc(stem_of("instguide", loc.replace("_", "").lower(), fn[:-5]),
                    lang, script, "installation-guide-amd64", path,
                    key, "install", blocks_text(html_blocks(path)), "html")


def collect_install() -> list:
    """Installation guide pages (zh_CN and en), one document per page.

    Returns:
        Document records.
    """
    docs = []
    for loc, lang, script in (("zh_CN", "zh", "s"), ("en", "en", None)):
        for fn in sorted(os.listdir(f"{INSTALL_DIR}/{loc}")):
            if not fn.endswith(".html") or fn == "index.html":
                continue
            docs.append(_install_doc(loc, lang, script, fn, "install:" + fn))
    return docs


def install_appendix(loc: str) -> dict:
    """Appendix F (the GNU GPL) of the installation guide in one language.

    Both are recorded with lang ``"en"``; the zh_CN page is a Chinese
    translation of the GPL, matches nothing and ends up in no pair.

    Args:
        loc: ``"en"`` or ``"zh_CN"``.

    Returns:
        A document record with work key ``install:apf.html:LOC``.
    """
    return _install_doc(loc, "en", None, "apf.html", "install:apf.html:" + loc)
