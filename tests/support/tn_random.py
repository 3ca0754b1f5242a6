"""Seeded random Terra Nova positions for the cross-checks: small irregular boards (holes
and ragged edges), 3-6 landscapes, 2-4 players, random stones and pieces, supplies of
0, 1, 2 or more stones; and the small samples the closing cross-checks share, with the
exhaustive search's optimum on each."""

from __future__ import annotations

import random
from functools import cache

from solver.errors import InputError
from solver.geometry import HexGrid
from solver.terra_nova.engine import exhaustive
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.model.geometry import Geometry
from solver.terra_nova.position import COLOURS, EMPTY, STONE, Board, Position


def random_position(seed: int, cells: tuple[int, int] = (15, 40),
                    own_pieces: tuple[int, int] = (1, 3)) -> Position | None:
    """A random small legal position (None when the draw is not legal)."""
    rng = random.Random(seed)
    while True:
        rows, cols = rng.randint(3, 7), rng.randint(3, 8)
        holes = rng.choice((0.0, 0.1, 0.2))
        mask = [[rng.random() >= holes for _ in range(cols)] for _ in range(rows)]
        grid = HexGrid.from_mask(mask)
        if cells[0] <= grid.size <= cells[1]:
            break
    n = grid.size
    letters = "abcdef"[:rng.randint(3, 6)]
    land: list[str | None] = [None] * n
    for i, cell in enumerate(rng.sample(range(n), len(letters))):
        land[cell] = letters[i]
    while None in land:
        grown = False
        for cell in rng.sample(range(n), n):
            if land[cell] is None:
                known = [land[b] for b in grid.neighbours[cell] if land[b] is not None]
                if known:
                    land[cell] = rng.choice(known)
                    grown = True
        if not grown:  # a cell cut off from every seed by holes
            land[land.index(None)] = rng.choice(letters)
    players = COLOURS[:rng.choice((2, 2, 3, 4))]
    occupant = [EMPTY] * n
    order = rng.sample(range(n), n)
    stones = rng.randint(0, n // 3)
    for cell in order[:stones]:
        occupant[cell] = STONE
    free = order[stones:]
    for colour in players:
        count = rng.randint(*own_pieces) if colour == players[0] else rng.randint(0, 3)
        for _ in range(count):
            if free:
                occupant[free.pop()] = colour
    position = Position(board=Board(grid, tuple(land)), players=tuple(players),
                        to_move=players[0], occupant=tuple(occupant),
                        scores=(0,) * len(players),
                        stones_left=rng.choice((0, 1, 1, 2, 2, 3, 5, 20)))
    try:
        engine.validate(position)
    except InputError:
        return None
    return position


def positions(count: int, first_seed: int, **kw) -> list[Position]:
    """``count`` legal random positions from consecutive seeds."""
    out, seed = [], first_seed
    while len(out) < count:
        pos = random_position(seed, **kw)
        seed += 1
        if pos is not None:
            out.append(pos)
    return out


def three_turn_sample(count: int) -> list[Position]:
    """Small positions for 3-turn closings (at most 40 candidate regions: by size only)."""
    return [p for p in positions(count, first_seed=7000, cells=(8, 14), own_pieces=(1, 2))
            if len(Geometry(p, 3).candidates) <= 40]


@cache
def sample(turns: int) -> tuple:
    """Small positions for ``turns``-turn closings (the cross-checks' first ones)."""
    if turns == 2:
        return tuple(p for p in positions(30, first_seed=5000, cells=(12, 22),
                                          own_pieces=(1, 2))
                     if len(Geometry(p, 2).candidates) <= 200)
    return tuple(three_turn_sample(30))


@cache
def truth(turns: int, number: int) -> tuple[int, ...]:
    """The exhaustive search's objective on ``sample(turns)[number]``."""
    return tuple(exhaustive.best_closing(sample(turns)[number], turns, "max-points").key)
