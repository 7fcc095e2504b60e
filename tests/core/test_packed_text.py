import pickle

from hypothesis import given, settings, strategies as st

from partialdup.core.packed_text import INFLATED_KEPT, PACK_FROM, PackedText, packed

# Any str, lone surrogates and characters past the Basic Multilingual Plane included.
texts = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=600)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_a_packed_text_reads_back_the_same_string(text):
    held = PackedText.of(text)
    assert str(held) == text
    assert len(held) == len(text)
    assert pickle.loads(pickle.dumps(held)) == held


def test_short_texts_stay_strings_and_long_ones_are_packed():
    short, long = "x" * (PACK_FROM - 1), "一段很长的中文文本。" * 100
    assert packed(short) is short
    held = packed(long)
    assert isinstance(held, PackedText) and str(held) == long
    assert len(held.data) < len(long.encode("utf-8")) / 5  # repeated text: the point of packing


def test_texts_read_in_turn_are_all_right_past_the_kept_ones():
    # More texts than are kept inflated, read again in another order: each reads its own.
    originals = [f"document {n}: " + "words of prose " * 30 for n in range(3 * INFLATED_KEPT)]
    held = [PackedText.of(text) for text in originals]
    for n in [*range(len(held)), *reversed(range(len(held))), 0, 5, 0]:
        assert str(held[n]) == originals[n]
