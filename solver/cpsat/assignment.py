"""A full assignment checked against a CP-SAT model: CP-SAT with every variable fixed.

What another solver found for a model (a MIP solver's solution of its translation,
:mod:`solver.cpsat.mip`) becomes a CP-SAT solution here: the model is solved with every
variable fixed to its value, which CP-SAT settles in presolve. ``optimal`` then means
the values satisfy every constraint (the objective is theirs), ``infeasible`` that they
break one; the solver returned reads them as any CP-SAT solution is read.
"""

from __future__ import annotations

from collections.abc import Sequence

from ortools.sat.python import cp_model

from solver.cpsat.harness import SolveResult, solve
from solver.cpsat.params import SolveParams


def solve_assignment(model: cp_model.CpModel, values: Sequence[int],
                     params: SolveParams) -> tuple[cp_model.CpSolver, SolveResult]:
    """Solve a copy of ``model`` with variable ``i`` fixed to ``values[i]`` (one worker,
    CP-SAT's own parameters, ``params``' time limit and deadline)."""
    fixed = model.clone()
    fixed.clear_hints()
    fixed.proto.solution_hint.vars.extend(range(len(values)))
    fixed.proto.solution_hint.values.extend(int(v) for v in values)
    run = SolveParams(time_limit=params.time_limit, workers=1, deadline=params.deadline,
                      settings={"fix_variables_to_their_hinted_value": True})
    return solve(fixed, run)
