import dataclasses
import pickle

import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.types import DocumentFeatures, Sentence, SentenceOffsets, TokenizedDocument, sentence_offsets

# Sentences as the splitter makes them: ascending, non-overlapping offsets.
bounds = st.lists(st.tuples(st.integers(0, 5), st.integers(1, 9)), max_size=12).map(
    lambda steps: [(sum(a + b for a, b in steps[:i]) + steps[i][0], sum(a + b for a, b in steps[: i + 1])) for i in range(len(steps))]
)


def _plain(pairs: list[tuple[int, int]]) -> tuple[Sentence, ...]:
    # The plain reference: the tuple of Sentence objects the offsets stand for.
    return tuple(Sentence(i, start, end) for i, (start, end) in enumerate(pairs))


@settings(max_examples=200, deadline=None)
@given(bounds, st.data())
def test_sentence_offsets_read_as_the_tuple_of_sentences(pairs, data) -> None:
    plain = _plain(pairs)
    held = SentenceOffsets([s for s, _ in pairs], [e for _, e in pairs])
    assert held == plain and plain == held and held == SentenceOffsets.of(plain) and held == list(plain)
    assert hash(held) == hash(plain) and len(held) == len(plain) and tuple(held) == plain
    assert list(held.starts) == [s.start for s in plain] and list(held.ends) == [s.end for s in plain]
    assert [list(column) for column in sentence_offsets(held)] == [list(column) for column in sentence_offsets(plain)]
    if plain:
        index = data.draw(st.integers(-len(plain), len(plain) - 1))
        assert held[index] == plain[index]  # a negative index gives the sentence's own index
        assert hash(held[index]) == hash(plain[index]) and held.bounds(index) == (plain[index].start, plain[index].end)
    cut = slice(data.draw(st.none() | st.integers(-14, 14)), data.draw(st.none() | st.integers(-14, 14)),
                data.draw(st.none() | st.integers(1, 3) | st.integers(-3, -1)))
    assert held[cut] == plain[cut]
    assert pickle.loads(pickle.dumps(held)) == held


def test_sentence_offsets_refuse_what_a_tuple_refuses() -> None:
    held = SentenceOffsets([0, 5], [4, 9])
    with pytest.raises(IndexError):
        held[2]
    with pytest.raises(IndexError):
        held[-3]
    with pytest.raises(ValueError):
        SentenceOffsets([0], [])
    with pytest.raises(ValueError):
        SentenceOffsets.of([Sentence(1, 0, 4)])  # an index that is not its position
    assert held != (Sentence(0, 0, 4),) and held != "ab" and SentenceOffsets() == ()
    assert held != ((0, 0, 4), (1, 5, 9))  # tuples of the same values are not sentences
    with pytest.raises(TypeError):
        held.starts[0] = 1  # read only
    with pytest.raises(dataclasses.FrozenInstanceError):
        held[0].start = 1  # made by its slots' setters, frozen all the same


def test_documents_hold_their_sentences_as_offsets_when_indexes_are_positions() -> None:
    sentences = (Sentence(0, 0, 4), Sentence(1, 5, 9))
    features = DocumentFeatures("d", sentences, [{1: 1}, {2: 1}], (1, 1))
    tokenized = TokenizedDocument("d", list(sentences), (("a",), ("b",)))
    assert isinstance(features.sentences, SentenceOffsets) and features.sentences == sentences
    assert isinstance(tokenized.sentences, SentenceOffsets) and tokenized.sentences == sentences
    odd = (Sentence(3, 0, 4),)  # kept as given: offsets would lose its index
    assert DocumentFeatures("d", odd, [{1: 1}], (1,)).sentences is odd


def test_a_document_packed_in_place_reads_the_same_and_compares_equal():
    from partialdup.core.types import Document, held_packed, hold_text_packed

    text = "Ein langer Absatz, der öfter vorkommt. " * 20
    doc, plain = Document("a", text), Document("a", text)
    features = DocumentFeatures("a", [Sentence(0, 0, len(text))], [{1: 1}], (5,), text)
    hold_text_packed(doc, features)
    assert held_packed(doc) and held_packed(features)
    assert doc.text == text and features.text == text and doc == plain and hash(doc) == hash(plain)
    assert dataclasses.replace(features, id="b").text == text
    restored = pickle.loads(pickle.dumps(features))
    assert restored == features and restored.text == text
    hold_text_packed(doc)  # packed already: nothing changes
    assert doc.text == text


def test_a_short_text_stays_a_string_and_another_text_is_refused():
    from partialdup.core.types import Document, held_packed, hold_text_packed

    short = Document("a", "short")
    hold_text_packed(short)
    assert not held_packed(short) and short.text == "short"
    text = "another long text, sentence after sentence. " * 10
    with pytest.raises(ValueError, match="does not hold the text"):
        hold_text_packed(Document("a", text), Document("b", text.upper()))


def test_a_document_packed_before_shares_its_packed_text_with_new_features():
    from partialdup.core.types import Document, held_packed, held_text, hold_text_packed

    text = "Un paragraphe assez long pour être compressé. " * 10
    doc = Document("a", text)
    hold_text_packed(doc)
    again = DocumentFeatures("a", [Sentence(0, 0, len(text))], [{1: 1}], (5,), doc.text)  # made from the string read
    hold_text_packed(doc, again)
    assert held_packed(again) and held_text(again) is held_text(doc) and again.text == text
