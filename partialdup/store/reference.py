"""A stored document standing in for :class:`~partialdup.core.types.DocumentFeatures`, unpacked on first use.

A query hands :meth:`~partialdup.pipeline.detector.Detector.check_against`
every stored document that holds one of its sentences' candidate features,
but the detector reads the bags and words of only those it pairs sentences
with; of the others it reads the id, text and sentences (span edges, the
run's statistics). So each field is built from the blobs when first read,
and the blobs are read from the database when first needed.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from typing import Any, Callable, Sequence, overload

import numpy as np

from partialdup.core.types import Bag, DocumentFeatures, Sentence
from partialdup.store import codec

__all__ = ["StoredReference"]

_DEFAULTS = {
    f.name: f.default for f in dataclasses.fields(DocumentFeatures) if f.default is not dataclasses.MISSING
}


class _Sentences(Sequence[Sentence]):
    """A document's sentences: counted from the features blob, their offsets
    read from the text blob when one is first indexed."""

    def __init__(self, count: int, part: Callable[[], codec.TextPart]) -> None:
        self._count, self._part = count, part

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Sentence: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Sentence, ...]: ...

    def __getitem__(self, index: int | slice) -> Sentence | tuple[Sentence, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(len(self))[index])
        position = range(len(self))[index]  # negative indexes and IndexError as a tuple's
        part = self._part()
        return Sentence(position, part.starts[position], part.ends[position])


class _Ints(Sequence[int]):
    """A NumPy array read as a tuple of ints, one item at a time (a
    candidate's token counts are read for a few sentences only)."""

    def __init__(self, values: np.ndarray) -> None:
        self._values = values

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...

    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        if isinstance(index, slice):
            return tuple(self._values[index].tolist())
        return int(self._values[index])


class StoredReference:
    """Reads like a ``DocumentFeatures`` (same attribute names and values).

    Args:
        doc_id: The document's id.
        sentences: How many sentences it has.
        packed: Gives its features blob, unpacked (called at most once).
        text_blob: Reads its text blob from the store (called at most once).
    """

    def __init__(
        self, doc_id: str, sentences: int, packed: Callable[[], codec.PackedFeatures], text_blob: Callable[[], bytes]
    ) -> None:
        self.id = doc_id
        self._count = sentences
        self._packed_of = packed
        self._text_blob = text_blob

    @cached_property
    def _packed(self) -> codec.PackedFeatures:
        return self._packed_of()

    @cached_property
    def _blob(self) -> bytes:
        return self._text_blob()

    @cached_property
    def _part(self) -> codec.TextPart:
        return codec.unpack_text_part(self._blob, self._count)

    @cached_property
    def _others(self) -> dict[str, Any]:
        return self._part.others()

    @cached_property
    def text(self) -> str:
        return self._part.text

    @cached_property
    def sentences(self) -> Sequence[Sentence]:
        # Most candidates are only counted and passed on, never paired: their
        # text is not read until a sentence is.
        return _Sentences(self._count, lambda: self._part)

    @cached_property
    def tokens(self) -> Sequence[int]:
        return _Ints(self._packed.tokens)

    @cached_property
    def words(self) -> Sequence[tuple[str, ...]]:
        # The words part is read without decompressing the text.
        return codec.unpack_words(codec.text_blob_parts(self._blob)[1])

    @cached_property
    def bags(self) -> tuple[Bag, ...]:
        packed = self._packed
        return tuple(codec.bags(packed.bag_sizes, packed.features, packed.counts))

    @cached_property
    def joins(self) -> tuple[tuple[int, Bag], ...]:
        packed = self._packed
        return tuple(zip(packed.join_at.tolist(), codec.bags(packed.join_sizes, packed.join_features, packed.join_counts)))

    def __getattr__(self, name: str) -> Any:
        # The other fields (quotes, ...): stored by name, or the field's default
        # for a store written before the field existed.
        if name.startswith("_") or name not in _DEFAULTS:
            raise AttributeError(name)
        return self._others.get(name, _DEFAULTS[name])
