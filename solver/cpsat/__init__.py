"""The one CP-SAT solve harness every game's model goes through."""

from solver.cpsat.deadline import Deadline
from solver.cpsat.harness import (
    SEED_MAX,
    SEED_MIN,
    SolveParams,
    SolveResult,
    ctrl_c_ends_run,
    default_workers,
    enumerate_projections,
    solve,
)

__all__ = [
    "SEED_MAX",
    "SEED_MIN",
    "Deadline",
    "SolveParams",
    "SolveResult",
    "ctrl_c_ends_run",
    "default_workers",
    "enumerate_projections",
    "solve",
]
