"""Stable hashing: the same 64-bit value for the same tokens on every machine.

Python's ``hash()`` of a string is salted per process, so it must never reach
an index, an output or an order.
"""

from __future__ import annotations

import hashlib
from typing import Iterable, Sequence

__all__ = ["stable_hash", "stable_hashes", "SEPARATOR"]

#: Joins a feature's tokens; cannot occur inside a token (tokens never hold control characters).
SEPARATOR = "\x1f"


def stable_hash(parts: Sequence[str]) -> int:
    """Hash a feature's tokens to an unsigned 64-bit integer.

    Stable across processes and machines (BLAKE2b), unlike the salted ``hash()``.

    Args:
        parts: The feature's tokens in order.

    Returns:
        An integer in ``[0, 2**64)``.
    """
    digest = hashlib.blake2b(SEPARATOR.join(parts).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def stable_hashes(joined: Iterable[str]) -> list[int]:
    """:func:`stable_hash` of each feature given already joined by
    :data:`SEPARATOR` (a one-part feature is itself): one call for a
    sentence's features instead of one per feature (hundreds of thousands
    per run; a test checks they agree)."""
    blake2b, from_bytes = hashlib.blake2b, int.from_bytes
    return [from_bytes(blake2b(text.encode("utf-8"), digest_size=8).digest(), "big") for text in joined]
