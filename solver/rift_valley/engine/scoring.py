"""Rift Valley scoring of one player on one board (reference engine side).

Trails: +1 per distinct area among a trail's cells, capped at TRAIL_AREA_CAP.
Animals: each animal cell 8-adjacent to a cell of any own trail scores once.
Tents: +TENT_POINTS_PER_STOP per connected own stop 8-adjacent to an own tent.
Stops: UNCONNECTED_STOP_PENALTY for each own stop no own trail ends at.

:func:`details` lists what scores, element by element (each trail's areas, each
animal and the trails beside it, each tent–stop pair, each unconnected stop);
:func:`score` adds it up. Explanations of an answer read the details, so they add up
to the score by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.rift_valley.position import Position, Trail
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


@dataclass(frozen=True)
class TrailPoints:
    """One own trail: the distinct areas among its cells and the points they give."""

    trail: Trail
    areas: tuple[int, ...]
    points: int


@dataclass(frozen=True)
class AnimalPoints:
    """An animal beside own trails: its cell, its points and the trails beside it."""

    cell: int
    points: int
    trails: tuple[Trail, ...]


@dataclass(frozen=True)
class Details:
    """Everything that scores for one player on one board."""

    trails: tuple[TrailPoints, ...]
    animals: tuple[AnimalPoints, ...]
    pairs: tuple[tuple[int, int], ...]
    """``(tent, stop)``: an own tent with a connected own stop beside it (each pair
    scores :data:`~solver.rift_valley.rules.TENT_POINTS_PER_STOP`)."""
    unconnected: tuple[int, ...]
    """Own stops no own trail ends at (each costs the penalty)."""

    def score(self) -> Score:
        """The points these details add up to."""
        trails = sum(t.points for t in self.trails)
        animals = sum(a.points for a in self.animals)
        tents = TENT_POINTS_PER_STOP * len(self.pairs)
        unconnected = UNCONNECTED_STOP_PENALTY * len(self.unconnected)
        return Score(trails + animals + tents + unconnected, trails, animals, tents,
                     unconnected)


def details(position: Position, colour: str) -> Details:
    """What scores for ``colour`` on the board of ``position``, element by element."""
    board, grid = position.board, position.grid
    own = position.of(colour)
    trails = []
    animal_cells = set(board.animal_cells)
    beside: dict[int, list[Trail]] = {}
    connected: set[int] = set()
    for trail in own.trails:
        cells = trail.cells(grid)
        areas = tuple(sorted({board.areas[c] for c in cells}))
        trails.append(TrailPoints(trail, areas, min(TRAIL_AREA_CAP, len(areas))))
        connected.update(trail.ends)
        near = {nb for cell in cells for nb in grid.touching[cell]}
        for animal in sorted(near & animal_cells):
            beside.setdefault(animal, []).append(trail)
    animals = tuple(AnimalPoints(c, ANIMAL_POINTS[board.terrain[c]], tuple(beside[c]))
                    for c in board.animal_cells if c in beside)
    pairs = tuple((tent, nb) for tent in own.tents for nb in grid.touching[tent]
                  if nb in connected and nb in own.stops)
    unconnected = tuple(s for s in own.stops if s not in connected)
    return Details(tuple(trails), animals, pairs, unconnected)


def score(position: Position, colour: str) -> Score:
    """Score ``colour``'s elements on the board of ``position``."""
    return details(position, colour).score()
