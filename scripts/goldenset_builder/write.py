"""Writing files: the PAN layout (src/, susp/, pairs, truth/), sentence_pairs.jsonl,
licences, and the templates the README files are filled from.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from .labels import GoldSet
from .packages import REQUIRED_PACKAGES, TOOL_PACKAGES, read_copyright

__all__ = ["copy_licences", "copy_slice", "feature_xml", "lines_after", "render", "write_file", "write_set"]

TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"


def render(name: str, **fields) -> str:
    """Fill a template of ``templates/`` with :meth:`str.format`.

    Literal braces are written doubled in the template files.

    Args:
        name: Template file name, e.g. ``"goldenset_README.md"``.
        **fields: Values of its ``{placeholders}``.

    Returns:
        The filled text.
    """
    return (TEMPLATE_DIR / name).read_text(encoding="utf-8").format(**fields)


def lines_after(lines) -> str:
    """Lines for a template slot that stands right after the line before the list.

    Each line is preceded by a newline, so an empty list adds nothing
    (no blank line) where the template has the slot.

    Args:
        lines: Lines of text.

    Returns:
        ``"\\nLINE1\\nLINE2..."``.
    """
    return "".join("\n" + ln for ln in lines)


def write_file(path: str, text: str) -> None:
    """Write UTF-8 text with ``\\n`` line ends, creating the folder.

    Args:
        path: File to write.
        text: Its content.
    """
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def feature_xml(susp: str, src: str, feats) -> str:
    """PAN truth XML of one pair.

    Args:
        susp: Suspicious document stem.
        src: Source document stem.
        feats: Its features (none for a negative).

    Returns:
        The XML document, features sorted by suspicious offset.
    """
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<document reference="{susp}.txt">']
    for f in sorted(feats, key=lambda f: f["this"]):
        a, b = f["this"]
        c, d = f["source"]
        level = f' obfuscation_level="{f["level"]:g}"' if f.get("level") is not None else ""
        lines.append(f'<feature name="plagiarism" obfuscation="{f["obf"]}"{level} this_offset="{a}" '
                     f'this_length="{b - a}" source_reference="{src}.txt" source_offset="{c}" '
                     f'source_length="{d - c}"/>')
    lines.append("</document>")
    return "\n".join(lines) + "\n"


def _fresh_dirs(out_dir: str) -> None:
    # Old documents of an earlier build must not stay behind.
    for sub in ("src", "susp", "truth"):
        p = os.path.join(out_dir, sub)
        if os.path.isdir(p):
            shutil.rmtree(p)
        os.makedirs(p)


def _sentence_pairs_jsonl(gold: GoldSet, pairs) -> str:
    pset = set(pairs)
    lines = []
    for sp in sorted(gold.sent_pairs, key=lambda x: (x["susp"], x["src"], x["susp_start"], x["src_start"])):
        if (sp["susp"][:-4], sp["src"][:-4]) in pset:
            lines.append(json.dumps(sp, ensure_ascii=False) + "\n")
    return "".join(lines)


def write_set(out_dir: str, gold: GoldSet, only=None) -> list:
    """Write a gold set in the PAN text-alignment layout.

    Args:
        out_dir: Target folder; its src/, susp/ and truth/ are replaced.
        gold: The set.
        only: The pairs to write (a subset), or None for all.

    Returns:
        The pairs written, sorted.
    """
    _fresh_dirs(out_dir)
    pairs = gold.pairs() if only is None else sorted(only)
    for s in sorted({s for s, _ in pairs}):
        write_file(os.path.join(out_dir, "susp", s + ".txt"), gold.susp_docs[s]["text"])
    for r in sorted({r for _, r in pairs}):
        write_file(os.path.join(out_dir, "src", r + ".txt"), gold.src_docs[r]["text"])
    write_file(os.path.join(out_dir, "pairs"), "".join(f"{s}.txt {r}.txt\n" for s, r in pairs))
    for s, r in pairs:
        write_file(os.path.join(out_dir, "truth", f"{s}-{r}.xml"),
                   feature_xml(s, r, gold.features.get((s, r), [])))
    write_file(os.path.join(out_dir, "sentence_pairs.jsonl"), _sentence_pairs_jsonl(gold, pairs))
    return pairs


def copy_licences(d: str) -> None:
    """Copy the copyright file of every package whose text is in the set.

    Args:
        d: Target folder (replaced); files are named ``PACKAGE.copyright``.
    """
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    for p in sorted(set(REQUIRED_PACKAGES) - set(TOOL_PACKAGES)):
        write_file(os.path.join(d, p + ".copyright"), read_copyright(p))


def copy_slice(slice_dir: str, target: str) -> None:
    """Copy a built slice (layout and README) to ``target``, replacing it.

    Args:
        slice_dir: ``OUT/slice``.
        target: The folder to write, e.g. ``goldenset/edits/r0.2``.
    """
    if os.path.isdir(target):
        shutil.rmtree(target)
    shutil.copytree(slice_dir, target)
