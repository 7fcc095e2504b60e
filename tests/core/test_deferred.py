"""Deferred (core/deferred.py): the result made once, on the first call, and the work let go."""

import gc
import weakref

from partialdup.core.deferred import Deferred


class _Held:
    """Something a work holds (an array, a run's words)."""


def test_the_result_is_made_once_and_the_work_goes_with_what_it_holds():
    calls = []
    held = _Held()
    alive = weakref.ref(held)

    def work(thing=held):
        calls.append(thing)
        return len(calls)

    deferred = Deferred(work)
    del held, work
    assert not deferred.done and alive() is not None
    assert deferred() == 1 and deferred() == 1  # made once, kept
    assert deferred.done and len(calls) == 1
    calls.clear()
    gc.collect()
    assert alive() is None  # nothing but the work held it


def test_a_result_of_none_is_kept_too():
    calls = []
    deferred = Deferred(lambda: calls.append(1))
    assert deferred() is None and deferred() is None and calls == [1]
