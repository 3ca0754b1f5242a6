"""The one CP-SAT solve harness every game's model goes through, and the one way a
command stops: Ctrl-C (:mod:`solver.cpsat.interrupt`) and its time limit
(:class:`Deadline`), both checked by :meth:`SolveParams.check`.

:class:`SolveParams` and the other names of :mod:`solver.cpsat.params` load at
once; ``solve``, ``enumerate_projections`` and ``SolveResult`` load the harness,
and with it OR-tools (and pandas, which OR-tools imports: over a second on a
busy machine), on first use, so ``boardsat --help`` and commands that solve
nothing never pay for it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from solver.cpsat.deadline import Deadline, OutOfTime, StopReason
from solver.cpsat.interrupt import Interrupted
from solver.cpsat.params import (
    SEED_MAX,
    SEED_MIN,
    SolveParams,
    ctrl_c_ends_run,
    default_workers,
)

if TYPE_CHECKING:
    from solver.cpsat.harness import (
        SolveResult,
        Stop,
        enumerate_projections,
        search_seconds_left,
        solve,
        startup_seconds,
    )

_IN_HARNESS = ("SolveResult", "Stop", "enumerate_projections", "search_seconds_left", "solve",
               "startup_seconds")

__all__ = [
    "SEED_MAX",
    "SEED_MIN",
    "Deadline",
    "Interrupted",
    "OutOfTime",
    "SolveParams",
    "SolveResult",
    "Stop",
    "StopReason",
    "ctrl_c_ends_run",
    "default_workers",
    "enumerate_projections",
    "search_seconds_left",
    "solve",
    "startup_seconds",
]


def __getattr__(name: str) -> Any:
    """The harness's names, imported on first use (PEP 562)."""
    if name in _IN_HARNESS:
        return getattr(importlib.import_module("solver.cpsat.harness"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
