"""What the Ctrl-C and ``--time-limit`` tests check of a command they ran
(:mod:`tests.support.commands`): it ended soon after the signal or the limit, doing
little work after it, scaled for a loaded test machine."""

from __future__ import annotations

import os

from solver.errors import EXIT_INTERRUPTED
from tests.support.commands import Ended

WITHIN = 3.0
"""Seconds from SIGINT to the end of the command (the promise is 2 s; the rest is for a
busy test machine), on an idle machine: :func:`within` scales it with the load."""
CPU_AFTER = 1.0
"""CPU seconds the command may use after SIGINT, whatever the load (stopping the search,
the engine's replay, printing)."""


def within() -> float:
    """:data:`WITHIN`, times the machine's load per core when above 1 (a command that
    gets a fraction of a core takes that much longer to do the same work)."""
    return WITHIN * _load_factor()


def quick(ended: Ended) -> None:
    """The command ended soon after SIGINT, doing little work after it."""
    assert ended.after_signal is not None, ended.stderr[-2000:]
    assert ended.after_signal < within(), (ended.after_signal, os.getloadavg())
    assert ended.cpu_after_signal is not None and ended.cpu_after_signal < CPU_AFTER, \
        ended.cpu_after_signal


def kept_best(ended: Ended, said: str = "interrupted: not proven optimal (best found; bound"
              ) -> None:
    """The command ended soon after SIGINT (:func:`quick`), printing its best line."""
    assert ended.status == 0, ended.stderr[-2000:]
    assert said in ended.stdout, ended.stdout[-2000:]
    assert "Traceback" not in ended.stderr
    quick(ended)


def no_answer(ended: Ended, said: str = "interrupted") -> None:
    """The command ended soon after SIGINT (:func:`quick`) with exit 130, saying ``said``
    on standard error."""
    assert ended.status == EXIT_INTERRUPTED, (ended.status, ended.stderr[-2000:])
    assert said in ended.stderr and "Traceback" not in ended.stderr, ended.stderr[-2000:]
    quick(ended)


LIMIT_SLACK = 1.0
"""--time-limit ends the command within this many seconds after the limit (counted,
as the limit is, from the program's start)."""


def time_limit_held(ended: Ended, limit: float) -> None:
    """The command ended within :data:`LIMIT_SLACK` of ``limit`` (scaled by the load, as
    :func:`within` is), with no traceback."""
    assert "Traceback" not in ended.stderr, ended.stderr[-2000:]
    slack = LIMIT_SLACK * _load_factor()
    assert ended.seconds < limit + slack, (ended.seconds, os.getloadavg())


def _load_factor() -> float:
    """The machine's load per core when above 1 (a command that gets a fraction of a core
    takes that much longer to do the same work), else 1."""
    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
