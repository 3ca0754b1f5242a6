"""The one CP-SAT solve harness every game's model goes through."""

from solver.cpsat.harness import (
    SolveParams,
    SolveResult,
    ctrl_c_ends_run,
    default_workers,
    enumerate_projections,
    solve,
)

__all__ = [
    "SolveParams",
    "SolveResult",
    "ctrl_c_ends_run",
    "default_workers",
    "enumerate_projections",
    "solve",
]
