"""IDF tables: load, merge, query and build them.

A table is a plain TSV file, one ``token<TAB>idf`` line per token (see
``idf/README.md``). Tokens are stored in normalised form (NFKC, case-folded,
Simplified Chinese), the same form the tokenizer produces.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

from partialdup.core.errors import IdfFormatError

__all__ = ["IdfTable", "DeferredValues", "build_idf", "idf_fingerprint"]


@dataclass(frozen=True)
class IdfTable:
    """Token -> inverse document frequency, for one or more languages.

    Attributes:
        values: Token -> IDF (natural log of documents / documents with token).
        default: IDF given to a token that is not in the table. When not given
            it is the table's median, so an unknown token is never taken for a
            frequent one (it can never become an antecedent).
        sources: The files or names the table was merged from, in order.
    """

    values: Mapping[str, float]
    default: float = float("nan")
    sources: tuple[str, ...] = ()
    _lowest_by_source: tuple[tuple[str, ...], ...] = field(default=(), repr=False)
    # Not an init field: dataclasses.replace(table, values=...) must not copy it.
    _fingerprint: str = field(default="", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if math.isnan(self.default):
            ordered = sorted(self.values.values())
            median = ordered[len(ordered) // 2] if ordered else 0.0
            object.__setattr__(self, "default", median)
        if not self._lowest_by_source:
            object.__setattr__(self, "_lowest_by_source", (_sorted_by_idf(self.values),))

    def fingerprint(self) -> str:
        """:func:`idf_fingerprint` of the table, made once (a store compares it
        on every open: 0.4 s for the bundled tables, kept with the table in
        the user's cache by :func:`~partialdup.text.resources.load_idf`)."""
        if not self._fingerprint:
            object.__setattr__(self, "_fingerprint", idf_fingerprint(self.values, self.default))
        return self._fingerprint

    def known_fingerprint(self, fingerprint: str) -> IdfTable:
        """The table, its fingerprint set to one made earlier of the same
        content (a loader reading both from its cache); returns the table."""
        object.__setattr__(self, "_fingerprint", fingerprint)
        return self

    def whole(self) -> IdfTable:
        """This table with its values in memory: a table made from its head
        (see :class:`DeferredValues`) reads them now, for the methods that
        look up every token's IDF (I-Match, SimHash)."""
        return self.values.table() if isinstance(self.values, DeferredValues) else self

    def idf(self, token: str) -> float:
        """IDF of a token, or :attr:`default` when it is unknown."""
        return self.values.get(token, self.default)

    def lowest(self, n: int) -> frozenset[str]:
        """The ``n`` lowest-IDF tokens of each merged source table.

        Taking ``n`` from each language's table (rather than ``n`` overall)
        gives Chinese and English sentences their own antecedents even though
        the two tables' IDF scales differ.
        """
        if isinstance(self.values, DeferredValues) and n > self.values.head:
            return self.values.table().lowest(n)  # beyond the orders' heads it was made with
        return frozenset(tok for ordered in self._lowest_by_source for tok in ordered[:n])

    @property
    def max_idf(self) -> float:
        return max(self.values.values(), default=self.default)

    @property
    def min_idf(self) -> float:
        return min(self.values.values(), default=self.default)

    @classmethod
    def load(cls, path: str | Path) -> "IdfTable":
        """Read one TSV table. Raises :class:`IdfFormatError` naming the line."""
        path = Path(path)
        values: dict[str, float] = {}
        with path.open(encoding="utf-8") as handle:
            for lineno, line in enumerate(handle, 1):
                line = line.rstrip("\r\n")
                if not line or line.startswith("#"):
                    continue
                token, sep, number = line.rpartition("\t")
                try:
                    if not sep or not token:
                        raise ValueError
                    values[token] = float(number)
                except ValueError:
                    raise IdfFormatError(f"{path}:{lineno}: expected 'token<TAB>idf', got {line[:60]!r}") from None
        if not values:
            raise IdfFormatError(f"{path}: no entries")
        return cls(values, sources=(str(path),))

    @classmethod
    def merge(cls, tables: Iterable["IdfTable"]) -> "IdfTable":
        """Merge tables (e.g. Chinese + English); an earlier table wins a clash."""
        tables = list(tables)
        values: dict[str, float] = {}
        for table in reversed(tables):
            values.update(table.values)
        lowest = tuple(ordered for t in tables for ordered in t._lowest_by_source)
        sources = tuple(s for t in tables for s in t.sources)
        return cls(values, sources=sources, _lowest_by_source=lowest)

    def save(self, path: str | Path, *, header: str = "") -> None:
        """Write the table as TSV, lowest IDF first, ties by token (deterministic)."""
        with Path(path).open("w", encoding="utf-8", newline="\n") as handle:
            for line in header.splitlines():
                handle.write(f"# {line}\n")
            for token in _sorted_by_idf(self.values):
                handle.write(f"{token}\t{self.values[token]:.6f}\n")


class DeferredValues(Mapping[str, float]):
    """Token -> IDF of a table read only when first looked at.

    Most runs need a table's fingerprint and its lowest tokens only (the
    antecedents of Low-IDF-Sig), a few kilobytes, not its 300,000 values
    (a tenth of a second and 40 MB to read back):
    :func:`~partialdup.text.resources.load_idf` then makes the table with
    these values and the first ``head`` tokens of each source's order.

    Args:
        load: Reads the whole table (called once, on the first look-up).
        head: How many of each source's lowest tokens the table was given:
            :meth:`IdfTable.lowest` of more reads the whole table.
    """

    def __init__(self, load: Callable[[], IdfTable], head: int) -> None:
        self._load = load
        self.head = head
        self._table: IdfTable | None = None

    def table(self) -> IdfTable:
        """The whole table, read on the first call."""
        if self._table is None:
            self._table = self._load()
        return self._table

    def __getitem__(self, token: str) -> float:
        return self.table().values[token]

    def __iter__(self) -> Iterator[str]:
        return iter(self.table().values)

    def __len__(self) -> int:
        return len(self.table().values)

    def get(self, token: str, default: float | None = None) -> float | None:  # type: ignore[override]
        return self.table().values.get(token, default)

    def __reduce__(self) -> tuple:
        # Sent to another process (a spawned worker) as the values themselves.
        return dict, (dict(self.table().values),)


def _sorted_by_idf(values: Mapping[str, float]) -> tuple[str, ...]:
    return tuple(sorted(values, key=lambda tok: (values[tok], tok)))


def build_idf(documents: Iterable[Iterable[str]], *, min_df: int = 2) -> IdfTable:
    """Build an IDF table from tokenised documents.

    Args:
        documents: Each document's normalised tokens.
        min_df: Drop tokens seen in fewer documents (typos, numbers, names).

    Returns:
        A table with ``idf = ln(N / df)`` for every kept token.
    """
    df: dict[str, int] = {}
    total = 0
    for tokens in documents:
        total += 1
        for token in set(tokens):
            df[token] = df.get(token, 0) + 1
    values = {tok: math.log(total / n) for tok, n in df.items() if n >= min_df}
    return IdfTable(values, sources=("built",))


def idf_fingerprint(values: Mapping[str, float], default: float) -> str:
    """sha256 of an IDF table's content (token and value, sorted) and its default."""
    digest = hashlib.sha256()
    for token in sorted(values):
        digest.update(f"{token}\t{values[token]!r}\n".encode("utf-8"))
    digest.update(f"default\t{default!r}\n".encode("utf-8"))
    return digest.hexdigest()
