"""Geometry for the CP-SAT max-score model: where new elements may go, and candidate trails.

Everything here is precomputed from the board and the fixed (existing) elements
before the model is built; the model then decides which candidates to draw.
This module is written independently of the reference engine: it re-derives
which cells are free and which trail shapes the rules allow, and every pruning
step carries a docstring saying why it loses no optimal answer.

Vocabulary: a cell is *occupied* when any colour has an element on it (a stop,
a tent or any cell of a trail, end stops included). *Endpoints* are the cells
that can be one of the player's stops in the final position: existing own
stops and the cells where a new own stop may go.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from solver.rift_valley.position import (
    AREA_COUNT,
    OPEN,
    RIFT_NS,
    RIFT_WE,
    Position,
    Trail,
)
from solver.rift_valley.rules import TRAIL_AREA_CAP

HORIZONTAL, VERTICAL = "h", "v"
CROSSABLE = {HORIZONTAL: RIFT_NS, VERTICAL: RIFT_WE}
"""A leg running west–east may cross a ``|`` rift cell, a leg running north–south a ``-`` one."""


@dataclass(frozen=True)
class CandidateTrail:
    """A trail shape the player could draw, with what the model needs to know about it.

    ``trail`` is canonical (``start < end``). ``interior`` are its cells other than
    the two end stops (the corner included); ``areas`` is its capped area score.
    """

    trail: Trail
    interior: tuple[int, ...]
    areas: int

    @property
    def ends(self) -> tuple[int, int]:
        return self.trail.ends

    def cells(self) -> tuple[int, ...]:
        """Both end stops and the interior cells."""
        return (self.trail.start, *self.interior, self.trail.end)


@dataclass(frozen=True)
class Candidates:
    """Where the player's new elements may go on this board, all tuples ascending.

    ``occupied``: cells holding an element of any colour. ``own_stops``: the
    player's existing stops. ``stop_cells``: cells a new own stop may take.
    ``tent_cells``: cells a new tent may take. ``trails``: every trail shape
    joining two endpoints through cells the player may pass.
    """

    occupied: frozenset[int]
    own_stops: tuple[int, ...]
    stop_cells: tuple[int, ...]
    tent_cells: tuple[int, ...]
    trails: tuple[CandidateTrail, ...]

    @property
    def endpoints(self) -> tuple[int, ...]:
        """Existing own stops and new-stop cells, ascending."""
        return tuple(sorted(self.own_stops + self.stop_cells))


def occupied_cells(position: Position) -> frozenset[int]:
    """Every cell holding an element of any colour (trail cells include their end stops)."""
    grid = position.grid
    taken: set[int] = set()
    for _, elements in position.elements:
        taken.update(elements.stops)
        taken.update(elements.tents)
        for trail in elements.trails:
            taken.update(trail.cells(grid))
    return frozenset(taken)


def new_stop_cells(position: Position, occupied: frozenset[int],
                   stops_block_all_colours: bool) -> tuple[int, ...]:
    """Cells where the player may still put a stop: open, free, not beside a blocking stop.

    A stop beside an existing stop of the player's colour (or, with the rule
    option, of any colour) is illegal whatever else is drawn, so such cells are
    never candidates. Conflicts between two *new* stops are left to the model.
    """
    board, grid = position.board, position.grid
    blocking: set[int] = set(position.of(position.player).stops)
    if stops_block_all_colours:
        for _, elements in position.elements:
            blocking.update(elements.stops)
    return tuple(
        cell for cell in range(grid.size)
        if board.terrain[cell] == OPEN and cell not in occupied
        and not any(nb in blocking for nb in grid.neighbours[cell])
    )


def new_tent_cells(position: Position, occupied: frozenset[int],
                   endpoints: tuple[int, ...]) -> tuple[int, ...]:
    """Open free cells with at least one endpoint among their 8 neighbours.

    Sound reduction: a tent scores only for connected own stops around it, and
    every such stop is an endpoint. A tent with no endpoint nearby is worth 0
    in every solution, so dropping it from any answer keeps the score and only
    frees budget and tent room; some optimal answer never draws one.
    """
    board, grid = position.board, position.grid
    stops = set(endpoints)
    return tuple(
        cell for cell in range(grid.size)
        if board.terrain[cell] == OPEN and cell not in occupied
        and any(nb in stops for nb in grid.touching[cell])
    )


def _passable(position: Position, occupied: frozenset[int], cell: int, axis: str) -> bool:
    """May a leg running along ``axis`` pass straight through ``cell``?

    Open free cells, and (for the rift's owner only) free rift cells crossed
    crosswise.
    """
    if cell in occupied:
        return False
    letter = position.board.terrain[cell]
    if letter == OPEN:
        return True
    return position.player == position.rift_owner and letter == CROSSABLE[axis]


def _walk(position: Position, occupied: frozenset[int], start: int,
          step: tuple[int, int]) -> list[int]:
    """Cells from ``start`` (excluded) along ``step`` while they may be passed (the last
    one reached, which may be an endpoint that cannot be passed, is included)."""
    grid = position.grid
    axis = HORIZONTAL if step[0] == 0 else VERTICAL
    r, c = grid.coords[start]
    out: list[int] = []
    while True:
        r, c = r + step[0], c + step[1]
        cell = grid.index(r, c)
        if cell is None:
            return out
        out.append(cell)
        if not _passable(position, occupied, cell, axis):
            return out


def area_score(position: Position, cells: tuple[int, ...]) -> int:
    """Distinct areas among ``cells``, capped at :data:`TRAIL_AREA_CAP`."""
    areas = {position.board.areas[c] for c in cells}
    assert len(areas) <= AREA_COUNT
    return min(TRAIL_AREA_CAP, len(areas))


def _never() -> None:
    """The default ``check``: no deadline."""


def candidate_trails(position: Position, occupied: frozenset[int],
                     endpoints: tuple[int, ...],
                     check: Callable[[], None] = _never) -> tuple[CandidateTrail, ...]:
    """Every straight or L trail joining two endpoints through passable cells.

    Each straight trail is found once (walking east or south from its lower
    end); each L once (walking west–east from one end to the corner, then
    north–south to the other end). The corner must be open and free: a trail
    never turns on the rift. Sound reduction: straight trails between
    orthogonal neighbours are left out, since both ends would be stops of one
    colour side by side, which the stop rule forbids. ``check`` is called per
    endpoint (the command's deadline raises there).
    """
    is_end = set(endpoints)
    board = position.board
    found: list[CandidateTrail] = []

    def add(start: int, end: int, corner: int | None, interior: list[int]) -> None:
        a, b = min(start, end), max(start, end)
        trail = Trail(a, b, corner)
        cells = (a, *interior, b)
        found.append(CandidateTrail(trail, tuple(sorted(interior)), area_score(position, cells)))

    for a in endpoints:
        check()
        for step in ((0, 1), (1, 0)):
            ray = _walk(position, occupied, a, step)
            for i, b in enumerate(ray):
                if b in is_end and i >= 1:
                    add(a, b, None, ray[:i])
        for step in ((0, 1), (0, -1)):
            ray = _walk(position, occupied, a, step)
            for i, corner in enumerate(ray):
                if board.terrain[corner] != OPEN or corner in occupied:
                    continue
                for down in ((1, 0), (-1, 0)):
                    leg = _walk(position, occupied, corner, down)
                    for j, b in enumerate(leg):
                        if b in is_end:
                            add(a, b, corner, ray[:i + 1] + leg[:j])
    found.sort(key=lambda t: (t.trail.start, t.trail.end, -1 if t.trail.corner is None
                              else t.trail.corner))
    return tuple(found)


def unsplit_trails(position: Position, cand: Candidates) -> tuple[CandidateTrail, ...]:
    """The candidate trails an unlimited budget may need: those no split improves.

    Sound reduction, **only without a budget**; it loses no optimal answer. Call
    a cell ``x`` that a trail ``t`` passes a *split cell* when a new own stop may
    go there (``x`` in ``cand.stop_cells``) and ``x`` is not orthogonally next to
    either end stop of ``t``. If in some answer no own stop is orthogonally next
    to ``x`` off ``t``, drawing a stop on ``x`` and the two trails from ``x`` to
    ``t``'s ends instead of ``t`` is legal — ``x``'s neighbours along ``t`` are
    cells ``t`` passes, which hold no stop; both halves are candidates (straight
    or L, the same passable cells, ends not side by side) — and scores more: the
    halves cover exactly ``t``'s cells (the same animals), ``x``'s area counts
    in both, so their area points exceed ``t``'s (``min(5, a) + min(5, b) >
    min(5, |A ∪ B|)`` when ``A`` and ``B`` share an area), the new stop is
    connected (no penalty) and only adds tent points. It costs two more draws,
    which only a budget could refuse. So in every optimal answer each split cell
    of each trail has an own stop beside it off the trail.

    Those stops are new (an existing own stop beside ``x`` keeps ``x`` out of
    ``stop_cells``), no two are orthogonal neighbours, and none is beside ``t``'s
    ends (own stops too). So a trail is dropped when no such set of cells — an
    independent set of ``stop_cells`` off ``t`` and away from its ends — has a
    cell beside each of its split cells (a small search over at most two cells
    per split cell): no optimal answer draws it. On the eight large boards of
    the ``budgets`` suite this drops 28–42 % of the trails (benchmarks/EXPERIMENTS.md,
    Rift Valley, "Fewer candidate trails: split dominance").
    """
    grid = position.grid
    neighbours = grid.neighbours
    stop_cells = set(cand.stop_cells)

    def blockable(trail: CandidateTrail) -> bool:
        """Can own stops sit beside every split cell of ``trail`` in some answer?"""
        interior = trail.interior
        start, end = trail.ends
        near_ends = set(neighbours[start]) | set(neighbours[end])
        rooms = []
        for x in interior:
            if x not in stop_cells or x in near_ends:
                continue
            room = [nb for nb in neighbours[x]
                    if nb in stop_cells and nb not in interior and nb not in near_ends]
            if not room:
                return False
            rooms.append(room)
        return _independent_hit(rooms, 0, set(), neighbours)

    return tuple(t for t in cand.trails if blockable(t))


def _independent_hit(rooms: list[list[int]], i: int, chosen: set[int],
                     neighbours) -> bool:
    """Is there a set of cells, ``chosen`` and more, with one cell in each of ``rooms[i:]``
    and no two orthogonal neighbours? (Depth-first; each room has at most two cells.)"""
    if i == len(rooms):
        return True
    if any(c in chosen for c in rooms[i]):
        return _independent_hit(rooms, i + 1, chosen, neighbours)
    for c in rooms[i]:
        if not any(nb in chosen for nb in neighbours[c]):
            chosen.add(c)
            if _independent_hit(rooms, i + 1, chosen, neighbours):
                return True
            chosen.discard(c)
    return False


def candidates(position: Position, stops_block_all_colours: bool,
               check: Callable[[], None] = _never) -> Candidates:
    """All candidate cells and trails for ``position.player`` on this board.

    ``check`` is called in the long loops (the command's deadline raises there).
    """
    occupied = occupied_cells(position)
    own_stops = tuple(sorted(position.of(position.player).stops))
    stop_cells = new_stop_cells(position, occupied, stops_block_all_colours)
    endpoints = tuple(sorted(own_stops + stop_cells))
    return Candidates(
        occupied=occupied,
        own_stops=own_stops,
        stop_cells=stop_cells,
        tent_cells=new_tent_cells(position, occupied, endpoints),
        trails=candidate_trails(position, occupied, endpoints, check),
    )
