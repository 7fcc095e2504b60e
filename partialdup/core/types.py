"""Shared data types of every pipeline stage.

All offsets are character (code point) offsets into the decoded document text,
``start`` inclusive and ``end`` exclusive, so ``text[start:end]`` is always the
original characters. Every type is a frozen dataclass: stages hand them on and
never mutate them. (A document's text may be held compressed in place,
:func:`hold_text_packed`: its ``text`` reads the same string.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import eq
from typing import Any, Iterable, Iterator, Mapping, Sequence, overload

from partialdup.core.arrays import offsets_array
from partialdup.core.bags import FlatBags, PlacedBags
from partialdup.core.packed_text import PackedText, packed

__all__ = [
    "Document",
    "Sentence",
    "SentenceOffsets",
    "sentence_offsets",
    "Token",
    "Bag",
    "TokenizedDocument",
    "DocumentFeatures",
    "SentencePair",
    "Span",
    "RunStats",
    "Case",
    "hold_text_packed",
    "held_packed",
    "held_text",
]

#: A sentence's bag of features: stable 64-bit feature hash -> multiplicity.
Bag = Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Document:
    """One input document.

    Attributes:
        id: The document's identifier (a path relative to the folder given, or
            the ``id`` field of a JSONL record).
        text: The decoded text (UTF-8, BOM removed, line ends untouched).
        fields: The other fields of its JSONL record (a date, a URL, ...),
            kept as read; empty for a text file.
    """

    id: str
    text: str
    fields: Mapping[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of a document.

    Attributes:
        index: Position of the sentence in its document, from 0.
        start: Character offset of the first character in the document text.
        end: Character offset one past the last character.
    """

    index: int
    start: int
    end: int


class SentenceOffsets(Sequence[Sentence]):
    """A document's sentences held as two arrays of offsets: a sequence of
    :class:`Sentence`, sentence ``i`` made when it is read (its index ``i``).

    A run holds every sentence of every document from the features to the
    end: as :class:`Sentence` objects with their offsets as ``int`` objects,
    about 110 bytes a sentence in each process that holds them (and pages
    a forked worker copies when it reads them); here 16. Equal to any
    sequence of the same sentences, a tuple of them included, as the tuples
    these once were.

    Args:
        starts: Each sentence's start offset.
        ends: Each sentence's end offset (as many).
    """

    __slots__ = ("_starts", "_ends")

    def __init__(self, starts: Iterable[int] = (), ends: Iterable[int] = ()) -> None:
        self._starts = offsets_array(starts)
        self._ends = offsets_array(ends)
        if len(self._starts) != len(self._ends):
            raise ValueError(f"{len(self._starts)} sentence starts but {len(self._ends)} ends")

    @classmethod
    def of(cls, sentences: Iterable[Sentence]) -> SentenceOffsets:
        """The sentences given, each ``Sentence(i, ...)`` at position ``i``.

        Raises:
            ValueError: A sentence's index is not its position.
        """
        listed = list(sentences)
        if any(sentence.index != i for i, sentence in enumerate(listed)):
            raise ValueError("a sentence's index is not its position")
        return cls([s.start for s in listed], [s.end for s in listed])

    @property
    def starts(self) -> memoryview:
        """Each sentence's start offset (read only)."""
        return memoryview(self._starts).toreadonly()

    @property
    def ends(self) -> memoryview:
        """Each sentence's end offset (read only)."""
        return memoryview(self._ends).toreadonly()

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> Sentence: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Sentence, ...]: ...

    def __getitem__(self, index: int | slice) -> Sentence | tuple[Sentence, ...]:
        if isinstance(index, slice):  # a tuple of the sentences, their indexes kept
            return tuple(map(_sentence, range(len(self._starts))[index], self._starts[index], self._ends[index]))
        start = self._starts[index]  # IndexError as a tuple's
        return _sentence(index + len(self._starts) if index < 0 else index, start, self._ends[index])

    def bounds(self, index: int) -> tuple[int, int]:
        """``(start, end)`` of sentence ``index``, no sentence made."""
        return self._starts[index], self._ends[index]

    def __iter__(self) -> Iterator[Sentence]:
        return map(_sentence, range(len(self._starts)), self._starts, self._ends)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SentenceOffsets):
            return self._starts == other._starts and self._ends == other._ends
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(map(eq, self, other))

    def __hash__(self) -> int:
        return hash(tuple(self))  # as the tuple of the same sentences, which it equals

    def __repr__(self) -> str:
        return f"SentenceOffsets({list(self._starts)!r}, {list(self._ends)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return SentenceOffsets, (self._starts, self._ends)


def sentence_offsets(sentences: Sequence[Sentence]) -> tuple[Sequence[int], Sequence[int]]:
    """Each sentence's start and end offsets: read from the arrays of
    :class:`SentenceOffsets` (no sentence made), else from the sentences."""
    if isinstance(sentences, SentenceOffsets):
        return sentences.starts, sentences.ends
    return [s.start for s in sentences], [s.end for s in sentences]


def _sentence(index: int, start: int, end: int) -> Sentence:
    """``Sentence(index, start, end)`` made by its slots' setters: a frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``,
    twice the time (sentences held as offsets are made each time read)."""
    sentence = _NEW_SENTENCE(Sentence)
    _SET_INDEX(sentence, index)
    _SET_START(sentence, start)
    _SET_END(sentence, end)
    return sentence


_NEW_SENTENCE = object.__new__
_SET_INDEX, _SET_START, _SET_END = (vars(Sentence)[name].__set__ for name in ("index", "start", "end"))


@dataclass(frozen=True, slots=True)
class Token:
    """A token prepared for matching.

    Attributes:
        text: The normalised form (NFKC, case-folded, Simplified Chinese).
        start: Character offset of the token's first original character.
        end: Character offset one past its last original character.
    """

    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class TokenizedDocument:
    """A document after the token stage (shared by every feature method).

    Attributes:
        id: The document's id.
        sentences: Its sentences, in order (as :meth:`SentenceOffsets.of`
            holds them, when their indexes are their positions).
        tokens: The normalised tokens of each sentence, aligned with ``sentences``.
        text: The document's original text, when known: span edges are
            trimmed against it (see :mod:`partialdup.match.refine`).
        joins: For each line break that may have cut a sentence in two (see
            :func:`partialdup.text.sentences.rejoinable`): the index ``i`` of the
            sentence before it and the tokens of sentences ``i`` and ``i + 1``
            read as one.
        quotes: For each quotation inside a longer sentence (text between
            「」, “”, "" or ''): the sentence's index and the quotation's tokens.
    """

    id: str
    sentences: Sequence[Sentence]
    tokens: tuple[tuple[str, ...], ...]
    text: str | None = None
    joins: tuple[tuple[int, tuple[str, ...]], ...] = ()
    quotes: tuple[tuple[int, tuple[str, ...]], ...] = ()

    def __post_init__(self) -> None:
        _hold_offsets(self)


def _hold_offsets(document: TokenizedDocument | DocumentFeatures) -> None:
    # A tuple or list of sentences held as offsets (any other sequence, a
    # store's read when first asked, is kept as given).
    sentences = document.sentences
    if isinstance(sentences, (tuple, list)):
        try:
            object.__setattr__(document, "sentences", SentenceOffsets.of(sentences))
        except ValueError:
            pass  # an index that is not its position: kept as given


@dataclass(frozen=True, slots=True)
class DocumentFeatures:
    """A document after the feature stage: its sentences and their bags.

    Attributes:
        id: The document's id.
        sentences: Its sentences, in order (held as
            :class:`SentenceOffsets` when a tuple or list given has each
            sentence's index at its position).
        bags: One bag of features per sentence, aligned with ``sentences``,
            held as arrays (:class:`~partialdup.core.bags.FlatBags`; any
            sequence of bags given is made one).
        tokens: Number of tokens per sentence, aligned with ``sentences``.
        text: The document's original text, when known.
        joins: The bag of each pair of sentences read as one (see
            :attr:`TokenizedDocument.joins`): ``(i, bag of i and i + 1)``,
            held as arrays (:class:`~partialdup.core.bags.PlacedBags`; any
            sequence of pairs given is made one).
        words: The normalised tokens of each sentence (as
            :attr:`TokenizedDocument.tokens`), for the word-level checks of
            edited copies; empty when not known. A sequence of tuples:
            ``detect`` holds them as numbers
            (:class:`~partialdup.core.word_lines.WordLines`).
        quotes: For each quotation inside a longer sentence (text between
            「」, “”, "" or ''): the sentence's index and the quotation's bag.
    """

    id: str
    sentences: Sequence[Sentence]
    bags: FlatBags
    tokens: tuple[int, ...]
    text: str | None = None
    joins: PlacedBags = field(default_factory=lambda: PlacedBags.of(()))
    words: Sequence[tuple[str, ...]] = ()
    quotes: tuple[tuple[int, Bag], ...] = ()

    def __post_init__(self) -> None:
        _hold_offsets(self)
        bags: Sequence[Bag] = self.bags
        if not isinstance(bags, FlatBags):
            object.__setattr__(self, "bags", FlatBags.of(bags))
        joins: Sequence[tuple[int, Bag]] = self.joins
        if not isinstance(joins, PlacedBags):
            object.__setattr__(self, "joins", PlacedBags.of(joins))


@dataclass(frozen=True, slots=True, order=True)
class SentencePair:
    """Sentence ``a`` of one document and sentence ``b`` of another are copies.

    Attributes:
        a: Sentence index in document A.
        b: Sentence index in document B.
        score: Their similarity (bag-Jaccard for the default method), 0..1.
    """

    a: int
    b: int
    score: float


@dataclass(frozen=True, slots=True)
class Span:
    """A passage of document ``a`` copied from (or to) a passage of ``b``.

    Attributes:
        a: Id of document A (the query in ``check``; the smaller id in ``detect``).
        b: Id of document B.
        a_start: Character offset where the passage starts in A.
        a_end: Character offset one past its end in A.
        b_start: Character offset where the passage starts in B.
        b_end: Character offset one past its end in B.
        a_sentences: First and last sentence index (inclusive) in A.
        b_sentences: First and last sentence index (inclusive) in B.
        score: How much of the passage is copied: the similarity of the two
            sides' normalised letters and digits (rapidfuzz ``ratio`` / 100;
            the mean similarity of the sentence pairs when a document came
            without its text).
        pairs: The copied sentence pairs, sorted by (a, b).
    """

    a: str
    b: str
    a_start: int
    a_end: int
    b_start: int
    b_end: int
    a_sentences: tuple[int, int]
    b_sentences: tuple[int, int]
    score: float
    pairs: tuple[SentencePair, ...]


@dataclass(frozen=True, slots=True)
class RunStats:
    """What a run skipped, so that no data is lost silently.

    Attributes:
        documents: Documents processed.
        sentences: Sentences indexed or queried.
        candidate_pairs: Sentence pairs whose bag-Jaccard was computed.
        frequent_features: Distinct features whose posting list exceeded the
            bound and were not used to generate candidates.
        skipped_postings: Postings not visited because of that bound.
        frequent_sentences: Indexed sentences holding such a feature (they
            were matched through their other features and to identical
            sentences only).
        boilerplate_sentences: Sentences matched in too many documents to
            report (see ``Config.boilerplate``).
    """

    documents: int = 0
    sentences: int = 0
    candidate_pairs: int = 0
    frequent_features: int = 0
    skipped_postings: int = 0
    frequent_sentences: int = 0
    boilerplate_sentences: int = 0
    # --exact bloom|trie (partialdup.index.exact_first): pairs paired without a
    # search, look-ups of keys the filter never held, its false positives
    # among them, and its design rate over those look-ups.
    exact_pairs: int = 0
    exact_probes: int = 0
    exact_false_positives: int = 0
    exact_design_rate: float = 0.0


@dataclass(frozen=True, slots=True, order=True)
class Case:
    """A plagiarism case (gold) or a detection (system output), PAN style.

    Attributes:
        susp_doc: Reference (file name) of the suspicious document.
        this_offset: Character offset of the passage in the suspicious document.
        this_length: Length of that passage, in characters.
        src_doc: Reference (file name) of the source document.
        source_offset: Character offset of the passage in the source document.
        source_length: Length of that passage, in characters.
        obfuscation: The case's obfuscation label from the gold XML (e.g.
            ``"none"``, ``"random"``), or ``""`` when absent (detections).
    """

    susp_doc: str
    this_offset: int
    this_length: int
    src_doc: str
    source_offset: int
    source_length: int
    obfuscation: str = ""

    def __post_init__(self) -> None:
        for name in ("this_offset", "this_length", "source_offset", "source_length"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"Case.{name} must be a non-negative int, got {value!r}")

    @property
    def this_end(self) -> int:
        """Offset one past the passage's last character in the suspicious document."""
        return self.this_offset + self.this_length

    @property
    def source_end(self) -> int:
        """Offset one past the passage's last character in the source document."""
        return self.source_offset + self.source_length


# A document's ``text`` (Document, TokenizedDocument, DocumentFeatures) reads
# a string, whether the document holds it as one or packed (PackedText): the
# dataclass's own slot is kept beneath a property. Set through the slot
# (__init__, hold_text_packed), read through the property.
_TEXT_SLOTS: dict[type, Any] = {}


def _text_read_as_string(cls: type) -> None:
    slot = cls.__dict__["text"]
    _TEXT_SLOTS[cls] = slot

    def text(self: Any) -> str | None:
        held = slot.__get__(self, cls)
        return held if held is None or held.__class__ is str else str(held)

    setattr(cls, "text", property(text, slot.__set__, None, "The document's text (held as a string or packed)."))


for _cls in (Document, TokenizedDocument, DocumentFeatures):
    _text_read_as_string(_cls)


def _text_slot(document: Document | TokenizedDocument | DocumentFeatures) -> Any:
    for cls in type(document).__mro__:
        if cls in _TEXT_SLOTS:
            return _TEXT_SLOTS[cls]
    raise TypeError(f"{type(document).__name__} holds no document text")


def hold_text_packed(
    document: Document | TokenizedDocument | DocumentFeatures, *sharing: Document | TokenizedDocument | DocumentFeatures,
    packed_as: PackedText | None = None,
) -> None:
    """Hold ``document``'s text compressed from now on
    (:func:`~partialdup.core.packed_text.packed`; a short text stays as it
    is): its ``text`` reads the same string, inflated when read. For a run
    that holds many documents' texts and reads few of them
    (:mod:`partialdup.core.packed_text`).

    ``sharing``: other documents holding the same text as a string (the
    features made from ``document``), which then hold the same packed
    object: one copy for all. One of them may hold it packed already.

    ``packed_as``: the text, packed elsewhere (a worker process, from the
    same string): held instead of packing it again.

    Raises:
        ValueError: One of ``sharing`` holds another text, or ``packed_as``
            is not as long.
    """
    slot = _text_slot(document)
    held = slot.__get__(document)
    if isinstance(held, PackedText):  # packed before (a document given to a run again): its new features share it
        _share_packed(held, sharing)
        return
    if held is None:
        return
    holders = [(other, _text_slot(other)) for other in sharing]
    for other, other_slot in holders:
        theirs = other_slot.__get__(other)
        if theirs is not held and theirs is not packed_as and theirs != held:  # the same objects as a rule: no characters compared
            raise ValueError(f"{other.id!r} does not hold the text of {document.id!r}")
    text = packed(held) if packed_as is None else packed_as
    if len(text) != len(held):
        raise ValueError(f"the text packed for {document.id!r} is not its text")
    slot.__set__(document, text)
    for other, other_slot in holders:
        other_slot.__set__(other, text)


def _share_packed(text: PackedText, sharing: Iterable[Document | TokenizedDocument | DocumentFeatures]) -> None:
    # Each of ``sharing`` that holds ``text`` as a string holds it packed too.
    for other in sharing:
        other_slot = _text_slot(other)
        theirs = other_slot.__get__(other)
        if theirs.__class__ is str and len(theirs) == len(text) and theirs == str(text):
            other_slot.__set__(other, text)


def held_packed(document: Document | TokenizedDocument | DocumentFeatures) -> bool:
    """Whether ``document`` holds its text compressed."""
    return isinstance(held_text(document), PackedText)


def held_text(document: Document | TokenizedDocument | DocumentFeatures) -> str | PackedText | None:
    """``document``'s text as it holds it: the string, or packed."""
    held: str | PackedText | None = _text_slot(document).__get__(document)
    return held
