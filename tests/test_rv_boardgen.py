"""Seeded random large Rift Valley boards and the benchmark recipes built on them."""

from __future__ import annotations

import random

import pytest

from solver.errors import InputError
from solver.paths import REPO_ROOT
from solver.rift_valley.boardgen import random_areas, random_large_board
from solver.rift_valley.engine.draws import validate
from solver.rift_valley.position import AREA_COUNT, RIFT_NS, RIFT_WE, RIFTS
from solver.rift_valley.puzzlegen import position_from_recipe


def _connected(grid, cells: set[int]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for nb in grid.neighbours[todo.pop()]:
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == cells


@pytest.mark.parametrize("seed", range(12))
def test_large_board_has_nine_connected_areas_and_an_l_rift(seed):
    rng = random.Random(seed)
    rows, cols = rng.randint(8, 12), rng.randint(8, 12)
    board = random_large_board(rng, rows, cols)
    grid = board.grid
    assert (grid.rows, grid.cols) == (rows, cols)
    assert sorted(set(board.areas)) == list(range(1, AREA_COUNT + 1))
    for number in range(1, AREA_COUNT + 1):
        assert _connected(grid, {c for c in range(grid.size) if board.areas[c] == number})
    rift = set(board.rift_cells)
    assert _connected(grid, rift)
    kinds = {board.terrain[c] for c in rift}
    assert kinds == {RIFT_WE, RIFT_NS}
    assert len(board.animal_cells) >= grid.size // 10 - 1


def test_balanced_areas_are_closer_in_size_than_free_growth():
    grid = random_large_board(random.Random(0), 10, 12).grid

    def spread(balanced: bool) -> int:
        total = 0
        for seed in range(6):
            areas = random_areas(grid, random.Random(seed), balanced=balanced)
            sizes = [areas.count(n) for n in range(1, AREA_COUNT + 1)]
            total += max(sizes) - min(sizes)
        return total

    assert spread(True) < spread(False)


def test_recipe_with_a_random_board_is_a_legal_empty_position():
    position = position_from_recipe({"random_board": 4, "rows": 9, "cols": 11, "draws": 8},
                                    REPO_ROOT)
    validate(position)
    assert (position.grid.rows, position.grid.cols) == (9, 11)
    assert position.draws == 8 and position.player == position.rift_owner
    assert not position.elements
    assert any(position.board.terrain[c] in RIFTS for c in range(position.grid.size))
    again = position_from_recipe({"random_board": 4, "rows": 9, "cols": 11, "draws": 8},
                                 REPO_ROOT)
    assert again == position


def test_recipe_needs_exactly_one_board():
    with pytest.raises(InputError, match="'board' or a 'random_board'"):
        position_from_recipe({"draws": 8}, REPO_ROOT)
    with pytest.raises(InputError, match="'board' or a 'random_board'"):
        position_from_recipe({"board": "positions/rift-valley/boards/crater.toml",
                              "random_board": 1}, REPO_ROOT)
