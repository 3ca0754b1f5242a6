"""CP-SAT max-score optimum = the engine's exhaustive optimum on 120 seeded random mid-game
positions on 8×8 to 9×10 boards with 6–8 draws.

The first ``QUICK`` seeds run in ``make test``; the rest are marked ``sweep``
and run with ``make sweep`` (each case takes seconds on a loaded machine).
"""

from __future__ import annotations

import pytest

from solver.cpsat import SolveParams
from tests.support.rv_random import check_against_exhaustive, random_large_case

SEEDS = range(120)
QUICK = 12
PARAMS = SolveParams(workers=1, seed=0, time_limit=120)


def test_the_large_cases_cover_every_situation():
    cases = [random_large_case(seed) for seed in SEEDS]
    counts = {
        "first-stop rule": sum(c.position.first_stop_rule for c in cases),
        "stops_block_all_colours": sum(c.rules.stops_block_all_colours for c in cases),
        "player owns the rift": sum(c.position.player == c.position.rift_owner for c in cases),
        "someone else's rift": sum(c.position.player != c.position.rift_owner for c in cases),
        "own existing elements": sum(c.own_drawn for c in cases),
    }
    assert all(n >= 20 for n in counts.values()), counts
    assert {c.position.draws for c in cases} == {6, 7, 8}
    assert min(c.position.grid.rows for c in cases) >= 8
    assert min(c.position.grid.cols for c in cases) >= 8


def _check(seed: int) -> None:
    check_against_exhaustive(random_large_case(seed), PARAMS)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS[:QUICK])
def test_solver_optimum_equals_exhaustive_on_large_boards(seed):
    _check(seed)


@pytest.mark.sweep
@pytest.mark.parametrize("seed", SEEDS[QUICK:])
def test_solver_optimum_equals_exhaustive_on_large_boards_sweep(seed):
    _check(seed)
