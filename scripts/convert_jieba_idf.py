"""Convert jieba's IDF table (jieba/analyse/idf.txt) into idf/zh.tsv.

Keys are normalised the way partialdup's tokenizer normalises tokens (NFKC,
case folding, Traditional -> Simplified, one form for Taiwan and mainland
words); when two keys collapse into one, the lower IDF (the more frequent
form) is kept.

    python scripts/convert_jieba_idf.py -o idf/zh.tsv
"""

from __future__ import annotations

import argparse
import importlib.metadata
from pathlib import Path

import jieba

from partialdup.text.idf import IdfTable
from partialdup.text.tokens import Tokenizer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default="idf/zh.tsv")
    args = parser.parse_args()
    source = Path(jieba.__file__).parent / "analyse" / "idf.txt"
    tokenizer = Tokenizer()
    values: dict[str, float] = {}
    for line in source.read_text(encoding="utf-8").splitlines():
        word, _, number = line.strip().rpartition(" ")
        if not word:
            continue
        key = tokenizer.match_form(word)
        idf = float(number)
        if key and (key not in values or idf < values[key]):
            values[key] = idf
    version = importlib.metadata.version("jieba")
    header = (
        f"Chinese IDF table: jieba {version}, jieba/analyse/idf.txt (MIT licence),\n"
        f"keys normalised by partialdup (NFKC, casefold, t2s, s2twp+tw2sp); {len(values)} entries.\n"
        "Rebuild: python scripts/convert_jieba_idf.py -o idf/zh.tsv"
    )
    IdfTable(values).save(args.output, header=header)


if __name__ == "__main__":
    main()
