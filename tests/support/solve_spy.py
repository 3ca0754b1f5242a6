"""Recording the parameters a game's solve bridge hands to the CP-SAT harness."""

from __future__ import annotations

from types import ModuleType

import pytest

from solver.cpsat import SolveParams


def solve_params_seen(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> list[SolveParams]:
    """Wrap ``module.solve`` (the harness as the bridge imported it) so every call's
    parameters are appended to the returned list; the solve itself still runs."""
    seen: list[SolveParams] = []
    real_solve = module.solve

    def spy(model, params, **kwargs):
        seen.append(params)
        return real_solve(model, params, **kwargs)

    monkeypatch.setattr(module, "solve", spy)
    return seen
