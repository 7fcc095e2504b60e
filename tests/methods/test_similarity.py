from collections import Counter

from hypothesis import given, settings, strategies as st

from partialdup.core.bags import FlatBags
from partialdup.index.inverted import FeatureIndex
from partialdup.index.plain import plain_query
from partialdup.methods.similarity import (
    CopyRule, bag_containment, bag_jaccard, bag_size, flat_bag_jaccard, jaccard_upper_bound, shared_count,
)

bags = st.dictionaries(st.integers(0, 12), st.integers(1, 3), max_size=8).map(Counter)


def test_bag_jaccard_hand_computed():
    a, b = Counter({1: 2, 2: 1}), Counter({1: 1, 3: 1})
    assert bag_jaccard(a, b) == 1 / 4  # min: 1 ; max: 2 + 1 + 1
    assert bag_jaccard(a, a) == 1.0
    assert bag_jaccard(Counter(), Counter()) == 0.0
    assert bag_jaccard(a, b, score_cutoff=0.5) == 0.0


@given(bags, bags)
def test_symmetric_bounded_and_below_length_bound(a, b):
    score = bag_jaccard(a, b)
    assert score == bag_jaccard(b, a)
    assert 0.0 <= score <= jaccard_upper_bound(sum(a.values()), sum(b.values())) + 1e-12


@given(st.lists(bags, min_size=1, max_size=12), bags, st.sampled_from([0.2, 0.5, 0.6, 1.0]), st.integers(1, 4))
def test_index_agrees_with_reference_scorer(indexed, query, threshold, max_postings):
    # The fast path (inverted index, length bound, frequent-feature skipping)
    # must return exactly what the plain scorer accepts among sentences that
    # share at least one feature the index may use.
    index = FeatureIndex(max_postings=max_postings)
    for number, bag in enumerate(indexed):
        index.add(number, 0, bag)
    found = {m.key: m.score for m in plain_query(index, query, threshold)}
    # A feature's frequency counts distinct bags; an identical bag is always reachable.
    usable = {f for f, groups in index.group_postings.items() if len(groups) <= max_postings}
    for key, bag in enumerate(indexed):
        expected = bag_jaccard(query, bag)
        reachable = any(f in usable for f in set(query) & set(bag)) or (bool(bag) and dict(bag) == dict(query))
        if reachable and expected >= threshold:
            assert abs(found[key] - expected) < 1e-12
        else:
            assert key not in found


def test_bag_containment_hand_computed():
    small, large = Counter({1: 1, 2: 1, 3: 1}), Counter({1: 1, 2: 1, 4: 1, 5: 1})
    assert bag_containment(small, large) == 2 / 3 == bag_containment(large, small)
    assert bag_containment(small, Counter()) == 0.0
    assert bag_containment(small, large, score_cutoff=0.7) == 0.0


@given(bags, bags, st.sampled_from([0.3, 0.6, 1.0]), st.sampled_from([0.0, 0.5, 0.8]), st.integers(1, 4))
def test_copy_rule_agrees_with_the_scorers(a, b, threshold, containment, min_contained):
    # The rule decides from counts; the scorers are its plain reference.
    rule = CopyRule(threshold, containment, min_contained)
    by_scores = bag_jaccard(a, b) >= threshold or (
        containment > 0 and min(bag_size(a), bag_size(b)) >= min_contained and bag_containment(a, b) >= containment
    )
    assert rule.accepts(shared_count(a, b), bag_size(a), bag_size(b)) == by_scores


_pair_bags = st.lists(
    st.tuples(*[st.dictionaries(st.integers(0, 2**64 - 1) | st.integers(0, 5), st.integers(1, 4), max_size=6)] * 2), max_size=10
)


@settings(max_examples=300, deadline=None)
@given(_pair_bags)
def test_flat_bag_jaccard_equals_bag_jaccard_pair_by_pair(pairs):
    firsts, seconds = (FlatBags.of([pair[k] for pair in pairs]) for k in (0, 1))
    found = flat_bag_jaccard(firsts, seconds).tolist()
    assert found == [bag_jaccard(a, b) for a, b in pairs]  # exactly: the same division
