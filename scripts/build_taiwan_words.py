"""Write ``partialdup/data/taiwan_words.tsv``: Taiwan words for jieba, in Simplified script.

The tokenizer matches Traditional text in Simplified script (OpenCC t2s, per
character) and gives Taiwan and mainland usage one form per word (OpenCC
s2twp then tw2sp, per jieba word). That only works for a Taiwan word jieba
sees as one word: converted to Simplified characters, 位元組 is 位元组, which
jieba's dictionary lacks, so it cuts it into 位元 / 组 and the mainland 字节
never meets it. This script lists every word of jieba's dictionary whose
Taiwan phrasing differs from its plain Traditional form (OpenCC s2twp against
s2t), in the Simplified characters the tokenizer sees (t2s), with the
mainland word's frequency, so that jieba keeps those words whole. Words
jieba already knows are left out (their frequency stays jieba's).

    python scripts/build_taiwan_words.py

Deterministic: the words come in the order of jieba's dictionary. The output
records the jieba and OpenCC versions it was made from.
"""

from __future__ import annotations

import argparse
from importlib import metadata
from pathlib import Path

import jieba
import opencc

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "partialdup" / "data" / "taiwan_words.tsv"


def taiwan_words(dictionary: Path) -> list[tuple[str, int, str]]:
    """(Taiwan word in Simplified script, frequency, mainland word): words jieba lacks, in dictionary order, once each."""
    plain, phrased, simplified = opencc.OpenCC("s2t"), opencc.OpenCC("s2twp"), opencc.OpenCC("t2s")
    entries = [line.split()[:2] for line in dictionary.read_text(encoding="utf-8").splitlines() if line.strip()]
    # Words jieba knows keep their own frequency: only new words are added,
    # so the segmentation of mainland text does not change.
    seen = {word for word, _ in entries}
    found = []
    for word, frequency in entries:
        if len(word) < 2:
            continue
        taiwan = phrased.convert(word)
        if taiwan == plain.convert(word):
            continue  # no phrase of its own in Taiwan usage
        form = simplified.convert(taiwan)
        if form not in seen:
            seen.add(form)
            found.append((form, int(frequency), word))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    dictionary = Path(jieba.__file__).resolve().parent / "dict.txt"
    words = taiwan_words(dictionary)
    header = (
        f"# Taiwan words in Simplified script for jieba, made by scripts/build_taiwan_words.py from jieba "
        f"{metadata.version('jieba')} dict.txt (MIT) and OpenCC {metadata.version('opencc')} s2t/s2twp/t2s "
        f"(Apache-2.0). word<TAB>frequency<TAB>mainland word\n"
    )
    with args.output.open("w", encoding="utf-8", newline="\n") as out:
        out.write(header)
        for form, frequency, word in words:
            out.write(f"{form}\t{frequency}\t{word}\n")
    print(f"{len(words)} words written to {args.output}")


if __name__ == "__main__":
    main()
