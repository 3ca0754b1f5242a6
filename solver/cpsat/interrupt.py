"""Ctrl-C for a whole command: one process-wide flag that every solve path checks.

The first Ctrl-C (SIGINT) of a command *requests a stop*: it counts itself, asks every
CP-SAT search running (in any thread) to stop, keeping its best solution, and then

* inside :func:`polled` (a command that keeps its best answer: ``solve``), only that:
  the code checks (:func:`check`, :meth:`Deadline.check`, :meth:`SolveParams.check`),
  raises :class:`Interrupted` at the next check point, and the solve path turns it into
  the best answer so far (or lets it through: exit 130 without one);
* elsewhere (drivers waiting on processes, reading files) raises :class:`Interrupted`
  at once, as Python's own Ctrl-C would.

A second Ctrl-C raises :class:`Interrupted` at once everywhere: the user insists.

Stops are counted, not reset: a :class:`~solver.cpsat.deadline.Deadline` notes the
count when it starts and is interrupted by the Ctrl-Cs that come after, so a solve
started after an interrupted one (a later call from a library user) runs normally.
:func:`command` (the CLI's, around every command) installs the handler and marks the
start of a command for the checks that have no deadline; without it (a library
calling the solvers) :func:`polled` installs the handler for its block, and the
harness does so around every solve.

No OR-tools here: solvers are stopped through the callbacks they register
(:func:`stopping`).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class Interrupted(KeyboardInterrupt):
    """Ctrl-C came: raised at the next check point (or at once outside :func:`polled`).

    A :class:`KeyboardInterrupt`, so code that is not about stopping (``except
    Exception``) lets it through, and the CLI ends with exit status 130 when it gets
    that far (no answer was kept)."""

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or "stopped by Ctrl-C")
        self.detail = detail
        """What the path had settled when it stopped (said after the CLI's message)."""


class _State:
    """The process's Ctrl-C bookkeeping (one instance, :data:`_STATE`)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.count = 0
        """Ctrl-Cs (stop requests) since the process began."""
        self.mark = 0
        """:attr:`count` when the current command began (:func:`command`)."""
        self.stoppers: dict[int, Callable[[], None]] = {}
        self.next_key = 0
        self.polled: list[int] = []
        """For each :func:`polled` block the main thread is in: the count at its start."""
        self.installed = False


_STATE = _State()


def count() -> int:
    """Ctrl-Cs so far in this process (a deadline notes it when it starts)."""
    return _STATE.count


def requested(since: int | None = None) -> bool:
    """True once Ctrl-C came after ``since`` (a :func:`count` reading), by default since
    the current command began."""
    return _STATE.count > (_STATE.mark if since is None else since)


def check(since: int | None = None) -> None:
    """Raise :class:`Interrupted` once Ctrl-C came (after ``since``, by default since
    the current command began). Cheap: call it in every long loop."""
    if _STATE.count > (_STATE.mark if since is None else since):
        raise Interrupted()


@contextmanager
def ctrl_c_in_imports() -> Iterator[None]:
    """Inside it, an import that Ctrl-C broke raises :class:`Interrupted`: a compiled
    module's initialisation (OR-tools', loaded on the first solve) turns the
    KeyboardInterrupt raised inside it into ImportError, yet nothing is missing. For the
    blocks that catch Ctrl-C (every command, the drivers that keep what is done)."""
    try:
        yield
    except ImportError as error:
        if isinstance(error.__cause__ or error.__context__, KeyboardInterrupt):
            raise Interrupted() from error
        raise


def request() -> None:
    """What Ctrl-C does besides raising: count a stop and call every registered stopper
    (each running CP-SAT search stops, keeping its best solution). Safe from any thread."""
    with _STATE.lock:
        _STATE.count += 1
        stoppers = list(_STATE.stoppers.values())
    for stop in stoppers:
        stop()


@contextmanager
def stopping(stop: Callable[[], None]) -> Iterator[None]:
    """While the block runs, Ctrl-C calls ``stop`` (from the main thread; it must be quick
    and thread-safe, e.g. ``CpSolver.stop_search``). Any thread may register."""
    with _STATE.lock:
        key = _STATE.next_key
        _STATE.next_key += 1
        _STATE.stoppers[key] = stop
    try:
        yield
    finally:
        with _STATE.lock:
            del _STATE.stoppers[key]


def _handler(signum: int, frame: Any) -> None:
    """SIGINT: request a stop; raise unless the main thread is polled and this is the
    first Ctrl-C of its polled block."""
    request()
    if not _STATE.polled or _STATE.count - _STATE.polled[0] > 1:
        raise Interrupted()


@contextmanager
def _handling() -> Iterator[None]:
    """Install :func:`_handler` for the block, unless it already is (or this is not the
    main thread, where Python delivers signals). The block that installed it is the
    command (:func:`command`, or a library's call of the harness): its Ctrl-Cs are spent
    when it ends, so checks without a deadline afterwards do not see them."""
    if _STATE.installed or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _handler)
    _STATE.installed = True
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _STATE.installed = False
        with _STATE.lock:
            _STATE.mark = _STATE.count


@contextmanager
def command() -> Iterator[None]:
    """Around one command (the CLI wraps every command in it): checks without a deadline
    count the Ctrl-Cs from here, and the handler is installed (main thread)."""
    with _STATE.lock:
        _STATE.mark = _STATE.count
    with _handling():
        yield


@contextmanager
def polled() -> Iterator[None]:
    """While the block runs in the main thread, the first Ctrl-C does not raise: it stops
    the running searches and the code finds out at its next check (module doc). For a
    command that keeps its best answer, and the harness around each solve. In another
    thread it changes nothing (signals reach the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    with _handling():
        _STATE.polled.append(_STATE.count)
        try:
            yield
        finally:
            _STATE.polled.pop()
