"""Work shared with forked helpers: numbered pieces of one work taken in
turn by the calling process and its helpers (:func:`shared_pieces`), and
work sent later to a process forked early (:class:`HelperProcess`). One
work run beside the caller is :mod:`partialdup.pipeline.beside`'s.

A pool of ``N`` workers leaves the calling process waiting, or busy only
with unpickling what the workers send back, while the other cores compute:
on two cores, the features of the Chinese bench corpus took 5.3 s of wall
time with two workers against 6.0 s in one process, the caller spending
1.2 s rebuilding the workers' results. :func:`shared_pieces` starts
``N - 1`` forked helpers instead, and the calling process takes pieces of
the same work too: whoever is free takes the next piece (one shared
counter), so the pieces it computes itself cost nothing to move, and no
core waits while pieces remain.

The results come back in the pieces' order whoever computed them, so the
output is the same as in one process, provided each piece is a pure
function of its number (the caller's state at the fork: helpers inherit it,
nothing is pickled on the way there).
"""

from __future__ import annotations

import os
import queue
import threading
import traceback
import weakref
from functools import partial
from types import SimpleNamespace
from typing import Any, Callable, Generic, Iterator, NamedTuple, Sequence, TypeVar

from partialdup.core.heap import release_free_memory
from partialdup.pipeline.forking import as_helper, end_process, frozen_heap
from partialdup.pipeline.messages import prompt_reading, received_message, roomy_pipe, send_message

__all__ = ["HelperProcess", "LaterPieces", "shared_pieces"]

R = TypeVar("R")

#: Seconds a wait for a helper's result lasts before the helpers are checked
#: (one that died without sending its result would make the wait endless).
_CHECK_EVERY = 0.5


def shared_pieces(
    context: Any,
    helpers: int,
    count: int,
    here: Callable[[int], R],
    there: Callable[[int], Any],
    back: Callable[[int, Any], R] | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> Iterator[R]:
    """Pieces ``0 .. count - 1`` of a work, their results yielded in order.

    Args:
        context: A multiprocessing context whose start method is ``fork``.
        helpers: Forked processes to start beside the calling process.
        count: How many pieces.
        here: Computes piece ``k`` in the calling process.
        there: Computes piece ``k`` in a helper, in a picklable form.
        back: Turns what ``there`` returned for piece ``k`` into what
            ``here`` returns: ``back(k, value)`` (None: it is that already).
        meanwhile: Run once in the calling process, once the helpers are
            started and before it takes a piece (work for a later stage,
            done while they compute: the pieces it would have taken go to
            them); not run when there is no helper.

    Raises:
        RuntimeError: A helper failed (its traceback is in the message) or
            died before sending a result.
    """
    counter = context.Value("i", 0)
    results = context.Queue()
    processes = [context.Process(target=_serve, args=(counter, results, there, count), daemon=True) for _ in range(helpers)]
    with frozen_heap():
        for process in processes:
            process.start()
    try:
        if processes and meanwhile is not None:
            meanwhile()
        yield from _ended_before_last(_in_order(counter, results, processes, count, here, back), count,
                                      partial(_end_pieces, processes, results, False))
    except BaseException:
        for process in processes:
            process.terminate()
        raise
    finally:
        _end_pieces(processes, results, False)


class LaterPieces(Generic[R]):
    """:func:`shared_pieces` whose helpers are forked before the work
    exists: they wait, and take pieces of the one work sent to them later
    (:meth:`start`), its data pickled, while the caller goes on with other
    work; the caller joins them when it reads the :meth:`results`.

    Helpers forked when the work is ready inherit the caller's heap as it is
    then: beside a caller that goes on working, every page either process
    writes is copied and held twice (detect's near misses judged that way
    from the look-ups on: +150 MB on the English bench corpus;
    docs/benchmark.md, session 25). Forked while the heap is small, they
    hold little but what they are sent.

    Args:
        context: A multiprocessing context whose start method is ``fork``.
        helpers: How many.
        inherited: What the work reads as the caller's own (the detector):
            inherited at the fork, never pickled.
        prepare: Run in each helper on ``inherited`` as soon as it is
            forked, while it waits for the work (loading what the work will
            need, while the caller makes the work); a failure is left for
            the work itself to meet and report.
        first: Whether :meth:`start_first` may send a first piece: the
            helpers then read what they are sent by a thread of their own,
            as it comes (one more thread, one more malloc arena: the near
            misses' helper held 16 MB more with it, en bench corpus).
    """

    def __init__(
        self, context: Any, helpers: int, inherited: Any, prepare: Callable[[Any], object] | None = None, first: bool = False,
    ) -> None:
        self.inherited = inherited
        self._first = first
        self._counter = context.Value("i", 0)
        self._results = context.Queue()
        self._count = 0
        self._senders: list[Any] = []
        self._processes = []
        self._sending: threading.Thread | None = None  # the first piece's (start_first)
        readers: list[Any] = []
        for k in range(helpers):
            reader, sender = roomy_pipe(context)
            args = (readers, k, os.getpid(), self._counter, self._results, inherited, prepare, first)
            self._processes.append(context.Process(target=_serve_later, args=args, daemon=True))
            self._senders.append(sender)
            readers.append(reader)
        self._ending = weakref.finalize(self, _end_pieces, self._processes, self._results, True)
        with frozen_heap():
            for process in self._processes:
                process.start()
        for reader in readers:  # each helper's own (_serve_later): a helper gone makes a write here fail, not wait
            reader.close()

    def start_first(self, there: Callable[[Any, Any, int], Any], data: Any) -> None:
        """Sends piece 0 alone, before the work is whole, to the first
        helper, which computes it as ``there(inherited, data, 0)`` at once
        (the caller goes on making the rest); :meth:`start` then sends the
        other pieces, from 1. Once, before :meth:`start`. (A helper reads
        what it is sent as it comes, by a thread of its own, whatever it is
        doing: a writer blocks once a pipe is full, and the caller waited
        0.5 s for the end of the first piece, zh bench corpus, when the
        helper read its pipe between its works.)

        The piece is written by a thread of the caller's, which
        :meth:`start` and :meth:`close` join: the helper may still be
        loading its dictionaries, which holds its interpreter's lock (the
        caller waited 0.04-0.09 s, zh bench corpus), and no process is
        forked while the thread writes (it would be copied mid-write)."""
        if not self._first or self._counter.value or self._count or self._sending is not None:
            raise RuntimeError("the first piece goes first, once, to helpers made for it")
        self._counter.value = 1  # taken: the first helper's
        self._sending = threading.Thread(target=_send_quietly, args=(self._senders[0], _FirstPiece(there, data)), daemon=True)
        self._sending.start()

    def _first_sent(self) -> None:
        if self._sending is not None:
            self._sending.join()  # its helper gone, the write fails (see _serve_later)

    def start(self, count: int, there: Callable[[Any, Any, int], Any], data: Any) -> None:
        """Sends the work: pieces ``0 .. count - 1``, piece ``k`` computed
        in a helper as ``there(inherited, data, k)`` (``there`` a
        module-level function; ``data`` pickled, once per helper); from
        piece 1 when :meth:`start_first` sent piece 0."""
        self._count = count
        self._first_sent()
        for sender in self._senders:
            _send_quietly(sender, (count, there, data))
            sender.close()

    def results(self, here: Callable[[int], R], back: Callable[[int, Any], R] | None = None) -> Iterator[R]:
        """Every piece's result in order, as :func:`shared_pieces` yields
        them: the helpers' (turned by ``back``) and those left, computed
        here by ``here``. Read once."""
        try:
            yield from _ended_before_last(_in_order(self._counter, self._results, self._processes, self._count, here, back),
                                          self._count, self._joined)
        except BaseException:
            self.close()
            raise

    def _joined(self) -> None:
        # Every result read: the helpers end by themselves.
        if self._ending.detach() is not None:
            _end_pieces(self._processes, self._results, False)

    def close(self) -> None:
        """End the helpers at once, whatever they are doing."""
        self._ending()
        self._first_sent()  # its helper gone, the write fails


def _serve_later(
    readers: Sequence[Any], number: int, parent: int, counter: Any, results: Any, inherited: Any,
    prepare: Callable[[Any], object] | None, first: bool,
) -> None:
    as_helper()
    # Its own pipe's reading end kept, the other helpers' closed: a helper
    # gone leaves no reader of its pipe, and a write to it fails.
    reader = readers[number]
    for other in readers:
        if other is not reader:
            other.close()
    # Read as sent, while this helper prepares or makes the first piece; else when asked for.
    inbox: Any = _inbox(reader, parent) if first else SimpleNamespace(get=partial(_work_sent, reader, parent))
    if prepare is not None:
        try:
            prepare(inherited)
        except Exception:  # noqa: BLE001, S110 - the work meets it again, and reports it
            pass
    work = inbox.get()
    if isinstance(work, _FirstPiece):
        try:
            results.put((0, True, work.there(inherited, work.data, 0)))
        except BaseException:  # noqa: BLE001 - reported to the caller, which raises
            results.put((0, False, traceback.format_exc()))
            results.close()
            results.join_thread()  # written to the pipe before the helper ends (as _serve's)
            return
        del work
        release_free_memory()
        work = inbox.get()
    if work is None:
        return
    count, there, data = work
    release_free_memory()  # the message's bytes, read
    _serve(counter, results, partial(there, inherited, data), count)


def _inbox(conn: Any, parent: int) -> queue.SimpleQueue[Any]:
    """The works sent through ``conn``, read by a thread as they come: a
    first piece, then the work (or None: the caller is gone or sent none).
    The helper forks nothing: its thread is safe."""
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def read() -> None:
        with prompt_reading():  # beside this helper's work (messages.PIPE_BYTES)
            while isinstance(work := _work_sent(conn, parent), _FirstPiece):
                inbox.put(work)
        inbox.put(work)

    threading.Thread(target=read, daemon=True).start()
    return inbox


def _send_quietly(conn: Any, message: Any) -> None:
    try:
        send_message(conn, message)
    except (BrokenPipeError, OSError):
        pass  # a helper gone: results() reports it


class _FirstPiece(NamedTuple):
    """Piece 0, sent alone before the rest (:meth:`LaterPieces.start_first`)."""

    there: Callable[[Any, Any, int], Any]
    data: Any


def _work_sent(conn: Any, parent: int) -> Any:
    """In a helper forked early: the work the caller sends, once it comes;
    None when the caller is gone or closed the pipe without sending any."""
    while not conn.poll(_CHECK_EVERY):
        if os.getppid() != parent:
            return None  # the caller is gone
    try:
        return received_message(conn)
    except EOFError:
        return None


def _end_pieces(processes: Sequence[Any], results: Any, terminate: bool) -> None:
    for process in processes:
        if terminate:
            process.terminate()
        process.join()
    results.close()


def _claim(counter: Any, count: int) -> int | None:
    """The next piece nobody has taken (None: all are taken)."""
    with counter.get_lock():
        number = counter.value
        if number >= count:
            return None
        counter.value = number + 1
        return number  # type: ignore[no-any-return]


def _serve(counter: Any, results: Any, there: Callable[[int], Any], count: int) -> None:
    as_helper()
    while (number := _claim(counter, count)) is not None:
        try:
            results.put((number, True, there(number)))
        except BaseException:  # noqa: BLE001 - reported to the caller, which raises
            results.put((number, False, traceback.format_exc()))
            break
    results.close()
    results.join_thread()  # every result written to the pipe before the helper ends


def _ended_before_last(results: Iterator[R], count: int, end: Callable[[], object]) -> Iterator[R]:
    """The ``count`` results, ``end`` (the helpers joined) run before the
    last is handed over: a reader that takes just the results it needs (one
    ``next()`` per document) leaves the generator at the last one, and it
    would end only when collected, the helpers then terminated, whatever
    they were doing (a test saw one killed while it exited)."""
    if not count:
        end()
    for done, result in enumerate(results, 1):
        if done == count:
            end()
        yield result


def _in_order(
    counter: Any, results: Any, processes: list[Any], count: int, here: Callable[[int], R], back: Callable[[int, Any], R] | None
) -> Iterator[R]:
    # The caller yields the next piece when it is done; otherwise it takes
    # results that have arrived, then a piece of its own, and only waits
    # when every piece is taken.
    done: dict[int, tuple[bool, Any]] = {}
    for wanted in range(count):
        while wanted not in done:
            arrived = _arrived(results, block=False)
            if arrived is not None:
                done[arrived[0]] = (False, arrived[1])
                continue
            mine = _claim(counter, count)
            if mine is not None:
                done[mine] = (True, here(mine))
                continue
            arrived = _arrived(results, block=True, processes=processes)
            if arrived is not None:
                done[arrived[0]] = (False, arrived[1])
        computed_here, value = done.pop(wanted)
        yield value if computed_here or back is None else back(wanted, value)


def _arrived(results: Any, *, block: bool, processes: Sequence[Any] = ()) -> tuple[int, Any] | None:
    """A helper's (piece, result), or None when none has arrived (after
    :data:`_CHECK_EVERY` seconds, when blocking)."""
    try:
        number, ok, value = results.get(block, _CHECK_EVERY) if block else results.get_nowait()
    except queue.Empty:
        dead = [p for p in processes if p.exitcode not in (None, 0)]
        if dead:
            raise RuntimeError(f"a worker process ended ({dead[0].exitcode}) before sending its result") from None
        return None
    if not ok:
        raise RuntimeError(f"a worker process failed:\n{value}")
    return number, value


class HelperProcess:
    """A process forked now that later runs one batch of work sent to it:
    functions and their arguments, pickled, run in order, each result sent
    back as soon as it is made.

    Forked while the caller's heap is small, it holds little of the
    caller's memory: a process forked later keeps every page of the heap it
    was forked with, and each page that either process writes afterwards is
    copied (docs/benchmark.md, session 23). Work sent here reads only what
    it is sent. The helper ends once its batch is done, when :meth:`close`
    is called or the object goes, or when its parent is gone.
    """

    def __init__(self, context: Any) -> None:
        self._conn, child = context.Pipe(duplex=True)
        self._process = context.Process(target=_serve_helper, args=(child, os.getpid()), daemon=True)
        with frozen_heap():
            self._process.start()
        child.close()  # the child's end: EOF here if the child dies
        self._results: list[tuple[bool, Any] | None] = []
        self._ending = weakref.finalize(self, end_process, self._process, self._conn)

    def run(self, works: Sequence[tuple[Callable[..., Any], tuple]]) -> list[Callable[[], Any]]:
        """Sends the batch (once per helper): each work a module-level
        function and its arguments. Returns a callable per work that waits
        for its result and returns it (RuntimeError, with the helper's
        traceback, when the work failed or the helper died)."""
        if self._results:
            raise RuntimeError("a helper process runs one batch of work")
        self._results = [None] * len(works)
        send_message(self._conn, [(function, tuple(args)) for function, args in works])
        return [partial(self._result, k) for k in range(len(works))]

    def close(self) -> None:
        """End the helper (at once, whatever it is doing)."""
        self._ending()

    @property
    def alive(self) -> bool:
        """Whether the helper may still send a result (not ended, closed, or done)."""
        return bool(self._ending.alive)

    def take_ready(self) -> None:
        """Reads now, without waiting, the results already sent (kept until
        asked for): a helper whose every result is read ends, and what it
        holds goes with it."""
        while self.alive and None in self._results and self._conn.poll():
            self._receive()

    def _result(self, k: int) -> Any:
        # Results arrive in order: those before k are kept until asked for.
        while self._results[k] is None:
            self._receive()
        ok, value = self._results[k]  # type: ignore[misc]
        if not ok:
            raise RuntimeError(f"the helper process failed:\n{value}")
        return value

    def _receive(self) -> None:
        # The next result; the helper ends once it has sent them all.
        ready = self._results.index(None)
        try:
            self._results[ready] = received_message(self._conn)
        except (EOFError, OSError):
            self._results[ready:] = [(False, "it ended without sending its result")] * (len(self._results) - ready)
        if all(outcome is not None for outcome in self._results):
            self._process.join()
            self._ending()


def _serve_helper(conn: Any, parent: int) -> None:
    as_helper()
    works = _work_sent(conn, parent)
    if works is None:
        return
    # A result is sent by a thread of its own, so that the next work starts
    # while the caller has not read the last one (a pipe holds 64 KB).
    outbox: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
    sender = threading.Thread(target=_send_all, args=(conn, outbox, len(works)), daemon=True)
    sender.start()
    works.reverse()
    while works:
        function, args = works.pop()  # its arguments go with it once it is done
        try:
            outbox.put((True, function(*args)))
        except BaseException:  # noqa: BLE001 - reported to the caller, which raises
            outbox.put((False, traceback.format_exc()))
        del function, args
        # The helper waits until the caller reads its results: what the work
        # freed goes back to the system meanwhile (docs/benchmark.md, session 24).
        release_free_memory()
    sender.join()
    conn.close()


def _send_all(conn: Any, outbox: queue.SimpleQueue[tuple[bool, Any]], count: int) -> None:
    for _ in range(count):
        try:
            # Its arrays in a memory file: this helper ends once its last
            # result is sent, not when the caller reads it (which it may do
            # last: the word-set pairs; docs/benchmark.md, session 53).
            send_message(conn, outbox.get(), spill=True)
        except (BrokenPipeError, OSError):
            return  # the caller is gone or stopped listening
