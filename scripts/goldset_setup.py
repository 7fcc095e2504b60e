"""Shared set-up of the gold-set measurement scripts.

Every script loads the gold set, the bundled IDF tables and the default
Low-IDF-Sig detector, and splits and tokenizes every document once with that
detector; other methods share its tokenizer and splitter (``shared``), so
each method is measured on the same sentences and tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partialdup.pipeline.detector import Detector
from partialdup.eval.goldset import GoldSet, TokenizedGoldSet, load_goldset, tokenize_goldset
from partialdup.text.idf import IdfTable
from partialdup.pipeline.factory import make_detector
from partialdup.text.resources import load_idf


@dataclass(frozen=True)
class Prepared:
    """A loaded and tokenized gold set with the models used to read it."""

    gold: GoldSet
    idf: IdfTable
    base: Detector
    tokenized: TokenizedGoldSet

    @property
    def shared(self) -> dict[str, Any]:
        """Keyword arguments of ``make_detector`` that reuse the base tokenizer and splitter."""
        return {"tokenizer": self.base.tokenizer, "splitter": self.base.splitter}


def prepare(goldset: str | Path) -> Prepared:
    """Load ``goldset`` and tokenize it once with the default detector."""
    gold = load_goldset(goldset)
    idf = load_idf()
    base = make_detector("low-idf-sig", idf)
    return Prepared(gold, idf, base, tokenize_goldset(gold, base))
