"""Write ``partialdup/text/data/opencc/``: OpenCC's ``s2twp`` with its groups merged, 12 MB of a process instead of 43.

The tokenizer gives each Chinese word one form for Taiwan and mainland usage
with OpenCC's ``s2twp`` (then ``tw2sp``). Loaded from its stock configuration,
``s2twp`` takes 43 MB of every process that tokenizes Chinese: each *group* of
dictionaries in it (the phrases' ``union`` of ``STPhrases`` and
``STPhrases_GeneratedFromRegionalPhrases``, once for the segmentation and once
inside the first conversion's ``short_circuit`` group with ``STCharacters``)
is built into a lexicon of its own, about 20 MB each, where one ``.ocd2`` file
is a memory-mapped trie of about 6 MB. This script writes the same conversion
with those groups as single files:

* ``st_phrases.ocd2``: the union of the phrase dictionaries, for the
  segmentation (a key in both keeps the first dictionary's values: the
  union's first match; today the two share two keys, with the same values);
* ``st_phrases_characters.ocd2``: those phrases and ``STCharacters``, for the
  first conversion. The group was ``short_circuit`` (the first dictionary
  with any match at a place wins), and the one file takes the longest match:
  the same, because every character key is one character long and every
  phrase key at least two, so a phrase match is always the longer (checked);
* the other dictionaries the configuration names, copied, and ``s2twp.json``.

Every file name carries the ``partialdup_`` prefix: OpenCC looks a dictionary
up in the working folder before the configuration's own, and a stray
``TWPhrases.ocd2`` there must not replace ours. The tests check the result
against the stock ``s2twp`` on every word of jieba's dictionary and on random
phrases. Needs OpenCC's ``opencc_dict`` tool (in the ``opencc`` wheel).

    python scripts/build_opencc_s2twp.py
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

import opencc

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "partialdup" / "text" / "data" / "opencc"
PREFIX = "partialdup_"


def opencc_paths() -> tuple[Path, Path]:
    """OpenCC's data folder and its ``opencc_dict`` tool, from the installed wheel."""
    package = Path(opencc.__file__).resolve().parent
    share, tool = package / "clib" / "share" / "opencc", package / "clib" / "bin" / "opencc_dict"
    found = shutil.which("opencc_dict")
    if not tool.exists() and found:
        tool = Path(found)
    if not (share / "s2twp.json").exists() or not tool.exists():
        raise SystemExit(f"build_opencc_s2twp: OpenCC's data ({share}) or opencc_dict ({tool}) not found")
    return share, tool


def read_entries(tool: Path, dictionary: Path, work: Path) -> dict[str, str]:
    """``key -> values`` (space-separated, as OpenCC writes them) of an ``.ocd2`` file."""
    text = work / (dictionary.stem + ".txt")
    subprocess.run([str(tool), "-i", str(dictionary), "-o", str(text), "-f", "ocd2", "-t", "text"], check=True)
    entries: dict[str, str] = {}
    for line in text.read_text(encoding="utf-8").splitlines():
        key, _, values = line.partition("\t")
        entries.setdefault(key, values)
    return entries


def write_ocd2(tool: Path, entries: dict[str, str], out: Path, work: Path) -> None:
    """Write ``entries`` as an ``.ocd2`` file (keys in UTF-8 byte order, as OpenCC sorts them)."""
    text = work / (out.stem + ".txt")
    ordered = sorted(entries, key=lambda key: key.encode("utf-8"))
    text.write_text("".join(f"{key}\t{entries[key]}\n" for key in ordered), encoding="utf-8")
    subprocess.run([str(tool), "-i", str(text), "-o", str(out), "-f", "text", "-t", "ocd2"], check=True)


def ocd2(name: str) -> dict[str, str]:
    """A configuration's entry for the ``.ocd2`` file ``name``."""
    return {"type": "ocd2", "file": name}


def union_files(group: dict[str, Any]) -> list[str]:
    """The files of a ``union`` group of ``.ocd2`` dictionaries (else an error: the stock layout changed)."""
    members = group.get("dicts", [])
    if group.get("type") != "group" or group.get("match_policy") != "union" or not members:
        raise SystemExit(f"build_opencc_s2twp: expected a union group, found {group}")
    if any(member.get("type") != "ocd2" for member in members):
        raise SystemExit(f"build_opencc_s2twp: expected .ocd2 members, found {group}")
    return [member["file"] for member in members]


def merged(share: Path, tool: Path, files: list[str], work: Path) -> dict[str, str]:
    """The entries of ``files``, a key in several keeping the first file's values."""
    entries: dict[str, str] = {}
    for name in files:
        for key, values in read_entries(tool, share / name, work).items():
            entries.setdefault(key, values)
    return entries


def build(out: Path) -> list[Path]:
    """Write the files; the written paths."""
    share, tool = opencc_paths()
    config = json.loads((share / "s2twp.json").read_text(encoding="utf-8"))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        phrase_files = union_files(config["segmentation"]["dict"])
        first = config["conversion_chain"][0]["dict"]
        phrases_group, characters = first["dicts"]
        if first.get("match_policy") != "short_circuit" or union_files(phrases_group) != phrase_files:
            raise SystemExit(f"build_opencc_s2twp: unexpected first conversion {first}")
        phrases = merged(share, tool, phrase_files, work)
        letters = read_entries(tool, share / characters["file"], work)
        if min(map(len, phrases)) < 2 or max(map(len, letters)) != 1:
            raise SystemExit("build_opencc_s2twp: phrase keys shorter than two characters, or longer character keys")
        words = {**letters, **phrases}
        for name, entries in ((f"{PREFIX}st_phrases.ocd2", phrases), (f"{PREFIX}st_phrases_characters.ocd2", words)):
            write_ocd2(tool, entries, out / name, work)
            written.append(out / name)
        config["segmentation"]["dict"] = ocd2(f"{PREFIX}st_phrases.ocd2")
        config["conversion_chain"][0]["dict"] = ocd2(f"{PREFIX}st_phrases_characters.ocd2")
    written += copy_named(config, share, out)
    config["name"] += " (partialdup: each group of the phrases one dictionary)"
    path = out / "s2twp.json"
    path.write_text(json.dumps(config, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return [path, *written]


def copy_named(node: Any, share: Path, out: Path) -> list[Path]:
    """Copy every stock dictionary ``node`` names (prefixed), renaming it in ``node``."""
    copied = []
    if isinstance(node, dict):
        name = node.get("file")
        if isinstance(name, str) and not name.startswith(PREFIX):
            node["file"] = PREFIX + name
            shutil.copyfile(share / name, out / node["file"])
            copied.append(out / node["file"])
        for value in node.values():
            copied += copy_named(value, share, out)
    elif isinstance(node, list):
        for value in node:
            copied += copy_named(value, share, out)
    return copied


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    paths = build(args.output)
    lines = [
        f"Made by scripts/build_opencc_s2twp.py from OpenCC {metadata.version('opencc')} (Apache-2.0,",
        "https://github.com/BYVoid/OpenCC): its s2twp configuration and dictionaries, the groups",
        "of phrase dictionaries merged into single files (see the script). sha256 of each file:",
        "",
        *(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}" for path in sorted(paths)),
    ]
    (args.output / "PROVENANCE.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(paths)} files written to {args.output}")


if __name__ == "__main__":
    main()
