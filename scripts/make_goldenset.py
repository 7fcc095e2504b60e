#!/usr/bin/env python3
"""Build the partialdup gold set (PAN text-alignment layout) and the demo samples.

Every text comes from an installed Debian package; nothing is written or
generated here except the planted copies (real sentences of one real document
inserted, possibly lightly edited, into another real document) and the labels.

    python scripts/make_goldenset.py --out goldenset [--samples samples]

See goldenset/README.md (written by this script) for the method.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import shutil
import subprocess
import sys
import unicodedata
from collections import Counter
from html.parser import HTMLParser

SEED = 20261122

REQUIRED_PACKAGES = [
    "manpages-zh", "debian-reference-zh-cn", "debian-reference-zh-tw",
    "debian-reference-en", "debian-handbook", "maint-guide-zh-cn",
    "maint-guide-zh-tw", "installation-guide-amd64", "fortunes-zh",
    "bible-kjv", "bible-kjv-text", "base-files", "groff-base", "bsdextrautils",
]
APT_LINE = ("apt-get install -y " + " ".join(
    p for p in REQUIRED_PACKAGES if p not in ("base-files",)))

MAN_RENDER = "zcat FILE | groff -k -Tutf8 -P-c -mandoc -rLL=2000n -rHY=0 | col -bx"

MIN_DOC, MAX_DOC = 1500, 60000


# ----------------------------------------------------------------------------
# packages
# ----------------------------------------------------------------------------

def package_versions() -> dict:
    vers = {}
    for p in REQUIRED_PACKAGES:
        r = subprocess.run(["dpkg-query", "-W", "-f", "${db:Status-Status} ${Version}", p],
                           capture_output=True, text=True)
        out = r.stdout.strip().split()
        if r.returncode != 0 or len(out) != 2 or out[0] != "installed":
            sys.exit(f"make_goldenset: Debian package '{p}' is not installed "
                     f"(run: {APT_LINE})")
        vers[p] = out[1]
    for mod in ("opencc", "rapidfuzz"):
        try:
            __import__(mod)
        except ImportError:
            sys.exit(f"make_goldenset: Python module '{mod}' is not installed")
    return vers


try:
    import opencc
    from rapidfuzz import fuzz
    _CC = {k: opencc.OpenCC(k) for k in ("s2t", "t2s", "s2twp")}
except ImportError:  # reported by package_versions()
    opencc = fuzz = None
    _CC = {}
_cc_cache: dict = {}


def cc(kind: str, s: str) -> str:
    key = (kind, s)
    r = _cc_cache.get(key)
    if r is None:
        r = _CC[kind].convert(s)
        if len(_cc_cache) < 2_000_000:
            _cc_cache[key] = r
    return r


# ----------------------------------------------------------------------------
# text helpers
# ----------------------------------------------------------------------------

def is_cjk(ch: str) -> bool:
    o = ord(ch)
    return (0x3400 <= o <= 0x9FFF) or (0xF900 <= o <= 0xFAFF) or (0x20000 <= o <= 0x2FFFF)


def is_cjk_or_punct(ch: str) -> bool:
    o = ord(ch)
    return is_cjk(ch) or (0x3000 <= o <= 0x303F) or (0xFF00 <= o <= 0xFFEF) or ch in "“”‘’"


def clean_text(t: str) -> str:
    t = t.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")
    t = "".join(ch for ch in t if ch in "\n\t" or unicodedata.category(ch) != "Cc")
    t = t.replace("\t", " ")
    lines = [ln.rstrip() for ln in t.split("\n")]
    t = "\n".join(lines)
    t = re.sub(r"\n{3,}", "\n\n", t).strip("\n")
    return t + "\n"


# ---- the label-side sentence rule (independent of the detector) -----------
ZH_END = "。！？；"
CLOSERS = "”’」』）)》】\"'"
_EN_BOUND = re.compile(r"[.!?][\"')\]”’]*(?=\s+[\"'(“‘]?[A-Z])")


def sentences(text: str) -> list:
    """Sentence spans (start, end) by the gold set's own rule.

    A line break always ends a sentence.  Inside a line a sentence ends after
    one of 。！？； plus any closing quotes/brackets, or after . ! ? (plus
    closers) when followed by whitespace and a capital letter.  Spans are
    trimmed of surrounding whitespace; empty spans are dropped.
    """
    out = []
    pos = 0
    for line in text.split("\n"):
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
        for m in _EN_BOUND.finditer(line):
            cuts.append(m.end())
        cuts = sorted(set(cuts))
        prev = 0
        for c in cuts + [n]:
            seg = line[prev:c]
            a = len(seg) - len(seg.lstrip())
            b = len(seg.rstrip())
            if b > a:
                out.append((pos + prev + a, pos + prev + b))
            prev = c
        pos += n + 1
    return out


def _drop(ch: str) -> bool:
    c = unicodedata.category(ch)
    return ch.isspace() or c[0] in "PZSC"


def norm_a(s: str) -> str:
    s = cc("t2s", unicodedata.normalize("NFKC", s)).lower()
    return "".join(ch for ch in s if not _drop(ch))


def norm_b(s: str) -> str:
    s = cc("t2s", cc("s2twp", unicodedata.normalize("NFKC", s))).lower()
    return "".join(ch for ch in s if not _drop(ch))


def n_cjk(s: str) -> int:
    return sum(1 for ch in s if is_cjk(ch))


def check_key(s: str):
    """Normalised key used for overlap checks, or None if too short."""
    k = norm_a(s)
    if n_cjk(k) >= 6 and len(k) >= 10:
        return k
    if n_cjk(k) == 0 and len(k) >= 25:
        return k
    return None


def eligible_sentence(s: str) -> bool:
    """A sentence worth planting: real prose, not code or a heading."""
    if n_cjk(s) >= 6:
        return True
    words = s.split()
    if len(s) >= 30 and len(words) >= 5 and s[0].isupper():
        alpha = sum(ch.isalpha() or ch == " " for ch in s) / len(s)
        return alpha >= 0.8
    return False


# ----------------------------------------------------------------------------
# HTML -> text
# ----------------------------------------------------------------------------

BLOCK_TAGS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd", "pre",
              "br", "tr", "blockquote", "ul", "ol", "dl", "title", "hr", "caption"}
VOID_TAGS = {"br", "img", "hr", "meta", "link", "input", "col", "area", "base", "wbr"}
SKIP_CLASSES = {"navheader", "navfooter", "toc", "docnav", "table", "informaltable",
                "list-of-tables", "list-of-figures", "footnotes", "indexterm",
                "legalnotice-dummy"}
SKIP_TAGS = {"script", "style", "head", "table"}
SKIP_IDS = {"banner", "title", "site_footer"}


class _HTMLText(HTMLParser):
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
            def ws(m):
                a = raw[m.start() - 1] if m.start() > 0 else ""
                b = raw[m.end()] if m.end() < len(raw) else ""
                if "\n" in m.group(0) and a and b and is_cjk_or_punct(a) and is_cjk_or_punct(b):
                    return ""
                return " "
            t = re.sub(r"[ \t\r\n\f]+", ws, raw).strip()
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
            if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
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
    with open(path, encoding="utf-8") as f:
        src = f.read()
    p = _HTMLText()
    p.feed(src)
    p.close()
    p._flush()
    return p.blocks


def blocks_text(blocks) -> str:
    return clean_text("\n\n".join(t for _, t in blocks))


def split_blocks(blocks, level="h2", cap=30000, sub="h3"):
    """Split a chapter into sect1 pieces; big ones further at sect2 headings."""
    pieces, cur = [], []
    for b in blocks:
        if b[0] == level and cur:
            pieces.append(cur)
            cur = []
        cur.append(b)
    if cur:
        pieces.append(cur)
    out = []
    for idx, pc in enumerate(pieces):
        size = sum(len(t) for _, t in pc)
        if size <= cap:
            out.append((idx, 0, pc))
            continue
        part, sz, k = [], 0, 0
        for b in pc:
            if b[0] == sub and part and sz >= cap / 3:
                out.append((idx, k, part))
                part, sz, k = [], 0, k + 1
            part.append(b)
            sz += len(b[1])
        if part:
            out.append((idx, k, part))
    return out


# ----------------------------------------------------------------------------
# document collection
# ----------------------------------------------------------------------------

def stem_of(*parts) -> str:
    s = "_".join(parts)
    return re.sub(r"[^A-Za-z0-9.]+", "_", s).strip("_")


def make_doc(stem, lang, script, pkg, path, key, group, text, how):
    return dict(stem=stem, lang=lang, script=script, pkg=pkg, path=path, key=key,
                group=group, text=clean_text(text), how=how)


def render_man(path: str) -> str | None:
    with gzip.open(path, "rb") as f:
        raw = f.read()
    if raw.lstrip().startswith(b".so "):
        return None
    env = dict(os.environ, LC_ALL="C.UTF-8")
    g = subprocess.run(["groff", "-k", "-Tutf8", "-P-c", "-mandoc", "-rLL=2000n", "-rHY=0"],
                       input=raw, capture_output=True, env=env)
    c = subprocess.run(["col", "-bx"], input=g.stdout, capture_output=True, env=env)
    text = c.stdout.decode("utf-8", "replace")
    lines = text.split("\n")
    nz = [i for i, ln in enumerate(lines) if ln.strip()]
    if len(nz) < 3:
        return None
    lines = lines[nz[0] + 1:nz[-1]]          # drop running header and footer
    return clean_text("\n".join(ln.strip() for ln in lines))


def collect_man() -> dict:
    """{name: {'zh_CN': doc, 'zh_TW': doc}} for pages that are real files in both."""
    base = "/usr/share/man"
    res = {}
    for sec in range(1, 9):
        dcn = f"{base}/zh_CN/man{sec}"
        dtw = f"{base}/zh_TW/man{sec}"
        if not (os.path.isdir(dcn) and os.path.isdir(dtw)):
            continue
        for fn in sorted(set(os.listdir(dcn)) & set(os.listdir(dtw))):
            pc, pt = f"{dcn}/{fn}", f"{dtw}/{fn}"
            if os.path.islink(pc) or os.path.islink(pt) or not fn.endswith(".gz"):
                continue
            name = fn[:-3]
            entry = {}
            for loc, p, script in (("zh_CN", pc, "s"), ("zh_TW", pt, "t")):
                t = render_man(p)
                if t is None:
                    break
                entry[loc] = make_doc(stem_of("man", loc.replace("_", "").lower(), name),
                                      "zh", script, "manpages-zh", p, "man:" + name,
                                      f"man{sec}", t, "groff")
            if len(entry) == 2:
                res[name] = entry
    return res


def _h2_pieces(blocks):
    pieces, cur = [], []
    for b in blocks:
        if b[0] == "h2" and cur:
            pieces.append(cur)
            cur = []
        cur.append(b)
    if cur:
        pieces.append(cur)
    return pieces


def collect_debref() -> list:
    """Debian Reference chapters split into section groups of >= 5000 characters.

    The grouping is computed on zh-cn and applied to zh-tw and en (same DocBook
    source, same sections), so a work key names the same sections in every
    language."""
    docs = []
    d = "/usr/share/debian-reference"
    langs = (("zh-cn", "zh", "s", "debian-reference-zh-cn"),
             ("zh-tw", "zh", "t", "debian-reference-zh-tw"),
             ("en", "en", None, "debian-reference-en"))
    chaps = sorted(m.group(1) for m in (re.match(r"(ch\d\d|apa|pr01)\.zh-cn\.html$", fn)
                                         for fn in os.listdir(d)) if m)
    for chap in chaps:
        pieces = {loc: _h2_pieces(html_blocks(f"{d}/{chap}.{loc}.html")) for loc, *_ in langs}
        ref = pieces["zh-cn"]
        groups, cur, size = [], [], 0
        for i, pc in enumerate(ref):
            cur.append(i)
            size += sum(len(t) for _, t in pc)
            if size >= 2500:
                groups.append(cur)
                cur, size = [], 0
        if cur:
            if groups:
                groups[-1] += cur
            else:
                groups.append(cur)
        for loc, lang, script, pkg in langs:
            pcs = pieces[loc]
            if len(pcs) != len(ref):
                grp = [list(range(len(pcs)))]
            else:
                grp = groups
            for g in grp:
                blocks = [b for i in g for b in pcs[i]]
                for idx, k, part in split_blocks(blocks, level="__none__", cap=30000, sub="h3"):
                    docs.append(make_doc(stem_of("debref", loc.replace("-", ""), chap, f"s{g[0]:02d}", f"p{k}"),
                                         lang, script, pkg, f"{d}/{chap}.{loc}.html",
                                         f"debref:{chap}:{g[0]}", "debref:" + chap,
                                         blocks_text(part), "html"))
    return docs


def collect_handbook() -> list:
    docs = []
    for loc, lang, script in (("zh-CN", "zh", "s"), ("en-US", "en", None)):
        d = f"/usr/share/doc/debian-handbook/html/{loc}"
        for fn in sorted(os.listdir(d)):
            if not fn.endswith(".html") or fn in ("index.html",):
                continue
            blocks = html_blocks(f"{d}/{fn}")
            for idx, k, part in split_blocks(blocks, level="h1", cap=40000, sub="h3"):
                docs.append(make_doc(stem_of("handbook", loc.replace("-", "").lower(), fn[:-5], f"p{idx}{k}"),
                                     lang, script, "debian-handbook", f"{d}/{fn}",
                                     "handbook:" + fn, "handbook", blocks_text(part), "html"))
    return docs


def collect_maint() -> list:
    docs = []
    for loc, script in (("zh-cn", "s"), ("zh-tw", "t")):
        d = f"/usr/share/doc/maint-guide-{loc}/html"
        for fn in sorted(os.listdir(d)):
            m = re.match(r"(\w+)\." + loc + r"\.html$", fn)
            if not m or m.group(1) == "index":
                continue
            for idx, k, part in split_blocks(html_blocks(f"{d}/{fn}"), level="h2", cap=30000):
                docs.append(make_doc(stem_of("maintguide", loc.replace("-", ""), m.group(1), f"s{idx:02d}", f"p{k}"),
                                     "zh", script, f"maint-guide-{loc}", f"{d}/{fn}",
                                     f"maint:{m.group(1)}:{idx}", "maint-guide", blocks_text(part), "html"))
    return docs


def collect_install() -> list:
    docs = []
    for loc, lang, script in (("zh_CN", "zh", "s"), ("en", "en", None)):
        d = f"/usr/share/doc/installation-guide-amd64/{loc}"
        for fn in sorted(os.listdir(d)):
            if not fn.endswith(".html") or fn == "index.html":
                continue
            docs.append(make_doc(stem_of("instguide", loc.replace("_", "").lower(), fn[:-5]),
                                 lang, script, "installation-guide-amd64", f"{d}/{fn}",
                                 "install:" + fn, "install", blocks_text(html_blocks(f"{d}/{fn}")), "html"))
    return docs


BIBLE_BOOKS = [("Ge", "Genesis"), ("Ex", "Exodus"), ("Pr", "Proverbs"), ("Isa", "Isaiah"),
               ("Mt", "Matthew"), ("Joh", "John"), ("Ac", "Acts"), ("Ro", "Romans"),
               ("Re", "Revelation")]


def bible_chapter(abbr: str, ch: int) -> list:
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


def collect_bible() -> list:
    docs = []
    for abbr, name in BIBLE_BOOKS:
        ch, group = 1, []
        while True:
            v = bible_chapter(abbr, ch)
            if not v:
                break
            group.append((ch, v))
            if len(group) == 3:
                docs.append(_bible_doc(name, group))
                group = []
            ch += 1
        if group:
            docs.append(_bible_doc(name, group))
    return docs


def _bible_doc(name, group):
    parts = []
    for ch, verses in group:
        parts.append(f"{name} {ch}\n\n" + "\n".join(verses))
    first, last = group[0][0], group[-1][0]
    return make_doc(stem_of("kjv", name.lower(), f"{first:03d}", f"{last:03d}"), "en", None,
                    "bible-kjv-text", "/usr/lib/bible.data", f"kjv:{name}:{first}", "kjv:" + name,
                    "\n\n".join(parts), "bible -f")


def display_width(s: str) -> int:
    """Terminal columns of a line: wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def _first_word(line: str) -> str:
    line = line.strip(" \t\u00a0\u3000")
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


def unwrap(text: str, fill: int | None = None) -> str:
    """Join hard-wrapped lines of a paragraph (used for fortunes and GPL-2).

    With ``fill`` (the renderer's wrap column), a line is joined to the next
    only when it was wrapped there, so preformatted lines stay lines.
    """
    out = []
    for para in re.split(r"\n\s*\n", text):
        raw = [ln for ln in para.split("\n") if ln.strip(" \t\u00a0\u3000")]
        lines = [ln.strip(" \t\u00a0\u3000") for ln in raw]
        cur = ""
        for k, ln in enumerate(lines):
            if not cur:
                cur = ln
                continue
            starts_item = bool(re.match(r"^([*\-•]|\d+\.|\(\w\)|[a-z]\))\s", ln))
            a, b = cur[-1], ln[0]
            kept = fill is not None and not _was_wrapped(raw[k - 1], raw[k], fill)
            if starts_item or kept or a in "。！？：:":
                out_line, cur = cur, ln
                out.append(out_line)
                continue
            joiner = "" if (is_cjk_or_punct(a) and is_cjk_or_punct(b)) else " "
            cur = cur + joiner + ln
        if cur:
            out.append(cur)
        out.append("")
    return clean_text("\n".join(out))


BOX_DRAWING = "┌┐└┘├┤┬┴┼│─"
TABLE_CAPTION = re.compile(r"^表\s*\d+(\.\d+)*\.?\s")
FORTUNE_FILL = 72  # w3m's wrap column in fortunes-zh's Debian Reference quotations


def drop_tables(text: str) -> str:
    """Remove box-drawn tables and their captions ("表 4.3. ...").

    The Debian Reference sources leave HTML tables out (SKIP_CLASSES), so
    the fortunes' renderings of the same tables are left out too: a table
    in only one of the two texts could be neither matched nor labelled.
    """
    lines = text.split("\n")
    stripped = [ln.strip(" \t\u00a0\u3000") for ln in lines]
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


def collect_fortunes() -> list:
    path = "/usr/share/games/fortunes/chinese"
    with open(path, encoding="utf-8", errors="replace") as f:
        raw = f.read()
    items = raw.split("\n%\n")
    bychap: dict = {}
    chap = None
    for it in items:
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
    docs = []
    for chap in sorted(bychap):
        text = unwrap(drop_tables("\n\n".join(bychap[chap])), fill=FORTUNE_FILL)
        docs.append(make_doc(stem_of("fortuneszh", "chinese", "debref", f"ch{chap:02d}"), "zh", "s",
                             "fortunes-zh", path, f"fortunes:{chap}", "fortunes", text,
                             "ANSI escapes removed, Osamu Aoki attribution lines dropped, box-drawn tables and their captions dropped (the Debian Reference text has no tables), wrapped lines joined (a line shorter than the 72-column fill stays a line)"))
    return docs


def collect_gpl() -> tuple:
    with open("/usr/share/common-licenses/GPL-2", encoding="utf-8") as f:
        gpl = unwrap(f.read())
    src = make_doc("common_licenses_GPL_2", "en", None, "base-files",
                   "/usr/share/common-licenses/GPL-2", "gpl2", "gpl", gpl, "wrapped lines joined")
    susp = []
    for loc in ("en", "zh_CN"):
        p = f"/usr/share/doc/installation-guide-amd64/{loc}/apf.html"
        susp.append(make_doc(stem_of("instguide", loc.replace("_", "").lower(), "apf"),
                             "en", None, "installation-guide-amd64", p, "install:apf.html:" + loc,
                             "install", blocks_text(html_blocks(p)), "html"))
    return src, susp


# ----------------------------------------------------------------------------
# natural copies: independent labelling procedure
# ----------------------------------------------------------------------------

NAT_SPAN_BRIDGE = 2      # unmatched sentences a natural span may bridge on either side


def _nat_prep(text, spans):
    """(sentence index, norm a, norm b, anchor-eligible) for sentences whose
    normalised form has at least 2 characters."""
    out = []
    for i, (a, b) in enumerate(spans):
        t = text[a:b]
        na = norm_a(t)
        if len(na) < 2:
            continue
        nb = norm_b(t)
        out.append((i, na, nb, len(na) >= (6 if n_cjk(na) else 20)))
    return out


def _greedy_match(S, R, s_idx, r_idx, window):
    """Monotone greedy matching of S[s_idx] against R[r_idx] (index lists in order):
    an exact match (norm a or b) within the next 4*window candidates, otherwise the
    best fuzz.ratio >= 95 within the next window candidates.  Returns (si, k) pairs."""
    import bisect
    exact_a: dict = {}
    exact_b: dict = {}
    for p, k in enumerate(r_idx):
        exact_a.setdefault(R[k][1], []).append(p)
        exact_b.setdefault(R[k][2], []).append(p)
    out = []
    p0 = 0
    for si in s_idx:
        _, na, nb, _ = S[si]
        hit = None
        for lst in (exact_a.get(na, ()), exact_b.get(nb, ())):
            j = bisect.bisect_left(lst, p0)
            if j < len(lst) and lst[j] < p0 + window * 4:
                hit = lst[j] if hit is None else min(hit, lst[j])
        if hit is None:
            best, bp = 0.0, None
            for p in range(p0, min(len(r_idx), p0 + window)):
                _, ra, rb, _ = R[r_idx[p]]
                sc = max(fuzz.ratio(na, ra, score_cutoff=95), fuzz.ratio(nb, rb, score_cutoff=95))
                if sc > best:
                    best, bp = sc, p
            if bp is not None and best >= 95:
                hit = bp
        if hit is not None:
            out.append((si, r_idx[hit]))
            p0 = hit + 1
    return out


NAT_ROUNDS = 5


def _nat_round(S, R, s_avail, window):
    """One round: anchors among the available susp sentences, then the gap fill."""
    anchors = _greedy_match(S, R, [x for x in s_avail if S[x][3]],
                            [x for x in range(len(R)) if R[x][3]], window)
    aset_s = {si for si, _ in anchors}
    aset_r = {k for _, k in anchors}
    matches = []
    bounds = [(-1, -1)] + anchors + [(len(S), len(R))]
    for (i0, k0), (i1, k1) in zip(bounds, bounds[1:]):
        if i0 >= 0:
            matches.append((i0, k0))
        gi = [x for x in s_avail if i0 < x < i1 and x not in aset_s]
        gk = [x for x in range(k0 + 1, k1) if x not in aset_r]
        if gi and gk:
            matches += _greedy_match(S, R, gi, gk, window)
    return matches, aset_s


def natural_align(susp_text: str, src_text: str, window: int = 60):
    """Monotone matching of normalised sentences.

    In each round: anchors are the sentences of >= 6 CJK / >= 20 normalised
    characters, matched in monotone order; then every other sentence with a
    normalised form of >= 2 characters is matched by the same rule inside the gap
    between two consecutive anchors (or the document start/end).  Matched
    sentences form one span while at most NAT_SPAN_BRIDGE unmatched sentences lie
    between two matches on each side.  Later rounds align the susp sentences left
    unmatched (a passage quoted out of order or twice) and keep only spans that
    contain an anchor.  A span of a single sentence whose normalised form occurs
    more than once in either text is dropped in every round.

    Returns (spans, n_anchor_eligible_susp, n_anchor_matches); each span is
    dict(susp=(s,e), src=(s,e), pairs=[((s,e),(s,e)), ...]), sorted by susp offset.
    """
    ss, rs = sentences(susp_text), sentences(src_text)
    S, R = _nat_prep(susp_text, ss), _nat_prep(src_text, rs)
    s_count = Counter(x[1] for x in S)
    r_count = Counter(x[1] for x in R)
    done: set = set()
    spans = []
    n_anchor = 0
    for rnd in range(NAT_ROUNDS):
        avail = [x for x in range(len(S)) if x not in done]
        matches, anchors = _nat_round(S, R, avail, window)
        cur = []
        for si, k in matches:
            if cur and si - cur[-1]["last"][0] - 1 <= NAT_SPAN_BRIDGE \
                    and k - cur[-1]["last"][1] - 1 <= NAT_SPAN_BRIDGE \
                    and not any(x in done for x in range(cur[-1]["last"][0] + 1, si)):
                sp = cur[-1]
                sp["m"].append((si, k))
                sp["last"] = (si, k)
            else:
                cur.append({"m": [(si, k)], "last": (si, k)})
        if rnd:
            cur = [sp for sp in cur if any(si in anchors for si, _ in sp["m"])]
        if not cur:
            break
        # A span of one sentence whose normalised form recurs in either text
        # (尝试下列例子, "Try the following examples", after every example
        # block) has no place: which occurrence copies which is not in the
        # text, and such a line alone is no evidence of a copy.  It is set
        # aside like a labelled sentence, so the rounds run as without it.
        placeless = [sp for sp in cur if len(sp["m"]) == 1 and (
            s_count[S[sp["m"][0][0]][1]] > 1 or r_count[R[sp["m"][0][1]][1]] > 1)]
        for sp in placeless:
            done.add(sp["m"][0][0])
        cur = [sp for sp in cur if sp not in placeless]
        for sp in cur:
            n_anchor += sum(1 for si, _ in sp["m"] if si in anchors)
            done.update(si for si, _ in sp["m"])
            sp["pairs"] = [(ss[S[si][0]], rs[R[k][0]]) for si, k in sp["m"]]
            sp["susp"] = (sp["pairs"][0][0][0], sp["pairs"][-1][0][1])
            sp["src"] = (sp["pairs"][0][1][0], sp["pairs"][-1][1][1])
            del sp["last"], sp["m"]
        spans += cur
    spans.sort(key=lambda sp: sp["susp"])
    return spans, sum(1 for x in S if x[3]), n_anchor


# ----------------------------------------------------------------------------
# planted copies
# ----------------------------------------------------------------------------

PUNCT_ALT = {"，": "、", "、": "，", "。": "；", "；": "。", "：": "，", "！": "。", "？": "。",
             ",": ";", ";": ",", ":": ",", ".": ";", "!": ".", "?": ".",
             "（": "(", "）": ")", "“": "「", "”": "」", "「": "“", "」": "”"}
F2H = {"，": ",", "。": ".", "：": ":", "；": ";", "！": "!", "？": "?", "（": "(", "）": ")"}


def to_fullwidth(s: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s)


def light_edit(rng: random.Random, s: str, lang: str) -> tuple:
    ops = ["punct", "char", "width", "wrap"]
    rng.shuffle(ops)
    for op in ops:
        t = _light_op(rng, s, lang, op)
        if t is not None and t != s and t.strip() == t and t:
            return t, op
    return None, None


def _light_op(rng, s, lang, op):
    if op == "punct":
        pos = [i for i, c in enumerate(s) if c in PUNCT_ALT]
        if not pos:
            return None
        i = rng.choice(pos)
        if rng.random() < 0.5 and 0 < i < len(s) - 1:
            return s[:i] + s[i + 1:]
        return s[:i] + PUNCT_ALT[s[i]] + s[i + 1:]
    if op == "char":
        if n_cjk(s) >= 6:
            pos = [i for i, c in enumerate(s) if is_cjk(c) and 0 < i < len(s) - 1]
            if not pos:
                return None
            i = rng.choice(pos)
            other = rng.choice([c for c in s if is_cjk(c)])
            r = rng.random()
            if r < 0.34:
                return s[:i] + s[i + 1:]
            if r < 0.67:
                return s[:i] + other + s[i:]
            return s[:i] + other + s[i + 1:] if other != s[i] else s[:i] + s[i + 1:]
        words = s.split(" ")
        if len(words) < 4:
            return None
        i = rng.randrange(1, len(words) - 1)
        r = rng.random()
        if r < 0.34:
            del words[i]
        elif r < 0.67:
            words.insert(i, words[rng.randrange(len(words))])
        else:
            j = rng.randrange(len(words))
            if words[j] == words[i]:
                del words[i]
            else:
                words[i] = words[j]
        return " ".join(words)
    if op == "width":
        if any(c in F2H for c in s):
            return "".join(F2H.get(c, c) for c in s)
        if lang == "en" or n_cjk(s) < 6:
            t = "".join(to_fullwidth(c) if not (c.isalnum() or c.isspace()) else c for c in s)
            return t if t != s else None
        if re.search(r"[A-Za-z0-9]", s):
            return to_fullwidth(s)
        return None
    if op == "wrap":
        if "\n" in s:
            return s.replace("\n", " " if lang == "en" else "")
        if lang == "en" or n_cjk(s) < 6:
            pos = [m.start() for m in re.finditer(" ", s)]
            pos = [p for p in pos if 0 < p < len(s) - 1]
            if not pos:
                return None
            i = rng.choice(pos)
            return s[:i] + "\n" + s[i + 1:]
        pos = [i for i in range(2, len(s) - 2) if is_cjk(s[i - 1]) and is_cjk(s[i])]
        if not pos:
            return None
        i = rng.choice(pos)
        return s[:i] + "\n" + s[i:]
    return None


def short_key(s: str):
    """Normalised key of any length >= 2 (overlap checks on hosts and negatives)."""
    k = norm_a(s)
    return k if len(k) >= 2 else None


class Corpus:
    def __init__(self, docs):
        self.docs = docs
        self.sents = {}
        self.df: dict = {}
        for d in docs:
            sp = sentences(d["text"])
            self.sents[d["stem"]] = sp
            keys = set()
            for a, b in sp:
                k = short_key(d["text"][a:b])
                if k:
                    keys.add(k)
            for k in keys:
                self.df[k] = self.df.get(k, 0) + 1

    def boiler(self, k) -> bool:
        return self.df.get(k, 0) >= 3


def doc_keys(text, spans=None, keyf=None):
    keyf = keyf or check_key
    out = []
    for a, b in (spans if spans is not None else sentences(text)):
        k = keyf(text[a:b])
        if k:
            out.append((k, a, b))
    return out


def unlabelled_overlap(corpus, susp_text, src_text, labelled_spans) -> int:
    """Number of susp sentences that also occur (normalised, >= 2 characters,
    non-boilerplate) in src but do not touch a labelled span."""
    rk = {k for k, _, _ in doc_keys(src_text, keyf=short_key) if not corpus.boiler(k)}
    bad = 0
    for k, a, b in doc_keys(susp_text, keyf=short_key):
        if k in rk and not any(a < e and s < b for s, e in labelled_spans):
            bad += 1
    return bad


def pick_passage(rng, corpus, src, max_len, tries=30):
    text = src["text"]
    sp = corpus.sents[src["stem"]]
    ok = []
    for a, b in sp:
        t = text[a:b]
        k = short_key(t)  # boilerplate at any length >= 2, as documented (was check_key: >= 10 only)
        ok.append(eligible_sentence(t) and not (k and corpus.boiler(k)) and len(t) <= 600)
    starts = [i for i in range(len(sp)) if ok[i]]
    if not starts:
        return None
    for _ in range(tries):
        i = rng.choice(starts)
        L = 1
        while L < max_len and i + L < len(sp) and ok[i + L]:
            L += 1
        if L >= 1:
            return sp[i:i + L]
    return None


# ----------------------------------------------------------------------------
# building
# ----------------------------------------------------------------------------

PLANT_PLAN = [  # (lang, pool, n_src, n_host), drawn in this order
    ("zh", "maint", 4, 7), ("zh", "install", 6, 14), ("zh", "debref", 0, 2),
    ("zh", "handbook", 20, 40), ("zh", "man", 55, 170),
    ("en", "install", 8, 20), ("en", "kjv", 30, 75), ("en", "debref", 8, 12),
    ("en", "handbook", 10, 30),
]


def weighted(rng, items, weights):
    return rng.choices(items, weights=weights, k=1)[0]


def build(out_dir: str, samples_dir: str | None, seed: int = SEED):
    vers = package_versions()
    rng = random.Random(seed)
    log = lambda *a: print(*a, file=sys.stderr)  # noqa: E731

    log("collecting man pages ...")
    man = collect_man()
    log("collecting html books ...")
    debref = collect_debref()
    handbook = collect_handbook()
    maint = collect_maint()
    install = collect_install()
    log("collecting bible, fortunes, GPL ...")
    bible = collect_bible()
    fortunes = collect_fortunes()
    gpl_src, gpl_susp = collect_gpl()

    all_docs = [d for e in man.values() for d in e.values()] + debref + handbook + maint + \
        install + bible + fortunes + [gpl_src] + gpl_susp
    corpus = Corpus(all_docs)
    log(f"{len(all_docs)} candidate documents")

    used_keys: set = set()
    src_docs: dict = {}
    susp_docs: dict = {}
    features: dict = {}      # (susp, src) -> list of feature dicts
    sent_pairs: list = []
    stats = {"man_pages_compared": 0, "man_conversion_like": 0, "hosts_dropped": 0, "hosts": 0}
    natural_kind: dict = {}

    def add_natural(susp, src, spans, kind):
        feats = []
        for sp in spans:
            feats.append(dict(obf="natural", this=sp["susp"], source=sp["src"]))
            for (sa, sb), (ra, rb) in sp["pairs"]:
                sent_pairs.append(dict(susp=susp["stem"] + ".txt", src=src["stem"] + ".txt",
                                       susp_start=sa, susp_end=sb, src_start=ra, src_end=rb,
                                       edit="natural"))
        susp_docs[susp["stem"]] = susp
        src_docs[src["stem"]] = src
        features[(susp["stem"], src["stem"])] = feats
        natural_kind[(susp["stem"], src["stem"])] = kind

    # --- (1) zh_TW vs zh_CN man pages ------------------------------------
    log("aligning man pages ...")
    man_cands = []
    for name in sorted(man):
        tw, cn = man[name]["zh_TW"], man[name]["zh_CN"]
        spans, n_el, npairs = natural_align(tw["text"], cn["text"])
        stats["man_pages_compared"] += 1
        if n_el and npairs / n_el >= 0.8:
            stats["man_conversion_like"] += 1
        if npairs >= 3 and MIN_DOC <= len(tw["text"]) <= MAX_DOC and MIN_DOC <= len(cn["text"]) <= MAX_DOC:
            man_cands.append((name, spans, npairs, n_el))
    rng.shuffle(man_cands)
    man_nat = sorted(man_cands[:60])
    for name, spans, npairs, n_el in man_nat:
        add_natural(man[name]["zh_TW"], man[name]["zh_CN"], spans, "man zh_TW/zh_CN")
        used_keys.add("man:" + name)

    # --- (1b) Debian Reference zh-tw vs zh-cn sections ----------------------
    dr = {}
    for d in debref:
        dr.setdefault((d["key"], d["stem"].split("_")[-1]), {})[d["stem"].split("_")[1]] = d
    dr_cands = []
    for key in sorted(dr):
        e = dr[key]
        if "zhtw" in e and "zhcn" in e and MIN_DOC <= len(e["zhtw"]["text"]) <= 25000 \
                and MIN_DOC <= len(e["zhcn"]["text"]) <= 25000:
            dr_cands.append(key)
    rng.shuffle(dr_cands)
    n_dr = 0
    for key in dr_cands:
        if n_dr >= 6 or key[0] in used_keys:
            continue
        e = dr[key]
        spans, _, n_anchor = natural_align(e["zhtw"]["text"], e["zhcn"]["text"])
        if n_anchor >= 3:
            add_natural(e["zhtw"], e["zhcn"], spans, "debian-reference zh-tw/zh-cn")
            used_keys.add(key[0])
            n_dr += 1

    # --- (2) fortunes-zh vs debian-reference-zh-cn --------------------------
    log("aligning fortunes ...")
    fortune_pairs = 0
    fortune_neg_cands = []
    for fd in fortunes:
        chap = int(fd["key"].split(":")[1])
        hits = []
        for d in debref:
            if not d["stem"].startswith("debref_zhcn_ch"):
                continue
            if d["key"].split(":")[1] != f"ch{chap:02d}":
                continue
            spans, _, n_anchor = natural_align(fd["text"], d["text"])
            n = sum(len(s["pairs"]) for s in spans)
            if n_anchor >= 2 and d["key"] not in used_keys:
                hits.append((d, spans))
            elif n == 0:
                fortune_neg_cands.append((fd, d))
        for d, spans in hits:
            add_natural(fd, d, spans, "fortunes-zh/debian-reference-zh-cn")
            fortune_pairs += 1
    for fd in fortunes:
        if fd["stem"] in susp_docs:
            used_keys.add(fd["key"])
    fortune_srcs = []
    for (s, r) in sorted(features):
        if natural_kind.get((s, r)) == "fortunes-zh/debian-reference-zh-cn":
            used_keys.add(src_docs[r]["key"])
            if src_docs[r] not in fortune_srcs:
                fortune_srcs.append(src_docs[r])

    # --- (3) GPL in the installation guide vs common-licenses/GPL-2 ----------
    for sd in gpl_susp:
        spans, _, n_anchor = natural_align(sd["text"], gpl_src["text"])
        if n_anchor >= 3:
            add_natural(sd, gpl_src, spans, "installation-guide/GPL-2")
    used_keys.add("install:apf.html")
    used_keys.add("gpl2")

    # --- planted -----------------------------------------------------------
    log("planting copies ...")

    def good(d):
        return MIN_DOC <= len(d["text"]) <= MAX_DOC and sum(
            1 for a, b in corpus.sents[d["stem"]] if eligible_sentence(d["text"][a:b])) >= 10

    man_pool = [d for n in sorted(man) for d in man[n].values()]
    pools = {
        "zh": {"man": man_pool, "debref": [d for d in debref if d["lang"] == "zh"],
               "handbook": [d for d in handbook if d["lang"] == "zh"], "maint": maint,
               "install": [d for d in install if d["lang"] == "zh"]},
        "en": {"debref": [d for d in debref if d["lang"] == "en"],
               "handbook": [d for d in handbook if d["lang"] == "en"], "kjv": bible,
               "install": [d for d in install if d["lang"] == "en"]},
    }
    plan = PLANT_PLAN
    role_src: dict = {"zh": [], "en": []}
    role_host: dict = {"zh": [], "en": []}
    for lang, pool, n_src, n_host in plan:
        cands = [d for d in pools[lang][pool] if good(d) and d["key"] not in used_keys]
        cands.sort(key=lambda d: d["stem"])
        rng.shuffle(cands)
        taken = []
        for d in cands:
            if d["key"] in used_keys:
                continue
            used_keys.add(d["key"])
            taken.append(d)
            if len(taken) >= n_src + n_host:
                break
        log(f"  plan {lang}/{pool}: {len(cands)} candidates, {len(taken)} taken")
        role_src[lang] += taken[:n_src]
        role_host[lang] += taken[n_src:]
    role_src["zh"] += fortune_srcs   # also usable as planted sources
    # the English sections of those Debian Reference sections: same work key, same role
    fkeys = {d["key"] for d in fortune_srcs}
    en_fsrc = [d for d in debref if d["lang"] == "en" and d["key"] in fkeys and good(d)]
    role_src["en"] += en_fsrc
    log(f"  {len(en_fsrc)} English Debian Reference sections of fortune-source keys added as sources")
    for lang in role_src:
        for d in role_src[lang]:
            src_docs[d["stem"]] = d

    n_pass_w = [6, 20, 26, 22, 16, 10]
    len_w = [15, 18, 17, 14, 11, 9, 8, 8]
    for lang in ("zh", "en"):
        for host in role_host[lang]:
            k = weighted(rng, list(range(len(n_pass_w))), n_pass_w)
            htext = host["text"]
            hsents = corpus.sents[host["stem"]]
            inserts = []           # (pos, mode, passage dict)
            used_pos = set()
            chosen_srcs = []
            for _ in range(k):
                for attempt in range(25):
                    if chosen_srcs and rng.random() < 0.3:
                        src = rng.choice(chosen_srcs)
                    elif lang == "zh":
                        same = rng.random() < 0.75
                        cand = [d for d in role_src["zh"] if (d["script"] == host["script"]) == same]
                        src = rng.choice(cand)
                    else:
                        src = rng.choice(role_src["en"])
                    L = weighted(rng, list(range(1, 9)), len_w)
                    psp = pick_passage(rng, corpus, src, L)
                    if not psp:
                        continue
                    if lang == "zh":
                        edit = weighted(rng, ["verbatim", "light", "script"], [45, 30, 25])
                    else:
                        edit = weighted(rng, ["verbatim", "light"], [55, 45])
                    stext = src["text"]
                    pieces = []     # list of (kind, text, src_span or None)
                    okp = True
                    for idx, (a, b) in enumerate(psp):
                        if idx:
                            pieces.append(("sep", stext[psp[idx - 1][1]:a], None))
                        s = stext[a:b]
                        if edit == "verbatim":
                            t = s
                        elif edit == "script":
                            t = cc("s2t" if src["script"] == "s" else "t2s", s)
                            if t == s:
                                okp = False
                        else:
                            t, _op = light_edit(rng, s, lang)
                            if t is None:
                                okp = False
                        pieces.append(("sent", t, (a, b)))
                    if not okp:
                        continue
                    # insertion point
                    mode = "para" if rng.random() < 0.5 else "sent"
                    if mode == "para":
                        cand_pos = [m.start() for m in re.finditer(r"\n\n", htext)] or \
                                   [m.start() for m in re.finditer(r"\n", htext)]
                    else:
                        cand_pos = [b for (a, b) in hsents if b < len(htext) and htext[b] != "\n"
                                    and htext[b - 1] in ZH_END + ".!?" + CLOSERS]
                        if not cand_pos:
                            mode = "para"
                            cand_pos = [m.start() for m in re.finditer(r"\n\n", htext)] or \
                                [m.start() for m in re.finditer(r"\n", htext)]
                    cand_pos = [p for p in cand_pos if all(abs(p - q) > 2 for q in used_pos)]
                    if not cand_pos:
                        continue
                    pos = rng.choice(cand_pos)
                    used_pos.add(pos)
                    inserts.append((pos, mode, dict(src=src, edit=edit, pieces=pieces)))
                    if src not in chosen_srcs:
                        chosen_srcs.append(src)
                    break
            inserts.sort(key=lambda x: x[0])
            out = []
            cur = 0
            olen = 0
            feats_by_src: dict = {}
            for pos, mode, p in inserts:
                seg = htext[cur:pos]
                out.append(seg)
                olen += len(seg)
                cur = pos
                if mode == "para":
                    nl = "\n\n" if htext.startswith("\n\n", pos) else "\n"
                    out.append(nl)
                    olen += len(nl)
                elif lang == "en":
                    out.append(" ")
                    olen += 1
                pstart = olen
                spairs = []
                for kind, t, ssp in p["pieces"]:
                    if kind == "sent":
                        spairs.append(((olen, olen + len(t)), ssp))
                    out.append(t)
                    olen += len(t)
                pend = olen
                if mode == "sent" and lang == "en" and not htext[pos:pos + 1].isspace():
                    out.append(" ")
                    olen += 1
                src = p["src"]
                feats_by_src.setdefault(src["stem"], []).append(dict(
                    obf=p["edit"], this=(pstart, pend),
                    source=(spairs[0][1][0], spairs[-1][1][1]), pairs=spairs, edit=p["edit"]))
            out.append(htext[cur:])
            stext_final = "".join(out)
            # verify that no unplanned copy exists between host and its sources
            bad_src = set()
            for sst, feats in feats_by_src.items():
                lab = [f["this"] for f in feats]
                if unlabelled_overlap(corpus, stext_final, src_docs[sst]["text"], lab):
                    bad_src.add(sst)
            stats["hosts"] += 1
            if bad_src:
                stats["hosts_dropped"] += 1
                log(f"  host {host['stem']}: unplanned overlap with {sorted(bad_src)}; kept without those")
                # rebuild without the offending passages (simple: drop this host's inserts from them)
                # easiest robust approach: skip the host's planted copies entirely
                feats_by_src = {}
                stext_final = htext
            susp = dict(host)
            susp["text"] = stext_final
            susp["host_text_len"] = len(htext)
            susp_docs[susp["stem"]] = susp
            for sst, feats in feats_by_src.items():
                features[(susp["stem"], sst)] = [dict(obf=f["obf"], this=f["this"], source=f["source"])
                                                 for f in feats]
                for f in feats:
                    for (sa, sb), (ra, rb) in f["pairs"]:
                        sent_pairs.append(dict(susp=susp["stem"] + ".txt", src=sst + ".txt",
                                               susp_start=sa, susp_end=sb, src_start=ra, src_end=rb,
                                               edit=f["edit"]))

    # --- negatives ---------------------------------------------------------
    log("choosing negatives ...")
    negatives = {}
    src_list = sorted(src_docs.values(), key=lambda d: d["stem"])

    def try_neg(sd, cands, kind, n=1):
        got = 0
        cands = sorted(cands, key=lambda d: d["stem"])
        rng.shuffle(cands)
        for c in cands[:40]:
            key = (sd["stem"], c["stem"])
            if key in features or key in negatives:
                continue
            if c["key"] == sd["key"]:
                continue
            if unlabelled_overlap(corpus, sd["text"], c["text"], []):
                continue
            negatives[key] = kind
            got += 1
            if got >= n:
                return

    for sst in sorted(susp_docs):
        sd = susp_docs[sst]
        mine = {r for (s, r) in features if s == sst}
        lang_srcs = [d for d in src_list if d["lang"] == sd["lang"] and d["stem"] not in mine]
        hard = [d for d in lang_srcs if d["group"] == sd["group"] or d["pkg"] == sd["pkg"]]
        try_neg(sd, hard, "hard")
        if sst in {s for (s, r) in features} and rng.random() < 0.5:
            continue
        try_neg(sd, lang_srcs, "random")
    for fd, d in fortune_neg_cands:
        if fd["stem"] in susp_docs and d["stem"] in src_docs and (fd["stem"], d["stem"]) not in features:
            if not unlabelled_overlap(corpus, fd["text"], d["text"], []):
                negatives[(fd["stem"], d["stem"])] = "hard"

    # --- verification ------------------------------------------------------
    log("verifying ...")
    verify(susp_docs, src_docs, features, sent_pairs)

    # --- write -------------------------------------------------------------
    write_set(out_dir, susp_docs, src_docs, features, negatives, sent_pairs)
    pass_per_host: dict = {}
    for lang in ("zh", "en"):
        for h in role_host[lang]:
            n = sum(len(f) for (s_, r_), f in features.items() if s_ == h["stem"])
            pass_per_host[n] = pass_per_host.get(n, 0) + 1
    info = dict(seed=seed, pass_per_host=pass_per_host, vers=vers, stats=stats, natural_kind=natural_kind, negatives=negatives,
                n_man_nat=len(man_nat), n_dr=n_dr, fortune_pairs=fortune_pairs,
                n_fortune_docs=len(fortunes))
    make_slice(out_dir, susp_docs, src_docs, features, negatives, sent_pairs, natural_kind, seed)
    copy_licences(os.path.join(out_dir, "LICENSES"), vers)
    write_readme(out_dir, susp_docs, src_docs, features, negatives, sent_pairs, info)
    if samples_dir:
        make_samples(samples_dir, man, debref, fortunes, gpl_src, gpl_susp, vers, corpus)
    log("done")


def verify(susp_docs, src_docs, features, sent_pairs):
    for sp in sent_pairs:
        s = susp_docs[sp["susp"][:-4]]["text"][sp["susp_start"]:sp["susp_end"]]
        r = src_docs[sp["src"][:-4]]["text"][sp["src_start"]:sp["src_end"]]
        e = sp["edit"]
        if e == "verbatim":
            ok = s == r
        elif e == "script":
            ok = s != r and (s == cc("s2t", r) or s == cc("t2s", r))
        elif e == "light":
            ok = s != r and max(fuzz.ratio(s, r), fuzz.ratio(unicodedata.normalize("NFKC", s),
                                                         unicodedata.normalize("NFKC", r))) >= 60
        else:
            ok = max(fuzz.ratio(norm_a(s), norm_a(r)), fuzz.ratio(norm_b(s), norm_b(r))) >= 95
        if not ok or not s.strip() or s != s.strip():
            raise SystemExit(f"make_goldenset: verification failed for {sp}: {s!r} vs {r!r}")
    for (s, r), feats in features.items():
        st, rt = susp_docs[s]["text"], src_docs[r]["text"]
        for f in feats:
            a, b = f["this"]
            c, d = f["source"]
            assert 0 <= a < b <= len(st) and 0 <= c < d <= len(rt), (s, r, f)
            if f["obf"] == "verbatim":
                assert st[a:b] == rt[c:d], (s, r, f)


def unlabelled_repeats(susp_docs, src_docs, sent_pairs, natural_kind) -> dict:
    """Recall check of the natural labels: per kind, the susp sentences (normalised form of
    >= 2 characters) that also occur, normalised, somewhere in the paired source but are not
    labelled, as (count, most common texts)."""
    labelled: dict = {}
    for sp in sent_pairs:
        if sp["edit"] == "natural":
            labelled.setdefault((sp["susp"][:-4], sp["src"][:-4]), set()).add((sp["susp_start"], sp["susp_end"]))
    found: dict = {}
    for pair, kind in sorted(natural_kind.items()):
        st, rt = susp_docs[pair[0]]["text"], src_docs[pair[1]]["text"]
        source = {form for _, na, nb, _ in _nat_prep(rt, sentences(rt)) for form in (na, nb)}
        spans = sentences(st)
        for i, na, nb, _ in _nat_prep(st, spans):
            if spans[i] not in labelled.get(pair, ()) and (na in source or nb in source):
                found.setdefault(kind, []).append(st[spans[i][0]:spans[i][1]])
    return {kind: (len(texts), sorted(Counter(texts).items(), key=lambda kv: (-kv[1], kv[0]))[:6])
            for kind, texts in sorted(found.items())}


def feature_xml(susp, src, feats):
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<document reference="{susp}.txt">']
    for f in sorted(feats, key=lambda f: f["this"]):
        a, b = f["this"]
        c, d = f["source"]
        lines.append(f'<feature name="plagiarism" obfuscation="{f["obf"]}" this_offset="{a}" '
                     f'this_length="{b - a}" source_reference="{src}.txt" source_offset="{c}" '
                     f'source_length="{d - c}"/>')
    lines.append("</document>")
    return "\n".join(lines) + "\n"


def write_file(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_set(out_dir, susp_docs, src_docs, features, negatives, sent_pairs, only=None):
    for sub in ("src", "susp", "truth"):
        p = os.path.join(out_dir, sub)
        if os.path.isdir(p):
            shutil.rmtree(p)
        os.makedirs(p)
    pairs = sorted(set(features) | set(negatives))
    if only is not None:
        pairs = sorted(only)
    used_s = sorted({s for s, _ in pairs})
    used_r = sorted({r for _, r in pairs})
    for s in used_s:
        write_file(os.path.join(out_dir, "susp", s + ".txt"), susp_docs[s]["text"])
    for r in used_r:
        write_file(os.path.join(out_dir, "src", r + ".txt"), src_docs[r]["text"])
    write_file(os.path.join(out_dir, "pairs"), "".join(f"{s}.txt {r}.txt\n" for s, r in pairs))
    for s, r in pairs:
        write_file(os.path.join(out_dir, "truth", f"{s}-{r}.xml"), feature_xml(s, r, features.get((s, r), [])))
    pset = set(pairs)
    lines = []
    for sp in sorted(sent_pairs, key=lambda x: (x["susp"], x["src"], x["susp_start"], x["src_start"])):
        if (sp["susp"][:-4], sp["src"][:-4]) in pset:
            lines.append(json.dumps(sp, ensure_ascii=False) + "\n")
    write_file(os.path.join(out_dir, "sentence_pairs.jsonl"), "".join(lines))
    return pairs


def make_slice(out_dir, susp_docs, src_docs, features, negatives, sent_pairs, natural_kind, seed):
    rng = random.Random(seed + 1)

    def size(p):
        return len(susp_docs[p[0]]["text"].encode()) + len(src_docs[p[1]]["text"].encode())

    chosen = []
    groups = {}
    for p in sorted(features):
        kind = natural_kind.get(p)
        if kind is None:
            kind = "planted-" + "-".join(sorted({f["obf"] for f in features[p]}))
        groups.setdefault(kind, []).append(p)
    for p in sorted(negatives):
        groups.setdefault("negative-" + negatives[p], []).append(p)
    quota = {"man zh_TW/zh_CN": 5, "debian-reference zh-tw/zh-cn": 2,
             "fortunes-zh/debian-reference-zh-cn": 1, "installation-guide/GPL-2": 1,
             "negative-hard": 5, "negative-random": 3}
    for kind in sorted(groups):
        lst = sorted(groups[kind], key=lambda p: (size(p), p))
        q = quota.get(kind, 3 if kind.startswith("planted-") else 0)
        small = lst[:max(q * 3, q)]
        rng.shuffle(small)
        chosen += small[:q]
    total = 0
    final = []
    for p in sorted(chosen, key=lambda p: (size(p), p)):
        if total + size(p) > 900_000:
            continue
        total += size(p)
        final.append(p)
    write_set(os.path.join(out_dir, "slice"), susp_docs, src_docs, features, negatives, sent_pairs,
              only=final)
    write_file(os.path.join(out_dir, "slice", "README.md"),
               "# goldenset slice\n\nA small subset of `goldenset/` (same layout, same files, same labels) "
               f"for CI: {len(final)} pairs chosen by `scripts/make_goldenset.py` (smallest pairs of each "
               "kind).  See `../README.md` for sources, licences and method.\n")


# ----------------------------------------------------------------------------
# README, licences, samples
# ----------------------------------------------------------------------------

REVIEW_RECORD = """Earlier build (anchors only, ≥ 6 CJK / ≥ 20 characters): 20 natural sentence pairs drawn
with `random.Random(7)` over `sentence_pairs.jsonl` (8 man zh_TW/zh_CN, 4 Debian Reference
zh-tw/zh-cn, 6 fortunes-zh/Debian Reference, 2 GPL-2) were printed side by side and checked
by eye to be the same sentence (zh_TW as the Traditional/Taiwan-wording form of zh_CN, e.g.
缺省→預設, 内存→記憶體, 字节→位元組) with offsets on the sentence: 20 of 20 right.

This build (short lines and boilerplate now labelled inside natural pairs): 20 natural
sentence pairs of the new kinds — normalised form shorter than the anchor size, or found in
≥ 3 documents of the set — drawn with `random.Random(7)` from the 3230 such pairs, printed side
by side and checked by eye: 12 man zh_TW/zh_CN (e.g. `本頁面中文版由中文 man 手冊頁計劃提供。` /
`本页面中文版由中文 man 手册页计划提供。`, `SYNOPSIS 總覽` / `SYNOPSIS 总览`, `描述 DESCRIPTION`,
`作者`, `PGPORT`, `-n nameserver`, `r  refer(1)`, mdoc lines such as `addr)),`), 7
fortunes-zh/Debian Reference (e.g. `group1:x:20:user1,user2`, `$ mc -e filename_to_edit`,
`尝试下列例子`, headings such as `* 文件的名字`), 1 Debian Reference zh-tw/zh-cn (the heading
number line `11.4.1.`).  Result: 20 of 20 are the same line in the same place of the two
documents, and each span starts and ends on the sentence.  As before, fortune lines keep the
fortune's own `* ` / `+ ` list marker inside the susp span.

This build (fortunes-zh: box-drawn tables and their captions dropped, lines shorter than the
72-column fill no longer joined to the next, so a quoted shell session or configuration file
keeps its lines as the Debian Reference text does): 514 fortune sentence pairs are new, 2 of the
earlier ones are gone.  20 of the new ones drawn with `random.Random(7)`, printed side by side
and checked by eye (e.g. `# fdisk /dev/sdx`, `$ sudo vim /etc/exim4/passwd.client`,
`PATH="~/bin${PATH+:$PATH}"`, `NotAutomatic: yes`, `Package: <package-2>` / `Package:
package-2`, `fi`): 20 of 20 are the same line, between the same two matched anchors of the two
documents.  Before this change a quoted command block was one joined line in the fortune and
several lines in the source, matched by neither rule, and a table was in the fortune only.
The same build stopped labelling one-sentence spans of a line that recurs in either document:
of the 35 such `尝试下列例子` spans of the previous build, the line after it in the fortune
(`$ man man`, `# enable bash-completion`, ...) and the line after the paired occurrence in the
source (`$ touch foo bar`, `$ cd; mkfifo mypipe`, ...) were the same in 0 of 35, so the label
had paired the line with an occurrence from another place.
"""


def source_table(vers):
    rows = [
        ("manpages-zh", "`/usr/share/man/zh_CN/man*/*.gz, /usr/share/man/zh_TW/man*/*.gz`",
         f"rendered with `{MAN_RENDER}`, running header/footer line dropped, indentation stripped",
         "GFDL-1.2+ (`Files: *`; LICENSES/manpages-zh.copyright)"),
        ("debian-reference-zh-cn", "`/usr/share/debian-reference/*.zh-cn.html`", "HTML→text (html.parser), split per section",
         "GPL-2+ with verbatim/modified-copy permission notice (LICENSES/)"),
        ("debian-reference-zh-tw", "`/usr/share/debian-reference/*.zh-tw.html`", "same", "GPL-2+"),
        ("debian-reference-en", "`/usr/share/debian-reference/*.en.html`", "same", "GPL-2+"),
        ("debian-handbook", "`/usr/share/doc/debian-handbook/html/{zh-CN,en-US}/*.html`", "HTML→text, one doc per page",
         "GPL-2.0+ or CC-BY-SA-3.0 (LICENSES/)"),
        ("maint-guide-zh-cn", "`/usr/share/doc/maint-guide-zh-cn/html/*.html`", "HTML→text, split per section",
         "MIT/Expat-style permission notice (LICENSES/)"),
        ("maint-guide-zh-tw", "`/usr/share/doc/maint-guide-zh-tw/html/*.html`", "same", "MIT-style"),
        ("installation-guide-amd64", "`/usr/share/doc/installation-guide-amd64/{en,zh_CN}/*.html`",
         "HTML→text, one doc per page", "GPL-2 (LICENSES/)"),
        ("fortunes-zh", "`/usr/share/games/fortunes/chinese`",
         "only the fortunes quoting “Debian 参考手册”; ANSI colour escapes and attribution lines removed, "
         "box-drawn tables and their captions removed (the Debian Reference text has no tables), "
         "hard-wrapped lines joined (a line shorter than the 72-column fill stays a line); "
         "one doc per Debian Reference chapter", "GPL-3.0+ (LICENSES/)"),
        ("bible-kjv-text", "`/usr/lib/bible.data` (read with `bible -f` from bible-kjv)",
         "one verse per line, 3 chapters per doc", "GPL-2+ per the package copyright file (LICENSES/)"),
        ("base-files", "`/usr/share/common-licenses/GPL-2`", "hard-wrapped lines joined",
         "the GPL-2 text itself permits verbatim copies; base-files copyright in LICENSES/"),
    ]
    out = ["| package | version | files used | conversion | licence |", "|---|---|---|---|---|"]
    for p, f, c, lic in rows:
        c = c.replace("|", "\\|")
        out.append(f"| {p} | {vers.get(p, '?')} | {f} | {c} | {lic} |")
    out.append(f"\nTools used for conversion: groff-base {vers['groff-base']}, "
               f"bsdextrautils {vers['bsdextrautils']} (`col`), bible-kjv {vers['bible-kjv']} (`bible`); "
               "Python opencc (`s2t`, `t2s`, `s2twp`) and rapidfuzz.")
    return "\n".join(out)


def write_readme(out_dir, susp_docs, src_docs, features, negatives, sent_pairs, info):
    pairs = sorted(set(features) | set(negatives))
    used_s = sorted({s for s, _ in pairs})
    used_r = sorted({r for _, r in pairs})
    n_sent_s = sum(len(sentences(susp_docs[s]["text"])) for s in used_s)
    n_sent_r = sum(len(sentences(src_docs[r]["text"])) for r in used_r)
    by_edit_pairs: dict = {}
    for sp in sent_pairs:
        by_edit_pairs[sp["edit"]] = by_edit_pairs.get(sp["edit"], 0) + 1
    by_edit_spans: dict = {}
    for feats in features.values():
        for f in feats:
            by_edit_spans[f["obf"]] = by_edit_spans.get(f["obf"], 0) + 1
    lang_count: dict = {}
    for s in used_s:
        lang_count[("susp", susp_docs[s]["lang"])] = lang_count.get(("susp", susp_docs[s]["lang"]), 0) + 1
    for r in used_r:
        lang_count[("src", src_docs[r]["lang"])] = lang_count.get(("src", src_docs[r]["lang"]), 0) + 1
    nat_counts: dict = {}
    for p, k in info["natural_kind"].items():
        c = nat_counts.setdefault(k, [0, 0, 0])
        c[0] += 1
        c[1] += len(features[p])
        c[2] += sum(1 for sp in sent_pairs if (sp["susp"][:-4], sp["src"][:-4]) == p)
    planted_pos = [p for p in features if p not in info["natural_kind"]]
    n_hard = sum(1 for v in negatives.values() if v == "hard")
    n_zero = sum(1 for s in used_s if not any(p[0] == s for p in features))
    total_bytes = 0
    for root, dirs, files in os.walk(out_dir):
        if root == out_dir:
            dirs[:] = [d for d in dirs if d != "results"]
        for fn in files:
            if root == out_dir and fn == "README.md":
                continue
            total_bytes += os.path.getsize(os.path.join(root, fn))
    edits = ["verbatim", "light", "script", "natural"]
    t = []
    t.append("# partialdup gold set\n")
    t.append("Documents from Debian packages, in the PAN 2012–2015 text-alignment layout, with "
             "planted copies (real sentences of one real document inserted into another real "
             "document) and natural copies that exist between the packages.  Built by "
             "`scripts/make_goldenset.py`; nothing in here was written or generated by hand or by a "
             "model.\n")
    t.append("## Rebuild\n\n```\napt-get update && " + APT_LINE +
             "\npython3 -m pip install opencc rapidfuzz\npython3 scripts/make_goldenset.py --out goldenset --samples samples\n```\n\n"
             f"The build is deterministic (`random.Random({info['seed']})`, sorted file lists): running it twice "
             "gives byte-identical files.  It stops with a one-line message naming the first missing "
             "package.  The versions below are the ones the committed files were built from; other "
             "versions give different files.\n")
    t.append("## Sources\n\n" + source_table(info["vers"]) + "\n\nThe `copyright` file of every package is "
             "copied verbatim to `LICENSES/PACKAGE.copyright`; those are the licence notices that go "
             "with the texts.\n")
    t.append("## Layout\n\n```\nsrc/*.txt              source documents\nsusp/*.txt             suspicious documents\n"
             "pairs                  \"SUSP.txt SRC.txt\" per line (positives and negatives)\n"
             "truth/SUSP-SRC.xml     PAN truth; negatives have a <document> without features\n"
             "sentence_pairs.jsonl   one line per gold copied sentence pair (end exclusive)\n"
             "LICENSES/              copyright files of the packages\n"
             "slice/                 same layout, small subset for CI\n```\n\n"
             "All offsets and lengths are in characters (code points) of the UTF-8-decoded text.  "
             "File stems name the origin: `man_zhcn_ls.1` (manpages-zh, zh_CN, ls(1)), "
             "`debref_zhtw_ch03_s01_p0` (Debian Reference zh-tw, chapter 3, section 1, part 0), "
             "`handbook_enus_sect.apt_get_p00`, `maintguide_zhcn_dreq_s02_p0`, `instguide_en_ch02s01`, "
             "`kjv_genesis_001_003`, `fortuneszh_chinese_debref_ch03`, `common_licenses_GPL_2`.  "
             "A suspicious document has the stem of its host document.\n")
    t.append("""## Sentence rule (labels only; the detector's splitter is not used)

A line break always ends a sentence.  Inside a line a sentence ends after one of `。！？；`
plus any closing quotes/brackets (`”’」』）)》】"'`), or after `.`, `!` or `?` (plus
closers) when whitespace and a capital letter (optionally after an opening quote) follow.
Spans are trimmed of surrounding whitespace.  HTML paragraphs are one line each (whitespace in
the HTML source collapsed; a line break between two CJK characters removed), man pages are
rendered with a 2000-column line so a paragraph is one line.

## How the copies were made

**Planted copies.**  Documents are grouped by a *work key* (a man page name, a Debian
Reference section in any language, a handbook page in any language, ...); each key is used
in one role only, so a host never contains an unplanned translation-copy of a source.
Sources and hosts are drawn per package and language (Chinese: man pages, Debian Reference
zh-cn/zh-tw, Debian handbook zh-CN, maint-guide zh-cn/zh-tw, installation guide zh_CN;
English: Debian Reference en, handbook en-US, KJV, installation guide en), 1.5–60 kB each;
the English Debian Reference sections whose work key is already a source (the sections
quoted by fortunes-zh) are English sources too.  Hosts: {HOSTS_PLANNED} planned
(fewer where a pool runs out, see *Counts*).
Each host gets 0–5 passages (weights 6/20/26/22/16/10 %), each passage 1–8 consecutive
sentences (weights 15/18/17/14/11/9/8/8 %) of one source, every sentence eligible (≥ 6 CJK
characters, or ≥ 30 characters / 5 words of prose starting with a capital) and not
boilerplate (a normalised sentence found in ≥ 3 documents of the whole collection).  For a
Chinese host the source has the same script with probability 0.75, else the other script.
Edit level per passage: Chinese verbatim 45 % / light 30 % / script 25 %, English verbatim
55 % / light 45 %.
* *light*: each sentence gets one edit among: a punctuation mark deleted or replaced
  (e.g. `，`→`、`, `,`→`;`); one CJK character deleted, duplicated-in or replaced by another
  character of the same sentence (English: one word deleted, repeated, or replaced by another
  word of the same sentence); full-width↔half-width (`，。：；！？（）` → ASCII, or ASCII →
  full-width); a line break inserted (or an existing one removed).
* *script*: every sentence converted with opencc `s2t` (Simplified source) or `t2s`
  (Traditional source), and must change.
A passage is inserted either as its own paragraph (at a blank line) or right after a
sentence end inside a line of the host (English: with a space).  Offsets are computed while
the suspicious text is assembled.  A host whose result shares a non-boilerplate sentence of
any length (normalised form (a) below, ≥ 2 characters) with one of its sources outside the
labelled spans keeps no planted copies (see *Counts* for how often).  Boilerplate, here and
below, is a normalised sentence (≥ 2 characters) found in ≥ 3 documents of the whole
collection; boilerplate shared by a host and its source is not labelled (a detector should
not report it).  Truth has one feature per passage; `sentence_pairs.jsonl` one line per
copied sentence.

**Natural copies** (`obfuscation="natural"`), labelled by an independent procedure: both
texts are split with the rule above; every sentence is normalised two ways — (a) NFKC, opencc
`t2s`, lower-case, drop whitespace/punctuation/symbols; (b) the same after an extra opencc
`s2twp` pass, so that Taiwan phrase substitutions (文件→檔案, 软件→軟體) normalise alike.
Sentences whose normalised form (a) has fewer than 2 characters (lone punctuation, one-letter
lines) are left out; every other sentence takes part, with no boilerplate exclusion inside a
natural pair (a licence header or a manpages-zh colophon line is copied there like any other
line).  Matching is monotone and done in two passes: (1) *anchors* — sentences of at least 6
CJK or 20 normalised characters — are matched in order: an exact match (a or b) within the
next 240 anchor-sized source sentences, otherwise the best `rapidfuzz.fuzz.ratio ≥ 95` within
the next 60; (2) every remaining sentence (short lines, headings, command lines) is matched by
the same rule, but only inside the gap between the two anchors around it (or the document
start/end), so a short line can only pair with a line in the corresponding place.  The
alignment is then repeated (up to 5 rounds) on the susp sentences still unmatched, keeping
from these later rounds only spans that contain an anchor; this labels passages quoted out of
order or twice (fortunes-zh).  Matched sentences form one span/feature while both sides
continue in order with at most 2 unmatched sentences between two matches on either side; a
span runs from its first to its last matched sentence, and the unmatched sentences it bridges
are not sentence-pair labels.  A span of a single sentence whose normalised form occurs more
than once in either document is dropped (in every round): which occurrence copies which is not
in the text, and such a line alone (尝试下列例子, “try the following examples”, closes many
sections of Debian Reference) is no evidence of a copy.
1. zh_TW vs zh_CN man pages of the same command (zh_TW is the susp document).
2. Debian Reference zh-tw vs zh-cn sections (same section).
3. fortunes-zh quotations of *Debian 参考手册 (版本 2.73)* vs debian-reference-zh-cn 2.100
   sections of the same chapter (a pair is kept when ≥ 2 anchors match).
4. The GPL appendix (appendix F) of the English installation guide vs
   `/usr/share/common-licenses/GPL-2` (the zh_CN guide's appendix F is a Chinese
   translation of the GPL, not a copy, and matched nothing; it is not used).

**Negatives.**  Each suspicious document gets a *hard* negative (a source of the same
language from the same package or group — e.g. another man page of the same section, sharing
`名称 / 概述 / 描述 / 参见` headers, licence and bug-report lines, Debian names) and, for
half of the documents with copies and all documents without, a random negative of the same
language; fortune chapters also get the same-chapter Debian Reference sections in which the
natural procedure matches nothing.  A candidate negative is rejected if any non-boilerplate
normalised sentence of ≥ 2 characters occurs in both documents.  Boilerplate sentences may be
shared by a negative pair and are not labelled.

**Verification** (run at the end of every build): every sentence pair maps back —
verbatim: exact equality of the two slices; script: susp = opencc(src); light: different and
`fuzz.ratio ≥ 60`; natural: normalised ratio ≥ 95; every feature lies inside its
documents, and verbatim features are equal slice for slice.
""".replace("{HOSTS_PLANNED}", "%d Chinese, %d English" % tuple(
        sum(n for lg, _, _, n in PLANT_PLAN if lg == x) for x in ("zh", "en"))))
    t.append("## Counts\n")
    t.append(f"* documents: {len(used_s) + len(used_r)} ({len(used_s)} suspicious, {len(used_r)} source); "
             f"Chinese: {lang_count.get(('susp', 'zh'), 0)} susp + {lang_count.get(('src', 'zh'), 0)} src, "
             f"English: {lang_count.get(('susp', 'en'), 0)} susp + {lang_count.get(('src', 'en'), 0)} src")
    t.append(f"* sentences by the rule above: {n_sent_s} in susp, {n_sent_r} in src")
    t.append(f"* pairs: {len(pairs)} — {len(features)} with copies ({len(planted_pos)} planted, "
             f"{len(features) - len(planted_pos)} natural), {len(negatives)} negatives ({n_hard} hard, "
             f"{len(negatives) - n_hard} random); {n_zero} suspicious documents have no copy at all")
    t.append("* copied sentence pairs / spans (features) by edit level:\n")
    t.append("| edit | sentence pairs | spans |\n|---|---|---|")
    for e in edits:
        t.append(f"| {e} | {by_edit_pairs.get(e, 0)} | {by_edit_spans.get(e, 0)} |")
    t.append(f"| total | {len(sent_pairs)} | {sum(by_edit_spans.values())} |\n")
    t.append("* natural copies by kind:\n\n| kind | pairs | spans | sentence pairs |\n|---|---|---|---|")
    for k in sorted(nat_counts):
        c = nat_counts[k]
        t.append(f"| {k} | {c[0]} | {c[1]} | {c[2]} |")
    st = info["stats"]
    t.append(f"\n* man pages in both zh_CN and zh_TW (real files, rendered): {st['man_pages_compared']}; "
             f"of these {st['man_conversion_like']} have ≥ 80 % of their eligible zh_TW sentences matched "
             "to zh_CN by the procedure — zh_TW pages are opencc-style (s2twp) conversions of the zh_CN "
             f"translations, so the two are real copies; {info['n_man_nat']} of them are in the set.")
    t.append(f"* fortunes-zh: {info['n_fortune_docs']} chapter documents of Debian Reference quotations, "
             f"{info['fortune_pairs']} positive pairs with debian-reference-zh-cn sections.")
    t.append(f"* planted: {st['hosts']} host documents drawn, {st['hosts_dropped']} of them dropped their "
             "planted copies by the unplanned-overlap rule; passages per host: "
             + ", ".join(f"{k}: {v}" for k, v in sorted(info['pass_per_host'].items())))
    t.append(f"* size: {total_bytes / 1e6:.1f} MB of files (everything but this README and "
             "results/; slice/ included)\n")
    t.append("## Review of natural labels\n\n" + REVIEW_RECORD)
    t.append("Recall, checked in bulk by every build: over the natural pairs, the susp sentences "
             "(≥ 2 normalised characters) whose normalised form occurs somewhere in the paired source "
             "but that no label covers (a line repeated elsewhere in the source, a short line outside "
             "the gap between its anchors, a sentence matched by neither rule at its own place):\n")
    for kind, (n, common) in unlabelled_repeats(susp_docs, src_docs, sent_pairs, info["natural_kind"]).items():
        shown = ", ".join(f"`{x}`" + (f" ×{c}" if c > 1 else "") for x, c in common)
        t.append(f"* {kind}: {n} (most often: {shown})")
    t.append("")
    write_file(os.path.join(out_dir, "README.md"), "\n".join(t))


def copy_licences(d, vers):
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    for p in sorted(set(REQUIRED_PACKAGES) - {"groff-base", "bsdextrautils"}):
        with open(f"/usr/share/doc/{p}/copyright", encoding="utf-8", errors="replace") as f:
            write_file(os.path.join(d, p + ".copyright"), f.read())


SAMPLE_MAN = ["ls.1", "cp.1", "chmod.1", "mkdir.1", "rm.1", "mv.1"]


def make_samples(d, man, debref, fortunes, gpl_src, gpl_susp, vers, corpus):
    if os.path.isdir(d):
        for fn in os.listdir(d):
            p = os.path.join(d, fn)
            if os.path.isfile(p):
                os.remove(p)
    os.makedirs(d, exist_ok=True)
    files = []   # (name, doc)
    expect = []
    names = [n for n in SAMPLE_MAN if n in man][:3]
    for n in names:
        tw, cn = man[n]["zh_TW"], man[n]["zh_CN"]
        spans, _, _ = natural_align(tw["text"], cn["text"])
        files += [(f"man_{n}.zh_CN.txt", cn), (f"man_{n}.zh_TW.txt", tw)]
        expect.append((f"man_{n}.zh_TW.txt", f"man_{n}.zh_CN.txt", spans,
                       f"zh_TW `{n}` man page is a Traditional-script conversion of the zh_CN one"))
    best = None
    for fd in fortunes:
        for dd in debref:
            if not dd["stem"].startswith("debref_zhcn_"):
                continue
            if dd["key"].split(":")[1] != "ch%02d" % int(fd["key"].split(":")[1]):
                continue
            if len(dd["text"]) > 40000 or len(fd["text"]) > 40000:
                continue
            spans, _, _ = natural_align(fd["text"], dd["text"])
            n = sum(len(s["pairs"]) for s in spans)
            if best is None or n > best[0]:
                best = (n, fd, dd, spans)
    if best:
        _, fd, dd, spans = best
        files += [(f"debian-reference.{dd['stem']}.txt", dd), (f"fortunes-zh.{fd['stem']}.txt", fd)]
        expect.append((f"fortunes-zh.{fd['stem']}.txt", f"debian-reference.{dd['stem']}.txt", spans,
                       "fortunes-zh quotes Debian Reference 2.73; the excerpt is the 2.100 section"))
    en = gpl_susp[0]
    spans, _, _ = natural_align(en["text"], gpl_src["text"])
    files += [("GPL-2.txt", gpl_src), ("installation-guide.appendix-F.en.txt", en)]
    expect.append(("installation-guide.appendix-F.en.txt", "GPL-2.txt", spans,
                   "the installation guide's appendix F reproduces the GNU GPL version 2"))
    for name, doc in files:
        write_file(os.path.join(d, name), doc["text"])
    lines = ["# Sample documents\n",
             "Real texts from Debian packages (nothing written by hand) for trying "
             "`partialdup detect samples/`.  Built by `python3 scripts/make_goldenset.py --out goldenset "
             "--samples samples`; provenance and licences are in `LICENSE.md`.\n",
             "## Files\n", "| file | from |", "|---|---|"]
    for name, doc in files:
        lines.append(f"| `{name}` | {doc['pkg']} {vers.get(doc['pkg'], '')}: `{doc['path']}` ({doc['how']}) |")
    lines.append("\n## Copies you should see\n")
    lines.append("Counted with the gold set's own labelling procedure (see `goldenset/README.md`, "
                 "*natural copies*).\n")
    for a, b, spans, why in expect:
        n = sum(len(s["pairs"]) for s in spans)
        lines.append(f"* `{a}` ← `{b}`: {n} copied sentences in {len(spans)} span(s) — {why}.")
    exp = {(a, b) for a, b, _, _ in expect} | {(b, a) for a, b, _, _ in expect}
    other = []
    keys = {name: {k for k, _, _ in doc_keys(doc["text"], keyf=short_key)} for name, doc in files}
    for i, (na, _) in enumerate(files):
        for nb, _ in files[i + 1:]:
            if (na, nb) in exp:
                continue
            shared = sorted(keys[na] & keys[nb])
            if shared:
                nb_ = sum(1 for k in shared if corpus.boiler(k))
                other.append(f"* `{na}` / `{nb}`: {len(shared)} shared normalised sentence(s), "
                             f"{nb_} of them boilerplate (in ≥ 3 documents of the collection: headings "
                             "such as 名称/概述/描述, coreutils licence/help/bug-report lines, the "
                             "manpages-zh colophon)"
                             + ("" if nb_ == len(shared) else ": the others are "
                                + ", ".join(f"`{k}`" for k in shared if not corpus.boiler(k))))
    lines.append("\nOther pairs of files that share sentences (by the same normalised-sentence check "
                 "used for the gold set's negatives, any sentence of ≥ 2 normalised characters):\n")
    lines += other or ["* none"]
    lines.append("\nThe English pair is copied almost verbatim; the Chinese man page pairs differ by script "
                 "(Simplified vs Traditional) and Taiwan wording (文件→檔案, 默认→預設); the fortunes differ "
                 "from the current Debian Reference by small edits between versions 2.73 and 2.100 and by "
                 "line wrapping.\n")
    write_file(os.path.join(d, "README.md"), "\n".join(lines))
    lic = ["# Provenance and licences of the sample documents\n"]
    for name, doc in files:
        lic.append(f"* `{name}`: Debian package {doc['pkg']} {vers.get(doc['pkg'], '')}, "
                   f"`{doc['path']}`, converted to text ({doc['how']}).")
    lic.append("\nThe copyright files of these packages follow verbatim.\n")
    for p in sorted({doc["pkg"] for _, doc in files}):
        with open(f"/usr/share/doc/{p}/copyright", encoding="utf-8", errors="replace") as f:
            lic.append(f"## {p} {vers.get(p, '')} — /usr/share/doc/{p}/copyright\n\n```\n{f.read().rstrip()}\n```\n")
    write_file(os.path.join(d, "LICENSE.md"), "\n".join(lic))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="goldenset")
    ap.add_argument("--samples", default=None, help="also write the demo samples folder")
    ap.add_argument("--seed", type=int, default=SEED,
                    help=f"seed of the planted copies (default {SEED}, the committed set); another seed gives a "
                         "held-out set from the same documents, for checking that defaults hold beyond the committed one")
    a = ap.parse_args(argv)
    build(a.out, a.samples, a.seed)


if __name__ == "__main__":
    main()
