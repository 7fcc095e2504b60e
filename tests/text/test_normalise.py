"""Normalisation against evasion: invisible characters and decomposed text, offsets exact."""

import unicodedata

from hypothesis import given, settings, strategies as st

from partialdup.text.normalise import composes, is_ignorable

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u00ad", "\ufeff", "\u2060", "\u200e", "\u202e", "\ufe0f", "\u034f", "\U000e0041"]
LETTERS = list("abcXYZ 0123.,'-\n\t，。「」！？漢字转換說话ＡＢ１ﬁ㎏") + ["é", "ñ", "Å", "ǻ", "ệ", "한", "국", "어", "Ω", "ά"]


def words(tokenizer, text):
    return [t.text for t in tokenizer.tokenize(text)]


def test_invisible_characters_do_not_split_words(tokenizer):
    assert words(tokenizer, "co\u200bpy the te\u00adxt") == ["copy", "the", "text"]
    assert words(tokenizer, "中\u200b文\u200d分\ufeff词") == words(tokenizer, "中文分词")
    assert words(tokenizer, "\u202ereversed\u202c") == ["reversed"]


def test_decomposed_text_matches_composed(tokenizer):
    for text in ("café résumé naïve", "Ångström", "한국어 텍스트", "Tiếng Việt", "ΆΈΉ"):
        assert words(tokenizer, unicodedata.normalize("NFD", text)) == words(tokenizer, text)


def test_offsets_cover_the_whole_cluster(tokenizer):
    text = "x cafe\u0301 y"
    [_, cafe, _] = tokenizer.tokenize(text)
    assert cafe.text == "café" and text[cafe.start : cafe.end] == "cafe\u0301"
    text = "co\u200bpy\u200b!"
    [copy] = tokenizer.tokenize(text)
    assert text[copy.start : copy.end] == "co\u200bpy"  # the trailing one is not part of the word


def test_character_classes():
    assert all(is_ignorable(c) for c in INVISIBLE)
    assert not any(is_ignorable(c) for c in "a 中\n\t。")
    assert composes("\u0301") and composes("\u1161") and composes("\u11a8")
    assert not composes("a") and not composes("\u1100") and not composes("中")


def test_the_fast_path_is_kept_for_plain_text(tokenizer):
    # Chinese and English without invisible characters or marks: no offset map.
    assert tokenizer.normalise("漢字 ＡＢＣ text")[1] is None


text_with_tricks = st.lists(
    st.one_of(st.sampled_from(LETTERS), st.sampled_from(INVISIBLE), st.sampled_from(["\u0301", "\u0308", "\u0323", "\u1161", "\u11a8"])),
    max_size=40,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(text_with_tricks, st.data())
def test_offsets_round_trip(tokenizer, text, data):
    """Every token maps to original characters that normalise back to it, in order."""
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    normalised, origin = tokenizer.normalise(text[start:end])
    if origin is not None:
        assert len(origin) == len(normalised)
        assert all(0 <= i < end - start for i in origin) and list(origin) == sorted(origin)
    previous = start
    for token in tokenizer.tokenize(text, start, end):
        assert previous <= token.start < token.end <= end
        previous = token.start
        original, _ = tokenizer.normalise(text[token.start : token.end])
        assert token.text in "".join(original.split())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LETTERS), max_size=30).map("".join), st.data())
def test_invisible_characters_and_decomposition_change_no_word(tokenizer, text, data):
    plain = words(tokenizer, text)
    assert words(tokenizer, unicodedata.normalize("NFD", text)) == plain
    hidden = list(text)
    for _ in range(data.draw(st.integers(0, 5))):
        hidden.insert(data.draw(st.integers(0, len(hidden))), data.draw(st.sampled_from(INVISIBLE)))
    assert words(tokenizer, "".join(hidden)) == plain
    assert tokenizer.words("".join(hidden)) == plain


def test_a_hidden_copy_is_found_with_offsets_into_the_original(tokenizer, idf):
    from partialdup.core.types import Document
    from partialdup.pipeline.factory import make_detector

    source = (
        "Le café du coin était fermé pendant la grève des éboueurs. "
        "复制的段落在这里出现，它描述了一个完整的处理流程。"
        "The résumé was sent to the committee before the deadline passed. "
    )
    hidden = unicodedata.normalize("NFD", source)
    hidden = "\u200b".join(hidden[i : i + 3] for i in range(0, len(hidden), 3))  # a zero-width space every third character
    copy = "Une introduction toute différente ici. " + hidden + "Et une fin à nous."
    detector = make_detector("low-idf-sig", idf, tokenizer=tokenizer)
    [span] = detector.detect([Document("copy", copy), Document("source", source)]).spans
    assert copy[span.a_start : span.a_end].replace("\u200b", "") == unicodedata.normalize("NFD", source).strip()
    assert source[span.b_start : span.b_end] == source.strip()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LETTERS + INVISIBLE + ["\u0301", "…", "™", "]", "\\", "^", "-"]), max_size=30).map("".join))
def test_the_irregular_search_is_the_set_test(text):
    # irregular_in (one regular expression search, remade as the set grows)
    # against the plain reference, a set test, as characters arrive.
    from opencc import OpenCC

    from partialdup.text.normalise import Normaliser

    normaliser = Normaliser(OpenCC("t2s"))
    for stretch in (text, text[::2], text + "ﬁ", text[1:]):
        normalised, origin = normaliser(stretch)
        table = normaliser._table
        assert table.irregular_in(stretch) == (not table.irregular.isdisjoint(stretch))
        in_place = normaliser.in_place(stretch)
        assert in_place == (normalised if origin is None else None)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(LETTERS + INVISIBLE + ["\u0301", "…", "™", "Σ", "σ", "ß", "İ", "K", "Ⅻ", "𠀀", "]", "-"]), max_size=40).map("".join),
    st.integers(0, 2),
)
def test_the_translation_with_plain_stretches_lowered_is_the_translation(text, relist):
    # _Table.translated (stretches of characters whose entry is their lower
    # case lower-cased) against the plain reference, str.translate with the
    # table, whatever the table knew when it listed its plain characters
    # (listed again at every new character when relist is 0).
    from opencc import OpenCC

    from partialdup.text import normalise as normalise_module
    from partialdup.text.normalise import Normaliser

    saved = normalise_module._RELIST
    normalise_module._RELIST = relist
    try:
        normaliser = Normaliser(OpenCC("t2s"))
        table = normaliser._table
        for stretch in (text[::2], text, text.upper(), text[1:], text + "Σ", "ΑΣ " + text, "ΑΣ" + text.upper()):
            assert table.translated(stretch) == stretch.translate(table)
            assert normaliser.in_place(stretch) == (None if table.irregular_in(stretch) else stretch.translate(table))
    finally:
        normalise_module._RELIST = saved
