"""Boilerplate sentences named for the user: the ``--show-boilerplate`` records.

The rule's verdict (:mod:`partialdup.match.boilerplate`) names sentences by
(document number, sentence index); the list a run reports names them by
document id, offsets and an excerpt, sorted, and is made only when read
(:class:`BoilerplateListing`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from partialdup.core.types import DocumentFeatures

if TYPE_CHECKING:
    from partialdup.match.boilerplate import Boilerplate

__all__ = ["BoilerplateListing", "BoilerplateSentence", "EXCERPT_CHARS", "boilerplate_sentences"]

#: Characters of a boilerplate sentence shown as its excerpt.
EXCERPT_CHARS = 80


@dataclass(frozen=True, slots=True, order=True)
class BoilerplateSentence:
    """A sentence taken for boilerplate.

    Attributes:
        doc: Its document's id.
        sentence: Its index in the document.
        start: Offset of the sentence in its document.
        end: One past its end.
        documents: How many other documents hold a copy of it.
        excerpt: Its first characters, white space collapsed.
    """

    doc: str
    sentence: int
    start: int
    end: int
    documents: int
    excerpt: str = ""

    def record(self) -> dict[str, object]:
        """The JSONL record of ``--show-boilerplate`` (its own kind)."""
        return {"kind": "boilerplate", "doc": self.doc, "sentence": self.sentence, "start": self.start,
                "end": self.end, "documents": self.documents, "excerpt": self.excerpt}



def boilerplate_sentences(verdict: Boilerplate, docs: Sequence[DocumentFeatures]) -> tuple[BoilerplateSentence, ...]:
    """The first side's boilerplate sentences, named (document id, offsets,
    an excerpt when the text is known), sorted by document id and sentence."""
    rows = []
    for (number, index), documents in verdict.first.items():
        doc = docs[number]
        sentence = doc.sentences[index]
        excerpt = _excerpt(doc.text[sentence.start : sentence.end]) if doc.text is not None else ""
        rows.append((doc.id, index, sentence.start, sentence.end, documents, excerpt))
    # Sorted as tuples of the fields, the order the dataclass's own
    # comparison gives (which builds two tuples per comparison: a quarter of
    # a second over the English bench corpus's boilerplate sentences).
    rows.sort()
    return tuple(BoilerplateSentence(*row) for row in rows)


class BoilerplateListing(Sequence[BoilerplateSentence]):
    """:func:`boilerplate_sentences`, made when first read: a run's list is
    read with ``--show-boilerplate`` only (making it took 0.05-0.10 s at the
    end of every English bench run, the other core idle). Equal to the
    tuple it holds; pickled as that tuple.

    Args:
        verdict: The rule's verdict.
        docs: The first side's documents, by number.
    """

    def __init__(self, verdict: Boilerplate, docs: Sequence[DocumentFeatures]) -> None:
        self._source: tuple[Boilerplate, Sequence[DocumentFeatures]] | None = (verdict, docs)
        self._made: tuple[BoilerplateSentence, ...] = ()

    def _listed(self) -> tuple[BoilerplateSentence, ...]:
        if self._source is not None:
            self._made, self._source = boilerplate_sentences(*self._source), None
        return self._made

    def __len__(self) -> int:
        return len(self._listed())

    def __getitem__(self, index: Any) -> Any:
        return self._listed()[index]

    def __iter__(self) -> Iterator[BoilerplateSentence]:
        return iter(self._listed())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self._listed() == tuple(other)

    def __hash__(self) -> int:
        return hash(self._listed())

    def __repr__(self) -> str:
        return repr(self._listed())

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self._listed(),))


def _excerpt(text: str) -> str:
    piece = " ".join(text.split())
    return piece if len(piece) <= EXCERPT_CHARS else piece[: EXCERPT_CHARS - 1] + "…"
