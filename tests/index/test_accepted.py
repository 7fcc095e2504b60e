import numpy as np

from hypothesis import given, settings, strategies as st

from partialdup.index.accepted import Accepted
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
    accepted = Accepted(query, group, shared, candidates=count)
    rows = np.array(sorted(data.draw(st.sets(st.integers(0, max(count - 1, 0)), max_size=count))), np.int64)[: count]
    whole, part = accepted.scored(sizes, sizes, rule), accepted.scored_at(rows, sizes, sizes, rule)
    for name in ("query", "group", "score", "shared"):
        expected, found = getattr(whole, name)[rows], getattr(part, name)
        assert found.dtype == expected.dtype
        assert found.tolist() == expected.tolist()
    assert part.candidates == count
