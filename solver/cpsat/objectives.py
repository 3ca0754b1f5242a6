"""One exact lexicographic objective: several goals in priority order as one weighted sum.

Goal ``i`` is worth more than every possible difference in the goals after it:
with ``span[j]`` an upper bound on how far goal ``j`` can vary, the last goal
weighs 1 and goal ``i`` weighs ``weight[i + 1] * (span[i + 1] + 1)``. One solve
of the sum then orders solutions exactly as comparing the goals in turn would,
without a solve per goal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cpsat.constraints import Expr


@dataclass(frozen=True)
class Goal:
    """One term of a lexicographic objective."""

    expr: Expr
    sense: str
    """``"max"`` or ``"min"``."""
    span: int = 0
    """Upper bound on ``max(expr) - min(expr)`` over the solutions (unused for the first goal)."""


@dataclass(frozen=True)
class Lexicographic:
    """The weighted sum to maximise and the weight of each goal."""

    expr: Expr
    weights: tuple[int, ...]

    def leading(self, value: float) -> int:
        """The first goal's value from a value of :attr:`expr` (e.g. in progress reports),
        when the first goal is maximised and every later one minimised (the rest of the
        sum then lies in ``(-weights[0], 0]``)."""
        return -(-round(value) // self.weights[0])


def lexicographic(goals: Sequence[Goal]) -> Lexicographic:
    """One expression to **maximise** that orders solutions as ``goals`` do, in order."""
    if not goals:
        raise ValueError("a lexicographic objective needs at least one goal")
    weights = [1] * len(goals)
    for i in range(len(goals) - 2, -1, -1):
        weights[i] = weights[i + 1] * (goals[i + 1].span + 1)
    expr: Expr = 0
    for i, (goal, weight) in enumerate(zip(goals, weights, strict=True)):
        if goal.sense not in ("max", "min"):
            raise ValueError(f"goal sense must be 'max' or 'min', not {goal.sense!r}")
        term = goal.expr * weight
        if i == 0:
            expr = term if goal.sense == "max" else -term
        elif goal.sense == "max":
            expr = expr + term
        else:
            expr = expr - term
    return Lexicographic(expr, tuple(weights))
