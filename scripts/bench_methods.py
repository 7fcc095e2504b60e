"""Measure the de-duplication method cores on the repository's real sentences.

Prints what docs/methods.md reports:

* the speed of each core (fast path, and its plain reference on a subset)
  on the distinct real sentences of ``goldenset/src``, ``goldenset/susp``
  and ``samples/`` (split with SentenceSplitter, tokenized with the
  Tokenizer);
* the Bloom filter's measured false-positive rate against its design rate,
  100,000 real keys inserted (the ~70,000 distinct sentences, then distinct
  neighbouring pairs of sentences), the rest probed; rbloom beside it when
  installed (``pip install -e ".[bench]"``);
* the permuted tables against brute force (same pairs, time);
* LSH recall against the brute-force pairs of the same signatures.

Run from the repository root: ``python scripts/bench_methods.py [--subset N]``.

``--plot`` draws ``docs/methods.png`` from measured ``partialdup eval --json``
rows instead (no measuring here): the gold set's rows and, per edit level,
the rows of ``goldenset/edits/rX``::

    partialdup eval goldenset --json > gold.jsonl
    for r in 0.1 0.2 0.3; do partialdup eval goldenset/edits/r$r --json > r$r.jsonl; done
    python scripts/bench_methods.py --plot gold.jsonl --edits r0.1=r0.1.jsonl r0.2=r0.2.jsonl r0.3=r0.3.jsonl
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' real-text pool

from partialdup.index.hamming import hamming_join, hamming_join_reference  # noqa: E402
from partialdup.index.lsh import choose_bands, lsh_join, lsh_join_reference  # noqa: E402
from partialdup.methods.exact import BloomFilter, DigitTrie, false_positive_rate  # noqa: E402
from partialdup.methods.minhash import MinHash, signature_reference  # noqa: E402
from partialdup.methods.pinyin import Pinyin  # noqa: E402
from partialdup.methods.setsim import jaccard, word_set  # noqa: E402
from partialdup.methods.simhash import simhash_many, simhash_reference, token_weights  # noqa: E402
from partialdup.text.resources import load_idf  # noqa: E402
from partialdup.text.tokens import Tokenizer  # noqa: E402
from tests.methods.realtext import real_keys, real_sentences  # noqa: E402

INSERTED = 100_000


def timed(function: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def rate(label: str, seconds: float, count: int) -> None:
    print(f"  {label:44} {seconds:8.3f} s  {count / seconds if seconds else float('inf'):12,.0f} /s  ({count:,})")


def bench_cores(tokens: list[list[str]], subset: int, idf: Any) -> np.ndarray:
    print(f"cores on {len(tokens):,} real sentences (reference on the first {subset:,})")
    weights, seconds = timed(lambda: [token_weights(t, idf=idf) for t in tokens])
    rate("SimHash weights (tf-idf, stop words out)", seconds, len(tokens))
    fingerprints, seconds = timed(lambda: simhash_many(weights))
    rate("SimHash fingerprints, NumPy (simhash_many)", seconds, len(tokens))
    reference, seconds = timed(lambda: [simhash_reference(w) for w in weights[:subset]])
    rate("SimHash fingerprints, plain reference", seconds, subset)
    assert reference == fingerprints[:subset].tolist()
    for variant, size in (("multi", 128), ("one", 128)):
        method = MinHash(permutations=size, variant=variant, shingle=1)
        _, seconds = timed(lambda: [method.fingerprint(t) for t in tokens])
        rate(f"MinHash {variant} ({size}), NumPy", seconds, len(tokens))
    method = MinHash(permutations=128, shingle=1)
    elements = [method.elements(t) for t in tokens[:subset]]
    _, seconds = timed(lambda: [signature_reference(e.tolist(), method._a.tolist(), method._b.tolist()) for e in elements])
    rate("MinHash multi (128), plain reference", seconds, subset)
    sets, seconds = timed(lambda: [word_set(t) for t in tokens])
    rate("word sets (Jaccard, short-text Jaccard)", seconds, len(tokens))
    _, seconds = timed(lambda: [jaccard(sets[i], sets[i + 1]) for i in range(len(sets) - 1)])
    rate("Jaccard of neighbouring sentences, NumPy", seconds, len(sets) - 1)
    pinyin = Pinyin()
    _, seconds = timed(lambda: [pinyin.bag(t) for t in tokens])
    rate("pinyin first-letter codes", seconds, len(tokens))
    return np.asarray(fingerprints)


def bench_bloom() -> None:
    keys = real_keys()
    inserted, probes = list(keys[:INSERTED]), list(keys[INSERTED:])
    print(f"exact stage: {len(real_sentences()):,} distinct sentences + {INSERTED - len(real_sentences()):,} "
          f"neighbouring pairs inserted, {len(probes):,} other pairs probed")
    for target in (0.01, 0.001):
        bloom = BloomFilter(INSERTED, target)
        _, add_seconds = timed(lambda: bloom.add_many(inserted))
        found, probe_seconds = timed(lambda: bloom.contains_many(probes))
        print(f"  ours  p={target:<6} m={bloom.bits:,} bits k={bloom.positions}: measured FP {false_positive_rate(found):.5f}, "
              f"design {bloom.design_rate():.5f}; add {INSERTED / add_seconds:,.0f}/s, probe {len(probes) / probe_seconds:,.0f}/s")
        plain = BloomFilter(INSERTED, target)
        _, seconds = timed(lambda: [plain.add(k) for k in inserted])
        print(f"        plain reference add {INSERTED / seconds:,.0f}/s")
        bench_rbloom(inserted, probes, target)
    trie = DigitTrie()
    _, seconds = timed(lambda: [trie.add(k) for k in inserted])
    fp = false_positive_rate(k in trie for k in probes)
    print(f"  Trie over hashed digits: add {INSERTED / seconds:,.0f}/s, {trie.nodes:,} nodes, measured FP {fp:.5f}")


def bench_rbloom(inserted: list[str], probes: list[str], target: float) -> None:
    try:
        from rbloom import Bloom
    except ImportError:
        print("        rbloom not installed (pip install -e '.[bench]')")
        return
    import hashlib

    def stable(key: str) -> int:  # rbloom's default is the salted hash(): give it a stable 128-bit one
        return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=16).digest(), "big", signed=True)

    bloom = Bloom(INSERTED, target, stable)
    _, add_seconds = timed(lambda: bloom.update(inserted))
    found, probe_seconds = timed(lambda: [k in bloom for k in probes])
    print(f"        rbloom: measured FP {false_positive_rate(found):.5f}, {bloom.size_in_bits:,} bits; "
          f"add {INSERTED / add_seconds:,.0f}/s, probe {len(probes) / probe_seconds:,.0f}/s")


def bench_hamming(fingerprints: np.ndarray, subset: int) -> None:
    empty = int(np.count_nonzero(fingerprints == 0))
    print(f"permuted tables (SimHash of sentences, self-join; {empty:,} sentences have no word left after stop words "
          "and fingerprint 0, so they are all pairwise within any k)")
    for k in (3, 4):
        pairs, seconds = timed(lambda: hamming_join(fingerprints, None, k))
        print(f"  k={k}: {pairs.query.size:,} pairs within {k} bits among {fingerprints.size:,}, "
              f"{pairs.candidates:,} candidates verified, {seconds:.3f} s")
        part = fingerprints[:subset]
        fast = hamming_join(part, None, k)
        brute, brute_seconds = timed(lambda: hamming_join_reference(part.tolist(), None, k))
        same = list(zip(fast.query.tolist(), fast.key.tolist(), fast.distance.tolist())) == brute
        print(f"        first {subset:,}: same pairs as brute force: {same} ({len(brute):,}); brute force {brute_seconds:.1f} s")


def bench_lsh(tokens: list[list[str]], subset: int) -> None:
    method = MinHash(permutations=128, shingle=1)
    chosen = [t for t in tokens if len(set(t)) >= 5][:subset]
    signatures = np.stack([method.fingerprint(t) for t in chosen])
    print(f"LSH on {len(chosen):,} real sentences of 5+ distinct words (128 hash functions, word sets)")
    reference, seconds = timed(lambda: lsh_join_reference(signatures, 0.5))
    print(f"  brute force: {seconds:.1f} s")
    for threshold in (0.5, 0.7, 0.9):
        truth = {(i, j) for i, j, s in reference if s >= threshold}
        for fn_weight in (0.5, 0.8):
            bands, rows = choose_bands(threshold, 128, fp_weight=1 - fn_weight, fn_weight=fn_weight)
            found, seconds = timed(lambda: lsh_join(signatures, threshold, bands, rows))
            hits = set(zip(found.first.tolist(), found.second.tolist()))
            recall = len(hits & truth) / len(truth) if truth else 1.0
            print(f"  tau={threshold} fn weight {fn_weight}: b={bands} r={rows}, recall {recall:.3f} of {len(truth):,} pairs, "
                  f"{found.candidates:,} candidates, {seconds:.3f} s")


def _rows(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """method -> its eval row (the first row of each method), in file order."""
    import json

    rows: dict[str, dict[str, Any]] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows.setdefault(row["method"], row)
    return rows


def plot_methods(gold: dict[str, dict[str, Any]], edits: dict[str, dict[str, dict[str, Any]]], out: Path) -> None:
    """Two panels: what each method finds where (plagdet per kind of copy and
    edit level, F1 of sentence pairs), and what it costs (compare time, index bytes)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    methods = list(gold) + [m for level_rows in edits.values() for m in level_rows if m not in gold]
    methods = list(dict.fromkeys(methods))  # a method without a gold row has only its edit cells
    kinds = sorted({kind for row in gold.values() for kind in row["by_kind"]})
    columns = ["F1 pairs", "plagdet", *kinds, *(f"random {lang} {level}" for level in edits for lang in ("en", "zh"))]
    values = np.full((len(methods), len(columns)), np.nan)
    for i, method in enumerate(methods):
        row = gold.get(method)
        if row is not None:
            values[i, :2] = row["f1"], row["plagdet"]
            values[i, 2 : 2 + len(kinds)] = [row["by_kind"].get(kind, np.nan) for kind in kinds]
        j = 2 + len(kinds)
        for level, level_rows in edits.items():
            for lang in ("en", "zh"):
                edited = level_rows.get(method)
                values[i, j] = edited["by_kind"].get(f"random {lang}", np.nan) if edited else np.nan
                j += 1
    figure, (left, right) = plt.subplots(1, 2, figsize=(18, 0.45 * len(methods) + 3), gridspec_kw={"width_ratios": [3, 1.3]})
    image = left.imshow(values, cmap="viridis", vmin=0.5, vmax=1.0, aspect="auto")
    left.set_xticks(range(len(columns)), columns, rotation=60, ha="right", fontsize=8)
    left.set_yticks(range(len(methods)), methods, fontsize=9)
    for (i, j), value in np.ndenumerate(values):
        if not np.isnan(value):
            left.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=6.5, color="white" if value < 0.75 else "black")
    left.set_title("gold set: F1 of sentence pairs, plagdet per kind of copy; edit slices: plagdet of random edits")
    figure.colorbar(image, ax=left, fraction=0.02)
    for method in gold:
        row = gold[method]
        right.scatter(row["compare_seconds"] + row["index_seconds"], row["index_bytes"] / 1e6, s=25)
        right.annotate(method, (row["compare_seconds"] + row["index_seconds"], row["index_bytes"] / 1e6), fontsize=7,
                       xytext=(3, 2), textcoords="offset points")
    right.set_xlabel("index + compare seconds on the gold set (one 2-core machine, shared)")
    right.set_ylabel("index bytes (MB, 8 per feature + 6 per posting)")
    right.set_yscale("log")
    right.set_title("cost")
    figure.tight_layout()
    figure.savefig(out, dpi=110)
    print(f"wrote {out}")


def pair_acceptance(root: Path) -> None:
    """Per method, the share of a gold set's copied sentence pairs its fingerprint
    alone accepts at its default τ (no index, no sequence matching): short
    sentences (at most 8 tokens) and longer ones, as copied, and with the
    copy's words reversed (word order changed, words kept)."""
    from partialdup.core.config import Config
    from partialdup.eval.goldset import load_goldset
    from partialdup.methods.base import build_method, method_names, resolved_threshold

    tokenizer, idf = Tokenizer(), load_idf()
    gold = load_goldset(root)
    texts = {**gold.sources, **gold.suspicious}
    pairs = [(tokenizer.words(texts[a][s:e]), tokenizer.words(texts[b][u:v])) for a, s, e, b, u, v in gold.sentence_pairs]
    pairs = [(x, y) for x, y in pairs if x and y]
    print(f"{len(pairs):,} gold sentence pairs of {root}; share accepted by the fingerprint alone at the method's tau")
    print(f"{'method':15s} {'short (<=8)':>12s} {'longer':>8s} {'reversed':>9s}")
    for name in method_names():
        method = build_method(Config(), idf, name)
        tau = resolved_threshold(Config(method=name))

        def accepted(x: list[str], y: list[str]) -> bool:
            first, second = method.bag(x), method.bag(y)
            return bool(first) and bool(second) and method.similarity(first, second) >= tau - 1e-9

        short = [accepted(x, y) for x, y in pairs if len(x) <= 8]
        longer = [accepted(x, y) for x, y in pairs if len(x) > 8]
        reversed_ = [accepted(x[::-1], y) for x, y in pairs]
        print(f"{name:15s} {np.mean(short):12.3f} {np.mean(longer):8.3f} {np.mean(reversed_):9.3f}   (n = {len(short)}, {len(longer)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subset", type=int, default=3000, help="sentences for the plain references and brute force")
    parser.add_argument("--plot", nargs="+", type=Path, metavar="ROWS", help="gold-set eval rows (JSONL): draw the figure only")
    parser.add_argument("--edits", nargs="*", default=[], metavar="LEVEL=ROWS", help="edit-level eval rows, as r0.1=FILE")
    parser.add_argument("--out", type=Path, default=Path("docs/methods.png"), help="the figure (default docs/methods.png)")
    parser.add_argument("--pairs", type=Path, metavar="GOLDSET", help="only: share of the gold sentence pairs each fingerprint accepts")
    args = parser.parse_args()
    if args.pairs:
        pair_acceptance(args.pairs)
        return
    if args.plot:
        edits = {level: _rows([Path(path)]) for level, _, path in (item.partition("=") for item in args.edits)}
        plot_methods(_rows(args.plot), edits, args.out)
        return
    tokenizer, idf = Tokenizer(), load_idf()
    sentences = real_sentences()
    tokens, seconds = timed(lambda: [tokenizer.words(s) for s in sentences])
    print(f"{len(sentences):,} distinct real sentences tokenized in {seconds:.1f} s (shared by every method)")
    fingerprints = bench_cores(tokens, args.subset, idf)
    bench_bloom()
    bench_hamming(fingerprints, args.subset)
    bench_lsh(tokens, args.subset)


if __name__ == "__main__":
    main()
