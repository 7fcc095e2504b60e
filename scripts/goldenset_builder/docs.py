"""The document record shared by every step, and its file stem."""
from __future__ import annotations

import re

from .text import clean_text

__all__ = ["MAX_DOC", "MIN_DOC", "make_doc", "stem_of"]

# Size window (characters) of documents used as planted hosts/sources and
# natural pairs: long enough to hold several passages, short enough for PAN tools.
MIN_DOC = 1500
MAX_DOC = 60000


def stem_of(*parts: str) -> str:
    """File stem made of parts: runs of other characters than [A-Za-z0-9.] become ``_``.

    Args:
        *parts: Name parts, joined with ``_``.

    Returns:
        The stem, e.g. ``man_zhcn_ls.1``.
    """
    s = "_".join(parts)
    return re.sub(r"[^A-Za-z0-9.]+", "_", s).strip("_")


def make_doc(stem, lang, script, pkg, path, key, group, text, how) -> dict:
    """A document record.

    Args:
        stem: File stem in the gold set.
        lang: ``"zh"`` or ``"en"``.
        script: ``"s"`` (Simplified), ``"t"`` (Traditional) or None (English).
        pkg: Debian package it comes from.
        path: File it was read from.
        key: Work key: documents of one work (any language) share it and take one role only.
        group: Coarser group (man section, book) used for hard negatives.
        text: Raw text; it is cleaned here.
        how: How the file was turned into text (for provenance notes).

    Returns:
        A dict with these fields.
    """
    return dict(stem=stem, lang=lang, script=script, pkg=pkg, path=path, key=key,
                group=group, text=clean_text(text), how=how)
