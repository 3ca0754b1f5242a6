"""How to run CP-SAT (:class:`SolveParams`), without importing OR-tools.

The command line reads its defaults and seed range from here, and drivers mark
runs of many solves (:func:`ctrl_c_ends_run`), before any model exists: OR-tools
(which imports pandas) is loaded only when something is solved
(:mod:`solver.cpsat.harness`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

from solver.cpsat import interrupt
from solver.cpsat.deadline import Deadline, StopReason

SEED_MIN, SEED_MAX = -(2**31), 2**31 - 1
"""CP-SAT's ``random_seed`` is a 32-bit signed integer."""


def default_workers() -> int:
    """The machine's cores (what ``--workers`` defaults to)."""
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class SolveParams:
    """How to run CP-SAT. ``time_limit=None`` means no limit.

    ``settings`` are further CP-SAT parameters by name (``linearization_level``,
    ``cp_model_probing_level``, ``max_deterministic_time``, ``subsolvers``…), set
    by the harness on every solve; a sequence value extends a repeated field, and a
    mapping in it is a parameter message (``subsolver_params``: a named set).
    """

    time_limit: float | None = None
    workers: int = field(default_factory=default_workers)
    seed: int = 0
    log: bool = False
    settings: Mapping[str, Any] = field(default_factory=dict)
    deadline: Deadline | None = None
    """The command's clock (:meth:`started`); solves get at most what is left of it."""

    def started(self, since: float | None = None) -> SolveParams:
        """A copy whose :attr:`time_limit` counts from now (or from ``since``, a
        ``time.monotonic()`` reading) for everything that follows."""
        return self if self.deadline is not None else replace(self, deadline=Deadline(
            self.time_limit, since))

    def check(self) -> None:
        """Raise :class:`~solver.cpsat.interrupt.Interrupted` once Ctrl-C came, else
        :class:`~solver.cpsat.deadline.OutOfTime` (a NoAnswer) once the command's time
        limit has passed. Every solve path calls it in its long loops and between solves;
        without :meth:`started` only Ctrl-C (since the command began) counts."""
        if self.deadline is not None:
            self.deadline.check()
        else:
            interrupt.check()

    def interrupted(self) -> bool:
        """True once Ctrl-C came (after :meth:`started`; without it, since the command
        began)."""
        return self.deadline.interrupted() if self.deadline is not None else \
            interrupt.requested()

    def cut_short_by(self) -> StopReason | None:
        """What cut a search short that ended without its proof: Ctrl-C if it came, else
        the time limit if there is one (a path stops before the limit itself when what is
        left cannot pay for another search), None without either."""
        if self.interrupted():
            return StopReason.INTERRUPTED
        return StopReason.TIME_LIMIT if self.time_limit is not None else None

    def stopped_by(self) -> StopReason | None:
        """Why the command must stop now (Ctrl-C, else the time limit), None while it may
        go on: what a path that ends early says about its answer."""
        if self.deadline is not None:
            return self.deadline.stopped_by()
        return StopReason.INTERRUPTED if interrupt.requested() else None

    def with_time_limit(self, seconds: float | None) -> SolveParams:
        """A copy with another time limit."""
        return replace(self, time_limit=seconds)

    def with_settings(self, **settings: Any) -> SolveParams:
        """A copy with these CP-SAT parameters added (a value of None leaves one out)."""
        merged = dict(self.settings)
        merged.update((k, v) for k, v in settings.items() if v is not None)
        return replace(self, settings=merged)

    def with_workers_at_most(self, workers: int) -> SolveParams:
        """A copy that runs at most ``workers`` CP-SAT workers (for searches measured
        faster on fewer threads than ``--workers`` asks)."""
        return replace(self, workers=min(self.workers, workers))


_CTRL_C_ENDS_RUN: ContextVar[bool] = ContextVar("ctrl_c_ends_run", default=False)


@contextmanager
def ctrl_c_ends_run() -> Iterator[None]:
    """While the block runs, Ctrl-C during a solve stops it and then raises KeyboardInterrupt.

    For drivers that run many solves one after another in this process (batch,
    generate, bench): Ctrl-C ends the run instead of only cutting one solve short.
    """
    token = _CTRL_C_ENDS_RUN.set(True)
    try:
        yield
    finally:
        _CTRL_C_ENDS_RUN.reset(token)


def ctrl_c_ending_run() -> bool:
    """True inside :func:`ctrl_c_ends_run` (the harness then re-raises Ctrl-C after a solve)."""
    return _CTRL_C_ENDS_RUN.get()
