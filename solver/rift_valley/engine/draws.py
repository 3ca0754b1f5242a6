"""Rift Valley reference engine: element legality, drawing, and scoring.

Independent of the CP-SAT model (no shared legality or scoring code). Rules, as
implemented (see ``docs/rules/rift-valley.md``):

- A stop or tent goes on an open cell with no element of any colour on it.
- Two stops of one colour are never orthogonally adjacent (any two stops with
  ``Rules.stops_block_all_colours``).
- A trail joins two stops of its own colour, straight or an L with one bend. Its
  interior (cells passed and the corner) is open and free of every element, except
  cells of the own rift (colour == ``rift_owner``) passed straight across: a ``-``
  cell on a north–south leg, a ``|`` cell on a west–east leg; never the corner.
- At most MAX_TENTS_PER_BOARD tents on a board, all colours together.
- First-stop rule: the drawer's first element must be a stop not 8-adjacent to an animal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from solver.errors import InputError
from solver.rift_valley.engine.scoring import Score, score
from solver.rift_valley.notation import (
    Draw,
    DrawStop,
    DrawTent,
    DrawTrail,
    format_draw,
    format_trail,
    parse_draw,
)
from solver.rift_valley.position import (
    ANIMALS,
    COLOURS,
    OPEN,
    RIFT_NS,
    RIFT_WE,
    TERRAIN_NAMES,
    Elements,
    Position,
    Trail,
)
from solver.rift_valley.rules import (
    ANIMAL_POINTS,
    DEFAULT_RULES,
    END_TRIGGER_BOARDS,
    MAX_TENTS_PER_BOARD,
    TENT_POINTS_PER_STOP,
    TRAIL_AREA_CAP,
    UNCONNECTED_STOP_PENALTY,
    Rules,
)

__all__ = [
    "ANIMAL_POINTS", "DEFAULT_RULES", "END_TRIGGER_BOARDS", "MAX_TENTS_PER_BOARD",
    "TENT_POINTS_PER_STOP", "TRAIL_AREA_CAP", "UNCONNECTED_STOP_PENALTY", "IllegalDraw",
    "Occupancy", "Rules", "Score",
    "apply_draw", "draw_problem", "legal_draws", "play_draws", "score", "trail_problem", "validate",
]


class IllegalDraw(InputError):
    """A draw that breaks the rules in the position it is drawn in."""


@dataclass(frozen=True)
class Occupancy:
    """Which cells carry elements: stops (by colour), tents, trail interiors."""

    stops: dict[int, str]
    tents: dict[int, str]
    trail_cells: dict[int, str]

    @classmethod
    def of(cls, position: Position) -> Occupancy:
        """The occupancy of ``position`` (assumes its elements do not overlap)."""
        stops: dict[int, str] = {}
        tents: dict[int, str] = {}
        trail_cells: dict[int, str] = {}
        for colour, elements in position.elements:
            stops.update((s, colour) for s in elements.stops)
            tents.update((t, colour) for t in elements.tents)
            for trail in elements.trails:
                trail_cells.update((c, colour) for c in trail.cells(position.grid)[1:-1])
        return cls(stops, tents, trail_cells)

    def holds(self, cell: int) -> bool:
        """Whether ``cell`` carries any element."""
        return cell in self.stops or cell in self.tents or cell in self.trail_cells


def _cell_problem(position: Position, occ: Occupancy, cell: int, what: str) -> str | None:
    terrain = position.board.terrain[cell]
    if terrain != OPEN:
        return f"a {what} needs an open cell, {position.grid.name(cell)} is not open"
    if occ.holds(cell):
        return f"{position.grid.name(cell)} already holds an element"
    return None


def _stop_problem(position: Position, occ: Occupancy, colour: str, cell: int, rules: Rules,
                  first: bool) -> str | None:
    problem = _cell_problem(position, occ, cell, "stop")
    if problem:
        return problem
    grid = position.grid
    for nb in grid.neighbours[cell]:
        owner = occ.stops.get(nb)
        if owner == colour or (owner is not None and rules.stops_block_all_colours):
            return f"stops may not touch orthogonally ({owner} stop on {grid.name(nb)})"
    if first and _next_to_animal(position, cell):
        return "the first stop may not touch an animal (also diagonally)"
    return None


def _next_to_animal(position: Position, cell: int) -> bool:
    terrain = position.board.terrain
    return any(terrain[nb] in ANIMALS for nb in position.grid.touching[cell])


def trail_problem(position: Position, occ: Occupancy, colour: str, trail: Trail) -> str | None:
    """Why ``colour`` may not draw ``trail`` given ``occ``, or None when it may."""
    grid, terrain = position.grid, position.board.terrain
    for end in trail.ends:
        if occ.stops.get(end) != colour:
            return f"a trail joins two {colour} stops; {grid.name(end)} is not one"
    points = trail.waypoints()
    segments = [grid.segment(a, b) for a, b in zip(points, points[1:], strict=False)]
    legs = [leg for leg in segments if leg is not None]
    (rs, cs), (re_, ce) = grid.coords[trail.start], grid.coords[trail.end]
    bent = trail.corner is not None and (rs == re_ or cs == ce)
    if (trail.start == trail.end or len(legs) < len(segments) or bent
            or any(len(leg) < 2 for leg in legs)):
        return "a trail is straight or an L with one 90° bend between two different stops"
    for (a, b), leg in zip(zip(points, points[1:], strict=False), legs, strict=True):
        vertical = grid.coords[a][1] == grid.coords[b][1]
        crosswise = RIFT_WE if vertical else RIFT_NS
        for cell in leg[1:]:
            if cell == trail.end:
                continue
            name = grid.name(cell)
            if occ.holds(cell):
                return f"it crosses an element on {name}"
            kind = terrain[cell]
            if kind == OPEN:
                continue
            if kind in (RIFT_WE, RIFT_NS):
                if colour != position.rift_owner:
                    return f"only {position.rift_owner} may cross this rift ({name})"
                if cell == trail.corner:
                    return f"a trail may not turn on the rift ({name})"
                if kind != crosswise:
                    return f"the rift may only be crossed crosswise ({name})"
                continue
            return f"it crosses {TERRAIN_NAMES[kind]} on {name}"
    return None


def validate(position: Position, rules: Rules = DEFAULT_RULES) -> None:
    """Raise InputError (placed at the element) unless every element of ``position`` is legal.

    Elements are checked as if drawn colour by colour: stops, then tents, then
    trails; the first-stop rule is about the next draw and is not checked here.
    """
    grid = position.grid
    occ = Occupancy({}, {}, {})
    for colour, elements in position.elements:
        for cell in elements.stops:
            problem = _stop_problem(position, occ, colour, cell, rules, first=False)
            if problem:
                raise InputError(problem, key=f"elements.{colour}.stops",
                                 place=f"stop '{grid.name(cell)}'")
            occ.stops[cell] = colour
    for colour, elements in position.elements:
        for cell in elements.tents:
            problem = _cell_problem(position, occ, cell, "tent")
            if problem:
                raise InputError(problem, key=f"elements.{colour}.tents",
                                 place=f"tent '{grid.name(cell)}'")
            occ.tents[cell] = colour
    if len(occ.tents) > MAX_TENTS_PER_BOARD:  # placed at the first tent past the limit
        cell, colour = list(occ.tents.items())[MAX_TENTS_PER_BOARD]
        raise InputError(f"{len(occ.tents)} tents on the board, at most {MAX_TENTS_PER_BOARD}",
                         key=f"elements.{colour}.tents", place=f"tent '{grid.name(cell)}'")
    for colour, elements in position.elements:
        for trail in elements.trails:
            problem = trail_problem(position, occ, colour, trail)
            if problem:
                raise InputError(problem, key=f"elements.{colour}.trails",
                                 place=f"trail '{format_trail(trail, grid)}'")
            occ.trail_cells.update((c, colour) for c in trail.cells(grid)[1:-1])


def _trail_shapes(position: Position, a: int, b: int) -> list[Trail]:
    grid = position.grid
    (ra, ca), (rb, cb) = grid.coords[a], grid.coords[b]
    if ra == rb or ca == cb:
        return [Trail(a, b)]
    return [Trail(a, b, corner) for corner in sorted(grid.corners(a, b))]


def legal_draws(position: Position, colour: str, rules: Rules = DEFAULT_RULES,
                first: bool = False) -> Iterator[Draw]:
    """Every draw ``colour`` may make now, in a fixed order: stops, trails, tents by cell.

    Trails are listed once per shape, from the lower-numbered end stop.
    With ``first`` only stops away from animals are legal.
    """
    occ = Occupancy.of(position)
    size = position.grid.size
    for cell in range(size):
        if _stop_problem(position, occ, colour, cell, rules, first) is None:
            yield DrawStop(cell)
    if first:
        return
    own = sorted(position.of(colour).stops)
    for i, a in enumerate(own):
        for b in own[i + 1:]:
            for trail in _trail_shapes(position, a, b):
                if trail_problem(position, occ, colour, trail) is None:
                    yield DrawTrail(trail)
    if len(occ.tents) < MAX_TENTS_PER_BOARD:
        for cell in range(size):
            if _cell_problem(position, occ, cell, "tent") is None:
                yield DrawTent(cell)


def draw_problem(position: Position, colour: str, draw: Draw, rules: Rules = DEFAULT_RULES,
                 first: bool = False) -> str | None:
    """Why ``colour`` may not make ``draw`` in ``position``, or None when it may."""
    occ = Occupancy.of(position)
    if isinstance(draw, DrawStop):
        return _stop_problem(position, occ, colour, draw.cell, rules, first)
    if first:
        return "the first element must be a stop away from animals"
    if isinstance(draw, DrawTent):
        if len(occ.tents) >= MAX_TENTS_PER_BOARD:
            return f"the board already has {MAX_TENTS_PER_BOARD} tents"
        return _cell_problem(position, occ, draw.cell, "tent")
    return trail_problem(position, occ, colour, draw.trail)


def apply_draw(position: Position, colour: str, draw: Draw, rules: Rules = DEFAULT_RULES,
               first: bool = False) -> Position:
    """``position`` after ``colour`` draws ``draw``; IllegalDraw when the rules forbid it."""
    if colour not in COLOURS:
        raise IllegalDraw(f"unknown colour {colour!r}")
    problem = draw_problem(position, colour, draw, rules, first)
    if problem:
        raise IllegalDraw(f"{colour} may not draw this: {problem}",
                          place=f"draw '{format_draw(draw, position.grid)}'")
    own = position.of(colour)
    if isinstance(draw, DrawStop):
        added = Elements(own.stops + (draw.cell,), own.trails, own.tents)
    elif isinstance(draw, DrawTent):
        added = Elements(own.stops, own.trails, own.tents + (draw.cell,))
    else:
        added = Elements(own.stops, own.trails + (draw.trail,), own.tents)
    return position.with_elements(colour, added)


def play_draws(position: Position, draws: Sequence[Draw | str],
               rules: Rules = DEFAULT_RULES) -> Position:
    """The position after ``position.player`` makes ``draws`` in order (a puzzle solution).

    Applies the first-stop rule to the first draw when ``position.first_stop_rule``
    and respects the budget ``position.draws``; IllegalDraw names the failing draw.
    Strings are parsed as draw notation.
    """
    validate(position, rules)
    grid = position.grid
    if position.draws is not None and len(draws) > position.draws:
        raise IllegalDraw(f"{len(draws)} draws, but the budget is {position.draws}",
                          place=f"draw {position.draws + 1}")
    for number, draw in enumerate(draws, start=1):
        if isinstance(draw, str):
            try:
                draw = parse_draw(draw, grid)
            except InputError as exc:
                raise exc.located(place=f"draw {number} '{draw}'") from None
        first = position.first_stop_rule and number == 1
        try:
            position = apply_draw(position, position.player, draw, rules, first)
        except IllegalDraw as exc:
            raise IllegalDraw(exc.message, place=f"draw {number} '{format_draw(draw, grid)}'")\
                from None
    return position
