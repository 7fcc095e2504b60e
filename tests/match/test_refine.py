"""Character-level trimming of span edges (partialdup.match.refine)."""

import pytest
from hypothesis import given, settings, strategies as st

from partialdup.match.refine import MAX_GROWTH_SENTENCES, refine_span, refine_spans
from partialdup.core.types import Sentence, SentencePair, Span


def split(text, parts):
    """Sentences of ``text`` for the given consecutive pieces of it."""
    sentences, position = [], 0
    for index, part in enumerate(parts):
        start = text.index(part, position)
        sentences.append(Sentence(index, start, start + len(part)))
        position = start + len(part)
    return sentences


def span_of(a_sentences, b_sentences, pairs, a="A", b="B"):
    """A span over the given pairs, as sequence matching makes it."""
    pairs = tuple(sorted(SentencePair(i, m, 1.0) for i, m in pairs))
    first_a, last_a = min(p.a for p in pairs), max(p.a for p in pairs)
    first_b, last_b = min(p.b for p in pairs), max(p.b for p in pairs)
    return Span(
        a, b,
        a_sentences[first_a].start, a_sentences[last_a].end,
        b_sentences[first_b].start, b_sentences[last_b].end,
        (first_a, last_a), (first_b, last_b), 1.0, pairs,
    )


def passages(span, text_a, text_b):
    return text_a[span.a_start : span.a_end], text_b[span.b_start : span.b_end]


HEADING = "Filling in the sources.list File"
ACTIVE = "Each active line of the sources.list file describes a package source."
DISK = "The first partition on the first hard disk is usually the system partition."


def test_heading_pasted_inline_is_trimmed_at_the_span_end(tokenizer):
    # A's splitter sees one sentence "heading + next sentence"; only the
    # heading is a copy of B's last sentence.
    a_parts = [ACTIVE, f"{HEADING} {DISK}"]
    b_parts = [ACTIVE, HEADING, "Some unrelated text about keyboards follows here."]
    text_a, text_b = " ".join(a_parts), "\n\n".join(b_parts)
    a, b = split(text_a, a_parts), split(text_b, b_parts)
    span = span_of(a, b, [(0, 0), (1, 1)])
    refined = refine_span(span, text_a, text_b, a, b, tokenizer.normalise)
    assert passages(refined, text_a, text_b) == (f"{ACTIVE} {HEADING}", f"{ACTIVE}\n\n{HEADING}")
    assert (refined.pairs, refined.score, refined.a_sentences) == (span.pairs, span.score, span.a_sentences)


def test_heading_pasted_inline_is_trimmed_at_the_span_start(tokenizer):
    a_parts = [f"{DISK} {HEADING}", ACTIVE]
    b_parts = ["Keyboards are configured elsewhere entirely.", HEADING, ACTIVE]
    text_a, text_b = " ".join(a_parts), "\n\n".join(b_parts)
    a, b = split(text_a, a_parts), split(text_b, b_parts)
    refined = refine_span(span_of(a, b, [(0, 1), (1, 2)]), text_a, text_b, a, b, tokenizer.normalise)
    assert passages(refined, text_a, text_b) == (f"{HEADING} {ACTIVE}", f"{HEADING}\n\n{ACTIVE}")


def test_a_verse_copied_alone_trims_the_source_sentence_over_two_verses(tokenizer):
    verse = "In the beginning God created the heaven and the earth."
    next_verse = "And the earth was without form, and void; and darkness was upon the face of the deep."
    a_parts = ["A preface about something else entirely.", verse, "Then a remark of the author."]
    text_a = " ".join(a_parts)
    text_b = f"{verse}\n{next_verse}\n"
    a, b = split(text_a, a_parts), [Sentence(0, 0, len(text_b) - 1)]
    refined = refine_span(span_of(a, b, [(1, 0)]), text_a, text_b, a, b, tokenizer.normalise)
    assert passages(refined, text_a, text_b) == (verse, verse)


def test_a_single_pair_is_trimmed_at_both_edges(tokenizer):
    copy = "the quick brown fox jumps over the lazy dog"
    text_a = f"{copy.capitalize()}."
    text_b = f"Someone wrote, before anything else, that {copy}, and then went home to sleep."
    a, b = [Sentence(0, 0, len(text_a))], [Sentence(0, 0, len(text_b))]
    refined = refine_span(span_of(a, b, [(0, 0)]), text_a, text_b, a, b, tokenizer.normalise)
    assert refined.a_start == 0 and refined.a_end == len(text_a)
    assert text_b[refined.b_start : refined.b_end].strip(",.") == copy


def test_full_width_and_traditional_text_maps_back_exactly(tokenizer):
    # "……" and "ﬁ" normalise to several characters each, so the offsets go
    # through the normalisation map; full width and script must not matter.
    copied = "ＡＰＴ 會從這些來源下載軟件包。"
    text_a = f"前言……ﬁle 說明在此處。{copied}"
    text_b = "APT 会从这些来源下载软件包。"
    a, b = [Sentence(0, 0, len(text_a))], [Sentence(0, 0, len(text_b))]
    refined = refine_span(span_of(a, b, [(0, 0)]), text_a, text_b, a, b, tokenizer.normalise)
    assert passages(refined, text_a, text_b) == (copied, text_b)


@pytest.mark.parametrize(
    "text_a, text_b",
    [
        # Lengths too close: the extra words are the edits of a copy.
        (
            "The package manager installs the dependencies of every package automatically.",
            "The package manager installs all the dependencies of each package automatically, too.",
        ),
        # The shorter sentence does not align inside the longer one.
        (
            "Configure the network interfaces.",
            "Completely different words about gardening, tomatoes and the weather in spring.",
        ),
    ],
)
def test_a_span_is_left_alone_without_a_clear_alignment(tokenizer, text_a, text_b):
    a, b = [Sentence(0, 0, len(text_a))], [Sentence(0, 0, len(text_b))]
    span = span_of(a, b, [(0, 0)])
    assert refine_span(span, text_a, text_b, a, b, tokenizer.normalise) is span


def test_text_continuing_the_copy_in_the_next_sentence_is_kept(tokenizer):
    # B cut one sentence in two (a changed punctuation mark); only the first
    # half was paired, but the rest of A's sentence is a copy of B's next one:
    # A stays whole and B's edge moves out over that next sentence.
    first = "Installing the popularity-contest package enables participation in a survey"
    rest = "a script is run weekly by cron which sends the list of installed packages"
    text_a = f"{first}; {rest}."
    b_parts = [f"{first}.", f"{rest.capitalize()}."]
    text_b = " ".join(b_parts)
    a, b = [Sentence(0, 0, len(text_a))], split(text_b, b_parts)
    refined = refine_span(span_of(a, b, [(0, 0)]), text_a, text_b, a, b, tokenizer.normalise)
    assert passages(refined, text_a, text_b) == (text_a, text_b)


def test_a_line_cut_in_two_joins_the_span_at_its_end(tokenizer):
    # Real case from the gold set: A broke a source sentence (pg_dump(1),
    # manpages-zh) over two lines and only the first half was paired.
    source = "（通常，我们最好不要输入这个参数，而是用超级用户启动生成的脚本。）"
    text_a = "前文。\n（通常，我们最好不要\n输入这个参数，而是用超级用户启动生成的脚本。）\n后文"
    a = split(text_a, ["前文。", "（通常，我们最好不要", "输入这个参数，而是用超级用户启动生成的脚本。）", "后文"])
    b = [Sentence(0, 0, len(source))]
    refined = refine_span(span_of(a, b, [(1, 0)]), text_a, source, a, b, tokenizer.normalise)
    assert passages(refined, text_a, source) == (text_a[a[1].start : a[2].end], source)


def test_refine_spans_keeps_the_sort_order_and_separate_collections(tokenizer):
    copy = "Filling in the sources.list File"
    text_a = f"{copy} {DISK}"
    text_b = copy
    a, b = [Sentence(0, 0, len(text_a))], [Sentence(0, 0, len(text_b))]
    # The reference has the query's id: texts are looked up per side.
    spans = [span_of(a, b, [(0, 0)], a="x", b="x"), span_of(a, b, [(0, 0)], a="w", b="x")]
    refined = refine_spans(
        spans, {"x": text_a, "w": text_a}, {"x": a, "w": a}, tokenizer.normalise,
        b_texts={"x": text_b}, b_sentences={"x": b},
    )
    assert [s.a for s in refined] == ["w", "x"]
    assert all(text_a[s.a_start : s.a_end] == copy for s in refined)


PIECES = st.sampled_from(
    ["the ", "copy ", "of ", "text", ". ", "\n", "  ", "软件", "軟體", "包", "。", "ＡＰＴ", "apt", "……", "ﬁ", "x", "，"]
)
TEXTS = st.lists(PIECES, min_size=1, max_size=12).map("".join)


@st.composite
def documents(draw, shared):
    """A text holding ``shared`` between random text, cut into random sentences."""
    text = draw(TEXTS) + shared + draw(TEXTS)
    cuts = sorted(draw(st.sets(st.integers(1, len(text) - 1), max_size=4))) if len(text) > 1 else []
    bounds = [0, *cuts, len(text)]
    return text, [Sentence(i, lo, hi) for i, (lo, hi) in enumerate(zip(bounds, bounds[1:]))]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_refined_span_stays_within_its_reach(tokenizer, data):
    # Edges move inwards inside the edge sentences, or outwards over at most
    # MAX_GROWTH_SENTENCES neighbours; the span never ends up empty.
    shared = data.draw(TEXTS)
    text_a, a = data.draw(documents(shared))
    text_b, b = data.draw(documents(shared))
    pairs = data.draw(
        st.lists(st.tuples(st.integers(0, len(a) - 1), st.integers(0, len(b) - 1)), min_size=1, max_size=4, unique=True)
    )
    span = span_of(a, b, pairs)
    refined = refine_span(span, text_a, text_b, a, b, tokenizer.normalise, min_score=data.draw(st.sampled_from([0.0, 50.0, 80.0])))
    for side, sentences in (("a", a), ("b", b)):
        first, last = getattr(span, f"{side}_sentences")
        low = sentences[max(0, first - MAX_GROWTH_SENTENCES)].start
        high = sentences[min(len(sentences) - 1, last + MAX_GROWTH_SENTENCES)].end
        assert low <= getattr(refined, f"{side}_start") < getattr(refined, f"{side}_end") <= high
    assert (refined.a_sentences, refined.b_sentences, refined.pairs) == (span.a_sentences, span.b_sentences, span.pairs)


# Debian Reference 2.100, section 5.4.2 (GPL-2+), and the same passage copied
# without its section number, as a heading over its first paragraph.
SECTION = "5.4.2.\u00a0Safe low level network operations\n\nYou may use low level network commands as follows safely since they do not change network configuration."
COPY = "Proverbs 31\n\nSafe low level network operations\n\nYou may use low level network commands as follows safely since they do not change network configuration."


def test_an_edge_grows_over_a_neighbour_copied_without_its_number(tokenizer):
    a = [Sentence(0, 0, 11), Sentence(1, 13, 46), Sentence(2, 48, len(COPY))]
    b = [Sentence(0, 0, 40), Sentence(1, 42, len(SECTION))]
    refined = refine_span(span_of(a, b, [(2, 1)]), COPY, SECTION, a, b, tokenizer.normalise)
    assert COPY[refined.a_start : refined.a_end] == COPY[13:]
    assert SECTION[refined.b_start : refined.b_end] == SECTION[7:]


def test_an_edge_does_not_grow_over_a_chance_common_ending(tokenizer):
    text_a, text_b = "We fixed the system. The copy is here and long.", "It broke the system. The copy is here and long."
    a = [Sentence(0, 0, 20), Sentence(1, 21, len(text_a))]
    b = [Sentence(0, 0, 20), Sentence(1, 21, len(text_b))]
    refined = refine_span(span_of(a, b, [(1, 1)]), text_a, text_b, a, b, tokenizer.normalise)
    assert (refined.a_start, refined.b_start) == (21, 21)


def test_an_edge_does_not_grow_over_a_shared_rule_line(tokenizer):
    # Tcl man pages open with a rule of underscores: the same in every page,
    # layout rather than copied text.
    rule = "_" * 60
    text_a = f"{rule}\n\nThe copy is here and long enough to pair."
    text_b = f"{rule}\n\nThe copy is here and long enough to pair."
    a = [Sentence(0, 0, 60), Sentence(1, 62, len(text_a))]
    b = [Sentence(0, 0, 60), Sentence(1, 62, len(text_b))]
    refined = refine_span(span_of(a, b, [(1, 1)]), text_a, text_b, a, b, tokenizer.normalise)
    assert (refined.a_start, refined.b_start) == (62, 62)
