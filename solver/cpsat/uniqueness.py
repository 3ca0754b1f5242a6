"""Is the optimal answer unique? Solve, fix the optimum, forbid the answer, solve again.

The answer is what a puzzle asks for, as model variables (the final position of a
line, the set of drawn elements…): two optimal solutions that differ only in
auxiliary variables are the same answer. INFEASIBLE on the second solve proves the
answer unique; a solution there is a second optimal answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cpsat.constraints import Expr
from solver.cpsat.harness import SolveResult, solve
from solver.cpsat.params import SolveParams


def forbid(model: cp_model.CpModel, solver: cp_model.CpSolver,
           answer: Sequence[cp_model.IntVar | int]) -> None:
    """Add "some variable of ``answer`` differs from its value in ``solver``'s solution".

    Python ints in ``answer`` (values fixed at build time) are skipped; an integer
    (non-Boolean) variable gets a literal for "differs".
    """
    forbid_values(model, answer, [v if isinstance(v, int) else solver.value(v)
                                  for v in answer])


def forbid_values(model: cp_model.CpModel, answer: Sequence[cp_model.IntVar | int],
                  values: Sequence[int]) -> None:
    """Add "some variable of ``answer`` differs from its value in ``values``" (as
    :func:`forbid`, from values read earlier)."""
    differs = []
    for var, value in zip(answer, values, strict=True):
        if isinstance(var, int):
            continue
        if list(var.proto.domain) == [0, 1]:
            differs.append(~var if value else var)
        else:
            flag = model.new_bool_var(f"differs_{var.name}")
            model.add(var != value).only_enforce_if(flag)
            differs.append(flag)
    model.add_bool_or(differs)


@dataclass(frozen=True)
class Uniqueness:
    """The optimal answer found and what the re-solve without it said."""

    solver: cp_model.CpSolver
    """Holds the optimal answer (read its values)."""
    stages: tuple[SolveResult, ...]
    """One proven-optimal solve per objective, in order."""
    check: SolveResult
    """The solve with the answer forbidden."""

    @property
    def unique(self) -> bool | None:
        """True: no other optimal answer; False: there is one; None: not decided in time."""
        if self.check.status == "infeasible":
            return True
        return False if self.check.feasible else None


def unique_answer(model: cp_model.CpModel,
                  objectives: Sequence[tuple[Expr, str]],
                  answer: Sequence[cp_model.IntVar | int], params: SolveParams,
                  found: Callable[[cp_model.CpSolver], None] | None = None) -> Uniqueness | None:
    """Optimise ``objectives`` in turn (each ``(expr, "max"|"min")``), fixing each optimum,
    then forbid the answer found and solve again.

    ``found(solver)`` sees the optimal answer before it is forbidden (replay it
    through the engine there). Returns None when some optimum is not proven
    (e.g. past ``max_deterministic_time`` in ``params.settings``).
    """
    stages = []
    solver = None
    for expr, sense in objectives:
        if sense == "max":
            model.maximize(expr)
        elif sense == "min":
            model.minimize(expr)
        else:
            raise ValueError(f"objective sense must be 'max' or 'min', not {sense!r}")
        solver, result = solve(model, params)
        stages.append(result)
        if not result.optimal:
            return None
        assert result.objective is not None, "an optimal solve of an objective has its value"
        model.clear_objective()
        model.add(expr == round(result.objective))
    if solver is None:
        raise ValueError("unique_answer needs at least one objective")
    if found is not None:
        found(solver)
    forbid(model, solver, answer)
    _, check = solve(model, params)
    return Uniqueness(solver, tuple(stages), check)
