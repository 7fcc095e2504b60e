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
from collections import OrderedDict
from functools import partial
from typing import Any, Callable, Generic, Iterator, Sequence, TypeVar, overload

from partialdup.core.bags import FlatBags, PlacedBags
from partialdup.core.types import DocumentFeatures, Sentence
from partialdup.match.refine import Normaliser
from partialdup.match.score import letters, normalised_letters
from partialdup.match.verify import LETTERS_OF_WORDS, NUMBERED_HEADING, SentenceLetters
from partialdup.store import codec
from partialdup.store.flat import FlatFeatures

__all__ = ["StoredReference", "StoredText", "TextCache"]

_DEFAULTS = {
    f.name: f.default for f in dataclasses.fields(DocumentFeatures) if f.default is not dataclasses.MISSING
}


_T = TypeVar("_T")


class _Lazy(Generic[_T]):
    """:func:`functools.cached_property` without its lock (Python 3.11 takes
    one on every first read): made for each of thousands of candidates per
    check, read by one thread."""

    def __init__(self, make: Callable[[Any], _T]) -> None:
        self._make, self._name = make, make.__name__
        self.__doc__ = make.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> _Lazy[_T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...

    def __get__(self, instance: object, owner: type | None = None) -> _T | _Lazy[_T]:
        if instance is None:
            return self
        value = instance.__dict__[self._name] = self._make(instance)
        return value


class _Sentences(Sequence[Sentence]):
    """A document's sentences: counted from the features blob, their offsets
    read from the text blob when one is first indexed, each made once (the
    detector reads some sentences of a paired document many times)."""

    def __init__(self, count: int, part: Callable[[], codec.TextPart]) -> None:
        self._count, self._part = count, part
        self._made: dict[int, Sentence] = {}

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Sentence]:
        # Every sentence at once (the spans read every sentence's length of
        # each paired document): one pass over the offsets instead of one
        # __getitem__ per sentence; those already made are kept, the same
        # as indexing one by one (the plain reference, proven equal in
        # tests/store/test_reference.py).
        if len(self._made) < self._count:
            part = self._part()
            every = dict(enumerate(map(Sentence, range(self._count), part.starts, part.ends)))
            every.update(self._made)  # those already made stay (a reader may hold them)
            self._made = every
        return map(self._made.__getitem__, range(self._count))

    @overload
    def __getitem__(self, index: int) -> Sentence: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Sentence, ...]: ...

    def __getitem__(self, index: int | slice) -> Sentence | tuple[Sentence, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(len(self))[index])
        sentence = self._made.get(index)
        if sentence is None:
            position = range(len(self))[index]  # negative indexes and IndexError as a tuple's
            sentence = self._made.get(position)
            if sentence is None:
                part = self._part()
                sentence = self._made[position] = Sentence(position, part.starts[position], part.ends[position])
        return sentence


class StoredText:
    """A stored document's text blob, read and unpacked part by part when first asked for.

    Args:
        read: Reads the blob from the store (called at most once).
        sentences: The document's sentence count.
    """

    def __init__(self, read: Callable[[], bytes], sentences: int) -> None:
        self._read, self._count = read, sentences
        #: Sentence -> its letters (from its words, or its text where they do
        #: not give them), made once: copies of a text share it, and a check
        #: reads the same sentences of each copy.
        self.letters: dict[int, str] = {}

    @_Lazy
    def _blob(self) -> bytes:
        return self._read()

    @_Lazy
    def part(self) -> codec.TextPart:
        """Sentence offsets and text (the words and other fields still packed)."""
        return codec.unpack_text_part(self._blob, self._count)

    @_Lazy
    def words(self) -> Sequence[tuple[str, ...]]:
        """The words per sentence, read without decompressing the text."""
        return codec.unpack_words(codec.words_part(self._blob))


class TextCache:
    """The :class:`StoredText` of the documents recent checks read, kept for
    the next checks of a long-running checker (least recently used first out).

    A cached text belongs to one state of the store: :meth:`valid_for` empties
    the cache when the store's data version (``PRAGMA data_version``, which
    another connection's commit changes) is not the one it was filled at, and
    the store empties it when it writes itself.

    Args:
        size: Documents kept; 0 keeps none (every check reads its own).
    """

    def __init__(self, size: int = 0) -> None:
        self._size = size
        self._texts: OrderedDict[int, StoredText] = OrderedDict()
        self._version: object = None

    def valid_for(self, version: object) -> None:
        """Empty the cache unless it was filled at this data version."""
        if version != self._version:
            self.clear()
            self._version = version

    def __contains__(self, number: object) -> bool:
        return number in self._texts

    def clear(self) -> None:
        """Forget every cached text."""
        self._texts.clear()

    def get(self, number: int, sentences: int, read: Callable[[int], bytes]) -> StoredText:
        """Document ``number``'s text, cached or read by ``read(number)`` when first asked for."""
        if not self._size:
            return StoredText(partial(read, number), sentences)
        text = self._texts.get(number)
        if text is None:
            text = self._texts[number] = StoredText(partial(read, number), sentences)
            if len(self._texts) > self._size:
                self._texts.popitem(last=False)
        else:
            self._texts.move_to_end(number)
        return text


class StoredReference:
    """Reads like a ``DocumentFeatures`` (same attribute names and values).

    Args:
        doc_id: The document's id.
        sentences: How many sentences it has.
        flat: The features blobs of the check's candidates, unpacked.
        position: Its position in ``flat``.
        texts: Gives the text of a document of the store by number and
            sentence count (called at most once).
        number: Its document number in the store.
        scanned: The sentences the word sets of edited copies look at (see
            :func:`partialdup.pipeline.edits.scanned_words`): those the
            query can meet (see :mod:`partialdup.store.wordsearch`); None:
            every sentence.
        scanned_headlines: The same for the headline search.
    """

    def __init__(
        self, doc_id: str, sentences: int, flat: FlatFeatures, position: int,
        texts: Callable[[int, int], StoredText], number: int, scanned: Sequence[int] | None = None,
        scanned_headlines: Sequence[int] | None = None,
    ) -> None:
        # Made for each of thousands of candidates, most of them only
        # counted: nothing is read or unpacked here.
        self.id = doc_id
        self.scanned = scanned
        self.scanned_headlines = scanned_headlines
        self._count = sentences
        self._flat = flat
        self._position = position
        self._texts = texts
        self._number = number

    @_Lazy
    def _packed(self) -> codec.PackedFeatures:
        return self._flat.document(self._position)

    @property
    def number(self) -> int:
        """Its document number in the store."""
        return self._number

    @property
    def sentence_count(self) -> int:
        """Its sentences, counted without making them."""
        return self._count

    @_Lazy
    def _text(self) -> StoredText:
        return self._texts(self._number, self._count)

    @_Lazy
    def _part(self) -> codec.TextPart:
        return self._text.part

    @_Lazy
    def _others(self) -> dict[str, Any]:
        return self._part.others()

    @_Lazy
    def text(self) -> str:
        return self._part.text

    @_Lazy
    def sentences(self) -> Sequence[Sentence]:
        # Most candidates are only counted and passed on, never paired: their
        # text is neither read nor made until a sentence is. The reader holds
        # the check's texts, not self: no reference cycle, so a check's
        # candidates are freed when it ends, without waiting for the garbage
        # collector.
        texts, number, count = self._texts, self._number, self._count
        return _Sentences(count, lambda: texts(number, count).part)

    @_Lazy
    def tokens(self) -> tuple[int, ...]:
        # Read for the held sentences of every candidate (and for every
        # sentence of a paired one): from the flat arrays directly, without
        # making the document's other arrays; a tuple, read item by item.
        return tuple(self._flat.tokens_of(self._position).tolist())

    @_Lazy
    def words(self) -> Sequence[tuple[str, ...]]:
        return self._text.words

    @_Lazy
    def _first_row(self) -> int:
        return int(self._flat.sentence_starts[self._position])

    def letters_of(self, index: int, normalise: Normaliser | None = None) -> SentenceLetters | None:
        """Sentence ``index`` as the character checks see it (see
        :meth:`~partialdup.match.verify.NearMissCheck.of_sentence`): from
        its words where they give its letters, else from the stored text
        normalised by ``normalise`` (None: None then).

        Read for one or two sentences of most documents a check pairs: the
        flags and token count straight from the arrays, the words' letters
        from the sentence's stored string without splitting it into words
        (its separator is no letter; :func:`~partialdup.match.verify.words_letters`
        of the words is the plain reference, a test compares them). The
        letters are made once per text, which copies share."""
        position = range(self._count)[index]
        row = self._first_row + position
        flags = int(self._flat.letter_flags[row])
        from_words = bool(flags & LETTERS_OF_WORDS)
        if not from_words and normalise is None:
            return None
        made = self._text.letters
        found = made.get(position)
        if found is None:
            if from_words:
                words = self._text.words
                found = letters(words.joined(position) if isinstance(words, codec.Words) else "".join(words[position]))
            else:
                assert normalise is not None  # (returned above without one)
                sentence = self.sentences[position]
                found = normalised_letters(self.text[sentence.start:sentence.end], normalise)
            made[position] = found
        return SentenceLetters(found, int(self._flat.tokens[row]), bool(flags & NUMBERED_HEADING))

    @_Lazy
    def bags(self) -> FlatBags:
        # The arrays as stored, widened as the detector's own (see
        # codec.unpack_document); a bag is made a dict when read.
        return codec.flat_bags(self._packed)

    @_Lazy
    def joins(self) -> PlacedBags:
        return codec.placed_joins(self._packed)

    def __getattr__(self, name: str) -> Any:
        # The other fields (quotes, ...): stored by name, or the field's default
        # for a store written before the field existed.
        if name.startswith("_") or name not in _DEFAULTS:
            raise AttributeError(name)
        return self._others.get(name, _DEFAULTS[name])
