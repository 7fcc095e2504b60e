"""Index space of Low-IDF-Sig against 3-Shingle, per language of the documents.

The paper measured English web pages only; the gold set is mostly Chinese.
This script splits the gold set's source documents by script (Chinese when
at least 5 % of the characters are Han) and, for each part, prints tokens and
features per sentence and the index bytes of the whole-sentence index (the
measure of ``partialdup eval``, 8 bytes per distinct feature plus 6 per
posting, without the rejoined sentences' index) of Low-IDF-Sig with each
``--antecedents`` value and of 3-Shingle, with their ratio, all in one run.

    python scripts/space_by_language.py goldenset
"""

from __future__ import annotations

import argparse
import re

from partialdup.core.config import Config, LowIdfSigParams
from partialdup.eval.goldset import index_bytes
from partialdup.pipeline.factory import make_detector
from partialdup.core.chars import HAN_CLASS
from partialdup.core.types import DocumentFeatures, TokenizedDocument

from goldset_setup import prepare

_HAN = re.compile(f"[{HAN_CLASS}]")


def language(doc: TokenizedDocument) -> str:
    """"zh" when at least 5 % of the document's characters are Han, else "en"."""
    text = doc.text or ""
    return "zh" if len(_HAN.findall(text)) >= 0.05 * max(1, len(text)) else "en"


def sentence_index_bytes(detector, docs: list[DocumentFeatures]) -> int:
    """``index_bytes`` of the whole-sentence index alone (the rejoined
    sentences' index, which ``partialdup eval`` also counts, left out)."""
    return index_bytes(detector.build_index(docs).sentences)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("goldset")
    parser.add_argument("--antecedents", type=int, nargs="+", default=[10, 50])
    args = parser.parse_args()
    prepared = prepare(args.goldset)
    idf, tokenized, shared = prepared.idf, prepared.tokenized, prepared.shared
    detectors = {"3-Shingle": make_detector("3-shingle", idf, **shared)}
    for n in args.antecedents:
        detectors[f"Low-IDF-Sig({n})"] = make_detector("low-idf-sig", idf, Config(low_idf_sig=LowIdfSigParams(antecedents=n)), **shared)
    print("| language | sources | sentences | tokens / sentence | method | features / sentence | index bytes | / 3-Shingle |")
    print("|---|---|---|---|---|---|---|---|")
    for lang in ("en", "zh"):
        docs = [d for d in tokenized.sources if language(d) == lang]
        sentences = sum(len(d.sentences) for d in docs)
        tokens = sum(len(words) for d in docs for words in d.tokens)
        reference = None
        for name, detector in detectors.items():
            features = [detector.fingerprint(d) for d in docs]
            size = sentence_index_bytes(detector, features)
            reference = reference or size
            per_sentence = sum(sum(bag.values()) for d in features for bag in d.bags) / max(1, sentences)
            print(
                f"| {lang} | {len(docs)} | {sentences:,} | {tokens / max(1, sentences):.1f} | {name} "
                f"| {per_sentence:.2f} | {size:,} | {size / reference:.1%} |"
            )


if __name__ == "__main__":
    main()
