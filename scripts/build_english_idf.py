"""Build idf/en.tsv from real English documents shipped by Debian packages.

Documents: every page of the Linux man-pages project (package ``manpages``,
rendered with groff), every en-US page of ``debian-handbook`` and every
chapter of ``debian-reference-en``. One page or chapter is one document. The
texts are only read here; the repository keeps just the resulting IDF values.

    apt-get install -y manpages debian-handbook debian-reference-en groff-base
    python scripts/build_english_idf.py -o idf/en.tsv
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

from partialdup.cli import main as partialdup_main

PACKAGES = ("manpages", "debian-handbook", "debian-reference-en")


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
    return rendered.stdout.decode("utf-8", errors="replace")


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
