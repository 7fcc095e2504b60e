"""The rows of ``scripts/bench.py`` that run as library calls, each in a child process.

``python scripts/bench.py --row NAME ...`` runs one of them on the documents
listed in a file and writes what it measured (in-process seconds, counts) as
JSON; the parent measures the whole process. Every row loads its models
before the clock starts.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from pathlib import Path
from typing import Callable

__all__ = ["MIN_TOKENS", "NUM_PERM", "SP_THRESHOLD", "THRESHOLD", "child", "minhash_pairs", "row_gold_datasketch"]

THRESHOLD = 0.6          # ours (low-idf-sig's default tau) and MinHashLSH's
NUM_PERM = 128
MIN_TOKENS = 3           # as detect: shorter sentences are not matched on their own
SP_THRESHOLD = 0.33      # Sanchez-Perez et al. (PAN 2014): cosine and Dice both above it


def read_texts(files: list[Path]) -> list[tuple[str, str]]:
    """(file name, text) of each file."""
    return [(p.name, p.read_text(encoding="utf-8")) for p in files]


def _tokenizer_and_splitter(segmenter: str | None = None):  # type: ignore[no-untyped-def]
    from partialdup.text.sentences import SentenceSplitter
    from partialdup.text.tokens import Tokenizer

    return (Tokenizer(segmenter=segmenter) if segmenter else Tokenizer()), SentenceSplitter()


Record = tuple[str, int, int, tuple[str, ...]]   # document, sentence start, end, words


def sentence_words(texts: list[tuple[str, str]], tokenizer=None) -> list[Record]:  # type: ignore[no-untyped-def]
    """(document, start, end, words) of every sentence, partialdup's splitter and tokens."""
    default, splitter = _tokenizer_and_splitter()
    tokenizer = tokenizer or default
    return [(name, s.start, s.end, tuple(tokenizer.words(text, s.start, s.end)))
            for name, text in texts for s in splitter.split(text)]


def _loaded_tokenizer():  # type: ignore[no-untyped-def]
    """partialdup's tokenizer with jieba's dictionary loaded (outside the timed work)."""
    tokenizer, _ = _tokenizer_and_splitter()
    tokenizer.words("预热。Warm up.")
    return tokenizer


def row_reference(texts: list[tuple[str, str]], lang: str) -> dict:
    lines = [ln for _, text in texts for ln in text.splitlines() if ln.strip()]
    if lang == "zh":
        import jieba

        segmenter = jieba.Tokenizer()
        segmenter.initialize()
        cut: Callable[[str], list] = segmenter.lcut
    else:
        from nltk.tokenize import NLTKWordTokenizer

        cut = NLTKWordTokenizer().tokenize
    start = time.perf_counter()
    tokens = sum(len(cut(line)) for line in lines)
    return {"seconds": time.perf_counter() - start, "lines": len(lines), "tokens": tokens}


def row_detect(texts: list[tuple[str, str]], method: str) -> dict:
    from partialdup.core.types import Document
    from partialdup.pipeline.factory import make_detector
    from partialdup.text.resources import load_idf

    detector = make_detector(method, load_idf())
    docs = [Document(name, text) for name, text in texts]
    detector.tokenize(Document("warm-up", "预热。Warm up."))   # loads jieba's dictionary
    start = time.perf_counter()
    spans = detector.detect(docs).spans
    return {"seconds": time.perf_counter() - start, "spans": len(spans)}


def bag_jaccard(a: Counter, b: Counter) -> float:
    inter = sum((a & b).values())
    return inter / (sum(a.values()) + sum(b.values()) - inter) if inter else 0.0


def minhash_pairs(queries: list[tuple], indexed: list[tuple], allowed: Callable[[str, str], bool]) -> list[tuple]:
    """Sentence pairs found by MinHashLSH over word sets, verified by exact bag-Jaccard.

    ``queries`` and ``indexed`` are (document, start, end, words) records; pass
    the same list for a self-join (each pair once). Returns (query, indexed)
    record pairs whose documents ``allowed`` accepts.
    """
    from datasketch import MinHash, MinHashLSH

    def sketches(records: list[tuple]) -> list:
        return MinHash.bulk([[w.encode("utf-8") for w in set(r[3])] for r in records], num_perm=NUM_PERM)

    self_join = queries is indexed
    indexed_sketches = sketches(indexed)
    lsh = MinHashLSH(threshold=THRESHOLD, num_perm=NUM_PERM)
    with lsh.insertion_session() as session:
        for k, sketch in enumerate(indexed_sketches):
            session.insert(k, sketch, check_duplication=False)
    query_sketches = indexed_sketches if self_join else sketches(queries)
    indexed_bags = [Counter(r[3]) for r in indexed]
    query_bags = indexed_bags if self_join else [Counter(r[3]) for r in queries]
    pairs = []
    for q, record in enumerate(queries):
        for k in lsh.query(query_sketches[q]):
            if (self_join and k <= q) or not allowed(record[0], indexed[k][0]):
                continue
            if bag_jaccard(query_bags[q], indexed_bags[k]) >= THRESHOLD:
                pairs.append((record, indexed[k]))
    return pairs


def row_datasketch(texts: list[tuple[str, str]]) -> dict:
    import datasketch  # noqa: F401  (imported before the clock starts, as every row's models)

    tokenizer = _loaded_tokenizer()
    start = time.perf_counter()
    records = [r for r in sentence_words(texts, tokenizer) if len(r[3]) >= MIN_TOKENS]
    pairs = minhash_pairs(records, records, lambda a, b: a != b)
    return {"seconds": time.perf_counter() - start, "sentences": len(records), "pairs": len(pairs)}


def _tfidf(sentences: list[tuple[str, ...]]) -> list[dict[str, float]]:
    df = Counter(w for words in sentences for w in set(words))
    n = len(sentences)
    vectors = []
    for words in sentences:
        vec = {w: c * math.log(n / df[w]) for w, c in Counter(words).items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        vectors.append({w: v / norm for w, v in vec.items()})
    return vectors


def row_sanchez(texts: list[tuple[str, str]], sample: int) -> dict:
    """All pairs of the first ``sample`` sentences: tf-idf cosine and Dice, in
    plain Python as the PAN system compares sentence by sentence."""
    records = [r for r in sentence_words(texts) if r[3]]
    words = [r[3] for r in records[:sample]]
    start = time.perf_counter()
    vectors = _tfidf(words)
    sets = [set(w) for w in words]
    found = 0
    for i in range(len(vectors)):
        vi, si = vectors[i], sets[i]
        for j in range(i + 1, len(vectors)):
            vj, sj = vectors[j], sets[j]
            small, big = (vi, vj) if len(vi) < len(vj) else (vj, vi)
            cosine = sum(v * big[w] for w, v in small.items() if w in big)
            if cosine > SP_THRESHOLD and 2 * len(si & sj) / (len(si) + len(sj)) > SP_THRESHOLD:
                found += 1
    m, n = len(words), len(records)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "sample": m, "sentences": n, "found": found,
            "extrapolated": seconds * (n * (n - 1)) / max(1, m * (m - 1))}


def child(args: argparse.Namespace) -> None:
    """Run one in-process row and write what it measured as JSON."""
    texts = read_texts([Path(p) for p in Path(args.list).read_text(encoding="utf-8").splitlines()])
    if args.row == "reference":
        out = row_reference(texts, args.lang)
    elif args.row.startswith("detect:"):
        out = row_detect(texts, args.row.split(":", 1)[1])
    elif args.row == "datasketch":
        out = row_datasketch(texts)
    elif args.row == "sanchez":
        out = row_sanchez(texts, args.sample)
    elif args.row == "count":
        _, splitter = _tokenizer_and_splitter()
        out = {"sentences": sum(len(splitter.split(text)) for _, text in texts)}
    else:
        raise SystemExit(f"bench: unknown row {args.row}")
    Path(args.result).write_text(json.dumps(out))


def row_gold_datasketch(gold_root: str) -> dict:
    """The datasketch pipeline on the gold set: sentence-pair precision, recall, F1."""
    from partialdup.eval.goldset import load_goldset
    from partialdup.eval.metrics import pair_score

    gold = load_goldset(gold_root)
    tokenizer = _loaded_tokenizer()
    start = time.perf_counter()
    sources = [r for r in sentence_words(sorted(gold.sources.items()), tokenizer) if len(r[3]) >= MIN_TOKENS]
    suspicious = [r for r in sentence_words(sorted(gold.suspicious.items()), tokenizer) if len(r[3]) >= MIN_TOKENS]
    allowed = set(gold.pairs)
    pairs = minhash_pairs(suspicious, sources, lambda a, b: (a, b) in allowed)
    seconds = time.perf_counter() - start
    score = pair_score(gold.sentence_pairs, [(a[0], a[1], a[2], b[0], b[1], b[2]) for a, b in pairs])
    return {"seconds": seconds, "precision": score.precision, "recall": score.recall, "f1": score.f1}


