"""Seeded random small Rift Valley positions for the solver-vs-engine cross-checks.

Boards are 5×5 to 6×6 with exactly 9 areas, each 4-connected (region growing
from 9 seeds), a few animals, trees and water, and a short straight rift.
Existing elements are drawn with the engine's own legal draws, so every
position is legal by construction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.geometry import SquareGrid
from solver.rift_valley.engine.draws import apply_draw, legal_draws
from solver.rift_valley.notation import DrawStop, DrawTent, DrawTrail
from solver.rift_valley.position import (
    AREA_COUNT,
    COLOURS,
    ELEPHANT,
    KOB,
    LION,
    OPEN,
    RIFT_NS,
    RIFT_WE,
    TREE,
    WATER,
    Board,
    Position,
)
from solver.rift_valley.rules import Rules


def random_areas(grid: SquareGrid, rng: random.Random, count: int = AREA_COUNT) -> list[int]:
    """A partition of ``grid`` into ``count`` 4-connected areas numbered 1..count.

    Region growing: ``count`` distinct seed cells, then repeatedly a random
    area takes a random unassigned orthogonal neighbour of its cells. Every
    area stays connected because it only ever grows by neighbours.
    """
    areas = [0] * grid.size
    for number, seed in enumerate(rng.sample(range(grid.size), count), start=1):
        areas[seed] = number
    unassigned = grid.size - count
    while unassigned:
        frontier = [(cell, areas[nb]) for cell in range(grid.size) if not areas[cell]
                    for nb in grid.neighbours[cell] if areas[nb]]
        cell, number = rng.choice(frontier)
        areas[cell] = number
        unassigned -= 1
    return areas


def random_board(rng: random.Random) -> Board:
    """A 5×5 to 6×6 board: 9 areas, 2–4 animals, 0–2 trees, 0–2 water, a 2–3 cell rift."""
    grid = SquareGrid(rng.randint(5, 6), rng.randint(5, 6))
    terrain = [OPEN] * grid.size
    horizontal = rng.random() < 0.5
    length = rng.randint(2, 3)
    if horizontal:
        r, c = rng.randrange(grid.rows), rng.randrange(grid.cols - length + 1)
        rift = [grid.index(r, c + i) for i in range(length)]
    else:
        r, c = rng.randrange(grid.rows - length + 1), rng.randrange(grid.cols)
        rift = [grid.index(r + i, c) for i in range(length)]
    for cell in rift:
        terrain[cell] = RIFT_WE if horizontal else RIFT_NS
    free = [c for c in range(grid.size) if terrain[c] == OPEN]
    rng.shuffle(free)
    things = ([rng.choice((KOB, ELEPHANT, LION)) for _ in range(rng.randint(2, 4))]
              + [TREE] * rng.randint(0, 2) + [WATER] * rng.randint(0, 2))
    for letter, cell in zip(things, free, strict=False):
        terrain[cell] = letter
    return Board(grid, tuple(terrain), tuple(random_areas(grid, rng)))


def random_draws(position: Position, colour: str, count: int, rng: random.Random,
                 rules: Rules) -> Position:
    """``position`` after ``colour`` makes up to ``count`` random legal draws.

    Stops are drawn before anything else so that trails become possible; the
    choice among legal draws is uniform within the kind picked.
    """
    for _ in range(count):
        options = list(legal_draws(position, colour, rules))
        if not options:
            break
        kinds = {kind: [d for d in options if isinstance(d, kind)]
                 for kind in (DrawStop, DrawTrail, DrawTent)}
        weights = {DrawStop: 3, DrawTrail: 4, DrawTent: 1}
        present = [k for k in (DrawStop, DrawTrail, DrawTent) if kinds[k]]
        kind = rng.choices(present, [weights[k] for k in present])[0]
        position = apply_draw(position, colour, rng.choice(kinds[kind]), rules)
    return position


@dataclass(frozen=True)
class Case:
    """One random cross-check case: the position (with its budget) and the rule options."""

    seed: int
    position: Position
    rules: Rules

    @property
    def others_drawn(self) -> bool:
        return any(c != self.position.player for c in self.position.colours)

    @property
    def own_drawn(self) -> bool:
        return bool(self.position.of(self.position.player))


def random_case(seed: int) -> Case:
    """A random small max-score puzzle; which situations occur depends on ``seed`` only."""
    rng = random.Random(seed)
    board = random_board(rng)
    player = rng.choice(COLOURS[:3])
    others = [c for c in COLOURS[:3] if c != player]
    rift_owner = player if rng.random() < 0.6 else rng.choice(others)
    rules = Rules(stops_block_all_colours=rng.random() < 0.25)
    position = Position(board=board, rift_owner=rift_owner, player=player,
                        draws=rng.randint(3, 6), first_stop_rule=rng.random() < 0.3)
    if rng.random() < 0.5:
        position = random_draws(position, rng.choice(others), rng.randint(1, 4), rng, rules)
    if rng.random() < 0.4:
        position = random_draws(position, player, rng.randint(1, 3), rng, rules)
    return Case(seed, position, rules)
