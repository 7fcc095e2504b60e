"""samples/: a few real document pairs for trying the detector, with a README and licences."""
from __future__ import annotations

import os

from .align import natural_align
from .corpus import Corpus, sentence_keys
from .natural import n_pairs, same_chapter_sections
from .packages import read_copyright
from .sources import Sources
from .write import lines_after, render, write_file

__all__ = ["SAMPLE_MAN", "choose_samples", "make_samples"]

SAMPLE_MAN = ["ls.1", "cp.1", "chmod.1", "mkdir.1", "rm.1", "mv.1"]
N_SAMPLE_MAN = 3
SAMPLE_MAX = 40000   # characters: samples stay small enough to read


def _clear(d: str) -> None:
    """Remove the files (not sub-folders) of an existing samples folder."""
    if os.path.isdir(d):
        for fn in os.listdir(d):
            p = os.path.join(d, fn)
            if os.path.isfile(p):
                os.remove(p)
    os.makedirs(d, exist_ok=True)


def _man_samples(man: dict, files: list, expect: list) -> None:
    for n in [n for n in SAMPLE_MAN if n in man][:N_SAMPLE_MAN]:
        tw, cn = man[n]["zh_TW"], man[n]["zh_CN"]
        spans, _, _ = natural_align(tw["text"], cn["text"])
        files += [(f"man_{n}.zh_CN.txt", cn), (f"man_{n}.zh_TW.txt", tw)]
        expect.append((f"man_{n}.zh_TW.txt", f"man_{n}.zh_CN.txt", spans,
                       f"zh_TW `{n}` man page is a Traditional-script conversion of the zh_CN one"))


def _fortune_sample(src: Sources, files: list, expect: list) -> None:
    """The fortune chapter and Debian Reference section with the most copied sentences."""
    best = None
    for fd in src.fortunes:
        for dd in same_chapter_sections(fd, src.debref):
            if len(dd["text"]) > SAMPLE_MAX or len(fd["text"]) > SAMPLE_MAX:
                continue
            spans, _, _ = natural_align(fd["text"], dd["text"])
            if best is None or n_pairs(spans) > best[0]:
                best = (n_pairs(spans), fd, dd, spans)
    if best:
        _, fd, dd, spans = best
        files += [(f"debian-reference.{dd['stem']}.txt", dd), (f"fortunes-zh.{fd['stem']}.txt", fd)]
        expect.append((f"fortunes-zh.{fd['stem']}.txt", f"debian-reference.{dd['stem']}.txt", spans,
                       "fortunes-zh quotes Debian Reference 2.73; the excerpt is the 2.100 section"))


def _gpl_sample(src: Sources, files: list, expect: list) -> None:
    en = src.gpl_susp[0]
    spans, _, _ = natural_align(en["text"], src.gpl_src["text"])
    files += [("GPL-2.txt", src.gpl_src), ("installation-guide.appendix-F.en.txt", en)]
    expect.append(("installation-guide.appendix-F.en.txt", "GPL-2.txt", spans,
                   "the installation guide's appendix F reproduces the GNU GPL version 2"))


def choose_samples(src: Sources) -> tuple:
    """The sample files and the copies expected between them.

    Args:
        src: The collected documents.

    Returns:
        (files, expect): files is [(file name, doc)], expect is
        [(susp name, src name, spans, why)].
    """
    files: list = []
    expect: list = []
    _man_samples(src.man, files, expect)
    _fortune_sample(src, files, expect)
    _gpl_sample(src, files, expect)
    return files, expect


def _other_pairs(files, expect, corpus: Corpus) -> list:
    """README lines for pairs of files not expected to share sentences that do."""
    exp = {(a, b) for a, b, _, _ in expect} | {(b, a) for a, b, _, _ in expect}
    keys = {name: {k for k, _, _ in sentence_keys(doc["text"])} for name, doc in files}
    other = []
    for i, (na, _) in enumerate(files):
        for nb, _ in files[i + 1:]:
            shared = sorted(keys[na] & keys[nb])
            if (na, nb) in exp or not shared:
                continue
            n_boiler = sum(1 for k in shared if corpus.boiler(k))
            others = "" if n_boiler == len(shared) else ": the others are " + ", ".join(
                f"`{k}`" for k in shared if not corpus.boiler(k))
            other.append(render("samples_shared_pair.md", a=na, b=nb, n_shared=len(shared),
                                n_boiler=n_boiler, others=others).rstrip("\n"))
    return other


def _readme(files, expect, vers: dict, corpus: Corpus) -> str:
    rows = [f"| `{name}` | {doc['pkg']} {vers.get(doc['pkg'], '')}: `{doc['path']}` ({doc['how']}) |"
            for name, doc in files]
    copies = [f"* `{a}` ← `{b}`: {n_pairs(spans)} copied sentences in {len(spans)} span(s) — {why}."
              for a, b, spans, why in expect]
    return render("samples_README.md", file_rows=lines_after(rows), expected=lines_after(copies),
                  other_pairs=lines_after(_other_pairs(files, expect, corpus) or ["* none"]))


def _licence(files, vers: dict) -> str:
    provenance = [f"* `{name}`: Debian package {doc['pkg']} {vers.get(doc['pkg'], '')}, "
                  f"`{doc['path']}`, converted to text ({doc['how']})." for name, doc in files]
    copyrights = [f"## {p} {vers.get(p, '')} — /usr/share/doc/{p}/copyright\n\n```\n"
                  f"{read_copyright(p).rstrip()}\n```"
                  for p in sorted({doc["pkg"] for _, doc in files})]
    return render("samples_LICENSE.md", provenance=lines_after(provenance),
                  copyrights="\n\n".join(copyrights))


def make_samples(d: str, src: Sources, vers: dict, corpus: Corpus) -> None:
    """Write the samples folder: documents, README.md and LICENSE.md.

    Args:
        d: Target folder; its files are replaced.
        src: The collected documents.
        vers: Package versions.
        corpus: The collection (boilerplate of shared sentences).
    """
    _clear(d)
    files, expect = choose_samples(src)
    for name, doc in files:
        write_file(os.path.join(d, name), doc["text"])
    write_file(os.path.join(d, "README.md"), _readme(files, expect, vers, corpus))
    write_file(os.path.join(d, "LICENSE.md"), _licence(files, vers))
