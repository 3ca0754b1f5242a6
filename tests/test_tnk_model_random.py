"""The last-round CP-SAT model against the engine's exhaustive search on seeded small
random positions (3 × 4 hexes, two players, every faction the model takes)."""

from __future__ import annotations

import pytest
from tnk_last_round import random_small

from solver.cpsat import SolveParams
from solver.terra_nova_kosmos.engine.exhaustive import solve_last_round as exhaustive
from solver.terra_nova_kosmos.solve import solve_last_round

SEEDS = range(200)
PARAMS = SolveParams(workers=1, seed=0)


@pytest.mark.parametrize("seed", SEEDS)
def test_model_equals_exhaustive(seed: int) -> None:
    position = random_small(seed)
    best, _ = exhaustive(position, cap=60)
    answer = solve_last_round(position, PARAMS)
    assert answer.optimal
    assert answer.key == best.key
