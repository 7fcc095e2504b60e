"""Progress bars on standard error, for the runs that last long enough to need them.

A bar appears only after a second (a short run shows none), only when
standard error is a terminal (a log file or CI gets no carriage returns),
and never with ``--quiet``; it is cleared when its stage ends. The pipeline
has no progress hooks: the command line reads each document's features
through :meth:`Progress.each`, and wraps the matching, which it cannot see
inside, in :meth:`Progress.stage` (a line with the time spent).
"""

from __future__ import annotations

import contextlib
import sys
import threading
from typing import IO, Iterable, Iterator, Sized, TypeVar

__all__ = ["Progress"]

T = TypeVar("T")


class Progress:
    """Shows progress on a stream, or nothing.

    Args:
        enabled: Show anything at all.
        stream: Where (standard error when None).
        delay: Seconds before a bar appears.
    """

    #: Seconds before a bar appears: runs shorter than this show none.
    DELAY = 1.0

    def __init__(self, enabled: bool, *, stream: IO[str] | None = None, delay: float | None = None) -> None:
        self.enabled = enabled
        self.stream = stream
        self.delay = self.DELAY if delay is None else delay

    @classmethod
    def on_terminal(cls, quiet: bool = False) -> Progress:
        """Progress on standard error when it is a terminal and not ``quiet``."""
        return cls(not quiet and _is_terminal(sys.stderr))

    def each(self, items: Iterable[T], description: str, unit: str = "doc") -> Iterator[T]:
        """The items, one at a time, with a bar counting them."""
        if not self.enabled:
            yield from items
            return
        from tqdm import tqdm

        total = len(items) if isinstance(items, Sized) else None
        bar = tqdm(
            items, desc=description, unit=unit, total=total, delay=self.delay, leave=False,
            file=self.stream or sys.stderr, dynamic_ncols=True, mininterval=0.2,
        )
        with contextlib.closing(bar):
            yield from bar

    @contextlib.contextmanager
    def stage(self, description: str) -> Iterator[None]:
        """A line with the time spent, for a stage whose steps cannot be counted."""
        if not self.enabled:
            yield
            return
        done = threading.Event()
        ticker = threading.Thread(target=self._tick, args=(description, done), daemon=True)
        ticker.start()
        try:
            yield
        finally:
            done.set()
            ticker.join()

    def _tick(self, description: str, done: threading.Event) -> None:
        if done.wait(self.delay):
            return
        from tqdm import tqdm

        bar = tqdm(
            desc=description, bar_format="{desc}: {elapsed}", leave=False,
            file=self.stream or sys.stderr, dynamic_ncols=True,
        )
        with contextlib.closing(bar):
            while not done.wait(0.5):
                bar.refresh()


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False
