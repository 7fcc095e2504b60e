import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from partialdup.core.word_lines import WordLines, word_counts

lines = st.lists(st.lists(st.sampled_from(["的", "copy", "word", "字词", "a"]), max_size=5).map(tuple), max_size=8)


def _numbered(plain: tuple[tuple[str, ...], ...]) -> WordLines:
    # Numbered as a piece numbers its words: in order of first occurrence.
    column: dict[str, int] = {}
    numbers = [column.setdefault(word, len(column)) for line in plain for word in line]
    return WordLines(list(column), np.array(numbers, np.int32), [len(line) for line in plain])


@settings(max_examples=200, deadline=None)
@given(lines, st.data())
def test_word_lines_are_the_tuples_of_each_sentences_words(plain, data) -> None:
    # The plain reference: the tuple of tuples a document's words once were.
    plain = tuple(plain)
    held = _numbered(plain)
    assert len(held) == len(plain) and list(held) == list(plain) and held == plain and plain == held
    assert hash(held) == hash(plain)
    assert [held[i] for i in range(-len(plain), len(plain))] == [plain[i] for i in range(-len(plain), len(plain))]
    for wrong in (len(plain), -len(plain) - 1):
        with pytest.raises(IndexError):
            held[wrong]
    cut = slice(*data.draw(st.tuples(*[st.none() | st.integers(-9, 9)] * 2)))
    assert held[cut] == plain[cut]
    assert list(word_counts(held)) == list(word_counts(plain)) == [len(line) for line in plain]
    assert bool(held) == bool(plain)
    again = pickle.loads(pickle.dumps(held))
    assert again == plain and type(again) is tuple


def test_word_lines_read_a_view_of_the_numbers_and_check_their_count() -> None:
    numbers = np.array([0, 1, 0, 2, 1], np.int32)
    held = WordLines(["x", "y", "z"], numbers[1:4], [2, 0, 1])
    assert held == (("y", "x"), (), ("z",))
    with pytest.raises(ValueError, match="3 words but the sentences count 4 from 0"):
        WordLines(["x", "y", "z"], numbers[1:4], [2, 2])
    # Sentences from a start in a piece's numbers, which are kept, not a view of them.
    assert WordLines(["x", "y", "z"], numbers, [2, 0, 1], 1) == held and WordLines(["x", "y", "z"], numbers, [], 5) == ()
    with pytest.raises(ValueError, match="5 words but the sentences count 3 from 3"):
        WordLines(["x", "y", "z"], numbers, [2, 0, 1], 3)
    assert WordLines([], np.empty(0, np.int32), []) == ()


def test_word_lines_over_packed_words_read_the_same_and_move_to_other_numbers() -> None:
    from partialdup.core.packed_words import PackedWords

    plain = (("的", "copy"), (), ("字词", "的", "a"))
    piece = _numbered(plain)
    held = WordLines(PackedWords.of(["的", "copy", "字词", "a"]), np.array([0, 1, 2, 0, 3], np.int32), [2, 0, 3])
    assert held == plain == piece and held.total() == 5
    assert held[2][1] is held[0][0]  # a word read again: the same string
    # The same words numbered otherwise (a run's numbering of every piece's words).
    run_words = PackedWords.of(["x", "a", "的", "字词", "copy"])
    run_numbers = np.array([9, 2, 4, 3, 2, 1, 0], np.int32)
    held.read_from(run_words, run_numbers, 1)
    assert held == plain and held.total() == 5 and held.lengths() == [2, 0, 3]
    held.read_from(run_words, run_numbers[1:], 0)  # and again, elsewhere
    assert held == plain
    with pytest.raises(ValueError, match="7 words do not hold sentences of 5 from 3"):
        held.read_from(run_words, run_numbers, 3)
