"""One work run beside the calling process, in a process forked for it.

:class:`BesideProcess` starts ``work()`` in a forked process at once;
calling the object waits for its result, sent back pickled through a pipe.
"""

from __future__ import annotations

import traceback
import weakref
from typing import Any, Callable, Generic, TypeVar

from partialdup.pipeline.forking import as_helper, end_process, frozen_heap

__all__ = ["BesideProcess"]

T = TypeVar("T")


class BesideProcess(Generic[T]):
    """``work()`` in a forked process, started at once; calling the object
    waits for the result (sent back pickled through a pipe) and returns it.
    A result never asked for ends the process when the object goes."""

    def __init__(self, context: Any, work: Callable[[], T]) -> None:
        self._reader, writer = context.Pipe(duplex=False)
        self._process = context.Process(target=_run_beside, args=(work, writer), daemon=True)
        with frozen_heap():
            self._process.start()
        writer.close()  # the child's end: EOF here if the child dies
        self._ending = weakref.finalize(self, end_process, self._process, self._reader)

    def __call__(self) -> T:
        try:
            ok, value = self._reader.recv()
        except EOFError:
            ok, value = False, "it ended without sending its result"
        self._process.join()  # it ends once its result is sent (or it died)
        self._ending()
        if not ok:
            raise RuntimeError(f"the side process failed:\n{value}")
        return value  # type: ignore[no-any-return]


def _run_beside(work: Callable[[], Any], writer: Any) -> None:
    as_helper()
    try:
        outcome = (True, work())
    except BaseException:  # noqa: BLE001 - reported to the caller, which raises
        outcome = (False, traceback.format_exc())
    writer.send(outcome)
    writer.close()
