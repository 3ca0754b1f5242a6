"""Game-free CP-SAT models for the floor's tests."""

from __future__ import annotations

from ortools.sat.python import cp_model


def hard_model() -> cp_model.CpModel:
    """A model CP-SAT does not prove within seconds on one worker."""
    model = cp_model.CpModel()
    n = 60
    xs = [model.new_int_var(0, n - 1, f"x{i}") for i in range(n)]
    for shift in (0, 1, -1):
        model.add_all_different([x + shift * i for i, x in enumerate(xs)])
    model.maximize(sum(x * ((i * 7919) % 13) for i, x in enumerate(xs)))
    return model
