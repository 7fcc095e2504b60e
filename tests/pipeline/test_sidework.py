"""Work sent apart, beside or in pieces, here when no process runs it (pipeline/sidework.py)."""

from partialdup.pipeline.sidework import inline_apart


def test_work_sent_apart_here_runs_at_once_in_order_and_gives_its_results_when_asked():
    ran = []

    def work(name, value):
        ran.append(name)
        return value * 2

    results = inline_apart([(work, ("first", 1)), (work, ("second", 2))])
    # Run before anything is asked (detect sends its side searches before the
    # index is built, so their working arrays do not add to its peak).
    assert ran == ["first", "second"]
    assert [result() for result in results] == [2, 4]
    assert [result() for result in results] == [2, 4] and ran == ["first", "second"]  # asked again: not run again
