"""Edits applied to planted copies: light edits and script conversion.

Every random choice goes through the ``rng`` passed in, in a fixed order, so a
seed gives the same edits on every run.
"""
from __future__ import annotations

import random
import re

from .normalise import cc
from .text import is_cjk, n_cjk

__all__ = ["F2H", "LIGHT_OPS", "PUNCT_ALT", "char_op", "edit_passage", "light_edit", "punct_op",
           "script_edit", "to_fullwidth", "width_op", "wrap_op"]

PUNCT_ALT = {"，": "、", "、": "，", "。": "；", "；": "。", "：": "，", "！": "。", "？": "。",
             ",": ";", ";": ",", ":": ",", ".": ";", "!": ".", "?": ".",
             "（": "(", "）": ")", "“": "「", "”": "」", "「": "“", "」": "”"}
F2H = {"，": ",", "。": ".", "：": ":", "；": ";", "！": "!", "？": "?", "（": "(", "）": ")"}


def to_fullwidth(s: str) -> str:
    """Map printable ASCII (``!``..``~``) to its full-width form.

    Args:
        s: Any text.

    Returns:
        The text with ASCII letters, digits and symbols full-width.
    """
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s)


def _chinese(s: str, lang: str) -> bool:
    """Edit as Chinese: a Chinese document's sentence with >= 6 CJK characters."""
    return lang != "en" and n_cjk(s) >= 6


def punct_op(rng: random.Random, s: str, lang: str):
    """Delete (inside the sentence, half of the time) or replace one punctuation mark.

    Every entry of :data:`LIGHT_OPS` has this signature and result.

    Args:
        rng: The build's random generator.
        s: The sentence.
        lang: Language of the host, ``"zh"`` or ``"en"``.

    Returns:
        The edited sentence, or None when the sentence offers no place for it.
    """
    pos = [i for i, c in enumerate(s) if c in PUNCT_ALT]
    if not pos:
        return None
    i = rng.choice(pos)
    if rng.random() < 0.5 and 0 < i < len(s) - 1:
        return s[:i] + s[i + 1:]
    return s[:i] + PUNCT_ALT[s[i]] + s[i + 1:]


def _cjk_char_op(rng: random.Random, s: str):
    """Delete, duplicate-in or replace one inner CJK character by one of the sentence."""
    pos = [i for i, c in enumerate(s) if is_cjk(c) and 0 < i < len(s) - 1]
    if not pos:
        return None
    i = rng.choice(pos)
    other = rng.choice([c for c in s if is_cjk(c)])
    r = rng.random()
    if r < 0.34:
        return s[:i] + s[i + 1:]
    if r < 0.67:
        return s[:i] + other + s[i:]
    # Replacing a character by itself would be no edit: delete it instead.
    return s[:i] + other + s[i + 1:] if other != s[i] else s[:i] + s[i + 1:]


def _word_op(rng: random.Random, s: str):
    """Delete, repeat or replace one inner word by another word of the sentence."""
    words = s.split(" ")
    if len(words) < 4:
        return None
    i = rng.randrange(1, len(words) - 1)
    r = rng.random()
    if r < 0.34:
        del words[i]
    elif r < 0.67:
        words.insert(i, words[rng.randrange(len(words))])
    else:
        j = rng.randrange(len(words))
        if words[j] == words[i]:
            del words[i]
        else:
            words[i] = words[j]
    return " ".join(words)


def char_op(rng: random.Random, s: str, lang: str):
    """Edit one CJK character (>= 6 CJK in the sentence) or else one word; see :func:`punct_op`."""
    # The CJK test is on the sentence alone: an English-looking line of a
    # Chinese document gets a word edit, a Chinese one a character edit.
    if n_cjk(s) >= 6:
        return _cjk_char_op(rng, s)
    return _word_op(rng, s)


def width_op(rng: random.Random, s: str, lang: str):
    """Full-width punctuation to ASCII, or ASCII to full-width; see :func:`punct_op`."""
    if any(c in F2H for c in s):
        return "".join(F2H.get(c, c) for c in s)
    if not _chinese(s, lang):
        t = "".join(to_fullwidth(c) if not (c.isalnum() or c.isspace()) else c for c in s)
        return t if t != s else None
    if re.search(r"[A-Za-z0-9]", s):
        return to_fullwidth(s)
    return None


def wrap_op(rng: random.Random, s: str, lang: str):
    """Remove a line break, or insert one (English: at a space); see :func:`punct_op`."""
    if "\n" in s:
        return s.replace("\n", " " if lang == "en" else "")
    if not _chinese(s, lang):
        pos = [m.start() for m in re.finditer(" ", s)]
        pos = [p for p in pos if 0 < p < len(s) - 1]
        if not pos:
            return None
        i = rng.choice(pos)
        return s[:i] + "\n" + s[i + 1:]
    pos = [i for i in range(2, len(s) - 2) if is_cjk(s[i - 1]) and is_cjk(s[i])]
    if not pos:
        return None
    i = rng.choice(pos)
    return s[:i] + "\n" + s[i:]


# The four kinds of light edit, in the order light_edit shuffles them.
LIGHT_OPS = {"punct": punct_op, "char": char_op, "width": width_op, "wrap": wrap_op}


def light_edit(rng: random.Random, s: str, lang: str) -> tuple:
    """One light edit of a sentence, the kind drawn at random.

    The four kinds are tried in a random order until one changes the
    sentence and leaves it non-empty without surrounding whitespace.

    Args:
        rng: The build's random generator.
        s: The sentence.
        lang: Language of the host, ``"zh"`` or ``"en"``.

    Returns:
        (edited sentence, kind), or (None, None) when no kind applies.
    """
    ops = list(LIGHT_OPS)
    rng.shuffle(ops)
    for op in ops:
        t = LIGHT_OPS[op](rng, s, lang)
        if t is not None and t != s and t.strip() == t and t:
            return t, op
    return None, None


def script_edit(s: str, script: str) -> str:
    """Convert a sentence to the other Chinese script.

    Args:
        s: The sentence.
        script: Script of its document: ``"s"`` converts with s2t, else t2s.

    Returns:
        The converted sentence (unchanged if it has nothing to convert).
    """
    return cc("s2t" if script == "s" else "t2s", s)


def _edit_sentence(rng: random.Random, s: str, edit: str, src: dict, lang: str):
    if edit == "verbatim":
        return s
    if edit == "script":
        t = script_edit(s, src["script"])
        return None if t == s else t
    return light_edit(rng, s, lang)[0]


def edit_passage(rng: random.Random, src: dict, spans, edit: str, lang: str):
    """The pieces of a passage as planted: edited sentences and the text between them.

    Args:
        rng: The build's random generator.
        src: Source document.
        spans: Consecutive sentence spans of the passage in ``src``.
        edit: ``"verbatim"``, ``"light"`` or ``"script"``.
        lang: Language of the host.

    Returns:
        A list of (kind, text, source span or None), kind ``"sep"`` or
        ``"sent"``; None when a sentence cannot take the edit.
    """
    stext = src["text"]
    pieces: list = []
    ok = True
    for idx, (a, b) in enumerate(spans):
        if idx:
            pieces.append(("sep", stext[spans[idx - 1][1]:a], None))
        t = _edit_sentence(rng, stext[a:b], edit, src, lang)
        # Go on after a failure: the later sentences' edits still draw from
        # rng, and the committed set depends on that sequence of draws.
        ok = ok and t is not None
        pieces.append(("sent", t, (a, b)))
    return pieces if ok else None
