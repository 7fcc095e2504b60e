"""The pieces a local run's work is cut into."""

from hypothesis import given, strategies as st

from partialdup.core.types import Document, DocumentFeatures
from partialdup.pipeline.work_pieces import CHUNKS_PER_WORKER, batches, merged_features, runs_reaching, weighted_runs


def _items_in_order_in_nonempty_runs(items, runs):
    return [item for run in runs for item in run] == items and all(runs)


@given(st.lists(st.integers(0, 50), max_size=200), st.integers(1, 4))
def test_weighted_runs_cut_the_items_in_order_into_nonempty_runs(weights, workers):
    items = list(range(len(weights)))
    runs = weighted_runs(items, weights, workers)
    assert _items_in_order_in_nonempty_runs(items, runs)
    share = max(1, -(-sum(weights) // (workers * CHUNKS_PER_WORKER)))
    assert all(sum(weights[i] for i in run) >= share for run in runs[:-1])  # each closed once it reached its share


@given(st.lists(st.integers(0, 50), max_size=30), st.integers(1, 120))
def test_runs_reaching_hold_the_items_in_order_each_closed_at_its_share(weights, share):
    items = list(range(len(weights)))
    runs = runs_reaching(items, weights, share)
    assert _items_in_order_in_nonempty_runs(items, runs)
    for run in runs[:-1]:  # closed as soon as it reaches the share, not before
        held = [weights[i] for i in run]
        assert sum(held) >= share and sum(held[:-1]) < share


def test_batches_keep_the_order_and_only_the_last_is_short():
    assert list(batches(iter(range(7)), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(batches(iter(()), 3)) == []


def test_merged_features_put_the_computed_between_those_given():
    given_features = DocumentFeatures("b", [], [], ())
    docs = [Document("a", "x"), given_features, Document("c", "y")]
    computed = [DocumentFeatures("a", [], [], ()), DocumentFeatures("c", [], [], ())]
    assert list(merged_features(docs, iter(computed))) == [computed[0], given_features, computed[1]]
