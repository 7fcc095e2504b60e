"""TextSequence (core/text_sequence.py): its subclasses read as the list of texts they stand for."""

from hypothesis import given, strategies as st

from partialdup.core.text_sequence import TextSequence


class _Listed(TextSequence):
    def __init__(self, texts):
        self._texts = texts

    def __len__(self):
        return len(self._texts)

    def _text(self, number):
        return self._texts[number]


@given(st.lists(st.none() | st.text(max_size=5), max_size=8), st.integers(-10, 10), st.integers(-10, 10), st.integers(-3, 3))
def test_numbers_and_slices_read_as_the_list(texts, low, high, step):
    read = _Listed(texts)
    for number in range(-len(texts), len(texts)):
        assert read[number] == texts[number]
    if step:
        assert read[low:high:step] == texts[low:high:step]
    assert list(read) == texts and read[:] == texts
