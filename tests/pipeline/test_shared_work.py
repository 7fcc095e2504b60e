"""Pieces of work shared by the calling process and forked helpers."""

import multiprocessing
import os
import signal
import time

import pytest

from partialdup.pipeline.shared_work import shared_pieces

_FORK = multiprocessing.get_context("fork")


def _slow_pid(number):
    time.sleep(0.01)  # long enough for both processes to take pieces
    return number, os.getpid()


def test_every_piece_once_in_order_whoever_computed_it():
    got = list(shared_pieces(_FORK, 1, 40, _slow_pid, _slow_pid, lambda number, value: value))
    assert [number for number, _ in got] == list(range(40))
    computed_by = {pid for _, pid in got}
    assert os.getpid() in computed_by and len(computed_by) == 2  # this process and its helper


def test_a_helpers_result_goes_through_back():
    got = list(shared_pieces(_FORK, 2, 30, lambda k: ("here", k), lambda k: k, lambda number, value: ("there", value)))
    assert [k for _, k in got] == list(range(30))
    assert {kind for kind, _ in got} <= {"here", "there"}


def test_meanwhile_runs_once_here_while_the_helpers_compute_and_changes_no_result():
    calls = []

    def meanwhile():
        calls.append(os.getpid())
        time.sleep(0.2)  # the helper takes pieces meanwhile

    got = list(shared_pieces(_FORK, 1, 40, _slow_pid, _slow_pid, lambda number, value: value, meanwhile=meanwhile))
    assert [number for number, _ in got] == list(range(40)) and calls == [os.getpid()]
    assert {pid for _, pid in got} - {os.getpid()}  # the helper computed pieces
    # Not run without a helper.
    assert list(shared_pieces(_FORK, 0, 3, lambda k: k, lambda k: k, meanwhile=meanwhile)) == [0, 1, 2] and len(calls) == 1


def test_no_piece_and_no_helper():
    assert list(shared_pieces(_FORK, 0, 3, lambda k: k * 2, lambda k: k, lambda k, v: v)) == [0, 2, 4]
    assert list(shared_pieces(_FORK, 2, 0, lambda k: k, lambda k: k, lambda k, v: v)) == []


def test_a_failing_helper_raises_here_with_its_traceback():
    def there(number):
        raise ValueError(f"piece {number} is bad")

    def here(number):
        time.sleep(0.05)  # leave pieces to the helper
        return number

    with pytest.raises(RuntimeError, match="is bad"):
        list(shared_pieces(_FORK, 1, 20, here, there, lambda k, v: v))


def test_a_helper_that_dies_raises_here_instead_of_waiting_for_ever():
    def there(number):
        os.kill(os.getpid(), signal.SIGKILL)

    def here(number):
        time.sleep(0.05)
        return number

    with pytest.raises(RuntimeError, match="ended"):
        list(shared_pieces(_FORK, 1, 20, here, there, lambda k, v: v))


def test_a_failure_here_ends_the_helpers():
    def here(number):
        raise KeyError("here")

    pieces = shared_pieces(_FORK, 1, 50, here, _slow_pid, lambda k, v: v)
    with pytest.raises(KeyError):
        list(pieces)
    assert not multiprocessing.active_children()
