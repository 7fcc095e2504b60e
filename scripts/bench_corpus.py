"""Build the benchmark corpus: real Chinese and English text from Debian packages.

Every package is fetched with ``apt-get download`` and unpacked with
``dpkg-deb -x`` under the output folder (nothing needs to be installed), then
turned into one ``.txt`` file per real document (an HTML page or a book
section cut at its headings, a man page, a fortune) with the gold-set
builder's converters (``scripts/goldenset_builder``). Beside the ``zh/`` and
``en/`` folders it writes ``MANIFEST.tsv`` (package, version, file in the
package, licence from the package's copyright file, characters) and copies
every copyright file to ``LICENSES/``.

Chinese documents keep only Simplified sources: the zh_TW man pages and
Debian Reference are conversions of the zh_CN ones and would plant copies.
A Chinese document needs a tenth of its non-space characters Han (the
Debian handbook's zh-CN pages are partly untranslated). Exact duplicate
documents are written once.

    python scripts/bench_corpus.py [OUT]      # default: ~/.cache/partialdup/bench-corpus
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))

from goldenset_builder.docs import stem_of  # noqa: E402
from goldenset_builder.html_text import blocks_text, html_blocks, split_blocks  # noqa: E402
from goldenset_builder.sources import FORTUNE_FILL, render_man  # noqa: E402
from goldenset_builder.text import clean_text  # noqa: E402
from goldenset_builder.unwrap import drop_tables, unwrap  # noqa: E402

__all__ = ["SOURCES", "Source", "build_corpus", "default_corpus_dir", "licence_of", "main"]

MIN_CHARS = 40             # shorter documents (empty stubs, one-line pages) are left out
ZH_MIN_HAN_SHARE = 0.10    # Han share of a Chinese document's non-space characters
MAX_PIECE = 30000          # sections longer than this are cut at their sub-headings
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# Sphinx pages (Python docs) repeat their sidebar and navigation after the body.
_SPHINX_STOPS = ("Table of Contents", "Previous topic", "Next topic", "This Page", "Navigation")
# LibreOffice help pages end with a debug footer.
_LO_STOPS = ("Help content debug info",)


@dataclass(frozen=True)
class Source:
    """One kind of document of one package.

    Attributes:
        lang: ``"zh"`` or ``"en"``.
        package: Debian package name.
        kind: ``"html"``, ``"man"`` or ``"fortune"``.
        patterns: Globs relative to the unpacked package root.
        stops: For HTML: the body runs from the first ``h1`` to the first block
            starting with one of these (navigation, footers); empty: whole page.
        level: For HTML: heading kind at which a page is cut into documents.
    """

    lang: str
    package: str
    kind: str
    patterns: tuple[str, ...]
    stops: tuple[str, ...] = ()
    level: str = "h2"


_PY = "usr/share/doc/python3.11/html"
# The prose parts of the Python documentation, and the library reference's
# modules a to d: enough for 10 MB of English with the other sources.
_PY_PARTS = tuple(f"{part}/*" for part in ("tutorial", "howto", "faq", "reference", "whatsnew", "c-api",
                                            "extending", "distutils", "installing", "using")) + ("library/[a-d]*",)
SOURCES: tuple[Source, ...] = (
    Source("zh", "fortunes-zh", "fortune", ("usr/share/games/fortunes/chinese",
                                            "usr/share/games/fortunes/tang300",
                                            "usr/share/games/fortunes/song100")),
    Source("zh", "manpages-zh", "man", ("usr/share/man/zh_CN/man*/*.gz",)),
    Source("zh", "debian-handbook", "html", ("usr/share/doc/debian-handbook/html/zh-CN/*.html",), level="h1"),
    Source("zh", "debian-reference-zh-cn", "html", ("usr/share/debian-reference/*.zh-cn.html",)),
    Source("zh", "installation-guide-amd64", "html", ("usr/share/doc/installation-guide-amd64/zh_CN/*.html",)),
    Source("zh", "maint-guide-zh-cn", "html", ("usr/share/doc/maint-guide-zh-cn/html/*.html",)),
    Source("zh", "debian-faq-zh-cn", "html", ("usr/share/doc/debian/FAQ/zh-cn/*.html",)),
    Source("zh", "debian-edu-doc-zh-cn", "html",
           ("usr/share/doc/debian-edu-doc-zh-cn/debian-edu-bookworm-manual.html",)),
    Source("zh", "kicad-doc-zh", "html", ("usr/share/doc/kicad/help/zh/*.html",)),
    Source("zh", "libreoffice-help-zh-cn", "html", ("usr/share/libreoffice/help/zh-CN/text/**/*.html",),
           stops=_LO_STOPS),
    Source("en", "debian-handbook", "html", ("usr/share/doc/debian-handbook/html/en-US/*.html",), level="h1"),
    Source("en", "debian-reference-en", "html", ("usr/share/debian-reference/*.en.html",)),
    Source("en", "installation-guide-amd64", "html", ("usr/share/doc/installation-guide-amd64/en/*.html",)),
    Source("en", "debian-edu-doc-en", "html", ("usr/share/doc/debian-edu-doc-en/debian-edu-bookworm-manual.html",)),
    Source("en", "libreoffice-help-en-us", "html", ("usr/share/libreoffice/help/en-US/text/**/*.html",),
           stops=_LO_STOPS),
    Source("en", "python3.11-doc", "html", tuple(f"{_PY}/{part}.html" for part in _PY_PARTS), stops=_SPHINX_STOPS),
)


def default_corpus_dir() -> Path:
    """``$XDG_CACHE_HOME/partialdup/bench-corpus`` (``~/.cache`` by default)."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "partialdup" / "bench-corpus"


def fetch(package: str, root: Path) -> tuple[Path, str]:
    """Download a package's .deb (once) and unpack it.

    Returns:
        The unpacked tree and the package version.
    """
    debs = root / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    found = sorted(debs.glob(f"{package}_*.deb"))
    if not found:
        r = subprocess.run(["apt-get", "download", package], cwd=debs, capture_output=True, text=True)
        found = sorted(debs.glob(f"{package}_*.deb"))
        if r.returncode != 0 or not found:
            sys.exit(f"bench_corpus: apt-get download {package} failed: {r.stderr.strip()[-300:]}")
    deb = found[-1]
    version = subprocess.run(["dpkg-deb", "-f", str(deb), "Version"], capture_output=True,
                             text=True, check=True).stdout.strip()
    tree = root / "pkgs" / package
    if not (tree / ".unpacked").exists():
        tree.mkdir(parents=True, exist_ok=True)
        subprocess.run(["dpkg-deb", "-x", str(deb), str(tree)], check=True)
        (tree / ".unpacked").write_text(version + "\n")
    return tree, version


def licence_of(copyright_text: str) -> str:
    """The licence named by a Debian copyright file.

    For a machine-readable (DEP-5) file: the ``License:`` of its ``Files: *``
    paragraph (else its first ``License:``); for a free-form file: the first
    well-known licence name it mentions.
    """
    if copyright_text.startswith("Format:"):
        for paragraph in re.split(r"\n\s*\n", copyright_text):
            if re.search(r"^Files:\s*\*\s*$", paragraph, re.M):
                m = re.search(r"^License:\s*(.+)$", paragraph, re.M)
                if m:
                    return m.group(1).strip()
        m = re.search(r"^License:\s*(.+)$", copyright_text, re.M)
        if m:
            return m.group(1).strip()
    for name, pattern in (("PSF-2", r"PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2"),
                          ("GPL-2", r"GNU GPL, version 2"),
                          ("verbatim copying and translation permitted (SPI notice)",
                           r"Permission is granted to make and distribute verbatim copies"),
                          ("GPL-2+", r"GNU General Public License.{0,80}version 2"),
                          ("MPL-2.0", r"Mozilla Public License.{0,20}2\.0"),
                          ("PSF-2", r"Python Software Foundation License"), ("GFDL", r"Free Documentation License"),
                          ("GPL", r"General Public License")):
        if re.search(pattern, copyright_text, re.S):
            return name
    return "see LICENSES/"


def _body(blocks: list, stops: tuple[str, ...]) -> list:
    """Blocks from the first h1 up to the first block starting with a stop mark."""
    if not stops:
        return blocks
    first = next((i for i, (kind, _) in enumerate(blocks) if kind == "h1"), 0)
    body = []
    for block in blocks[first:]:
        if block[1].startswith(stops):
            break
        body.append(block)
    return body


def _html_docs(source: Source, path: Path) -> Iterator[tuple[str, str]]:
    blocks = _body(html_blocks(str(path)), source.stops)
    for idx, k, part in split_blocks(blocks, level=source.level, cap=MAX_PIECE, sub="h3"):
        yield f"p{idx:03d}{k}", blocks_text(part)


def _man_docs(source: Source, path: Path) -> Iterator[tuple[str, str]]:
    if not path.is_symlink():
        text = render_man(str(path))
        if text:
            yield "", text


def _fortune_docs(source: Source, path: Path) -> Iterator[tuple[str, str]]:
    raw = path.read_text(encoding="utf-8", errors="replace")
    for k, item in enumerate(raw.split("\n%\n")):
        # Fortunes are wrapped at 72 columns, ANSI-coloured, some box-drawn tables.
        text = unwrap(drop_tables(_ANSI.sub("", item)), fill=FORTUNE_FILL)
        yield f"{k:05d}", clean_text(text)


_READERS: dict[str, Callable[[Source, Path], Iterator[tuple[str, str]]]] = {
    "html": _html_docs, "man": _man_docs, "fortune": _fortune_docs}


def _keep(lang: str, text: str) -> bool:
    if len(text) < MIN_CHARS:
        return False
    if lang != "zh":
        return True
    solid = sum(1 for ch in text if not ch.isspace())
    return len(_HAN.findall(text)) >= ZH_MIN_HAN_SHARE * solid


def _source_docs(source: Source, tree: Path) -> Iterator[tuple[str, str, str]]:
    """(file stem, path in the package, text) of each document of a source."""
    # File stems name the path below the folder the patterns share, so that
    # equal file names in two folders (LibreOffice help) stay apart.
    base = os.path.commonpath([p.split("*")[0].rsplit("/", 1)[0] for p in source.patterns])
    paths = sorted({p for pattern in source.patterns for p in glob.glob(str(tree / pattern), recursive=True)})
    for name in paths:
        rel = os.path.relpath(name, tree)
        for piece, text in _READERS[source.kind](source, Path(name)):
            yield stem_of(source.package, os.path.relpath(rel, base), piece), rel, text


def build_corpus(out: Path, log: Callable[[str], None] = print) -> list[dict]:
    """Write the corpus under ``out`` (zh/, en/, MANIFEST.tsv, LICENSES/).

    Returns:
        The manifest rows.
    """
    rows, seen = [], set()
    for lang in ("zh", "en"):
        (out / lang).mkdir(parents=True, exist_ok=True)
        for stale in (out / lang).glob("*.txt"):
            stale.unlink()
    (out / "LICENSES").mkdir(parents=True, exist_ok=True)
    for source in SOURCES:
        tree, version = fetch(source.package, out)
        copyright_text = (tree / "usr/share/doc" / source.package / "copyright").read_text(
            encoding="utf-8", errors="replace")
        (out / "LICENSES" / f"{source.package}.copyright").write_text(copyright_text, encoding="utf-8")
        licence = licence_of(copyright_text)
        kept = dropped = 0
        for stem, rel, text in _source_docs(source, tree):
            digest = hashlib.sha256(text.encode("utf-8")).digest()
            if not _keep(source.lang, text) or digest in seen:
                dropped += 1
                continue
            seen.add(digest)
            name = f"{source.lang}/{stem}.txt"
            (out / name).write_text(text, encoding="utf-8")
            rows.append(dict(lang=source.lang, file=name, package=source.package, version=version,
                             path=rel, licence=licence, chars=len(text)))
            kept += 1
        log(f"{source.lang} {source.package} {version}: {kept} documents ({dropped} left out)")
    _write_manifest(out / "MANIFEST.tsv", rows)
    return rows


def _write_manifest(path: Path, rows: list[dict]) -> None:
    columns = ("lang", "file", "package", "version", "path", "licence", "chars")
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        handle.write("\t".join(columns) + "\n")
        for row in rows:
            handle.write("\t".join(str(row[c]) for c in columns) + "\n")
    os.replace(tmp, path)


def summary(rows: list[dict]) -> str:
    """A Markdown table: package, version, licence, documents, characters, MB, per language."""
    table: dict[tuple[str, str], dict] = {}
    for row in rows:
        entry = table.setdefault((row["lang"], row["package"]), dict(version=row["version"],
                                                                     licence=row["licence"], docs=0, chars=0))
        entry["docs"] += 1
        entry["chars"] += row["chars"]
    lines = ["| lang | package | version | licence | documents | characters |",
             "|---|---|---|---|---:|---:|"]
    for (lang, package), e in table.items():
        lines.append(f"| {lang} | {package} | {e['version']} | {e['licence']} | {e['docs']:,} | {e['chars']:,} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=default_corpus_dir(),
                        help="corpus folder (default: %(default)s)")
    args = parser.parse_args(argv)
    rows = build_corpus(args.out)
    for lang in ("zh", "en"):
        size = sum((args.out / r["file"]).stat().st_size for r in rows if r["lang"] == lang)
        print(f"{lang}: {sum(1 for r in rows if r['lang'] == lang):,} documents, {size / 1e6:.1f} MB")
    print(summary(rows))


if __name__ == "__main__":
    main()
