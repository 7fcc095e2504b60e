"""Deferred (core/deferred.py): the result made once, on the first call, and the work let go."""

import gc
import weakref

import pytest

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


def test_a_released_result_goes_and_is_not_made_again():
    box = [_Held()]
    alive = weakref.ref(box[0])
    calls = []

    def work():
        calls.append(1)
        return box.pop()

    deferred = Deferred(work)
    assert deferred() is alive()
    deferred.release()
    gc.collect()
    assert alive() is None  # the reader was done with it: nothing holds it now
    with pytest.raises(RuntimeError):
        deferred()  # not given again, nor made again
    assert calls == [1]


def test_a_work_released_before_its_call_is_never_run():
    calls = []
    deferred = Deferred(lambda: calls.append(1))
    deferred.release()
    assert deferred.done
    with pytest.raises(RuntimeError):
        deferred()
    assert calls == []  # never run
