"""A result made when first asked for, its work let go once done.

The look-ups hand the tail some results as works to run later (the near
misses' verdicts, gathered from helper processes; the edited copies'
verdicts). A closure would keep what the work reads (a search's arrays, a
run's words) for as long as the look-ups' results are held, which is to the
end of a ``detect`` run; :class:`Deferred` drops the work, and with it what it
holds, as soon as the result is made.
"""

from __future__ import annotations

from typing import Callable, Generic, TypeVar

__all__ = ["Deferred"]

T = TypeVar("T")


class Deferred(Generic[T]):
    """``work()``, made on the first call and kept; the work then goes.

    Args:
        work: Makes the result (called at most once).
    """

    __slots__ = ("_work", "_result")

    #: In place of a result let go (:meth:`release`).
    _RELEASED: object = object()

    def __init__(self, work: Callable[[], T]) -> None:
        self._work: Callable[[], T] | None = work
        self._result: T | None = None

    def __call__(self) -> T:
        work = self._work
        if work is not None:
            self._result = work()
            self._work = None  # what the work holds goes with it
        if self._result is Deferred._RELEASED:
            raise RuntimeError("the result was released; it is not made again")
        return self._result  # type: ignore[return-value]

    def release(self) -> None:
        """Let the result (or the work, when not yet done) go: its readers
        are done with it. A later call raises RuntimeError."""
        self._work = None
        self._result = Deferred._RELEASED  # type: ignore[assignment]

    @property
    def done(self) -> bool:
        """Whether the result is made (and the work let go)."""
        return self._work is None
