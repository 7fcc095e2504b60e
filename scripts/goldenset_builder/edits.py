"""Edits applied to planted copies: light edits and script conversion.

Every random choice goes through the ``rng`` passed in, in a fixed order, so a
seed gives the same edits on every run.
"""
from __future__ import annotations

import random
import re

from .normalise import cc
from .text import is_cjk, n_cjk

__all__ = ["F2H", "LIGHT_OPS", "PUNCT_ALT", "RANDOM_OPS", "char_op", "edit_passage", "light_edit",
           "punct_op", "random_edit", "script_edit", "to_fullwidth", "width_op", "word_pool", "word_tokens",
           "wrap_op"]

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


# --- random obfuscation (PAN's "random" obfuscation, per sentence) ---------

# The four operations, drawn with equal weight for each edited word.
RANDOM_OPS = ("delete", "replace", "insert", "swap")

# Letters and digits that are not CJK ideographs (those go to jieba): \w
# includes them, so they are taken out of the class.
_NOT_HAN = "\u3400-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
_LATIN_WORD = re.compile(rf"[^\W_{_NOT_HAN}]+(?:['’-][^\W_{_NOT_HAN}]+)*")
_JIEBA = None


def _jieba():
    """A plain jieba tokenizer of the build's own (jieba's dictionary only, HMM on),
    independent of the detector's, which is taught extra words."""
    global _JIEBA
    if _JIEBA is None:
        import jieba
        jieba.setLogLevel(60)
        _JIEBA = jieba.Tokenizer()
    return _JIEBA


def _is_word(token: str) -> bool:
    return any(c.isalnum() for c in token)


def word_tokens(s: str) -> list:
    """A sentence cut into tokens whose concatenation is the sentence.

    Han runs are cut into jieba words; a Latin word (letters and digits, with
    inner apostrophes or hyphens) is one token; every other character
    (spaces, punctuation) is a token of its own.  A token is a *word* when it
    holds a letter or a digit.

    Args:
        s: The sentence.

    Returns:
        The tokens, in order; ``"".join(tokens) == s``.
    """
    tokens: list = []
    i = 0
    while i < len(s):
        if is_cjk(s[i]):
            j = i
            while j < len(s) and is_cjk(s[j]):
                j += 1
            tokens.extend(_jieba().lcut(s[i:j], HMM=True))
            i = j
            continue
        m = _LATIN_WORD.match(s, i)
        if m:
            tokens.append(m.group())
            i = m.end()
        else:
            tokens.append(s[i])
            i += 1
    return tokens


def word_pool(text: str, lang: str) -> list:
    """The words of a source document that replacements and insertions draw from.

    Chinese: the jieba words of its Han runs; English: its Latin words.  In
    document order, repeats kept (a frequent word is drawn more often, as in
    PAN's random obfuscation).

    Args:
        text: The source document's text.
        lang: Its language, ``"zh"`` or ``"en"``.

    Returns:
        The words.
    """
    words = [t for t in word_tokens(text) if _is_word(t)]
    if lang == "zh":
        han = [w for w in words if any(is_cjk(c) for c in w)]
        return han or words
    return words


def _edits_for(rng: random.Random, n_words: int, level: float) -> int:
    """How many operations a sentence of ``n_words`` words gets: ``level * n_words``,
    rounded up with the probability of its fraction (so the expected share is ``level``)."""
    expected = level * n_words
    whole = int(expected)
    return whole + (1 if rng.random() < expected - whole else 0)


def _join(lang: str, before: str, after: str) -> str:
    """Text put between two words that did not stand side by side."""
    if lang != "en" and (is_cjk(before[-1]) or is_cjk(after[0])):
        return ""
    return " "


def random_edit(rng: random.Random, s: str, level: float, pool: list, lang: str) -> str:
    """PAN-style random obfuscation of one sentence.

    A share ``level`` of the sentence's words (jieba words in Han text, Latin
    words otherwise) is edited, each by one operation drawn among
    :data:`RANDOM_OPS`: the word is deleted, replaced by a word drawn from
    ``pool`` (the source document's words), preceded by an inserted word of
    ``pool``, or swapped with its next word.  Punctuation and the text between
    words stay; the sentence never loses its last word.

    Args:
        rng: The build's random generator.
        s: The sentence.
        level: The share of words edited, e.g. 0.2.
        pool: Words of the source document (see :func:`word_pool`).
        lang: Language of the host, ``"zh"`` or ``"en"``.

    Returns:
        The edited sentence (the sentence itself when no operation fell on it).
    """
    tokens = word_tokens(s)
    at = [i for i, t in enumerate(tokens) if _is_word(t)]
    for _ in range(_edits_for(rng, len(at), level)):
        at = [i for i, t in enumerate(tokens) if _is_word(t)]
        if not at or not pool:
            break
        k = rng.randrange(len(at))
        i = at[k]
        op = rng.choice(RANDOM_OPS)
        if op == "delete" and len(at) > 1:
            _delete_word(tokens, i)
        elif op == "replace" or (op == "delete"):
            tokens[i] = rng.choice(pool)
        elif op == "insert":
            word = rng.choice(pool)
            gap = _join(lang, word, tokens[i])
            tokens[i:i] = [word, gap] if gap else [word]
        elif k + 1 < len(at):
            j = at[k + 1]
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif k > 0:
            j = at[k - 1]
            tokens[i], tokens[j] = tokens[j], tokens[i]
    return "".join(tokens).strip()


def _delete_word(tokens: list, i: int) -> None:
    """Delete the word at ``i`` and one space beside it (so no double space is left)."""
    if i + 1 < len(tokens) and tokens[i + 1] == " " and (i == 0 or tokens[i - 1] == " "):
        del tokens[i:i + 2]
    elif i > 0 and tokens[i - 1] == " " and (i + 1 == len(tokens) or not _is_word(tokens[i + 1])):
        del tokens[i - 1:i + 1]
    else:
        del tokens[i]


def _edit_sentence(rng: random.Random, s: str, edit: str, src: dict, lang: str, level: float = 0.0):
    if edit == "verbatim":
        return s
    if edit == "script":
        t = script_edit(s, src["script"])
        return None if t == s else t
    if edit == "random":
        return random_edit(rng, s, level, src_pool(src, lang), lang) or None
    return light_edit(rng, s, lang)[0]


_POOLS: dict = {}


def src_pool(src: dict, lang: str) -> list:
    """:func:`word_pool` of a source document, made once per build."""
    key = (src["stem"], lang)
    if key not in _POOLS:
        _POOLS[key] = word_pool(src["text"], lang)
    return _POOLS[key]


def edit_passage(rng: random.Random, src: dict, spans, edit: str, lang: str, level: float = 0.0):
    """The pieces of a passage as planted: edited sentences and the text between them.

    Args:
        rng: The build's random generator.
        src: Source document.
        spans: Consecutive sentence spans of the passage in ``src``.
        edit: ``"verbatim"``, ``"light"``, ``"script"`` or ``"random"``.
        lang: Language of the host.
        level: For ``"random"``: the share of words edited per sentence.

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
        t = _edit_sentence(rng, stext[a:b], edit, src, lang, level)
        # Go on after a failure: the later sentences' edits still draw from
        # rng, and the committed set depends on that sequence of draws.
        ok = ok and t is not None
        pieces.append(("sent", t, (a, b)))
    return pieces if ok else None
