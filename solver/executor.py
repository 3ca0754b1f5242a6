"""Where batch tasks run: this machine's processes, or a Dask distributed cluster.

One seam for the drivers that run many independent tasks (the puzzle
generator, the benchmark runner, ``boardsat batch``). An :class:`Executor` takes
a function and the argument tuples of its tasks, keeps a window of tasks in
flight and yields each result as it completes (:class:`Done`: the task's index,
its value, where it ran); :func:`in_order` hands them on in index order, so
what the client writes never depends on which worker finished first.

Tasks carry small picklable things (seeds, positions, file texts) and return
values; they never write files: the client does, atomically. ``distributed`` is
imported only when a scheduler is given, so local runs and ``boardsat --help``
do not pay for it.
"""

from __future__ import annotations

import os
import signal
import uuid
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.pool import Pool
from queue import SimpleQueue
from types import TracebackType
from typing import Any, Protocol

from solver.cpsat import ctrl_c_ends_run
from solver.errors import InputError

SCHEDULER_ENV = "BOARDSAT_SCHEDULER"
"""Environment variable read when ``--scheduler`` is not given."""

CONNECT_TIMEOUT_S = 3
"""Seconds to reach a scheduler before giving up with one line and exit 2."""

Task = Callable[..., Any]
Args = tuple[Any, ...]
"""The arguments of one task."""


@dataclass(frozen=True)
class Done:
    """One completed task: its index in the task list, its value, and where it ran."""

    index: int
    value: Any
    where: str
    """``pid 1234`` on this machine; ``tcp://10.0.0.5:40123 pid 1234`` on a Dask worker."""


class Executor(Protocol):
    """Runs tasks and yields their results as they complete."""

    description: str
    """Where tasks run, for messages: ``3 local processes``, ``Dask scheduler tcp://…``."""
    ran_on: Counter[str]
    """Tasks completed per place (:attr:`Done.where`) so far."""

    def map_unordered(self, fn: Task, tasks: Iterable[Args]) -> Generator[Done, None, None]:
        """Run ``fn(*args)`` for each ``args`` of ``tasks`` (taken lazily); yield as completed.

        Closing the iterator early (or Ctrl-C) cancels the tasks still outstanding.
        """

    def __enter__(self) -> Executor: ...

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None: ...


def in_order(dones: Iterable[Done]) -> Iterator[list[Done]]:
    """For each result as it arrives, the results that are now next in index order (often [])."""
    waiting: dict[int, Done] = {}
    following = 0
    for done in dones:
        waiting[done.index] = done
        ready = []
        while following in waiting:
            ready.append(waiting.pop(following))
            following += 1
        yield ready


def connect(scheduler: str | None, processes: int = 1) -> Executor:
    """The executor for ``--scheduler`` (a Dask cluster) or, without one, ``processes`` here."""
    if scheduler:
        return DaskExecutor(scheduler)
    return LocalExecutor(processes)


def _run_here(fn: Task, args: Args) -> tuple[str, Any]:
    """Run one task in this process; return where it ran and its value."""
    return f"pid {os.getpid()}", fn(*args)


def _run_on_worker(fn: Task, args: Args) -> tuple[str, Any]:
    """Run one task on a Dask worker; return the worker's address (and pid) and the value."""
    from distributed import get_worker
    return f"{get_worker().address} pid {os.getpid()}", fn(*args)


def _ignore_ctrl_c() -> None:
    """Pool processes leave Ctrl-C to the client, which ends them (:class:`LocalExecutor`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalExecutor:
    """This machine: inline for one process (no pool), else a process pool.

    Ctrl-C ends the run: inline, the current solve stops and KeyboardInterrupt
    follows (:func:`solver.cpsat.ctrl_c_ends_run`); pooled, the pool's processes
    (which ignore Ctrl-C themselves) are terminated with their tasks.
    """

    def __init__(self, processes: int = 1):
        self.processes = max(1, processes)
        self.description = ("this process" if self.processes == 1
                            else f"{self.processes} local processes")
        self.ran_on: Counter[str] = Counter()
        self._pool: Pool | None = None
        self._outstanding = 0

    def __enter__(self) -> LocalExecutor:
        if self.processes > 1:
            self._pool = Pool(self.processes, initializer=_ignore_ctrl_c)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._pool is None:
            return
        if kind is None and not self._outstanding:
            self._pool.close()
        else:  # Ctrl-C, an error, or results no longer wanted: end the tasks
            self._pool.terminate()
        self._pool.join()
        self._pool = None

    def map_unordered(self, fn: Task, tasks: Iterable[Args]) -> Generator[Done, None, None]:
        """See :meth:`Executor.map_unordered`; inline tasks run one at a time, when asked for."""
        if self._pool is None:
            for index, args in enumerate(tasks):
                with ctrl_c_ends_run():
                    where, value = _run_here(fn, args)
                self.ran_on[where] += 1
                yield Done(index, value, where)
            return
        yield from self._pooled(self._pool, fn, tasks)

    def _pooled(self, pool: Pool, fn: Task, tasks: Iterable[Args]) -> Iterator[Done]:
        numbered = enumerate(tasks)
        # (task index, what _run_here returned, or the error it raised)
        arrived: SimpleQueue[tuple[int, tuple[str, Any] | None, BaseException | None]] = (
            SimpleQueue())

        def submit(count: int) -> None:
            for _ in range(count):
                item = next(numbered, None)
                if item is None:
                    return
                index = item[0]

                def ran(result: tuple[str, Any], i: int = index) -> None:
                    arrived.put((i, result, None))

                def failed(error: BaseException, i: int = index) -> None:
                    arrived.put((i, None, error))

                pool.apply_async(_run_here, (fn, item[1]), callback=ran, error_callback=failed)
                self._outstanding += 1

        submit(2 * self.processes)
        while self._outstanding:
            index, result, error = arrived.get()
            self._outstanding -= 1
            if error is not None:
                raise error
            assert result is not None, "a task without an error has its result"
            where, value = result
            self.ran_on[where] += 1
            submit(1)
            yield Done(index, value, where)


def _check_address(address: str) -> None:
    """Refuse a scheduler address Dask cannot parse (``nonsense``, ``tcp://host``) before a
    Client is made: a half-made Client waits 6 s on exit and prints a traceback."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except ValueError:
        raise InputError(f"bad Dask scheduler address {address!r}: use tcp://HOST:PORT "
                         "(a host and a port number)") from None


class DaskExecutor:
    """A Dask distributed cluster reached through its scheduler (``tcp://HOST:PORT``)."""

    def __init__(self, address: str):
        self.address = address
        self.description = f"Dask scheduler {address}"
        self.ran_on: Counter[str] = Counter()
        self._client: Any = None

    def __enter__(self) -> DaskExecutor:
        try:
            from distributed import Client
        except ImportError:
            raise InputError("--scheduler needs Dask distributed, which is not installed: "
                             "pip install -e . (pyproject.toml pins it)") from None
        _check_address(self.address)
        try:
            self._client = Client(self.address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
        except (OSError, ValueError, TypeError) as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise InputError(f"cannot reach the Dask scheduler at {self.address}: "
                             f"{reason}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    @property
    def slots(self) -> int:
        """Worker threads the cluster has now (at least 1)."""
        threads: dict[str, int] = self._client.nthreads()
        return max(1, sum(threads.values()))

    def map_unordered(self, fn: Task, tasks: Iterable[Args]) -> Generator[Done, None, None]:
        """See :meth:`Executor.map_unordered`; a task lost with its worker is re-run by Dask.

        When every worker that ran a task died (Dask's ``KilledWorker``, after
        its allowed failures) the run ends with an InputError naming the
        cluster and the task (one line, exit 2, like an unreachable scheduler).
        """
        from distributed import KilledWorker, as_completed
        client = self._client
        assert client is not None, "use the executor as a context manager"
        run = uuid.uuid4().hex[:8]
        numbered = enumerate(tasks)
        pending: dict[str, tuple[int, Any]] = {}
        completed = as_completed(loop=client.loop)

        def submit(count: int) -> None:
            for _ in range(count):
                item = next(numbered, None)
                if item is None:
                    return
                future = client.submit(_run_on_worker, fn, item[1], pure=False,
                                       key=f"{fn.__name__}-{item[0]}-{run}")
                pending[future.key] = (item[0], future)
                completed.add(future)

        try:
            submit(2 * self.slots)
            for future in completed:
                index, _ = pending.pop(future.key)
                try:
                    where, value = future.result()
                except KilledWorker as exc:
                    raise self._lost(fn, index, exc) from None
                self.ran_on[where] += 1
                submit(1)
                yield Done(index, value, where)
        finally:
            if pending:
                client.cancel([future for _, future in pending.values()])

    def _lost(self, fn: Task, index: int, exc: Exception) -> InputError:
        """The one-line error for a task whose workers all died."""
        failures = getattr(exc, "allowed_failures", None)
        tries = "" if failures is None else f"{failures + 1} tries, "
        return InputError(f"the Dask cluster at {self.address} gave up on task {index + 1} "
                          f"({fn.__name__}): the workers that ran it died ({tries}see the "
                          f"workers' logs: out of memory?)")
