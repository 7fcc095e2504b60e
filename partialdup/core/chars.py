"""Character classes shared by the sentence splitter, the tokenizer and the scripts.

Defined once here as regular-expression class bodies (for ``[...]``) and as
code point ranges, so that "is this Han?" has one answer everywhere.
"""

from __future__ import annotations

__all__ = ["HAN_RANGES", "HAN_CLASS", "CJK_CLASS", "is_han", "SURROGATES"]

#: The error handler of a text held or sent as UTF-8: a lone surrogate (a str
#: may hold one) goes and comes back as it was, as pickle sends it.
SURROGATES = "surrogatepass"

#: CJK Unified Ideographs, Extension A, Compatibility Ideographs, Extensions B-H.
HAN_RANGES: tuple[tuple[int, int], ...] = (
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0x20000, 0x3134F),
)

#: :data:`HAN_RANGES` as the body of a regular-expression character class.
HAN_CLASS = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in HAN_RANGES)

#: Wider than Han: every character of CJK typesetting (ideographs, kana,
#: hangul, CJK and full-width punctuation and forms). The sentence splitter
#: uses it for "wide" text, where no space follows a terminator.
CJK_CLASS = (
    "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3190-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\uf900-\ufaff"
    "\ufe10-\ufe1f\ufe30-\ufe6f\uff00-\uffef\U00020000-\U0003134f"
)


def is_han(char: str) -> bool:
    """Whether a character is a Han ideograph (see :data:`HAN_RANGES`)."""
    code = ord(char)
    return (
        0x3400 <= code <= 0x4DBF
        or 0x4E00 <= code <= 0x9FFF
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x3134F
    )
