"""Speed of partialdup measured in one run against reference costs.

Over the same documents it times, after every model is loaded:
  * plain jieba segmentation (``jieba.Tokenizer().lcut``) of the whole text,
  * ``Detector.detect`` with Low-IDF-Sig (defaults) and with 3-Shingle,
  * datasketch MinHash (128 permutations) + MinHashLSH over the same sentences'
    3-shingles, when datasketch is installed,
and prints documents/s, characters/s and ratios to jieba. The machine is
shared and noisy: each step runs ``--repeat`` times and the best time counts.

    python scripts/bench.py goldenset/src goldenset/susp
"""

from __future__ import annotations

import argparse
import time
from typing import Callable

from partialdup.pipeline.factory import make_detector
from partialdup.io.reader import read_documents
from partialdup.text.resources import load_idf
from partialdup.text.sentences import SentenceSplitter
from partialdup.text.tokens import Tokenizer


def best_time(step: Callable[[], object], repeat: int, setup: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        setup()  # untimed
        start = time.perf_counter()
        step()
        best = min(best, time.perf_counter() - start)
    return best


def datasketch_step(texts: list[str], splitter: SentenceSplitter, tokenizer: Tokenizer) -> Callable[[], object]:
    from datasketch import MinHash, MinHashLSH

    def run() -> object:
        lsh = MinHashLSH(threshold=0.6, num_perm=128)
        for d, text in enumerate(texts):
            for s in splitter.split(text):
                words = [t.text for t in tokenizer.tokenize(text, s.start, s.end)]
                sketch = MinHash(num_perm=128)
                for i in range(max(1, len(words) - 2)):
                    sketch.update(" ".join(words[i : i + 3]).encode("utf-8"))
                lsh.query(sketch)
                lsh.insert(f"{d}:{s.index}", sketch)
        return lsh

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-datasketch", action="store_true")
    args = parser.parse_args()
    docs = read_documents(args.paths).documents
    texts = [d.text for d in docs]
    chars = sum(len(t) for t in texts)

    import jieba

    segmenter = jieba.Tokenizer()
    segmenter.initialize()
    tokenizer, splitter, idf = Tokenizer(), SentenceSplitter(), load_idf()
    low = make_detector("low-idf-sig", idf, tokenizer=tokenizer, splitter=splitter)
    shingle = make_detector("3-shingle", idf, tokenizer=tokenizer, splitter=splitter)

    steps: dict[str, Callable[[], object]] = {
        "jieba.lcut": lambda: [segmenter.lcut(t) for t in texts],
        "partialdup detect (low-idf-sig)": lambda: low.detect(docs),
        "partialdup detect (3-shingle)": lambda: shingle.detect(docs),
    }
    if not args.no_datasketch:
        try:
            steps["datasketch MinHash+LSH (3-shingles)"] = datasketch_step(texts, splitter, tokenizer)
        except ImportError:
            print("datasketch not installed: pip install datasketch (skipped)")
    print(f"{len(docs)} documents, {chars} characters, best of {args.repeat}")
    print(f"{'step':40} {'seconds':>8} {'docs/s':>9} {'chars/s':>11} {'x jieba':>8}")
    reference = None
    for name, step in steps.items():
        # Every run starts cold: the tokenizer forgets the jieba segmentations
        # it remembered (recurring runs are segmented once per run, not once).
        seconds = best_time(step, args.repeat, tokenizer.clear_cache)
        reference = reference or seconds
        print(f"{name:40} {seconds:8.3f} {len(docs) / seconds:9.1f} {chars / seconds:11.0f} {seconds / reference:8.2f}")


if __name__ == "__main__":
    main()
