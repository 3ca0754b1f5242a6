"""Seeded random Rift Valley boards: 9 areas, animals, trees, water and a rift.

Used by the random cross-checks (small boards) and by the benchmarks
("freshly generated" large boards next to the five shipped asymmetric ones).
Pure data: no rules, so both the engine and the model may be checked on them.
"""

from __future__ import annotations

import random

from solver.geometry import SquareGrid, cell_at
from solver.rift_valley.position import (
    AREA_COUNT,
    ELEPHANT,
    KOB,
    LION,
    OPEN,
    RIFT_NS,
    RIFT_WE,
    TREE,
    WATER,
    Board,
)


def random_areas(grid: SquareGrid, rng: random.Random, count: int = AREA_COUNT,
                 balanced: bool = False) -> list[int]:
    """A partition of ``grid`` into ``count`` 4-connected areas numbered 1..count.

    Region growing: ``count`` distinct seed cells, then repeatedly a random
    area (``balanced``: a smallest one that can still grow) takes a random
    unassigned orthogonal neighbour of its cells. Every area stays connected
    because it only ever grows by neighbours.
    """
    sizes = [0] + [1] * count
    areas = [0] * grid.size
    for number, seed in enumerate(rng.sample(range(grid.size), count), start=1):
        areas[seed] = number
    unassigned = grid.size - count
    while unassigned:
        frontier = [(cell, areas[nb]) for cell in range(grid.size) if not areas[cell]
                    for nb in grid.neighbours[cell] if areas[nb]]
        if balanced:
            least = min(sizes[number] for _, number in frontier)
            frontier = [(cell, number) for cell, number in frontier if sizes[number] == least]
        cell, number = rng.choice(frontier)
        areas[cell] = number
        sizes[number] += 1
        unassigned -= 1
    return areas


def _l_rift(grid: SquareGrid, rng: random.Random) -> list[tuple[int, str]]:
    """An L-shaped rift: a west–east leg (``-`` cells, the corner included), then a
    north–south leg (``|`` cells) going up or down from the corner."""
    across = rng.randint(3, max(3, grid.cols // 3))
    down = rng.randint(2, max(2, grid.rows // 4))
    row = rng.randrange(down, grid.rows - down)
    col = rng.randrange(0, grid.cols - across)
    cells = [(cell_at(grid, row, col + i), RIFT_WE) for i in range(across)]
    step = rng.choice((-1, 1))
    corner_col = col + across - 1
    cells += [(cell_at(grid, row + step * i, corner_col), RIFT_NS) for i in range(1, down + 1)]
    return cells


def random_large_board(rng: random.Random, rows: int, cols: int) -> Board:
    """A board like the shipped asymmetric ones: ``rows`` × ``cols`` (8 × 8 and up),
    9 areas, an L-shaped rift, about one animal, 0.4 trees and 0.5 water cells per
    ten cells."""
    grid = SquareGrid(rows, cols)
    terrain = [OPEN] * grid.size
    for cell, letter in _l_rift(grid, rng):
        terrain[cell] = letter
    free = [c for c in range(grid.size) if terrain[c] == OPEN]
    rng.shuffle(free)
    tenths = grid.size // 10
    animals = [rng.choice((KOB, KOB, ELEPHANT, LION)) for _ in range(tenths + rng.randint(-1, 1))]
    things = (animals + [TREE] * rng.randint(tenths // 3, tenths // 2)
              + [WATER] * rng.randint(tenths // 3, tenths * 2 // 3))
    for letter, cell in zip(things, free, strict=False):
        terrain[cell] = letter
    return Board(grid, tuple(terrain), tuple(random_areas(grid, rng, balanced=True)))
