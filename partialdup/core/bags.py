"""Bags as three flat arrays, bag after bag: no dict per bag.

A document's features hold their bags this way
(:attr:`~partialdup.core.types.DocumentFeatures.bags`): a dict per sentence
costs about 300 bytes of heap on the Chinese bench corpus (1.9 features a
sentence), its arrays about 40. The three arrays of a document's bags lie
in one buffer (:class:`PackedBags`), which a worker process sends back as
it is, and the index (:mod:`partialdup.index.sparse`) reads them as they
are. A bag read one at a time (``bags[i]``) is made a dict then, in the
order its features were listed; the stages that read many sentences read
the arrays (:attr:`FlatBags.sizes`, :meth:`FlatBags.take`) instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from itertools import chain, islice
from typing import Any, Iterator, Mapping, overload

import numpy as np

from partialdup.core.arrays import ranges

__all__ = ["FlatBags", "PackedBags", "PlacedBags"]

#: What :class:`FlatBags` holds bag by bag (as :data:`partialdup.core.types.Bag`).
_Bag = Mapping[int, int]


class FlatBags(Sequence[_Bag]):
    """Bags as arrays; a sequence of bags, each read as a dict.

    Attributes:
        sizes: Distinct features of each bag (int64).
        features: Every bag's features, bag after bag (uint64).
        counts: Their multiplicities (int64).
    """

    __slots__ = ("_sizes", "_features", "_counts", "__dict__")
    _sizes: np.ndarray
    _features: np.ndarray
    _counts: np.ndarray

    def __init__(self, sizes: np.ndarray, features: np.ndarray, counts: np.ndarray) -> None:
        for name, values in (("_sizes", sizes), ("_features", features), ("_counts", counts)):
            object.__setattr__(self, name, values)

    @property
    def sizes(self) -> np.ndarray:
        return self._sizes

    @property
    def features(self) -> np.ndarray:
        return self._features

    @property
    def counts(self) -> np.ndarray:
        return self._counts

    def __setattr__(self, name: str, value: object) -> None:
        # Frozen, as the features holding them: what is computed from the
        # arrays (starts, totals, ...) is kept beside them.
        raise AttributeError(f"FlatBags.{name} cannot be set")

    @classmethod
    def of(cls, bags: Sequence[_Bag]) -> FlatBags:
        """The bags, flattened in the order each lists its features (bags
        already flat are returned as they are), held in one buffer
        (:class:`PackedBags`)."""
        if isinstance(bags, FlatBags):
            return bags
        sizes = np.fromiter(map(len, bags), np.int64, len(bags))
        # Read straight into the arrays: a third faster than through lists
        # for MinHash's 128 features a sentence, the same for two.
        entries = int(sizes.sum())
        features = np.fromiter(chain.from_iterable(bags), np.uint64, entries)
        counts = np.fromiter(chain.from_iterable(bag.values() for bag in bags), np.int64, entries)
        return PackedBags.of_arrays(sizes, features, counts)

    @classmethod
    def joined(cls, parts: Sequence[FlatBags]) -> FlatBags:
        """The bags of ``parts``, one after the other."""
        if not parts:
            return cls.of(())
        return cls(*(np.concatenate([getattr(part, name) for part in parts]) for name in ("sizes", "features", "counts")))

    def __len__(self) -> int:
        return len(self.sizes)

    @overload
    def __getitem__(self, row: int) -> _Bag: ...

    @overload
    def __getitem__(self, row: slice) -> FlatBags: ...

    def __getitem__(self, row: int | slice) -> _Bag | FlatBags:
        if type(row) is int and row >= 0:  # the common case, kept short
            return self.bag(row)  # IndexError past the last bag
        if isinstance(row, slice):
            return self.take(np.arange(len(self), dtype=np.int64)[row])
        if not -len(self) <= row < len(self):
            raise IndexError(row)
        return self.bag(int(row) % len(self))

    @cached_property
    def _reader(self) -> tuple[memoryview, memoryview, memoryview]:
        # Where each bag starts (and the last ends), and the entries as
        # memoryviews (of native byte order: a memoryview reads no other): a
        # bag read one at a time then costs a third of NumPy's scalar
        # indexing and slicing (the tail reads tens of thousands so). The
        # bounds too: as a list, an int object per sentence, kept while the
        # bags are (5 MB of the Chinese bench corpus's look-ups).
        bounds = np.zeros(len(self.sizes) + 1, np.int64)
        np.cumsum(self.sizes, out=bounds[1:])
        features, counts = (
            np.ascontiguousarray(values, values.dtype.newbyteorder("=")).data for values in (self.features, self.counts)
        )
        return bounds.data, features, counts

    def __iter__(self) -> Iterator[_Bag]:
        return iter(self.dicts())

    def __eq__(self, other: object) -> bool:
        # Equal to any sequence of the same bags (a tuple of dicts included),
        # as the tuples of dicts these once were.
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and self.dicts() == list(other)

    __hash__ = None  # type: ignore[assignment]  # a bag is a dict: unhashable

    def __repr__(self) -> str:
        return f"FlatBags({self.dicts()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # The three arrays only, not what was computed from them, as bytes: a
        # NumPy array pickles with ten times the cost of its bytes.
        arrays = (self.sizes, self.features, self.counts)
        return (_from_buffers, tuple(part for values in arrays for part in (values.dtype.str, values.tobytes())))

    @cached_property
    def starts(self) -> np.ndarray:
        """Where each bag's entries start (int64; made once: the digests, the
        totals and every :meth:`take` read it)."""
        return np.cumsum(self.sizes) - self.sizes

    @cached_property
    def totals(self) -> np.ndarray:
        """Each bag's size, multiplicities counted (int64; made once: the
        store's partial index and its sparse index both read it)."""
        totals = np.zeros(len(self.sizes), np.int64)
        full = self.sizes > 0
        if full.any():
            totals[full] = np.add.reduceat(self.counts, self.starts[full])
        return totals

    @cached_property
    def filled(self) -> list[bool]:
        """Whether each bag holds a feature (made once: every matchable
        sentence is found by it)."""
        return (self.sizes > 0).tolist()  # type: ignore[no-any-return]

    def take(self, rows: np.ndarray) -> FlatBags:
        """The bags at ``rows`` (int64 positions), in that order."""
        rows = np.asarray(rows, np.int64)
        lengths = self.sizes[rows]
        entries = np.repeat(self.starts[rows] - (np.cumsum(lengths) - lengths), lengths)
        entries += np.arange(int(lengths.sum()), dtype=np.int64)
        return FlatBags(lengths, self.features[entries], self.counts[entries])

    def bag(self, row: int) -> _Bag:
        """The bag at ``row`` (from 0) as a dict."""
        if row < 0:
            raise IndexError(row)  # the bounds below would read another
        bounds, features, counts = self._reader
        start, end = bounds[row], bounds[row + 1]
        return dict(zip(features[start:end], counts[start:end]))

    def same_entries(self, rows: np.ndarray, others: np.ndarray) -> np.ndarray:
        """Whether the bag at each of ``rows`` lists the same entries as the
        one at ``others``, in the same order (then the bags are equal; equal
        bags listed in another order are not found here)."""
        rows, others = np.asarray(rows, np.int64), np.asarray(others, np.int64)
        same = self.sizes[rows] == self.sizes[others]
        owner, within = ranges(self.sizes[rows[same]])
        mine = self.starts[rows[same]][owner] + within
        theirs = self.starts[others[same]][owner] + within
        differ = (self.features[mine] != self.features[theirs]) | (self.counts[mine] != self.counts[theirs])
        checked = np.flatnonzero(same)
        same[checked[np.unique(owner[differ])]] = False
        return same

    def dicts(self) -> list[_Bag]:
        """The bags as dicts."""
        pairs = zip(self.features.tolist(), self.counts.tolist())
        return [dict(islice(pairs, size)) for size in self.sizes.tolist()]


def _from_buffers(sizes_type: str, sizes: bytes, features_type: str, features: bytes, counts_type: str, counts: bytes) -> FlatBags:
    """The bags :meth:`FlatBags.__reduce__` pickled."""
    return FlatBags(np.frombuffer(sizes, sizes_type), np.frombuffer(features, features_type), np.frombuffer(counts, counts_type))


#: The types of :class:`PackedBags`' arrays, little-endian whatever the
#: machine (a pickled buffer reads the same anywhere): sizes, features, counts.
_PACKED_TYPES = (np.dtype("<i8"), np.dtype("<u8"), np.dtype("<i8"))


class PackedBags(FlatBags):
    """:class:`FlatBags` whose three arrays lie in one buffer, each made
    an array (a view) when read.

    A run holds every document's bags from its features to its end; as
    three arrays a document, each an array object of its own (about 112
    bytes) over a bytes object of its own, 3.7 MB on the Chinese bench
    corpus's 9,161 documents beside 2.6 MB of the bags themselves. Packed,
    one object and one buffer a document; a worker sends the buffer as it
    is. The stages that read many documents' bags join them first
    (:meth:`FlatBags.joined`), or read a few arrays a document.

    Args:
        buffer: The sizes, then the features, then the counts, in
            :data:`_PACKED_TYPES` (8 bytes each).
        rows: The bags (sizes) the buffer starts with.
    """

    __slots__ = ("_buffer", "_rows")
    _buffer: bytes
    _rows: int

    def __init__(self, buffer: bytes, rows: int) -> None:  # no arrays held: FlatBags' __init__ is not called
        entries, rest = divmod(len(buffer) - 8 * rows, 16)
        if rows < 0 or entries < 0 or rest:
            raise ValueError(f"a buffer of {len(buffer)} bytes does not hold {rows} bags")
        object.__setattr__(self, "_buffer", buffer)
        object.__setattr__(self, "_rows", rows)

    @classmethod
    def of_arrays(cls, sizes: np.ndarray, features: np.ndarray, counts: np.ndarray) -> PackedBags:
        """The bags of the three arrays (of any integer types holding their values), packed."""
        if len(features) != len(counts) or int(np.sum(sizes, dtype=np.int64)) != len(features):
            raise ValueError(f"{len(sizes)} bags of {int(np.sum(sizes, dtype=np.int64))} entries, {len(features)} features, {len(counts)} counts")
        parts = (np.asarray(values, kind).tobytes() for values, kind in zip((sizes, features, counts), _PACKED_TYPES))
        return cls(b"".join(parts), len(sizes))

    @property
    def sizes(self) -> np.ndarray:
        return np.frombuffer(self._buffer, _PACKED_TYPES[0], self._rows, 0)

    @property
    def features(self) -> np.ndarray:
        return np.frombuffer(self._buffer, _PACKED_TYPES[1], self._entries(), 8 * self._rows)

    @property
    def counts(self) -> np.ndarray:
        return np.frombuffer(self._buffer, _PACKED_TYPES[2], self._entries(), 8 * self._rows + 8 * self._entries())

    def _entries(self) -> int:
        return (len(self._buffer) - 8 * self._rows) // 16

    def __len__(self) -> int:
        return self._rows

    def __reduce__(self) -> tuple[Any, ...]:
        # The buffer as it is, not what was computed from it.
        return (PackedBags, (self._buffer, self._rows))


class PlacedBags(Sequence[tuple[int, _Bag]]):
    """Bags each at a position, as arrays; a sequence of ``(position, bag)``
    (a document's rejoined sentences: the sentence each starts at and its
    bag, see :attr:`~partialdup.core.types.DocumentFeatures.joins`).

    Attributes:
        positions: Each bag's position (int64, made so).
        bags: The bags.
    """

    __slots__ = ("positions", "bags")
    positions: np.ndarray
    bags: FlatBags

    def __init__(self, positions: np.ndarray, bags: FlatBags) -> None:
        if len(positions) != len(bags):
            raise ValueError(f"{len(positions)} positions for {len(bags)} bags")
        object.__setattr__(self, "positions", np.asarray(positions, np.int64))
        object.__setattr__(self, "bags", bags)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"PlacedBags.{name} cannot be set")

    @classmethod
    def of(cls, placed: Sequence[tuple[int, _Bag]]) -> PlacedBags:
        """The ``(position, bag)`` pairs as arrays (arrays already are returned as they are)."""
        if isinstance(placed, PlacedBags):
            return placed
        if not placed:
            return _NOTHING_PLACED  # most documents' (immutable: shared)
        return cls(np.fromiter((position for position, _ in placed), np.int64, len(placed)), FlatBags.of([bag for _, bag in placed]))

    def __len__(self) -> int:
        return len(self.positions)

    @overload
    def __getitem__(self, row: int) -> tuple[int, _Bag]: ...

    @overload
    def __getitem__(self, row: slice) -> PlacedBags: ...

    def __getitem__(self, row: int | slice) -> tuple[int, _Bag] | PlacedBags:
        if isinstance(row, slice):
            return PlacedBags(self.positions[row], self.bags[row])
        return int(self.positions[row]), self.bags[row]

    def __iter__(self) -> Iterator[tuple[int, _Bag]]:
        return zip(self.positions.tolist(), self.bags.dicts())

    def __eq__(self, other: object) -> bool:
        # Equal to any sequence of the same pairs, as the tuples these once were.
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and list(self) == [tuple(pair) for pair in other]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PlacedBags({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Bytes, as FlatBags's; most documents' none, as nothing.
        if not len(self):
            return (_nothing_placed, ())
        return (_placed_from, (self.positions.tobytes(), self.bags))


_NOTHING_PLACED = PlacedBags(np.empty(0, np.int64), FlatBags.of(()))


def _nothing_placed() -> PlacedBags:
    """The shared empty :class:`PlacedBags` (unpickled)."""
    return _NOTHING_PLACED


def _placed_from(positions: bytes, bags: FlatBags) -> PlacedBags:
    """The bags :meth:`PlacedBags.__reduce__` pickled."""
    return PlacedBags(np.frombuffer(positions, np.int64), bags)
