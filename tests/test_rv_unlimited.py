"""Unlimited budgets: the split reduction of the candidate trails loses no optimum."""

from __future__ import annotations

import pytest
from rv_random import random_case
from test_rv_model import position

from solver.cpsat import SolveParams
from solver.rift_valley.engine.exhaustive import best_score
from solver.rift_valley.model.candidates import candidates, unsplit_trails
from solver.rift_valley.model.max_score import build_model
from solver.rift_valley.solve import solve_max_score

PARAMS = SolveParams(workers=1, seed=0, time_limit=60)

WATER_ROW = """
. . . . .
w w w w w
. . . . .
. . . . .
"""
AREAS_5X4 = """
1 1 2 2 3
4 4 5 5 3
6 6 7 8 3
6 9 7 8 8
"""

EXHAUSTIVE_SEEDS = (2, 8, 19, 28, 33, 42, 49, 54, 58, 59, 72, 77, 79, 85, 87, 91, 95, 98,
                    103, 104, 106, 118)
"""Random cases (``rv_random.random_case``) whose exhaustive search ends in about a
second with an unlimited budget (most small boards take far longer)."""


def names(pos, trails) -> set[str]:
    grid = pos.grid
    return {"-".join(grid.name(c) for c in t.trail.waypoints()) for t in trails}


def test_a_trail_beside_water_is_split_and_one_with_room_for_stops_is_not():
    pos = position(WATER_ROW, AREAS_5X4)
    cand = candidates(pos, stops_block_all_colours=False)
    kept = names(pos, unsplit_trails(pos, cand))
    every = names(pos, cand.trails)
    # c1 has water south of it and the board's edge north: a stop there splits a1-e1
    assert "a1-e1" in every and "a1-e1" not in kept
    # b1 is beside the end a1: no stop may go there, so a1-c1 stays
    assert "a1-c1" in kept
    # c3 has c4 south of it, where a stop may go
    assert "a3-e3" in kept
    assert len(kept) < len(every)


def test_only_the_unlimited_model_drops_split_trails():
    pos = position(WATER_ROW, AREAS_5X4)
    unlimited = build_model(pos, None)
    budget = build_model(pos, 8)
    assert len(unlimited.candidates.trails) < len(budget.candidates.trails)
    assert unlimited.candidates.trails == unsplit_trails(
        pos, candidates(pos, stops_block_all_colours=False))


def test_the_water_row_optimum_equals_the_exhaustive_search():
    pos = position(WATER_ROW, AREAS_5X4)
    answer = solve_max_score(pos, None, PARAMS)
    assert answer.optimal
    assert answer.value == best_score(pos, None).value


@pytest.mark.slow
@pytest.mark.parametrize("seed", EXHAUSTIVE_SEEDS)
def test_unlimited_optimum_equals_exhaustive(seed):
    case = random_case(seed)
    pos = case.position.replace(draws=None)
    answer = solve_max_score(pos, None, PARAMS, case.rules)
    assert answer.optimal
    assert answer.value == best_score(pos, None, case.rules).value, answer.draw_strings()


def test_some_exhaustive_cases_lose_trails_to_the_split():
    dropped = 0
    for seed in EXHAUSTIVE_SEEDS:
        case = random_case(seed)
        cand = candidates(case.position, case.rules.stops_block_all_colours)
        dropped += len(cand.trails) > len(unsplit_trails(case.position, cand))
    assert dropped >= len(EXHAUSTIVE_SEEDS) // 2


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(0, 200, 2))
def test_unlimited_optimum_equals_a_budget_that_never_binds(seed):
    """A budget of 2 cells + 5 pays for any answer (tents ≤ 5, stops ≤ cells, trails ≤
    cells: their passed cells are disjoint), so that model has every trail and the same
    optimum."""
    case = random_case(seed)
    pos = case.position
    unlimited = solve_max_score(pos.replace(draws=None), None, PARAMS, case.rules)
    budget = solve_max_score(pos, 2 * pos.grid.size + 5, PARAMS, case.rules)
    assert unlimited.optimal and budget.optimal
    assert unlimited.value == budget.value
