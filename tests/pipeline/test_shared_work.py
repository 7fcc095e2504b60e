"""Pieces of work shared by the calling process and forked helpers."""

import ctypes
import multiprocessing
import os
import signal
import subprocess
import sys
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


# A helper forked early, sent one batch of work later (HelperProcess).

from partialdup.pipeline.shared_work import HelperProcess  # noqa: E402


def _pid_and(value):
    return os.getpid(), value


def _big(count):
    return list(range(count))  # far more than a pipe holds: sent while the next work runs


def _fails(message):
    raise ValueError(message)


def _dies():
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_helper_runs_its_batch_in_another_process_and_results_come_in_any_order_asked():
    helper = HelperProcess(_FORK)
    big, first, second = helper.run([(_big, (200_000,)), (_pid_and, ("a",)), (_pid_and, ("b",))])
    pid, value = second()  # asked for out of order: the earlier results are kept
    assert value == "b" and pid != os.getpid()
    assert first() == (pid, "a") and big() == list(range(200_000))
    assert first() == (pid, "a")  # asked again: the same result
    with pytest.raises(RuntimeError, match="one batch"):
        helper.run([(_pid_and, ("c",))])
    helper._process.join(5)
    assert not helper._process.is_alive()  # it ended with its batch


def _arrays(count):
    import numpy as np

    return np.arange(count, dtype=np.int64), np.arange(count, dtype=np.float64) / 2


def test_a_helpers_large_result_lets_it_end_before_the_caller_reads_it():
    # 16 MB of arrays: more than a socket holds. Sent in a memory file, the
    # helper ends at once, and the memory it held with it (detect's word-set
    # pairs are read last; docs/benchmark.md, session 53).
    import numpy as np

    helper = HelperProcess(_FORK)
    (result,) = helper.run([(_arrays, (1_000_000,))])
    helper._process.join(10)
    assert not helper._process.is_alive()
    numbers, halves = result()
    assert np.array_equal(numbers, np.arange(1_000_000)) and np.array_equal(halves, numbers / 2)


def test_a_failing_work_raises_here_and_the_others_still_give_their_results():
    failing, fine = HelperProcess(_FORK).run([(_fails, ("no such sentence",)), (_pid_and, (1,))])
    with pytest.raises(RuntimeError, match="no such sentence"):
        failing()
    assert fine()[1] == 1


def test_a_helper_that_dies_raises_here_instead_of_waiting():
    dies, after = HelperProcess(_FORK).run([(_dies, ()), (_pid_and, (1,))])
    with pytest.raises(RuntimeError, match="ended"):
        dies()
    with pytest.raises(RuntimeError, match="ended"):
        after()


def test_a_helper_never_sent_work_ends_when_closed_or_when_its_parent_is_gone():
    helper = HelperProcess(_FORK)
    process = helper._process
    helper.close()
    process.join(5)
    assert not process.is_alive()
    # A parent killed (a real kill) leaves no helper behind.
    reader, writer = os.pipe()
    parent = os.fork()
    if parent == 0:  # the parent to kill: makes a helper, says its pid, waits
        os.close(reader)
        orphan = HelperProcess(_FORK)
        os.write(writer, str(orphan._process.pid).encode())
        time.sleep(60)
        os._exit(0)
    os.close(writer)
    pid = int(os.read(reader, 32))
    os.close(reader)
    os.kill(parent, signal.SIGKILL)
    os.waitpid(parent, 0)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and os.path.exists(f"/proc/{pid}") and "Z" not in _state(pid):
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{pid}") or "Z" in _state(pid)


def _state(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


# Helpers forked early that take pieces of a work sent later (LaterPieces).

from partialdup.pipeline.shared_work import LaterPieces  # noqa: E402


def _piece_with(inherited, data, number):
    time.sleep(0.01)  # long enough for both processes to take pieces
    return inherited(number) * data, os.getpid()


def _bad_piece(inherited, data, number):
    raise ValueError(f"piece {number} is bad")


def test_later_pieces_read_what_they_inherited_and_are_shared_with_the_caller():
    # The inherited object is never pickled (a lambda could not be); the
    # data is sent once; every piece once, in order, here or there.
    double = lambda number: 2 * number  # noqa: E731
    pieces = LaterPieces(_FORK, 1, double)
    time.sleep(0.05)  # forked before the work exists
    pieces.start(40, _piece_with, 3)
    got = list(pieces.results(lambda number: _piece_with(double, 3, number)))
    assert [value for value, _ in got] == [6 * number for number in range(40)]
    assert {pid for _, pid in got} == {os.getpid(), pieces._processes[0].pid}
    assert not multiprocessing.active_children()


def _loaded_piece(inherited, data, number):
    time.sleep(0.01)  # long enough for both processes to take pieces
    return inherited["loaded"], number


def _load(inherited):
    inherited["loaded"] = os.getpid()


def _bad_load(inherited):
    raise OSError("no dictionary")


def test_the_first_piece_sent_alone_is_the_first_helpers_and_the_rest_are_shared():
    # start_first: piece 0 made by the first helper while the caller makes
    # the work's rest; start() then hands out pieces from 1; the same results.
    odd = lambda number: 2 * number + 1  # noqa: E731
    pieces = LaterPieces(_FORK, 2, odd, first=True)
    pieces.start_first(_piece_with, 5)
    with pytest.raises(RuntimeError, match="first"):
        pieces.start_first(_piece_with, 5)
    pieces.start(30, _piece_with, 3)
    got = list(pieces.results(lambda number: _piece_with(odd, 3, number)))
    assert [value for value, _ in got] == [5] + [3 * (2 * number + 1) for number in range(1, 30)]
    assert got[0][1] == pieces._processes[0].pid
    assert not multiprocessing.active_children()


_PREPARED = _FORK.Event()


def _slow_prepare(inherited):
    time.sleep(2)
    _PREPARED.set()


def _sum_piece(inherited, data, number):
    return int(data.sum()) + number


def test_a_helper_reads_what_it_is_sent_while_it_prepares():
    # The first piece, more than a pipe holds, is read by the helper's own
    # thread as it comes: the caller is not held while the helper prepares.
    import numpy as np

    pieces = LaterPieces(_FORK, 1, None, prepare=_slow_prepare, first=True)
    pieces.start_first(_sum_piece, np.ones(500_000, dtype=np.int64))
    assert not _PREPARED.is_set()
    pieces.start(2, _sum_piece, np.ones(3, dtype=np.int64))
    assert list(pieces.results(lambda number: _sum_piece(None, np.ones(3, dtype=np.int64), number))) == [500_000, 4]
    assert _PREPARED.is_set() and not multiprocessing.active_children()


def _prepare_holding_the_lock(inherited):
    # A C call that keeps the interpreter's lock (as a tokenizer's Rust
    # dictionary build does): the helper's reading thread cannot run meanwhile.
    ctypes.PyDLL(None).usleep(1_500_000)
    _PREPARED.set()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="libc's usleep through ctypes")
def test_the_first_piece_is_sent_while_the_helper_holds_its_lock():
    # More than a pipe holds, sent to a helper that cannot read it yet: the
    # caller goes on at once (a thread of its own writes it); start() waits
    # for that write before anything else is sent.
    import numpy as np

    _PREPARED.clear()
    pieces = LaterPieces(_FORK, 1, None, prepare=_prepare_holding_the_lock, first=True)
    time.sleep(0.2)  # the helper is in its prepare
    pieces.start_first(_sum_piece, np.ones(1_000_000, dtype=np.int64))
    assert not _PREPARED.is_set()
    pieces.start(2, _sum_piece, np.ones(3, dtype=np.int64))
    assert list(pieces.results(lambda number: _sum_piece(None, np.ones(3, dtype=np.int64), number))) == [1_000_000, 4]
    assert not multiprocessing.active_children()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="libc's usleep through ctypes")
def test_closing_ends_a_first_piece_still_being_written():
    # The helper ended before it read the piece: the write fails (the
    # caller holds no reading end of its own) and close() returns.
    import numpy as np

    pieces = LaterPieces(_FORK, 1, None, prepare=_prepare_holding_the_lock, first=True)
    pieces.start_first(_sum_piece, np.ones(1_000_000, dtype=np.int64))
    pieces.close()
    assert not pieces._sending.is_alive() and not multiprocessing.active_children()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="libc's usleep through ctypes")
def test_a_first_helper_killed_before_it_reads_its_piece_is_reported_not_waited_for():
    # The second helper, forked after the first one's pipe was made, closes
    # its copy of that pipe's reading end: the write fails, nothing waits.
    import numpy as np

    pieces = LaterPieces(_FORK, 2, None, prepare=_prepare_holding_the_lock, first=True)
    pieces.start_first(_sum_piece, np.ones(1_000_000, dtype=np.int64))
    os.kill(pieces._processes[0].pid, signal.SIGKILL)
    pieces.start(3, _sum_piece, np.ones(3, dtype=np.int64))
    with pytest.raises(RuntimeError):
        list(pieces.results(lambda number: _sum_piece(None, np.ones(3, dtype=np.int64), number)))
    pieces.close()
    assert not multiprocessing.active_children()


def test_a_failing_first_piece_raises_here_with_its_traceback():
    with pytest.raises(RuntimeError, match="made for it"):
        LaterPieces(_FORK, 1, None).start_first(_bad_piece, None)  # its helpers would not read it
    pieces = LaterPieces(_FORK, 1, None, first=True)
    pieces.start_first(_bad_piece, None)
    pieces.start(3, _piece_with, 1)
    with pytest.raises(RuntimeError, match="piece 0 is bad"):
        list(pieces.results(lambda number: number))
    pieces.close()
    assert not multiprocessing.active_children()


def test_later_pieces_prepare_what_they_inherited_as_soon_as_forked():
    # prepare() ran in the helper on its own copy, before the work came; a
    # failing one is left to the work.
    state = {"loaded": None}
    pieces = LaterPieces(_FORK, 1, state, prepare=_load)
    helper = pieces._processes[0].pid
    pieces.start(30, _loaded_piece, None)
    got = list(pieces.results(lambda number: (time.sleep(0.02), (state["loaded"], number))[1]))
    assert [number for _, number in got] == list(range(30))
    assert {loaded for loaded, _ in got} == {None, helper} and state["loaded"] is None
    failing = LaterPieces(_FORK, 1, {"loaded": 7}, prepare=_bad_load)
    failing.start(3, _loaded_piece, None)
    assert list(failing.results(lambda number: (time.sleep(0.2), (7, number))[1])) == [(7, 0), (7, 1), (7, 2)]
    assert not multiprocessing.active_children()


_ENDED_AT_ONCE = """
import multiprocessing, signal
from partialdup.pipeline.shared_work import LaterPieces
class Stop(BaseException): pass
def stop(signum, frame): raise Stop()
signal.signal(signal.SIGTERM, stop)  # as the command line does
fork = multiprocessing.get_context("fork")
for _ in range(100):
    LaterPieces(fork, 1, None).close()
print("ok")
"""


def test_helpers_ended_as_soon_as_forked_end(tmp_path):
    # SIGTERM sent before a helper had set its own handlers ran the caller's
    # handler there, or was lost: the caller then waited for ever (the
    # command line ends its feature helpers at once when no input is read).
    script = tmp_path / "ended.py"
    script.write_text(_ENDED_AT_ONCE)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr[-2000:]


def test_later_pieces_never_started_end_when_closed():
    pieces = LaterPieces(_FORK, 2, None)
    processes = list(pieces._processes)
    pieces.close()
    for process in processes:
        process.join(5)
        assert not process.is_alive()


def test_a_failing_later_piece_raises_here_with_its_traceback():
    def here(number):
        time.sleep(0.05)  # leave pieces to the helper
        return number

    pieces = LaterPieces(_FORK, 1, None)
    pieces.start(20, _bad_piece, None)
    with pytest.raises(RuntimeError, match="is bad"):
        list(pieces.results(here))
    assert not multiprocessing.active_children()


def _slow(value):
    time.sleep(0.5)
    return value


def test_results_taken_when_ready_end_the_helper_and_are_kept_for_when_asked():
    helper = HelperProcess(_FORK)
    (result,) = helper.run([(_pid_and, (5,))])
    deadline = time.monotonic() + 10
    while not helper._conn.poll() and time.monotonic() < deadline:
        time.sleep(0.01)
    helper.take_ready()
    assert not helper.alive and not helper._process.is_alive()  # ended, its result read
    assert result()[1] == 5 and result()[1] == 5
    helper.take_ready()  # nothing left: nothing done
    # A result not sent yet is not waited for.
    slow = HelperProcess(_FORK)
    (later,) = slow.run([(_slow, (7,))])
    started = time.monotonic()
    slow.take_ready()
    assert time.monotonic() - started < 0.4 and slow.alive
    assert later() == 7 and not slow.alive
    closed = HelperProcess(_FORK)
    closed.run([(_slow, (8,))])
    closed.close()
    closed.take_ready()  # closed: nothing to read, no error


def test_later_pieces_read_to_the_last_one_only_are_joined_not_killed():
    # One next() per result, as the features' merge takes them: the helpers
    # are joined before the last result is handed over, never terminated
    # when the suspended generator is closed (they were, a flaky test saw it).
    double = lambda number: 2 * number  # noqa: E731
    pieces = LaterPieces(_FORK, 1, double)
    pieces.start(12, _piece_with, 1)
    reading = pieces.results(lambda number: _piece_with(double, 1, number))
    got = [next(reading) for _ in range(12)]
    assert [value for value, _ in got] == [2 * number for number in range(12)]
    assert not pieces._ending.alive and pieces._processes[0].exitcode == 0
    reading.close()
    assert pieces._processes[0].exitcode == 0 and not multiprocessing.active_children()


def test_results_end_their_helpers_before_the_last_one_is_handed_over():
    from partialdup.pipeline.shared_work import _ended_before_last

    seen = []
    reading = _ended_before_last(iter("abc"), 3, lambda: seen.append("ended"))
    assert [next(reading), next(reading)] == ["a", "b"] and seen == []
    assert next(reading) == "c" and seen == ["ended"]
    assert list(_ended_before_last(iter(()), 0, lambda: seen.append("none"))) == [] and seen == ["ended", "none"]
    pieces = shared_pieces(_FORK, 1, 6, _slow_pid, _slow_pid, lambda number, value: value)
    assert len([next(pieces) for _ in range(6)]) == 6
    assert not multiprocessing.active_children()  # joined with the last result, before the generator ends
    pieces.close()
