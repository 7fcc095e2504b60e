"""goldenset/README.md: counts of the finished set filled into ``templates/goldenset_README.md``."""
from __future__ import annotations

import os
from collections import Counter

from .labels import GoldSet
from .packages import APT_LINE
from .roles import PLANT_PLAN
from .sources import MAN_RENDER
from .text import sentences
from .verify import unlabelled_repeats
from .write import lines_after, render, write_file

__all__ = ["EDITS", "write_edits_readme", "write_readme"]

EDITS = ["verbatim", "light", "script", "natural"]


def _hosts_planned() -> str:
    zh, en = (sum(n for lg, _, _, n in PLANT_PLAN if lg == x) for x in ("zh", "en"))
    return f"{zh} Chinese, {en} English"


def _set_size(out_dir: str) -> int:
    """Bytes of every file of the set but README.md and results/ (slice/ included)."""
    total = 0
    for root, dirs, files in os.walk(out_dir):
        if root == out_dir:
            dirs[:] = [d for d in dirs if d != "results"]
        for fn in files:
            if root == out_dir and fn == "README.md":
                continue
            total += os.path.getsize(os.path.join(root, fn))
    return total


def _document_fields(gold: GoldSet, pairs) -> dict:
    used_s = sorted({s for s, _ in pairs})
    used_r = sorted({r for _, r in pairs})
    susp_lang = Counter(gold.susp_docs[s]["lang"] for s in used_s)
    src_lang = Counter(gold.src_docs[r]["lang"] for r in used_r)
    return dict(
        n_docs=len(used_s) + len(used_r), n_susp=len(used_s), n_src=len(used_r),
        zh_susp=susp_lang["zh"], zh_src=src_lang["zh"], en_susp=susp_lang["en"], en_src=src_lang["en"],
        n_sent_susp=sum(len(sentences(gold.susp_docs[s]["text"])) for s in used_s),
        n_sent_src=sum(len(sentences(gold.src_docs[r]["text"])) for r in used_r),
        n_zero=sum(1 for s in used_s if not any(p[0] == s for p in gold.features)))


def _pair_fields(gold: GoldSet, pairs) -> dict:
    n_planted = sum(1 for p in gold.features if p not in gold.natural_kind)
    n_hard = sum(1 for v in gold.negatives.values() if v == "hard")
    return dict(n_pairs=len(pairs), n_pos=len(gold.features), n_planted=n_planted,
                n_natural=len(gold.features) - n_planted, n_neg=len(gold.negatives),
                n_hard=n_hard, n_random=len(gold.negatives) - n_hard)


def _edit_fields(gold: GoldSet) -> dict:
    by_pairs = Counter(sp["edit"] for sp in gold.sent_pairs)
    by_spans = Counter(f["obf"] for feats in gold.features.values() for f in feats)
    rows = [f"| {e} | {by_pairs.get(e, 0)} | {by_spans.get(e, 0)} |" for e in EDITS]
    return dict(edit_rows=lines_after(rows), total_sent_pairs=len(gold.sent_pairs),
                total_spans=sum(by_spans.values()))


def _kind_rows(gold: GoldSet) -> str:
    """Table rows: natural kind, pairs, spans, sentence pairs."""
    counts: dict = {}
    for p, k in gold.natural_kind.items():
        c = counts.setdefault(k, [0, 0, 0])
        c[0] += 1
        c[1] += len(gold.features[p])
        c[2] += sum(1 for sp in gold.sent_pairs if (sp["susp"][:-4], sp["src"][:-4]) == p)
    return lines_after(f"| {k} | {c[0]} | {c[1]} | {c[2]} |" for k, c in sorted(counts.items()))


def _recall_lines(gold: GoldSet) -> str:
    lines = []
    for kind, (n, common) in unlabelled_repeats(gold).items():
        shown = ", ".join(f"`{x}`" + (f" ×{c}" if c > 1 else "") for x, c in common)
        lines.append(f"* {kind}: {n} (most often: {shown})")
    return lines_after(lines)


def write_readme(out_dir: str, gold: GoldSet, info: dict) -> None:
    """Write ``OUT/README.md``: sources, method, counts, review and recall check.

    Must run after every other file of the set is written: the README
    states the set's size in bytes.

    Args:
        out_dir: The gold set folder.
        gold: The finished set.
        info: ``seed``, ``vers``, ``pass_per_host``, ``n_man_nat``,
            ``fortune_pairs``, ``n_fortune_docs``.
    """
    pairs = gold.pairs()
    st = gold.stats
    fields = dict(
        seed=info["seed"], apt_line=APT_LINE, vers=info["vers"], hosts_planned=_hosts_planned(),
        man_render=MAN_RENDER.replace("|", "\\|"),
        man_compared=st["man_pages_compared"], man_conversion_like=st["man_conversion_like"],
        n_man_nat=info["n_man_nat"], n_fortune_docs=info["n_fortune_docs"],
        fortune_pairs=info["fortune_pairs"], hosts=st["hosts"], hosts_dropped=st["hosts_dropped"],
        pass_per_host=", ".join(f"{k}: {v}" for k, v in sorted(info["pass_per_host"].items())),
        size_mb=_set_size(out_dir) / 1e6, kind_rows=_kind_rows(gold), recall_lines=_recall_lines(gold),
        **_document_fields(gold, pairs), **_pair_fields(gold, pairs), **_edit_fields(gold))
    write_file(os.path.join(out_dir, "README.md"), render("goldenset_README.md", **fields))


def _random_fields(gold: GoldSet) -> dict:
    """Counts of the randomly obfuscated passages (see ``templates/edits_README.md``)."""
    from .edits import word_tokens, _is_word  # jieba loads only for these sets

    spans = [(s, f) for (s, _), feats in gold.features.items() for f in feats if f["obf"] == "random"]
    lang = Counter(gold.susp_docs[s]["lang"] for s, _ in spans)
    words: dict = {"zh": [], "en": []}
    unchanged = 0
    pairs = [sp for sp in gold.sent_pairs if sp["edit"] == "random"]
    for sp in pairs:
        s = gold.susp_docs[sp["susp"][:-4]]["text"][sp["susp_start"]:sp["susp_end"]]
        r = gold.src_docs[sp["src"][:-4]]["text"][sp["src_start"]:sp["src_end"]]
        unchanged += s == r
        words[gold.susp_docs[sp["susp"][:-4]]["lang"]].append(sum(1 for t in word_tokens(r) if _is_word(t)))
    natural = [sp for sp in gold.sent_pairs if sp["edit"] == "natural"]
    mean = lambda xs: f"{sum(xs) / len(xs):.1f}" if xs else "-"  # noqa: E731
    return dict(random_spans=len(spans), random_zh=lang["zh"], random_en=lang["en"], random_pairs=len(pairs),
                random_unchanged=unchanged, words_zh=mean(words["zh"]), words_en=mean(words["en"]),
                natural_pairs=len(natural),
                natural_spans=sum(1 for feats in gold.features.values() for f in feats if f["obf"] == "natural"))


def write_edits_readme(out_dir: str, gold: GoldSet, info: dict, slice_pairs) -> None:
    """Write ``OUT/README.md`` of a set built with ``--obfuscation`` (its level, edits and counts).

    Args:
        out_dir: The gold set folder.
        gold: The finished set.
        info: As for :func:`write_readme`, with ``obfuscation``.
        slice_pairs: The pairs of its slice.
    """
    fields = dict(level=f"{info['obfuscation']:g}", seed=info["seed"], size_mb=_set_size(out_dir) / 1e6,
                  n_slice=len(slice_pairs), **_document_fields(gold, gold.pairs()),
                  **_pair_fields(gold, gold.pairs()), **_random_fields(gold))
    write_file(os.path.join(out_dir, "README.md"), render("edits_README.md", **fields))
