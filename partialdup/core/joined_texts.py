"""Many short texts held as one string, to send to another process.

``detect`` sends the texts of its near misses' sentences to a helper that
judges them (:class:`~partialdup.match.verify.NearSentences`): 66,739
texts on the English bench corpus. Pickled as a list, each text is an object
of the message and an entry of the pickler's memo: making the message took
24 MB more (traced), in the look-ups. :class:`JoinedTexts` holds them as one string of UTF-8
bytes and an array of ends (one Python string would take the width of its
widest character, 4 bytes a character for one emoji) and pickles as they
are: a text is decoded when it is read.
"""

from __future__ import annotations

import pickle
from array import array
from collections.abc import Sequence
from typing import Any, Iterable, Iterator

import numpy as np

from partialdup.core.chars import SURROGATES
from partialdup.core.text_sequence import TextSequence

__all__ = ["JoinedTexts"]


class JoinedTexts(TextSequence):
    """Texts laid end to end in one string of UTF-8 bytes; a sequence of
    the texts (None where a text is absent), each decoded when it is read.

    Args:
        joined: The texts, one after the other, encoded (any bytes-like
            object: out of band, pickle hands back a memoryview).
        ends: Where each text ends in ``joined`` (int64, in bytes).
        absent: Which texts are absent (bool; they take no bytes).
    """

    __slots__ = ("_joined", "_ends", "_absent")

    def __init__(self, joined: bytes | bytearray | memoryview, ends: np.ndarray, absent: np.ndarray) -> None:
        if len(ends) != len(absent) or (len(ends) and int(ends[-1]) != len(joined)):
            raise ValueError(f"{len(ends)} ends and {len(absent)} marks do not lay out {len(joined)} bytes")
        self._joined, self._ends, self._absent = joined, np.asarray(ends, np.int64), np.asarray(absent, bool)

    @classmethod
    def of(cls, texts: Iterable[str | None]) -> JoinedTexts:
        """The texts, joined: each encoded and laid down as it comes (the
        texts and their encodings listed first held 12 MB more than the
        joined bytes, the English bench corpus's calling process's peak,
        traced)."""
        joined, ends, absent = bytearray(), array("q"), array("b")
        for text in texts:
            if text is not None:
                joined += text.encode("utf-8", SURROGATES)
            ends.append(len(joined))
            absent.append(text is None)
        return cls(joined, np.array(ends, np.int64), np.array(absent, bool))

    def __len__(self) -> int:
        return len(self._ends)

    def _text(self, number: int) -> str | None:
        if self._absent[number]:
            return None
        end = int(self._ends[number])
        start = int(self._ends[number - 1]) if number % len(self) else 0
        return str(self._joined[start:end], "utf-8", SURROGATES)

    def __iter__(self) -> Iterator[str | None]:
        return (self[k] for k in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        # From protocol 5 on the bytes may travel out of band (pipeline/messages.py).
        joined = pickle.PickleBuffer(self._joined) if isinstance(protocol, int) and protocol >= 5 else self._joined
        return JoinedTexts, (joined, self._ends, self._absent)
