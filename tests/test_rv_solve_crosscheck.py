"""CP-SAT max-score optimum = the engine's exhaustive optimum on 200 seeded random small boards."""

from __future__ import annotations

import pytest

from solver.cpsat import SolveParams
from tests.support.rv_random import check_against_exhaustive, random_case

SEEDS = range(200)
CASES = {seed: random_case(seed) for seed in SEEDS}
PARAMS = SolveParams(workers=1, seed=0, time_limit=60)


def test_the_random_cases_cover_every_situation():
    cases = list(CASES.values())
    counts = {
        "other colours' elements": sum(c.others_drawn for c in cases),
        "own existing elements": sum(c.own_drawn for c in cases),
        "first-stop rule": sum(c.position.first_stop_rule for c in cases),
        "stops_block_all_colours": sum(c.rules.stops_block_all_colours for c in cases),
        "player owns the rift": sum(c.position.player == c.position.rift_owner for c in cases),
        "someone else's rift": sum(c.position.player != c.position.rift_owner for c in cases),
        "6x6 boards": sum(c.position.grid.size == 36 for c in cases),
        "5x5 boards": sum(c.position.grid.size == 25 for c in cases),
    }
    assert all(n >= 20 for n in counts.values()), counts
    assert {c.position.draws for c in cases} == {3, 4, 5, 6}
    both = sum(c.others_drawn and c.position.first_stop_rule for c in cases)
    assert both >= 5


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_solver_optimum_equals_exhaustive(seed):
    case = CASES[seed]
    check_against_exhaustive(case, PARAMS)
