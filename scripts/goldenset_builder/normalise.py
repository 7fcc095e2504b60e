"""Script conversion (opencc), normalised sentence keys and sentence eligibility.

opencc and rapidfuzz are imported here only if installed: a missing module is
reported by :func:`goldenset_builder.packages.package_versions` with a
one-line message instead of a traceback at import time.
"""
from __future__ import annotations

import unicodedata

from .text import n_cjk

__all__ = [
    "cc", "eligible_sentence", "norm_a", "norm_b", "ratio", "short_key",
]

try:
    import opencc
    from rapidfuzz import fuzz
    _CC = {k: opencc.OpenCC(k) for k in ("s2t", "t2s", "s2twp")}
except ImportError:  # reported by packages.package_versions()
    opencc = fuzz = None  # type: ignore[assignment]
    _CC = {}

# The same sentence is converted many times (every alignment and overlap check
# normalises both documents); the bound keeps memory in check on large runs.
_cc_cache: dict = {}
_CC_CACHE_MAX = 2_000_000


def cc(kind: str, s: str) -> str:
    """Convert a string with one opencc configuration, memoised.

    Args:
        kind: ``"s2t"``, ``"t2s"`` or ``"s2twp"``.
        s: The text to convert.

    Returns:
        The converted text.
    """
    key = (kind, s)
    r = _cc_cache.get(key)
    if r is None:
        r = _CC[kind].convert(s)
        if len(_cc_cache) < _CC_CACHE_MAX:
            _cc_cache[key] = r
    return r


def ratio(a: str, b: str, score_cutoff: float | None = None) -> float:
    """rapidfuzz's ``fuzz.ratio`` (0-100), 0 below ``score_cutoff``.

    Args:
        a: First string.
        b: Second string.
        score_cutoff: Scores below it are returned as 0.

    Returns:
        The normalised Indel similarity of the two strings, in percent.
    """
    return fuzz.ratio(a, b, score_cutoff=score_cutoff)


def _drop(ch: str) -> bool:
    c = unicodedata.category(ch)
    return ch.isspace() or c[0] in "PZSC"


def norm_a(s: str) -> str:
    """Normalised form (a): NFKC, opencc t2s, lower case, no blanks/punctuation/symbols.

    Args:
        s: A sentence.

    Returns:
        Its normalised form.
    """
    s = cc("t2s", unicodedata.normalize("NFKC", s)).lower()
    return "".join(ch for ch in s if not _drop(ch))


def norm_b(s: str) -> str:
    """Normalised form (b): as (a) after an extra s2twp pass.

    The s2twp pass maps Taiwan phrase substitutions (文件→檔案, 软件→軟體)
    to one form, so a zh_TW phrasing and its zh_CN original normalise alike.

    Args:
        s: A sentence.

    Returns:
        Its normalised form.
    """
    s = cc("t2s", cc("s2twp", unicodedata.normalize("NFKC", s))).lower()
    return "".join(ch for ch in s if not _drop(ch))


def short_key(s: str) -> str | None:
    """Normalised key of any length >= 2 (overlap checks on hosts and negatives).

    Args:
        s: A sentence.

    Returns:
        Its form (a), or None when shorter than 2 characters.
    """
    k = norm_a(s)
    return k if len(k) >= 2 else None


def eligible_sentence(s: str) -> bool:
    """A sentence worth planting: real prose, not code or a heading.

    Args:
        s: A sentence.

    Returns:
        True for >= 6 CJK characters, or >= 30 characters and 5 words starting
        with a capital with >= 80 % letters and spaces.
    """
    if n_cjk(s) >= 6:
        return True
    words = s.split()
    if len(s) >= 30 and len(words) >= 5 and s[0].isupper():
        alpha = sum(ch.isalpha() or ch == " " for ch in s) / len(s)
        return alpha >= 0.8
    return False
