"""Rift Valley scoring of one player on one board (reference engine side).

Trails: +1 per distinct area among a trail's cells, capped at TRAIL_AREA_CAP.
Animals: each animal cell 8-adjacent to a cell of any own trail scores once.
Tents: +TENT_POINTS_PER_STOP per connected own stop 8-adjacent to an own tent.
Stops: UNCONNECTED_STOP_PENALTY for each own stop no own trail ends at.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.rift_valley.position import Position
from solver.rift_valley.rules import (
    ANIMAL_POINTS,
    TENT_POINTS_PER_STOP,
    TRAIL_AREA_CAP,
    UNCONNECTED_STOP_PENALTY,
)


@dataclass(frozen=True)
class Score:
    """One player's score on one board and its breakdown (all in points)."""

    total: int
    trails: int
    animals: int
    tents: int
    unconnected: int


def score(position: Position, colour: str) -> Score:
    """Score ``colour``'s elements on the board of ``position``."""
    board, grid = position.board, position.grid
    own = position.of(colour)
    trail_points = 0
    touched: set[int] = set()
    connected: set[int] = set()
    for trail in own.trails:
        cells = trail.cells(grid)
        trail_points += min(TRAIL_AREA_CAP, len({board.areas[c] for c in cells}))
        connected.update(trail.ends)
        for cell in cells:
            touched.update(grid.touching[cell])
    animal_points = sum(ANIMAL_POINTS[board.terrain[c]] for c in board.animal_cells
                        if c in touched)
    tent_points = sum(TENT_POINTS_PER_STOP
                      for tent in own.tents for nb in grid.touching[tent]
                      if nb in connected and nb in own.stops)
    unconnected = UNCONNECTED_STOP_PENALTY * sum(1 for s in own.stops if s not in connected)
    return Score(
        total=trail_points + animal_points + tent_points + unconnected,
        trails=trail_points,
        animals=animal_points,
        tents=tent_points,
        unconnected=unconnected,
    )
