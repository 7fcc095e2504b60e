#!/usr/bin/env python3
"""Train NLTK Punkt parameters for English and write ``partialdup/data/punkt_en.json``.

The training text comes only from Debian packages installed on this machine,
so the result is reproducible offline (nothing is downloaded):

* ``debian-reference-en``: ``/usr/share/debian-reference/debian-reference.en.txt.gz``
* ``debian-handbook``: ``/usr/share/doc/debian-handbook/html/en-US/*.html``
  (the text of every paragraph element, each distinct paragraph once)
* ``bible-kjv`` + ``bible-kjv-text``: the King James Version as printed by
  ``bible -l0 gen1:1-rev22:21`` (verse numbers removed)

``wamerican`` provides ``/usr/share/dict/words``, used only to drop learned
"abbreviations" that are ordinary English words.

Install them with::

    apt-get install debian-reference-en debian-handbook bible-kjv bible-kjv-text wamerican

and run::

    python3 scripts/train_punkt.py

Training uses ``PunktTrainer`` with its default settings. The output is
deterministic: every set is written as a sorted list. A short, documented list
of common abbreviations (:data:`EXTRA_ABBREVIATIONS`) is added to the learned
ones, because a corpus of technical documentation and scripture does not
contain enough "Mr.", "Fig." or "vs." for Punkt to learn them.
"""

from __future__ import annotations

import argparse
import gzip
import html.parser
import json
import re
import subprocess
import sys
from pathlib import Path

from nltk.tokenize.punkt import PunktParameters, PunktTrainer

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "partialdup" / "data" / "punkt_en.json"

DEBIAN_REFERENCE = Path("/usr/share/debian-reference/debian-reference.en.txt.gz")
HANDBOOK_DIR = Path("/usr/share/doc/debian-handbook/html/en-US")
KJV_RANGE = "gen1:1-rev22:21"
WORD_LIST = Path("/usr/share/dict/words")  # package wamerican

#: Abbreviations added to whatever Punkt learned (lower case, final period
#: removed, as Punkt stores them). Chosen because they are frequent in general
#: English prose and must not end a sentence; most are rare in the corpus.
EXTRA_ABBREVIATIONS: tuple[str, ...] = (
    "al",  # et al.
    "approx",
    "apr",
    "aug",
    "ca",
    "capt",
    "cf",
    "ch",
    "co",
    "col",
    "corp",
    "dec",
    "dept",
    "dr",
    "e.g",
    "ed",
    "eds",
    "eq",
    "esp",
    "est",
    "etc",
    "feb",
    "fig",
    "figs",
    "gen",
    "gov",
    "i.e",
    "inc",
    "jan",
    "jr",
    "jul",
    "jun",
    "lt",
    "ltd",
    "mr",
    "mrs",
    "ms",
    "mt",
    "no",
    "nos",
    "nov",
    "oct",
    "p",
    "pp",
    "prof",
    "ref",
    "rev",
    "sec",
    "sep",
    "sept",
    "sr",
    "st",
    "u.k",
    "u.s",
    "viz",
    "vol",
    "vols",
    "vs",
)


#: Frequent sentence-initial words added to the learned sentence starters.
#: Punkt cuts after an abbreviation ("etc. The ...") only if the next word is a
#: known sentence starter or its orthographic statistics say so; in this
#: corpus headings and table cells ("1.1. The console") make these words look
#: capitalised mid-sentence, so Punkt would never cut before them.
EXTRA_SENT_STARTERS: tuple[str, ...] = (
    "a", "all", "an", "as", "at", "but", "each", "for", "he", "her", "his",
    "however", "i", "in", "it", "its", "many", "most", "my", "on", "our",
    "she", "some", "that", "the", "their", "then", "there", "these", "they",
    "this", "those", "we", "what", "when", "where", "why", "you",
)


class _ParagraphExtractor(html.parser.HTMLParser):
    """Collects the text of paragraphs: ``<p>`` and ``<div class="para">`` elements.

    The handbook (Publican output) marks paragraphs as ``<div class="para">``.
    Nested elements of the same tag are counted so that the paragraph ends at
    its own closing tag.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self._tag: str | None = None  # tag name of the open paragraph
        self._depth = 0  # open elements named self._tag inside it, itself included
        self._parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._tag is None:
            classes = (dict(attrs).get("class") or "").split()
            if tag == "p" or "para" in classes:
                self._tag, self._depth = tag, 1
        elif tag == self._tag:
            self._depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag != self._tag:
            return
        self._depth -= 1
        if not self._depth:
            text = " ".join("".join(self._parts).split())
            if text:
                self.paragraphs.append(text)
            self._tag, self._parts = None, []

    def handle_data(self, data: str) -> None:
        if self._tag is not None:
            self._parts.append(data)


def debian_reference_text() -> str:
    """Returns the plain-text Debian Reference."""
    with gzip.open(DEBIAN_REFERENCE, "rt", encoding="utf-8") as f:
        return f.read()


def handbook_text() -> str:
    """Returns the distinct paragraphs of the Debian Handbook, in file order.

    Chapter pages repeat the text of their section pages, so each paragraph is
    kept once.
    """
    seen: set[str] = set()
    out: list[str] = []
    for page in sorted(HANDBOOK_DIR.glob("*.html")):
        parser = _ParagraphExtractor()
        parser.feed(page.read_text(encoding="utf-8"))
        for para in parser.paragraphs:
            if para not in seen:
                seen.add(para)
                out.append(para)
    return "\n\n".join(out)


def kjv_text() -> str:
    """Returns the KJV, one verse per line, without chapter titles or verse numbers."""
    raw = subprocess.run(
        ["bible", "-l0", KJV_RANGE], check=True, capture_output=True, text=True
    ).stdout
    verses = re.findall(r"^\s*\d+ (.+)$", raw, flags=re.MULTILINE)
    return "\n".join(verses)


def train(texts: list[str]) -> PunktParameters:
    """Trains Punkt on the texts, one after the other, and returns the parameters."""
    trainer = PunktTrainer()
    # Mikheev's rare-abbreviation rule marks any word seen fewer than
    # ABBREV_BACKOFF times before a period as an abbreviation; on this corpus
    # that turns ordinary words ("crew.", "maw.") into abbreviations, which
    # would hide real sentence ends. Only the statistical test is used.
    trainer.ABBREV_BACKOFF = 0
    for text in texts:
        trainer.train(text, finalize=False)
    trainer.finalize_training()
    return trainer.get_params()


#: What a learned abbreviation may look like: letters, optionally with inner
#: periods ("e.g", "r.o.c"). Learned types with digits or symbols ("2gb",
#: "a.1", "cdpath=") are artefacts of technical text and are dropped.
_ABBREV_SHAPE = re.compile(r"[a-z]+(?:\.[a-z]+)*")


def dictionary_words() -> set[str]:
    """Returns the lower-cased words of the system word list."""
    with WORD_LIST.open(encoding="utf-8") as f:
        return {line.strip().lower() for line in f}


def to_json(
    params: PunktParameters,
    extra: tuple[str, ...],
    words: set[str],
    extra_starters: tuple[str, ...] = EXTRA_SENT_STARTERS,
) -> dict[str, object]:
    """Converts the parameters to a JSON-ready dict with sorted lists.

    Learned abbreviations are filtered: a type must have the shape of an
    abbreviation, and must not be an ordinary dictionary word. Punkt flags
    words that were only ever seen sentence-final ("the cock crew.") as
    abbreviations, which would hide real sentence ends. The extra list is added
    after the filter, and so are the extra sentence starters.
    """
    learned = {
        a
        for a in params.abbrev_types
        if _ABBREV_SHAPE.fullmatch(a) and a not in words
    }
    return {
        "format": 1,
        "description": "NLTK Punkt parameters for English; see PUNKT_PROVENANCE.md",
        "abbrev_types": sorted(learned | set(extra)),
        "extra_abbrev_types": sorted(set(extra) - learned),
        "collocations": sorted([a, b] for a, b in params.collocations),
        "sent_starters": sorted(set(params.sent_starters) | set(extra_starters)),
        "extra_sent_starters": sorted(set(extra_starters) - set(params.sent_starters)),
        "ortho_context": sorted([k, v] for k, v in params.ortho_context.items() if v),
    }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)

    texts = [debian_reference_text(), handbook_text(), kjv_text()]
    print("training on", [len(t) for t in texts], "characters", file=sys.stderr)
    params = train(texts)
    data = to_json(params, EXTRA_ABBREVIATIONS, dictionary_words())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8", newline="\n") as f:
        json.dump(data, f, ensure_ascii=False, indent=0, sort_keys=True)
        f.write("\n")
    print(
        f"wrote {args.out}: {len(data['abbrev_types'])} abbreviations "
        f"({len(data['extra_abbrev_types'])} added), "
        f"{len(data['collocations'])} collocations, "
        f"{len(data['sent_starters'])} sentence starters, "
        f"{len(data['ortho_context'])} ortho contexts",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
