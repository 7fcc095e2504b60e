"""Checks run on every build: labels map back to the texts, and a recall check of natural labels."""
from __future__ import annotations

import unicodedata
from collections import Counter

from .align import nat_prep
from .labels import GoldSet
from .normalise import cc, norm_a, norm_b, ratio
from .text import sentences

__all__ = ["pair_ok", "unlabelled_repeats", "verify"]

LIGHT_MIN = 60      # fuzz.ratio a lightly edited sentence keeps with its source
RANDOM_MIN = 30     # fuzz.ratio a randomly obfuscated sentence (level <= 0.5) keeps: the same sentence
NATURAL_MIN = 95    # normalised fuzz.ratio of a natural sentence pair


def pair_ok(s: str, r: str, edit: str) -> bool:
    """Tell whether a susp sentence is what its edit level says of the source sentence.

    Args:
        s: Suspicious sentence.
        r: Source sentence.
        edit: ``"verbatim"``, ``"script"``, ``"light"``, ``"random"`` or ``"natural"``.

    Returns:
        verbatim: equal; script: susp = opencc(src); light: different and
        ``fuzz.ratio >= 60``; random: ``fuzz.ratio >= 30`` (a sentence on
        which no operation fell is equal); natural: normalised ratio >= 95.
    """
    if edit == "verbatim":
        return s == r
    if edit == "script":
        return s != r and (s == cc("s2t", r) or s == cc("t2s", r))
    if edit == "light":
        nfkc = unicodedata.normalize
        return s != r and max(ratio(s, r), ratio(nfkc("NFKC", s), nfkc("NFKC", r))) >= LIGHT_MIN
    if edit == "random":
        return ratio(s, r) >= RANDOM_MIN
    return max(ratio(norm_a(s), norm_a(r)), ratio(norm_b(s), norm_b(r))) >= NATURAL_MIN


def _pair_texts(gold: GoldSet, sp: dict) -> tuple:
    s = gold.susp_docs[sp["susp"][:-4]]["text"][sp["susp_start"]:sp["susp_end"]]
    r = gold.src_docs[sp["src"][:-4]]["text"][sp["src_start"]:sp["src_end"]]
    return s, r


def verify(gold: GoldSet) -> None:
    """Check every sentence pair and feature against the texts; stop the build on a failure.

    Args:
        gold: The finished set.

    Raises:
        SystemExit: A sentence pair does not map back.
        AssertionError: A feature lies outside its documents, or a verbatim
            feature's two slices differ.
    """
    for sp in gold.sent_pairs:
        s, r = _pair_texts(gold, sp)
        if not pair_ok(s, r, sp["edit"]) or not s.strip() or s != s.strip():
            raise SystemExit(f"make_goldenset: verification failed for {sp}: {s!r} vs {r!r}")
    for (s, r), feats in gold.features.items():
        st, rt = gold.susp_docs[s]["text"], gold.src_docs[r]["text"]
        for f in feats:
            a, b = f["this"]
            c, d = f["source"]
            assert 0 <= a < b <= len(st) and 0 <= c < d <= len(rt), (s, r, f)
            if f["obf"] == "verbatim":
                assert st[a:b] == rt[c:d], (s, r, f)


def _labelled_natural(gold: GoldSet) -> dict:
    """{(susp stem, src stem): {labelled susp spans}} of the natural pairs."""
    labelled: dict = {}
    for sp in gold.sent_pairs:
        if sp["edit"] == "natural":
            labelled.setdefault((sp["susp"][:-4], sp["src"][:-4]), set()).add(
                (sp["susp_start"], sp["susp_end"]))
    return labelled


def unlabelled_repeats(gold: GoldSet) -> dict:
    """Recall check of the natural labels.

    Per kind, the susp sentences (normalised form of >= 2 characters) that
    also occur, normalised, somewhere in the paired source but are not labelled.

    Args:
        gold: The finished set.

    Returns:
        ``{kind: (count, [(text, times), ...] of the 6 most common)}``, by kind.
    """
    labelled = _labelled_natural(gold)
    found: dict = {}
    for pair, kind in sorted(gold.natural_kind.items()):
        st, rt = gold.susp_docs[pair[0]]["text"], gold.src_docs[pair[1]]["text"]
        source = {form for _, na, nb, _ in nat_prep(rt, sentences(rt)) for form in (na, nb)}
        spans = sentences(st)
        for i, na, nb, _ in nat_prep(st, spans):
            if spans[i] not in labelled.get(pair, ()) and (na in source or nb in source):
                found.setdefault(kind, []).append(st[spans[i][0]:spans[i][1]])
    return {kind: (len(texts), sorted(Counter(texts).items(), key=lambda kv: (-kv[1], kv[0]))[:6])
            for kind, texts in sorted(found.items())}
