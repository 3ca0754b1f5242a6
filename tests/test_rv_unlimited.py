"""Unlimited budgets: the split reduction of the candidate trails loses no optimum."""

from __future__ import annotations

import pytest
from test_rv_model import position

from solver.cpsat import SolveParams
from solver.rift_valley.engine.exhaustive import best_score
from solver.rift_valley.model.candidates import candidates, unsplit_trails
from solver.rift_valley.model.max_score import build_model
from solver.rift_valley.solve import solve_max_score
from solver.rift_valley.uniqueness import check_unique
from tests.support.rv_random import random_case

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

OPEN_6X5 = """
. . . . . .
. . . . . .
. . . . . .
. . . . . .
. . . . . .
"""
AREAS_6X5 = """
1 1 2 2 3 3
1 4 4 2 3 5
6 4 7 7 5 5
6 8 8 7 9 5
6 8 8 9 9 9
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


def test_a_trail_whose_split_cells_need_side_by_side_stops_is_dropped():
    pos = position(OPEN_6X5, AREAS_6X5)
    cand = candidates(pos, stops_block_all_colours=False)
    kept = names(pos, unsplit_trails(pos, cand))
    # a5-f5 on the bottom edge: only stops on c4 and d4 could keep c5 and d5 from
    # being split cells, and two own stops are never orthogonal neighbours
    assert "a5-f5" in names(pos, cand.trails) and "a5-f5" not in kept
    # a3-f3: stops on c2 and d4 (not neighbours) sit beside both of c3 and d3
    assert "a3-f3" in kept
    # a5-e5: c5 is its one split cell, and a stop may sit on c4
    assert "a5-e5" in kept


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


@pytest.mark.parametrize("board", ["water", "open"])
def test_unlimited_uniqueness_agrees_with_a_budget_that_never_binds(board):
    """No optimal answer draws a trail a split improves, so the uniqueness check (score,
    then fewest draws) of an unlimited puzzle sees every optimal answer."""
    pos = (position(WATER_ROW, AREAS_5X4) if board == "water"
           else position(OPEN_6X5, AREAS_6X5))
    unlimited = check_unique(pos, effort=60)
    budget = check_unique(pos.replace(draws=2 * pos.grid.size + 5), effort=60)
    assert unlimited is not None and budget is not None
    assert (unlimited.value, len(unlimited.draws), unlimited.unique) == (
        budget.value, len(budget.draws), budget.unique)
