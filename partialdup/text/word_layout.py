"""Where a segmenter's words lie: the blocks a backend cuts and each word's start.

jieba segments only the characters ``\\u4e00-\\u9fd5`` with its dictionary
and HMM; any other character of a Han run is a word of its own there. So a
run is laid out (:func:`layouts`) as blocks the backend cuts and lone
characters, and its words are put back together from that layout
(:func:`assembled`, :func:`located`). The blocks of one call are joined by
line breaks, and the backend's words cut back into each block's
(:func:`split_joined`). In jieba's full and search modes the words overlap:
:func:`word_starts` says where each starts. Used by
:class:`~partialdup.text.segmenters.Segmenter`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Iterator, Sequence

import regex

__all__ = [
    "JOIN", "assembled", "assembled_runs", "layouts", "layouts_py", "located", "split_joined", "uneven_layouts", "word_starts",
]

#: The characters jieba (0.42) segments with its dictionary and HMM; any
#: other character of a Han run is a word of its own there.
_JIEBA_HAN = "\u4e00-\u9fd5"
_FIRST, _LAST = "\u4e00", "\u9fd5"
_BLOCK = regex.compile(f"[{_JIEBA_HAN}]+|[^{_JIEBA_HAN}]")
#: Finds the characters outside them (one C scan, where ``min`` and ``max``
#: make a string of each character).
_OUTSIDE_JIEBA_HAN_ALL = re.compile(f"[^{_JIEBA_HAN}]").finditer

#: What joins the blocks of one call: not a jieba block character, and a
#: word of its own in both backends.
JOIN = "\n"
#: What no Han run holds: marks word boundaries inside one string.
_MARK = "\0"


def layouts(runs: Sequence[str]) -> tuple[list[str], list[list[int | str]] | None]:
    """The blocks the backend cuts, and each run's layout: block numbers and
    lone characters (words of their own, as jieba gives them); None when
    every run is one block (the usual case, told by one look at all the
    characters), block ``k`` being run ``k``. :func:`layouts_py` is the
    reference; :func:`uneven_layouts` gives only the runs that are not one
    block."""
    blocks, uneven = uneven_layouts(runs)
    if runs and not uneven:
        return blocks, None
    laid: list[list[int | str]] = []
    for first, even, layout in _walked(len(runs), uneven):
        laid.extend([first + k] for k in range(even))
        if layout is not None:
            laid.append(layout)
    return blocks, laid


def uneven_layouts(runs: Sequence[str]) -> tuple[list[str], list[tuple[int, list[int | str]]]]:
    """The blocks the backend cuts, and the layout of each run that is not
    one block (run number, layout), in order: every other run is a block
    of its own, in order between them (:func:`assembled_runs` puts the
    runs' words back together).

    The runs holding a character outside the blocks' (90 of the 164,772
    runs of the Chinese bench corpus) are found by one search of all the
    characters, the others laid out as one block each without a look at
    their characters: 0.70 s to 0.07 s there, where each run was read for
    its least and greatest character. Only those 90 get a layout of their
    own: a list and a call for every run, made as soon as one run of a call
    was uneven, were a sixth of the tokenizer's work on the segmenter's
    side with the corpus's runs in one call (too little to measure in
    ``detect``'s batches of 200,000 characters).
    """
    joined = "".join(runs)
    outside = [match.start() for match in _OUTSIDE_JIEBA_HAN_ALL(joined)]
    if not outside and all(runs):
        return list(runs), []
    lengths = list(map(len, runs))
    ends = list(accumulate(lengths))
    numbers = {bisect_right(ends, position) for position in outside}
    if 0 in lengths:  # an empty run is laid out as nothing
        numbers.update(number for number, length in enumerate(lengths) if not length)
    blocks: list[str] = []
    uneven: list[tuple[int, list[int | str]]] = []
    first = 0  # the first run not laid out yet
    for number in sorted(numbers):
        blocks.extend(runs[first:number])  # a block each, in one go
        uneven.append((number, _layout(runs[number], blocks)))
        first = number + 1
    blocks.extend(runs[first:])
    return blocks, uneven


def assembled_runs(
    count: int, uneven: Sequence[tuple[int, list[int | str]]], words: Sequence[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    """The words of each of ``count`` runs laid out by
    :func:`uneven_layouts`, from the words of its blocks: the even runs'
    taken by slices, each uneven one :func:`assembled`."""
    out: list[tuple[str, ...]] = []
    for first, even, layout in _walked(count, uneven):
        out.extend(words[first : first + even])
        if layout is not None:
            out.append(assembled(layout, words))
    return out


def _walked(
    count: int, uneven: Sequence[tuple[int, list[int | str]]]
) -> Iterator[tuple[int, int, list[int | str] | None]]:
    """Runs of :func:`uneven_layouts` in order, in steps: the first block
    and the number of the even runs (a block each) before an uneven run,
    and its layout (None after the last run)."""
    block = done = 0
    for number, layout in [*uneven, (count, None)]:
        yield block, number - done, layout
        block += number - done + (sum(isinstance(item, int) for item in layout) if layout is not None else 0)
        done = number + 1


def layouts_py(runs: Sequence[str]) -> tuple[list[str], list[list[int | str]] | None]:
    """The reference for :func:`layouts`: each run laid out on its own."""
    if runs and all(runs) and all(_FIRST <= min(run) and max(run) <= _LAST for run in runs):
        return list(runs), None
    blocks: list[str] = []
    return blocks, [_layout(run, blocks) for run in runs]


def _layout(run: str, blocks: list[str]) -> list[int | str]:
    """One run's layout, its blocks appended to ``blocks``."""
    layout: list[int | str] = []
    for piece in _BLOCK.findall(run):
        if not _FIRST <= piece[0] <= _LAST:
            layout.append(piece)  # a word of its own, as jieba gives it
        else:
            layout.append(len(blocks))
            blocks.append(piece)
    return layout


def located(
    layout: list[int | str], words: Sequence[tuple[str, ...]], starts: Sequence[tuple[int, ...]], blocks: Sequence[str]
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """A run's words and their starts in the run, from its layout."""
    run_words: list[str] = []
    run_starts: list[int] = []
    offset = 0
    for item in layout:
        if isinstance(item, int):
            run_words.extend(words[item])
            run_starts.extend(offset + start for start in starts[item])
            offset += len(blocks[item])
        else:
            run_words.append(item)
            run_starts.append(offset)
            offset += len(item)
    return tuple(run_words), tuple(run_starts)


def word_starts(
    block: str, words: Sequence[str], mode: str, accurate: Sequence[str] = (), every_char: bool = False
) -> tuple[int, ...]:
    """Where each word of ``block`` (in the order the backend gave them) starts.

    ``accurate``: the words partition the block, one after the other.
    ``full``: words come by start, every dictionary word of two characters
    or more at each start; so a word is looked for from the previous word's
    start, skipping the places where the same word was already given. Lone
    characters: jieba-rs gives every character too (``every_char``), in the
    same order; jieba only one that no word given before reaches, so it is
    looked for from the previous word's end. ``search``: each accurate word (``accurate``, the
    same backend's ``cut``) comes after the dictionary words of two, then
    three, characters inside it, each length in order of start.

    Every start is a place where the word is (``block[start:start + len(word)] == word``).
    """
    if mode == "accurate":
        return tuple(_partition_starts(words))
    if mode == "search":
        return _search_starts(block, words, accurate)
    starts: list[int] = []
    taken: set[tuple[int, str]] = set()
    last_start = last_end = 0
    for word in words:
        floor = last_end if len(word) == 1 and not every_char else last_start
        start = _find_free(block, word, floor, taken)
        taken.add((start, word))
        starts.append(start)
        last_start, last_end = start, start + len(word)
    return tuple(starts)


def _partition_starts(words: Sequence[str]) -> list[int]:
    starts, position = [], 0
    for word in words:
        starts.append(position)
        position += len(word)
    return starts


def _find_free(block: str, word: str, floor: int, taken: set[tuple[int, str]]) -> int:
    """The first place at or after ``floor`` (else anywhere) where ``word``
    is and was not given yet."""
    for low in (floor, 0):
        start = block.find(word, low)
        while start >= 0 and (start, word) in taken:
            start = block.find(word, start + 1)
        if start >= 0:
            return start
    return block.find(word)  # every place taken: never expected, still a true place


def _search_starts(block: str, words: Sequence[str], accurate: Sequence[str]) -> tuple[int, ...]:
    starts: list[int] = []
    pending: list[str] = []
    position = 0
    plain = iter(accurate)
    expected = next(plain, None)
    for word in words:
        if word != expected:
            pending.append(word)  # a shorter word inside the next accurate word
            continue
        starts.extend(_inner_starts(block, pending, position, position + len(word)))
        starts.append(position)
        pending = []
        position += len(word)
        expected = next(plain, None)
    # Never expected (the two cuts disagreeing): the rest looked for in order.
    starts.extend(_inner_starts(block, pending, position, len(block)))
    return tuple(starts)


def _inner_starts(block: str, words: Sequence[str], low: int, high: int) -> list[int]:
    """Starts of the two- then three-character words inside ``block[low:high]``,
    each length in order of start."""
    starts: list[int] = []
    floor, length = low, 0
    for word in words:
        if len(word) != length:
            floor, length = low, len(word)
        start = block.find(word, floor, high)
        if start < 0:
            start = max(block.find(word), 0)  # never expected: still a true place
        starts.append(start)
        floor = start + 1
    return starts


def assembled(layout: list[int | str], words: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    """A run's words from its layout: block numbers (their words) and lone
    characters (words of their own)."""
    if len(layout) == 1 and isinstance(layout[0], int):
        return words[layout[0]]
    return tuple(word for item in layout for word in (words[item] if isinstance(item, int) else (item,)))


def split_joined(words: Sequence[str], blocks: Sequence[str], text: str) -> list[tuple[str, ...]] | None:
    """The words of ``text`` (``JOIN.join(blocks)``) cut back into each
    block's words, or None when some word does not end at a block's end.

    The words of a cut partition its text; when they do here and there are
    as many ``JOIN`` words as blocks less one, every ``JOIN`` of the text
    is a word of its own, and the words between are the blocks'. (Done with
    string operations, a marker between the words: Han runs hold no NUL.)
    """
    marked = _MARK.join(words)
    groups = marked.split(_MARK + JOIN + _MARK)
    if len(groups) != len(blocks) or marked.replace(_MARK, "") != text:
        return None
    if _MARK + _MARK in marked or marked.startswith(_MARK) or marked.endswith(_MARK):
        return None  # an empty word
    return [tuple(group.split(_MARK)) for group in groups]
