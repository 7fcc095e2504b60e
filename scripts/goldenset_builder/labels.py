"""The gold set being built: documents, PAN features, sentence-pair labels and negatives."""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["GoldSet", "feature", "sentence_pair"]


def sentence_pair(susp: str, src: str, s_span, r_span, edit: str, level: float | None = None) -> dict:
    """One line of ``sentence_pairs.jsonl``.

    Args:
        susp: Suspicious document stem.
        src: Source document stem.
        s_span: (start, end) of the sentence in susp, end exclusive.
        r_span: (start, end) of the sentence in src.
        edit: ``"verbatim"``, ``"light"``, ``"script"``, ``"random"`` or ``"natural"``.
        level: For ``"random"``: the obfuscation level (share of words edited).

    Returns:
        The record, keys in the order written to the file.
    """
    record = dict(susp=susp + ".txt", src=src + ".txt", susp_start=s_span[0], susp_end=s_span[1],
                  src_start=r_span[0], src_end=r_span[1], edit=edit)
    if level is not None:
        record["level"] = level
    return record


def feature(obf: str, this, source, level: float | None = None) -> dict:
    """One PAN truth feature.

    Args:
        obf: The obfuscation attribute (the edit level).
        this: (start, end) in the suspicious document.
        source: (start, end) in the source document.
        level: For random obfuscation: its level (written as ``obfuscation_level``).

    Returns:
        The feature record.
    """
    record = dict(obf=obf, this=this, source=source)
    if level is not None:
        record["level"] = level
    return record


def _stats() -> dict:
    return {"man_pages_compared": 0, "man_conversion_like": 0, "hosts_dropped": 0, "hosts": 0}


@dataclass
class GoldSet:
    """Everything the build decides, filled step by step.

    Attributes:
        susp_docs: ``{stem: doc}`` of suspicious documents.
        src_docs: ``{stem: doc}`` of source documents.
        features: ``{(susp stem, src stem): [feature, ...]}`` of pairs with copies.
        sent_pairs: :func:`sentence_pair` records.
        natural_kind: ``{(susp stem, src stem): kind}`` of natural pairs.
        negatives: ``{(susp stem, src stem): "hard" | "random"}``.
        used_keys: Work keys that have a role already (a work is used in one role only).
        stats: Counts reported in the README.
    """

    susp_docs: dict = field(default_factory=dict)
    src_docs: dict = field(default_factory=dict)
    features: dict = field(default_factory=dict)
    sent_pairs: list = field(default_factory=list)
    natural_kind: dict = field(default_factory=dict)
    negatives: dict = field(default_factory=dict)
    used_keys: set = field(default_factory=set)
    stats: dict = field(default_factory=_stats)

    def add_natural(self, susp: dict, src: dict, spans, kind: str) -> None:
        """Record a natural pair and its aligned spans.

        Args:
            susp: Suspicious document.
            src: Source document.
            spans: Spans from :func:`goldenset_builder.align.natural_align`.
            kind: Kind of natural copy, e.g. ``"man zh_TW/zh_CN"``.
        """
        feats = []
        for sp in spans:
            feats.append(feature("natural", sp["susp"], sp["src"]))
            for s_span, r_span in sp["pairs"]:
                self.sent_pairs.append(sentence_pair(susp["stem"], src["stem"], s_span, r_span,
                                                     "natural"))
        self.susp_docs[susp["stem"]] = susp
        self.src_docs[src["stem"]] = src
        self.features[(susp["stem"], src["stem"])] = feats
        self.natural_kind[(susp["stem"], src["stem"])] = kind

    def add_planted(self, susp: dict, feats_by_src: dict) -> None:
        """Record a host with its planted passages.

        Args:
            susp: The suspicious document (host text with the passages).
            feats_by_src: ``{src stem: [passage, ...]}``; a passage has ``obf``,
                ``this``, ``source`` and ``pairs`` (susp span, src span per sentence).
        """
        self.susp_docs[susp["stem"]] = susp
        for sst, feats in feats_by_src.items():
            self.features[(susp["stem"], sst)] = [feature(f["obf"], f["this"], f["source"], f.get("level"))
                                                  for f in feats]
            for f in feats:
                for s_span, r_span in f["pairs"]:
                    self.sent_pairs.append(sentence_pair(susp["stem"], sst, s_span, r_span,
                                                         f["obf"], f.get("level")))

    def pairs(self) -> list:
        """Every pair of the set, positives and negatives, sorted."""
        return sorted(set(self.features) | set(self.negatives))
