"""The one CP-SAT solve harness every game's model goes through."""

from solver.cpsat.harness import (
    SolveParams,
    SolveResult,
    default_workers,
    enumerate_projections,
    solve,
)

__all__ = [
    "SolveParams",
    "SolveResult",
    "default_workers",
    "enumerate_projections",
    "solve",
]
