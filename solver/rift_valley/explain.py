"""Why a Rift Valley answer scores what it does: the points of each new element, by source.

:func:`explain_draws` plays the draws through the reference engine and compares what
scores before and after (:func:`~solver.rift_valley.engine.scoring.details`). Every
point the draws add goes to one new element:

* a trail: its areas; the animals beside it that no trail was beside before (an
  animal beside two new trails goes to the one drawn first); the tent pairs and the
  penalty lifted from an old stop it is the first new trail to connect;
* a stop: the penalty when no trail ends at it after the draws; a tent pair with an
  old tent once it is connected;
* a tent: its pairs with connected stops.

The engine scores; this only sorts its points, so the elements' points add up to the
score after the draws minus the score before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.protocol import Played
from solver.rift_valley.engine.draws import play_draws
from solver.rift_valley.engine.scoring import Details, details
from solver.rift_valley.notation import Draw, DrawStop, DrawTent, DrawTrail, format_draw
from solver.rift_valley.position import TERRAIN_NAMES, Position
from solver.rift_valley.rules import (
    DEFAULT_RULES,
    TENT_POINTS_PER_STOP,
    UNCONNECTED_STOP_PENALTY,
    Rules,
)

SOURCES = ("trails", "animals", "tents", "unconnected")
"""Where points come from, in the order the score table lists them."""
ELEMENT = {DrawStop: "stop", DrawTrail: "trail", DrawTent: "tent"}


@dataclass
class ElementPoints:
    """The points one new element brings, by source, and why."""

    number: int
    """Its place in the drawing order (1-based)."""
    draw: str
    element: str
    trails: int = 0
    animals: int = 0
    tents: int = 0
    unconnected: int = 0
    areas: tuple[int, ...] = ()
    """A trail: the distinct areas among its cells."""
    animal_cells: list[str] = field(default_factory=list)
    """The animals whose points it brings, by cell."""
    reasons: list[str] = field(default_factory=list)
    """The points in words, one phrase per source."""

    @property
    def points(self) -> int:
        """What the element adds to the score."""
        return self.trails + self.animals + self.tents + self.unconnected

    def said(self) -> str:
        """The element in words: ``3. c4-d4-d6 (trail) +5: areas 2, 3 +2; …``."""
        why = "; ".join(self.reasons) or "scores nothing by itself"
        return f"{self.number}. {self.draw} ({self.element}) {self.points:+d}: {why}"

    def as_json(self) -> dict:
        """The ``explain.elements[]`` object of ``--json`` (docs/json.md)."""
        return {"draw": self.draw, "element": self.element, "points": self.points,
                **{source: getattr(self, source) for source in SOURCES},
                "areas": list(self.areas), "animal_cells": self.animal_cells}


@dataclass(frozen=True)
class Explanation:
    """The draws explained: the score before, each new element's points, the score after."""

    player: str
    before: int
    after: int
    elements: tuple[ElementPoints, ...]

    def sentences(self) -> list[str]:
        """The explanation in words, one sentence per element, then the sum."""
        out = [element.said() for element in self.elements]
        out.append(f"{self.player} scored {self.before} before and {self.after} after: "
                   f"{self.after - self.before:+d}")
        return out

    def played(self) -> Played:
        """What the draws are worth, ``(score after)``, and why: how ``rate`` values them."""
        return Played((self.after,), self.as_json(), tuple(self.sentences()))

    def as_json(self) -> dict:
        """The ``explain`` object of ``--json`` (docs/json.md)."""
        return {"player": self.player, "before": self.before, "after": self.after,
                "elements": [e.as_json() for e in self.elements]}


def explain_draws(position: Position, draws: Sequence[Draw],
                  rules: Rules = DEFAULT_RULES) -> Explanation:
    """The points each of ``draws`` (played in order by ``position.player``) brings.

    IllegalDraw (an InputError) when the engine refuses a draw."""
    after = play_draws(position, list(draws), rules)
    colour, grid = position.player, position.grid
    old, new = details(position, colour), details(after, colour)
    elements = [ElementPoints(n, format_draw(d, grid), ELEMENT[type(d)])
                for n, d in enumerate(draws, start=1)]
    by_trail = {d.trail: e for d, e in zip(draws, elements, strict=True)
                if isinstance(d, DrawTrail)}
    by_cell = {d.cell: e for d, e in zip(draws, elements, strict=True)
               if not isinstance(d, DrawTrail)}
    _trails(new, by_trail)
    _animals(position, old, new, by_trail)
    _pairs(position, old, new, by_trail, by_cell)
    _stops(position, old, new, by_trail, by_cell)
    before, total = old.score().total, new.score().total
    return Explanation(colour, before, total, tuple(elements))


def _first_connecting(stop: int, by_trail: dict) -> ElementPoints:
    """The new trail drawn first among those ending at ``stop``."""
    return min((e for t, e in by_trail.items() if stop in t.ends), key=lambda e: e.number)


def _trails(new: Details, by_trail: dict) -> None:
    for points in new.trails:
        element = by_trail.get(points.trail)
        if element is not None:
            element.trails += points.points
            element.areas = points.areas
            element.reasons.append(f"{_counted(len(points.areas), 'area')} "
                                   f"({', '.join(map(str, points.areas))}) +{points.points}")


def _animals(position: Position, old: Details, new: Details, by_trail: dict) -> None:
    grid, board = position.grid, position.board
    before = {a.cell for a in old.animals}
    gained: dict[int, list[str]] = {}
    for animal in new.animals:
        if animal.cell in before:
            continue
        element = min((by_trail[t] for t in animal.trails), key=lambda e: e.number)
        element.animals += animal.points
        element.animal_cells.append(grid.name(animal.cell))
        gained.setdefault(element.number, []).append(
            f"{TERRAIN_NAMES[board.terrain[animal.cell]]} {grid.name(animal.cell)} "
            f"+{animal.points}")
    for element in by_trail.values():
        if element.number in gained:
            element.reasons.append("beside " + ", ".join(gained[element.number]))


def _pairs(position: Position, old: Details, new: Details, by_trail: dict,
           by_cell: dict) -> None:
    grid = position.grid
    for tent, stop in sorted(set(new.pairs) - set(old.pairs)):
        element = by_cell.get(tent) or by_cell.get(stop) or _first_connecting(stop, by_trail)
        element.tents += TENT_POINTS_PER_STOP
        what = (f"connected stop {grid.name(stop)}" if element is by_cell.get(tent)
                else f"tent {grid.name(tent)}")
        element.reasons.append(f"beside {what} +{TENT_POINTS_PER_STOP}")


def _stops(position: Position, old: Details, new: Details, by_trail: dict,
           by_cell: dict) -> None:
    grid = position.grid
    for stop in new.unconnected:
        element = by_cell.get(stop)
        if element is not None:
            element.unconnected += UNCONNECTED_STOP_PENALTY
            element.reasons.append(f"no trail ends here {UNCONNECTED_STOP_PENALTY:+d}")
    for stop in sorted(set(old.unconnected) - set(new.unconnected)):
        element = _first_connecting(stop, by_trail)
        element.unconnected -= UNCONNECTED_STOP_PENALTY
        element.reasons.append(f"connects stop {grid.name(stop)} "
                               f"{-UNCONNECTED_STOP_PENALTY:+d}")


def _counted(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")
