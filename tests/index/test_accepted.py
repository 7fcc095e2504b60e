import numpy as np

from hypothesis import given, settings, strategies as st

from partialdup.index.accepted import Accepted, AcceptedParts, narrowest
from partialdup.methods.similarity import CopyRule

rules = st.builds(CopyRule, threshold=st.sampled_from([0.2, 0.5, 1.0]), containment=st.sampled_from([0.0, 0.5]))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.integers(0, 60), rules, st.data())
def test_scored_at_gives_the_rows_of_scored(groups, count, rule, data):
    # A slice scored alone (as search_all expands it) is those rows of the
    # whole scored: the same columns, widened, and the same floats.
    sizes = np.array(data.draw(st.lists(st.integers(0, 9), min_size=groups, max_size=groups)), np.int64)
    column = st.lists(st.integers(0, groups - 1), min_size=count, max_size=count)
    query, group = (np.array(data.draw(column), np.int32) for _ in range(2))
    shared = np.minimum(sizes[query], sizes[group]).astype(np.int32)
    accepted = Accepted.of(query, group, shared, candidates=count)
    rows = np.array(sorted(data.draw(st.sets(st.integers(0, max(count - 1, 0)), max_size=count))), np.int64)[: count]
    whole, part = accepted.scored(sizes, sizes, rule), accepted.scored_at(rows, sizes, sizes, rule)
    for name in ("query", "group", "score", "shared"):
        expected, found = getattr(whole, name)[rows], getattr(part, name)
        assert found.dtype == expected.dtype
        assert found.tolist() == expected.tolist()
    assert part.candidates == count


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.lists(st.tuples(st.integers(0, 29), st.integers(0, 50), st.integers(0, 300)), max_size=60),
       st.booleans(), st.data())
def test_parts_hold_what_the_columns_hold(rows, pairs, ordered, data):
    # Gathered a block at a time, sorted (the blocked product) or not, the
    # pairs read back as the plain columns give them, whatever the blocks.
    pairs = [(q % rows, g, s) for q, g, s in pairs]
    if ordered:
        pairs.sort(key=lambda pair: pair[0])
    query, group, shared = (np.array([pair[k] for pair in pairs], np.int64) for k in range(3))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(pairs)), max_size=5)))
    parts = AcceptedParts(rows)
    for low, high in zip([0, *cuts], [*cuts, len(pairs)]):
        parts.add(query[low:high], group[low:high], shared[low:high])
    gathered, plain = parts.accepted(len(pairs)), Accepted.of(query, group, shared, len(pairs))
    for accepted in (gathered, plain):
        assert accepted.query.dtype == np.int32 and accepted.query.tolist() == query.tolist()
        assert accepted.group.tolist() == group.tolist() and accepted.shared.tolist() == shared.tolist()
        assert accepted.shared.dtype == narrowest(shared).dtype and len(accepted) == len(pairs)
        positions = np.array(data.draw(st.lists(st.integers(0, max(len(pairs) - 1, 0)), max_size=len(pairs))), np.int64)
        assert accepted.query_at(positions).tolist() == query[positions].tolist()
        values = np.arange(rows) * 7 % 5
        assert accepted.of_query(values).tolist() == values[query].tolist()
        assert accepted.candidates == len(pairs)


def test_sorted_rows_are_held_as_starts():
    # 4 bytes a query row, not a pair; the shared counts in a byte each.
    query = np.repeat(np.arange(100), 50)
    accepted = Accepted.of(query, np.arange(len(query)), np.full(len(query), 7), len(query))
    assert accepted._query is None and accepted._starts.nbytes == 101 * 4
    assert accepted.shared.dtype == np.uint8
