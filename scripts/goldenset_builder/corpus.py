"""Sentences of the whole collection and the overlap checks built on them."""
from __future__ import annotations

from .normalise import short_key
from .text import sentences

__all__ = ["Corpus", "sentence_keys", "unlabelled_overlap"]

# A normalised sentence found in this many documents is boilerplate (a
# heading, a licence line): shared by two documents, it is no sign of a copy.
BOILER_DF = 3


def sentence_keys(text: str, spans=None) -> list:
    """Normalised keys (:func:`short_key`, >= 2 characters) of a text's sentences.

    Args:
        text: A document text.
        spans: Its sentence spans, if already known.

    Returns:
        A list of (key, start, end) per sentence that has a key.
    """
    out = []
    for a, b in (sentences(text) if spans is None else spans):
        k = short_key(text[a:b])
        if k:
            out.append((k, a, b))
    return out


class Corpus:
    """Sentence spans of every candidate document and the document frequency of keys.

    Attributes:
        docs: The documents.
        sents: ``{stem: [(start, end), ...]}``.
        df: ``{key: number of documents containing it}``.
    """

    def __init__(self, docs):
        self.docs = docs
        self.sents = {}
        self.df: dict = {}
        for d in docs:
            sp = sentences(d["text"])
            self.sents[d["stem"]] = sp
            for k in {k for k, _, _ in sentence_keys(d["text"], sp)}:
                self.df[k] = self.df.get(k, 0) + 1

    def boiler(self, k) -> bool:
        """Tell whether a normalised key is boilerplate (in >= 3 documents)."""
        return self.df.get(k, 0) >= BOILER_DF


def unlabelled_overlap(corpus: Corpus, susp_text: str, src_text: str, labelled_spans) -> int:
    """Number of susp sentences that also occur in src outside the labels.

    Sentences are compared by normalised key (>= 2 characters) and
    boilerplate is ignored.

    Args:
        corpus: The collection (for boilerplate).
        susp_text: Suspicious document text.
        src_text: Source document text.
        labelled_spans: (start, end) susp spans that are labelled copies.

    Returns:
        How many susp sentences share a key with src and touch no labelled span.
    """
    rk = {k for k, _, _ in sentence_keys(src_text) if not corpus.boiler(k)}
    bad = 0
    for k, a, b in sentence_keys(susp_text):
        if k in rk and not any(a < e and s < b for s, e in labelled_spans):
            bad += 1
    return bad
