"""Reading and rendering every source text: man pages, HTML books, KJV, fortunes, GPL-2.

:func:`collect_sources` reads them all, in a fixed order, into :class:`Sources`.
"""
from __future__ import annotations

import gzip
import os
import re
import subprocess
from dataclasses import dataclass

from .books import collect_debref, collect_handbook, collect_install, collect_maint, install_appendix
from .docs import make_doc, stem_of
from .text import clean_text
from .unwrap import drop_tables, unwrap

__all__ = ["FORTUNE_FILL", "MAN_RENDER", "Sources", "collect_bible", "collect_fortunes",
           "collect_gpl", "collect_man", "collect_sources", "fortunes_by_chapter", "render_man"]

MAN_DIR = "/usr/share/man"
MAN_RENDER = "zcat FILE | groff -k -Tutf8 -P-c -mandoc -rLL=2000n -rHY=0 | col -bx"
# A 2000-column line keeps a man page paragraph on one line (one sentence run).
_GROFF = ["groff", "-k", "-Tutf8", "-P-c", "-mandoc", "-rLL=2000n", "-rHY=0"]

BIBLE_BOOKS = [("Ge", "Genesis"), ("Ex", "Exodus"), ("Pr", "Proverbs"), ("Isa", "Isaiah"),
               ("Mt", "Matthew"), ("Joh", "John"), ("Ac", "Acts"), ("Ro", "Romans"),
               ("Re", "Revelation")]
BIBLE_CHAPTERS_PER_DOC = 3

FORTUNES_PATH = "/usr/share/games/fortunes/chinese"
FORTUNE_FILL = 72  # w3m's wrap column in fortunes-zh's Debian Reference quotations
FORTUNE_HOW = ("ANSI escapes removed, Osamu Aoki attribution lines dropped, box-drawn tables and "
               "their captions dropped (the Debian Reference text has no tables), wrapped lines "
               "joined (a line shorter than the 72-column fill stays a line)")
GPL_PATH = "/usr/share/common-licenses/GPL-2"


def render_man(path: str) -> str | None:
    """Render a gzipped man page to plain text with groff and col.

    Args:
        path: A ``.gz`` man page.

    Returns:
        The text without the running header and footer lines, each line
        stripped; None for a ``.so`` redirect or an (almost) empty page.
    """
    with gzip.open(path, "rb") as f:
        raw = f.read()
    if raw.lstrip().startswith(b".so "):
        return None
    env = dict(os.environ, LC_ALL="C.UTF-8")
    g = subprocess.run(_GROFF, input=raw, capture_output=True, env=env)
    c = subprocess.run(["col", "-bx"], input=g.stdout, capture_output=True, env=env)
    lines = c.stdout.decode("utf-8", "replace").split("\n")
    nz = [i for i, ln in enumerate(lines) if ln.strip()]
    if len(nz) < 3:
        return None
    lines = lines[nz[0] + 1:nz[-1]]          # drop running header and footer
    return clean_text("\n".join(ln.strip() for ln in lines))


def _man_entry(sec: int, name: str, pc: str, pt: str) -> dict:
    """{'zh_CN': doc, 'zh_TW': doc} of one page, or fewer entries if one does not render."""
    entry = {}
    for loc, p, script in (("zh_CN", pc, "s"), ("zh_TW", pt, "t")):
        t = render_man(p)
        if t is None:
            break
        entry[loc] = make_doc(stem_of("man", loc.replace("_", "").lower(), name),
                              "zh", script, "manpages-zh", p, "man:" + name,
                              f"man{sec}", t, "groff")
    return entry


def collect_man() -> dict:
    """{name: {'zh_CN': doc, 'zh_TW': doc}} for pages that are real files in both.

    Returns:
        The man pages present (not as links) in both locales, by page name (``ls.1``).
    """
    res = {}
    for sec in range(1, 9):
        dcn, dtw = f"{MAN_DIR}/zh_CN/man{sec}", f"{MAN_DIR}/zh_TW/man{sec}"
        if not (os.path.isdir(dcn) and os.path.isdir(dtw)):
            continue
        for fn in sorted(set(os.listdir(dcn)) & set(os.listdir(dtw))):
            pc, pt = f"{dcn}/{fn}", f"{dtw}/{fn}"
            if os.path.islink(pc) or os.path.islink(pt) or not fn.endswith(".gz"):
                continue
            entry = _man_entry(sec, fn[:-3], pc, pt)
            if len(entry) == 2:
                res[fn[:-3]] = entry
    return res


def bible_chapter(abbr: str, ch: int) -> list:
    """Verses of one KJV chapter, read with ``bible -f``.

    Args:
        abbr: Book abbreviation understood by ``bible`` (``Ge``).
        ch: Chapter number.

    Returns:
        The verse texts, or [] past the book's last chapter (``bible`` then
        prints another chapter).
    """
    r = subprocess.run(["bible", "-f", f"{abbr}{ch}:1-200"], capture_output=True, text=True)
    verses = []
    want = None
    for ln in r.stdout.split("\n"):
        m = re.match(r"^(\w+?)(\d+):(\d+) (.*)$", ln.strip())
        if m:
            if want is None:
                want = int(m.group(2))
            if int(m.group(2)) != ch or want != ch:
                return []
            verses.append(m.group(4).strip())
    return verses


def _bible_doc(name: str, group) -> dict:
    parts = []
    for ch, verses in group:
        parts.append(f"{name} {ch}\n\n" + "\n".join(verses))
    first, last = group[0][0], group[-1][0]
    return make_doc(stem_of("kjv", name.lower(), f"{first:03d}", f"{last:03d}"), "en", None,
                    "bible-kjv-text", "/usr/lib/bible.data", f"kjv:{name}:{first}", "kjv:" + name,
                    "\n\n".join(parts), "bible -f")


def collect_bible() -> list:
    """KJV books of :data:`BIBLE_BOOKS`, three chapters a document, one verse a line.

    Returns:
        Document records.
    """
    docs = []
    for abbr, name in BIBLE_BOOKS:
        ch, group = 1, []
        while True:
            v = bible_chapter(abbr, ch)
            if not v:
                break
            group.append((ch, v))
            if len(group) == BIBLE_CHAPTERS_PER_DOC:
                docs.append(_bible_doc(name, group))
                group = []
            ch += 1
        if group:
            docs.append(_bible_doc(name, group))
    return docs


def fortunes_by_chapter(raw: str) -> dict:
    """{chapter: [fortune body, ...]} of the fortunes quoting Debian Reference.

    A fortune without a chapter number belongs to the chapter of the last
    numbered one before it (the quotations run through the book in order).
    """
    bychap: dict = {}
    chap = None
    for it in raw.split("\n%\n"):
        t = re.sub(r"\x1b\[[0-9;]*m", "", it)
        if "Debian 参考手册" not in t:
            continue
        lines = [ln for ln in t.split("\n") if "-- Osamu Aoki" not in ln]
        body = "\n".join(lines).strip("\n")
        m = re.match(r"^\s*(\d+)\.", body.replace("\u00a0", " "))
        if m:
            chap = int(m.group(1))
        if chap is None:
            continue
        bychap.setdefault(chap, []).append(body)
    return bychap


def collect_fortunes() -> list:
    """fortunes-zh quotations of Debian Reference, one document per chapter.

    Returns:
        Document records, by chapter number.
    """
    with open(FORTUNES_PATH, encoding="utf-8", errors="replace") as f:
        bychap = fortunes_by_chapter(f.read())
    docs = []
    for chap in sorted(bychap):
        text = unwrap(drop_tables("\n\n".join(bychap[chap])), fill=FORTUNE_FILL)
        docs.append(make_doc(stem_of("fortuneszh", "chinese", "debref", f"ch{chap:02d}"), "zh", "s",
                             "fortunes-zh", FORTUNES_PATH, f"fortunes:{chap}", "fortunes", text,
                             FORTUNE_HOW))
    return docs


def collect_gpl() -> tuple:
    """GPL-2 from base-files and the installation guide's GPL appendix.

    Returns:
        (GPL-2 document, [appendix F in en, appendix F in zh_CN]).
    """
    with open(GPL_PATH, encoding="utf-8") as f:
        gpl = unwrap(f.read())
    src = make_doc("common_licenses_GPL_2", "en", None, "base-files",
                   GPL_PATH, "gpl2", "gpl", gpl, "wrapped lines joined")
    return src, [install_appendix(loc) for loc in ("en", "zh_CN")]


@dataclass
class Sources:
    """Every candidate document, by origin.

    Attributes:
        man: ``{page name: {'zh_CN': doc, 'zh_TW': doc}}``.
        debref: Debian Reference sections (zh-cn, zh-tw, en).
        handbook: Debian handbook pages (zh-CN, en-US).
        maint: maint-guide sections (zh-cn, zh-tw).
        install: Installation guide pages (zh_CN, en).
        bible: KJV documents.
        fortunes: fortunes-zh chapter documents.
        gpl_src: common-licenses GPL-2.
        gpl_susp: Installation guide appendix F (en, zh_CN).
    """

    man: dict
    debref: list
    handbook: list
    maint: list
    install: list
    bible: list
    fortunes: list
    gpl_src: dict
    gpl_susp: list

    def all_docs(self) -> list:
        """Every document, in a fixed order (man pages first)."""
        return [d for e in self.man.values() for d in e.values()] + self.debref + \
            self.handbook + self.maint + self.install + self.bible + self.fortunes + \
            [self.gpl_src] + self.gpl_susp


def collect_sources(log) -> Sources:
    """Read and render every source text.

    Args:
        log: ``print``-like progress logger.

    Returns:
        The collected documents.
    """
    log("collecting man pages ...")
    man = collect_man()
    log("collecting html books ...")
    debref, handbook = collect_debref(), collect_handbook()
    maint, install = collect_maint(), collect_install()
    log("collecting bible, fortunes, GPL ...")
    bible, fortunes = collect_bible(), collect_fortunes()
    gpl_src, gpl_susp = collect_gpl()
    return Sources(man, debref, handbook, maint, install, bible, fortunes, gpl_src, gpl_susp)
