"""Signals held over a block: they act when it ends, as they would have."""

from __future__ import annotations

import signal
import threading

import pytest

from partialdup.core.signals import signals_deferred


class Terminated(Exception):
    pass


def terminated(signum, frame):
    raise Terminated


@pytest.fixture
def raising_on_sigterm():
    previous = signal.signal(signal.SIGTERM, terminated)
    yield
    signal.signal(signal.SIGTERM, previous)


@pytest.mark.parametrize(("signum", "raised"), [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, Terminated)])
def test_a_signal_in_the_block_acts_once_it_ends(raising_on_sigterm, signum, raised):
    done = []
    with pytest.raises(raised):
        with signals_deferred():
            signal.raise_signal(signum)
            done.append("the rest of the block")
    assert done == ["the rest of the block"]
    assert signal.getsignal(signal.SIGTERM) is terminated and signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_two_of_one_signal_act_once_and_a_quiet_block_raises_nothing(raising_on_sigterm):
    with pytest.raises(Terminated):
        with signals_deferred():
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGTERM)
    with signals_deferred():
        pass
    assert signal.getsignal(signal.SIGTERM) is terminated


def test_an_ignored_signal_stays_ignored():
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with signals_deferred():
            signal.raise_signal(signal.SIGTERM)
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_outside_the_main_thread_signals_are_left_alone(raising_on_sigterm):
    seen = []

    def run():
        with signals_deferred():
            seen.append(signal.getsignal(signal.SIGTERM))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [terminated]
