"""A read-only sequence of texts, each made when it is read.

:class:`TextSequence` gives a subclass's :meth:`~TextSequence._text` the
``Sequence`` protocol: a number reads one text, a slice a list of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional, overload

__all__ = ["TextSequence"]


class TextSequence(Sequence[Optional[str]]):
    """Texts (None where one is absent) read one at a time by number;
    a subclass gives ``__len__`` and :meth:`_text`."""

    __slots__ = ()

    def _text(self, number: int) -> str | None:
        """The text at ``number`` (as a sequence indexes: negative from the end)."""
        raise NotImplementedError

    @overload
    def __getitem__(self, number: int) -> str | None: ...

    @overload
    def __getitem__(self, number: slice) -> list[str | None]: ...

    def __getitem__(self, number: int | slice) -> str | None | list[str | None]:
        if isinstance(number, slice):
            return [self._text(k) for k in range(*number.indices(len(self)))]
        return self._text(number)
