from hypothesis import given, settings, strategies as st

from partialdup.match.chains import chain_pairs, matchable_ranks, merge_overlapping as _merge_overlapping
from partialdup.match.spans import (
    SPLIT_RATIO,
    _Lengths,
    _best_alignment,
    monotone_alignment,
    spans_for_documents,
)
from partialdup.core.types import Sentence, SentenceOffsets, SentencePair


def P(a, b, s=1.0):
    return SentencePair(a, b, s)


def sentences(n, width=10):
    return [Sentence(i, i * width, i * width + width - 1) for i in range(n)]


def test_consecutive_pairs_make_one_chain():
    assert chain_pairs([P(3, 7), P(1, 5), P(2, 6)]) == [[P(1, 5), P(2, 6), P(3, 7)]]


def test_gap_of_unmatched_sentences_is_tolerated():
    assert len(chain_pairs([P(1, 1), P(3, 4), P(4, 5)], gap=2)) == 1
    assert len(chain_pairs([P(1, 1), P(5, 5)], gap=2)) == 2
    assert len(chain_pairs([P(1, 1), P(3, 3)], gap=0)) == 2


def test_a_sentence_split_in_two_still_chains():
    assert len(chain_pairs([P(1, 1), P(1, 2), P(2, 3)])) == 1


def test_repeated_sentence_elsewhere_is_its_own_span():
    chains = chain_pairs([P(0, 0), P(1, 1), P(2, 2), P(1, 9)])
    assert [len(c) for c in chains] == [3, 1]


def test_span_offsets_cover_first_to_last_sentence():
    a, b = sentences(10), sentences(10, width=20)
    [span] = spans_for_documents("A", "B", a, b, [P(2, 4, 0.8), P(3, 5, 0.6)])
    assert (span.a_start, span.a_end) == (a[2].start, a[3].end)
    assert (span.b_start, span.b_end) == (b[4].start, b[5].end)
    assert span.a_sentences == (2, 3) and span.b_sentences == (4, 5)
    assert abs(span.score - 0.7) < 1e-12


def test_a_repeated_sentence_inside_a_passage_is_not_a_fragment():
    # Sentences 3 and 8 of both documents are the same ("see below"): the
    # cross pairs (3, 8) and (8, 3) lie inside the passage; they join it
    # instead of starting fragments, and the passage's alignment drops them.
    pairs = [P(i, i) for i in range(10)] + [P(3, 8), P(8, 3)]
    [span] = spans_for_documents("A", "B", sentences(10), sentences(10), pairs)
    assert span.a_sentences == (0, 9) and span.pairs == tuple(P(i, i) for i in range(10))


def test_crossing_stray_pairs_merge_into_the_passage():
    pairs = [P(i, i) for i in range(6)] + [P(6, 2), P(7, 7), P(8, 8)]
    [span] = spans_for_documents("A", "B", sentences(10), sentences(10), pairs)
    assert span.a_sentences == (0, 8) and span.b_sentences == (0, 8)


def test_a_passage_copied_twice_gives_two_spans():
    pairs = [P(0, 0), P(1, 1), P(0, 5), P(1, 6)]
    spans = spans_for_documents("A", "B", sentences(10), sentences(10), pairs)
    assert [s.b_sentences for s in spans] == [(0, 1), (5, 6)]


def test_edited_neighbours_and_inner_sentences_join_at_half_the_threshold():
    from collections import Counter

    a_bags = [Counter({i: 1, 100 + i: 1}) for i in range(6)]
    b_bags = [Counter(bag) for bag in a_bags]
    b_bags[0] = Counter({0: 1, 999: 1})  # Jaccard 1/3: an edited first sentence
    b_bags[3] = Counter({3: 1, 998: 1})  # the same, inside the passage
    b_bags[5] = Counter({998: 1})  # unrelated last sentence
    pairs = [P(1, 1), P(2, 2), P(4, 4)]
    [span] = spans_for_documents("A", "B", sentences(6), sentences(6), pairs, fill=(a_bags, b_bags, 0.6))
    assert [(p.a, p.b) for p in span.pairs] == [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]


def test_monotone_alignment_keeps_split_sentences_and_drops_crossings():
    # A's sentence 2 was split in two in B (2 and 3): both pairs stay.
    split = [P(0, 0), P(1, 1), P(2, 2), P(2, 3), P(3, 4)]
    assert monotone_alignment(split) == split
    # A template line pairs with its look-alike elsewhere: the stray goes,
    # and so does one that pairs a sentence with a non-neighbouring one.
    assert monotone_alignment([P(0, 0), P(1, 5, 0.7), P(1, 1), P(2, 2)]) == [P(0, 0), P(1, 1), P(2, 2)]
    assert monotone_alignment([P(47, 47), P(50, 47), P(50, 50)]) == [P(47, 47), P(50, 50)]
    assert monotone_alignment([]) == [] and monotone_alignment([P(4, 2)]) == [P(4, 2)]


def _best_chain_total(pairs):
    # Plain O(n^2) reference: best total score of a chain in which each pair
    # follows the previous one in both documents or splits one of its sentences.
    ordered = sorted(set(pairs))
    best = [p.score for p in ordered]
    for j, q in enumerate(ordered):
        for i in range(j):
            p = ordered[i]
            follows = p.a < q.a and p.b < q.b
            split = (p.a, p.b + 1) == (q.a, q.b) or (p.a + 1, p.b) == (q.a, q.b)
            if follows or split:
                best[j] = max(best[j], best[i] + q.score)
    return max(best, default=0.0)


@given(st.lists(st.builds(P, st.integers(0, 8), st.integers(0, 8), st.sampled_from([0.3, 0.6, 1.0])), max_size=14))
def test_monotone_alignment_is_the_best_in_order_chain(pairs):
    kept = monotone_alignment(pairs)
    assert set(kept) <= set(pairs) and kept == sorted(kept)
    assert all(
        (p.a < q.a and p.b < q.b) or (p.a, p.b + 1) == (q.a, q.b) or (p.a + 1, p.b) == (q.a, q.b)
        for p, q in zip(kept, kept[1:])
    )
    assert abs(sum(p.score for p in kept) - _best_chain_total(pairs)) < 1e-9


def merge_overlapping_reference(chains):
    """Plain reference of ``_merge_overlapping``: merge any two overlapping
    groups, one at a time, comparing every pair, until none overlap."""
    groups = [list(chain) for chain in chains]

    def box(group):
        return min(p.a for p in group), max(p.a for p in group), min(p.b for p in group), max(p.b for p in group)

    def overlap(x, y):
        (a0, a1, b0, b1), (c0, c1, d0, d1) = box(x), box(y)
        return a0 <= c1 + 1 and c0 <= a1 + 1 and b0 <= d1 + 1 and d0 <= b1 + 1

    while True:
        pair = next(((i, j) for i in range(len(groups)) for j in range(i) if overlap(groups[i], groups[j])), None)
        if pair is None:
            return groups
        i, j = pair
        groups[j] = groups[j] + groups.pop(i)


_pairs = st.builds(P, st.integers(0, 30), st.integers(0, 30))


@given(st.lists(st.lists(_pairs, min_size=1, max_size=4), max_size=25))
def test_merging_overlapping_chains_agrees_with_the_reference(chains):
    def partition(groups):
        return sorted(sorted(group) for group in groups)

    assert partition(_merge_overlapping(chains)) == partition(merge_overlapping_reference(chains))


def test_thousands_of_disjoint_chains_stay_apart():
    # 20,000 chains along the diagonal, none touching: one sweep, no merge.
    chains = [[P(3 * i, 3 * i), P(3 * i + 1, 3 * i + 1)] for i in range(20_000)]
    assert len(_merge_overlapping(chains)) == 20_000


def chain_pairs_reference(pairs, *, gap=3, a_ranks=None, b_ranks=None):
    """Plain reference of ``chain_pairs``: every pair looks at every open chain."""
    reach = gap + 1
    open_chains, done = [], []  # each chain: [pairs, last_a, last_b]
    for pair in sorted(pairs):
        rank_a = a_ranks[pair.a] if a_ranks is not None else pair.a
        rank_b = b_ranks[pair.b] if b_ranks is not None else pair.b
        done += [c for c in open_chains if c[1] < rank_a - reach]
        open_chains = [c for c in open_chains if c[1] >= rank_a - reach]
        best, best_distance = None, 2 * reach + 1
        for chain in open_chains:  # the first of the closest, in order of creation
            step_a, step_b = rank_a - chain[1], rank_b - chain[2]
            if 0 <= step_a <= reach and 0 <= step_b <= reach and 0 < step_a + step_b < best_distance:
                best, best_distance = chain, step_a + step_b
        if best is None:
            best = [[], 0, 0]
            open_chains.append(best)
        best[0].append(pair)
        best[1], best[2] = rank_a, rank_b
    chains = [c[0] for c in done + open_chains]
    return sorted(chains, key=lambda c: (c[0].a, c[0].b))


@given(
    st.lists(st.builds(P, st.integers(0, 25), st.integers(0, 25)), unique=True, max_size=60),
    st.integers(0, 4),
    st.booleans(),
)
def test_chaining_agrees_with_the_reference(pairs, gap, ranked):
    # Ranks as made by matchable_ranks: some sentences do not count.
    ranks = [i // 2 for i in range(26)] if ranked else None
    assert chain_pairs(pairs, gap=gap, a_ranks=ranks, b_ranks=ranks) == chain_pairs_reference(
        pairs, gap=gap, a_ranks=ranks, b_ranks=ranks
    )


def matchable_ranks_reference(flags):
    ranks, count = [], 0
    for flag in flags:
        ranks.append(count)
        count += flag
    return ranks


@given(st.lists(st.booleans(), max_size=40))
def test_matchable_ranks_count_the_matchable_sentences_before_each(flags):
    assert matchable_ranks(flags) == matchable_ranks_reference(flags)
    assert all(type(rank) is int for rank in matchable_ranks(flags))


@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 30)), max_size=20), st.data())
def test_sentence_lengths_read_when_asked_are_the_lengths(bounds, data):
    sentences, start = [], 0
    for gap, length in bounds:
        sentences.append(Sentence(len(sentences), start + gap, start + gap + length))
        start += gap + length
    for held in (sentences, SentenceOffsets.of(sentences)):
        lengths = _Lengths(held)
        plain = [s.end - s.start for s in sentences]
        assert len(lengths) == len(plain) and list(lengths) == plain
        if plain:
            at = data.draw(st.integers(-len(plain), len(plain) - 1))
            assert lengths[at] == plain[at] and lengths[at : at + 3] == plain[at : at + 3]


def test_a_line_repeated_on_both_sides_pairs_in_place():
    # Line 5 recurs at 5, 40 and 80 in B: each occurrence starts its own chain,
    # and the passage's next pair continues the chain it follows.
    pairs = [P(4, 4), P(5, 5), P(5, 40), P(5, 80), P(6, 6)]
    assert chain_pairs(pairs) == [[P(4, 4), P(5, 5), P(6, 6)], [P(5, 40)], [P(5, 80)]]


pair_lists = st.lists(st.builds(P, st.integers(0, 8), st.integers(0, 8), st.sampled_from([0.3, 0.6, 1.0])), max_size=14)


@st.composite
def in_order_pairs(draw):
    """Pairs that already form one chain: steps forward in both documents or splits."""
    a, b, pairs = draw(st.integers(0, 3)), draw(st.integers(0, 3)), []
    for _ in range(draw(st.integers(0, 10))):
        pairs.append(P(a, b, draw(st.sampled_from([0.3, 0.6, 1.0]))))
        step = draw(st.sampled_from(["both", "a", "b"]))
        a, b = (a + draw(st.integers(1, 3)), b + draw(st.integers(1, 3))) if step == "both" else (a + (step == "a"), b + (step == "b"))
    return pairs


@given(st.one_of(pair_lists, in_order_pairs()))
def test_the_in_order_shortcut_gives_what_the_search_gives(pairs):
    assert monotone_alignment(pairs) == _best_alignment(sorted(set(pairs)))


def test_a_split_needs_the_shared_sentence_longer_than_each_half():
    # A's sentence 1 (90 characters) split over B's 1 and 2 (40 and 45): a split, both pairs stay.
    pairs = [P(0, 0), P(1, 1), P(1, 2), P(2, 3)]
    assert monotone_alignment(pairs, lengths=([50, 90, 50], [50, 40, 45, 50])) == pairs
    # Two template lines of one length beside the copy of one of them: no
    # split: one pair goes (of two that tie, with no agreement given, the later stays).
    assert monotone_alignment(pairs, lengths=([50, 44, 50], [50, 40, 45, 50])) == [P(0, 0), P(1, 2), P(2, 3)]
    # The same the other way: B's sentence split over A's two.
    pairs = [P(0, 0), P(1, 1), P(2, 1), P(3, 2)]
    assert monotone_alignment(pairs, lengths=([50, 40, 45, 50], [50, 90, 50])) == pairs
    assert len(monotone_alignment(pairs, lengths=([50, 40, 45, 50], [50, 44, 50]))) == 3


def test_agreement_breaks_a_tie_for_the_verbatim_twin():
    # A's sentence 4 pairs with B's 165 (verbatim) and 170 (a sibling a word
    # apart) at the same bag-Jaccard: the words decide.
    pairs = [P(3, 164), P(4, 165), P(4, 170)]
    words = {(4, 165): 100.0, (4, 170): 88.0, (3, 164): 100.0}
    assert monotone_alignment(pairs) == [P(3, 164), P(4, 170)]  # without words: the later pair
    assert monotone_alignment(pairs, agreement=lambda i, m: words[(i, m)]) == [P(3, 164), P(4, 165)]


def _best_weighted_total(pairs, lengths, agreement):
    # Plain O(n^2) reference with the split rule and the agreement weight.
    ordered = sorted(set(pairs))
    (a_len, b_len) = lengths
    weight = [(p.score or 1e-9) + 1e-4 * agreement(p.a, p.b) for p in ordered]
    best = list(weight)
    for j, q in enumerate(ordered):
        for i in range(j):
            p = ordered[i]
            follows = p.a < q.a and p.b < q.b
            a_split = (p.a, p.b + 1) == (q.a, q.b) and a_len[q.a] >= SPLIT_RATIO * max(b_len[p.b], b_len[q.b])
            b_split = (p.a + 1, p.b) == (q.a, q.b) and b_len[q.b] >= SPLIT_RATIO * max(a_len[p.a], a_len[q.a])
            if follows or a_split or b_split:
                best[j] = max(best[j], best[i] + weight[j])
    return max(best, default=0.0)


@settings(deadline=None)
@given(
    st.lists(st.builds(P, st.integers(0, 7), st.integers(0, 7), st.sampled_from([0.0, 0.3, 0.6, 1.0])), max_size=14),
    st.lists(st.integers(1, 100), min_size=8, max_size=8),
    st.lists(st.integers(1, 100), min_size=8, max_size=8),
    st.integers(0, 10**6),
)
def test_the_rules_give_the_best_chain_of_the_plain_reference(pairs, a_len, b_len, seed):
    agreement = lambda i, m: float((i * 7919 + m * 104729 + seed) % 101)  # noqa: E731
    kept = monotone_alignment(pairs, lengths=(a_len, b_len), agreement=agreement)
    assert set(kept) <= set(pairs) and kept == sorted(kept)
    total = sum((p.score or 1e-9) + 1e-4 * agreement(p.a, p.b) for p in kept)
    assert abs(total - _best_weighted_total(pairs, (a_len, b_len), agreement)) < 1e-9


def test_a_line_copied_twice_keeps_both_spans_whatever_the_ranks_between():
    # A's sentence 0 lies twice in B, five sentences apart. With the ranks
    # skipping B's sentence 4 (boilerplate) the two pairs chain; the
    # alignment keeps one, and the other, beyond the passage in B, is a
    # further copy with a span of its own, as when nothing is skipped.
    pairs = [P(0, 0), P(0, 5)]
    for b_ranks in ((0, 1, 2, 3, 4, 5), (0, 1, 2, 3, 4, 4)):
        spans = spans_for_documents("a", "b", sentences(1), sentences(6), pairs, gap=3, a_ranks=(0,), b_ranks=b_ranks)
        assert [(s.a_sentences, s.b_sentences) for s in spans] == [((0, 0), (0, 0)), ((0, 0), (5, 5))]


def test_a_stray_inside_the_passage_in_both_documents_stays_left_out():
    # A line repeated inside a copied passage pairs with its other
    # occurrence: that pair crosses the passage and is no further copy.
    pairs = [P(0, 0), P(1, 1), P(2, 2), P(3, 3), P(1, 3), P(3, 1)]
    spans = spans_for_documents("a", "b", sentences(4), sentences(4), pairs, gap=3)
    assert [(s.a_sentences, s.b_sentences) for s in spans] == [((0, 3), (0, 3))]
