import re

from hypothesis import given, settings, strategies as st

from partialdup.match.score import letters

ascii_text = st.text(alphabet=st.characters(max_codepoint=127), max_size=60)
any_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)


@settings(max_examples=500, deadline=None)
@given(st.one_of(ascii_text, any_text))
def test_letters_drop_what_the_pattern_drops_on_either_path(text):
    # The ASCII table and the pattern (the plain reference) agree.
    assert letters(text) == re.sub(r"[\W_]+", "", text) == "".join(char for char in text if char.isalnum())


def test_letters_of_an_english_sentence():
    assert letters("Don't panic: it's 42_000 (roughly).") == "Dontpanicits42000roughly"
