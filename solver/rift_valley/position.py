"""Rift Valley Reserve positions: one square board, its areas and rift, and drawn elements.

Pure data, no rules: the reference engine and the CP-SAT model both read these
types but share no legality or scoring code. Cells are dense indices of the
board's :class:`~solver.geometry.SquareGrid` (``row * cols + col``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from solver.geometry import SquareGrid
from solver.tomlfile import Solution

COLOURS: tuple[str, ...] = ("red", "yellow", "blue", "green", "purple")

OPEN = "."
KOB, ELEPHANT, LION = "k", "e", "l"
TREE, WATER = "t", "w"
RIFT_WE, RIFT_NS = "-", "|"
ANIMALS: tuple[str, ...] = (KOB, ELEPHANT, LION)
RIFTS: tuple[str, ...] = (RIFT_WE, RIFT_NS)
TERRAIN: tuple[str, ...] = (OPEN, KOB, ELEPHANT, LION, TREE, WATER, RIFT_WE, RIFT_NS)
TERRAIN_NAMES: dict[str, str] = {
    OPEN: "open", KOB: "kob", ELEPHANT: "elephant", LION: "lion",
    TREE: "tree", WATER: "water", RIFT_WE: "rift (west-east)", RIFT_NS: "rift (north-south)",
}

MAX_BOARD_ROWS = 30
MAX_BOARD_COLS = 30
"""Largest board read (real boards are 12 columns × 10 rows); larger ones are refused
with a clear message rather than searched for minutes."""

AREA_COUNT = 9
"""[D] Every board has exactly 9 areas, each a 4-connected set of cells."""


@dataclass(frozen=True)
class Trail:
    """A trail from ``start`` to ``end``, straight (``corner is None``) or an L via ``corner``."""

    start: int
    end: int
    corner: int | None = None

    @property
    def ends(self) -> tuple[int, int]:
        return (self.start, self.end)

    def waypoints(self) -> tuple[int, ...]:
        """``(start, end)`` or ``(start, corner, end)``."""
        if self.corner is None:
            return (self.start, self.end)
        return (self.start, self.corner, self.end)

    def cells(self, grid: SquareGrid) -> tuple[int, ...]:
        """Every cell of the trail in order: end stops, the cells passed, the corner."""
        points = self.waypoints()
        out: list[int] = [points[0]]
        for a, b in zip(points, points[1:], strict=False):
            leg = grid.segment(a, b)
            if leg is None:
                raise ValueError("trail legs must run along a row or a column")
            out.extend(leg[1:])
        return tuple(out)


@dataclass(frozen=True)
class Elements:
    """What one colour has drawn on the board, in file order."""

    stops: tuple[int, ...] = ()
    trails: tuple[Trail, ...] = ()
    tents: tuple[int, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.stops or self.trails or self.tents)


@dataclass(frozen=True)
class Board:
    """The static board: terrain letter and area number (1–9) per cell."""

    grid: SquareGrid
    terrain: tuple[str, ...]
    areas: tuple[int, ...]

    @cached_property
    def rift_cells(self) -> tuple[int, ...]:
        """Cells of the rift, ascending."""
        return tuple(i for i, t in enumerate(self.terrain) if t in RIFTS)

    @cached_property
    def animal_cells(self) -> tuple[int, ...]:
        """Cells holding an animal, ascending."""
        return tuple(i for i, t in enumerate(self.terrain) if t in ANIMALS)


@dataclass(frozen=True)
class Position:
    """A Rift Valley position: the board, whose rift it is, and every colour's elements.

    ``elements`` holds ``(colour, Elements)`` pairs in :data:`COLOURS` order, only
    for colours with something drawn. ``draws=None`` means an unlimited budget.
    """

    board: Board
    rift_owner: str
    player: str
    draws: int | None = None
    first_stop_rule: bool = False
    elements: tuple[tuple[str, Elements], ...] = ()
    solution: Solution | None = None
    _by_colour: dict[str, Elements] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_colour", dict(self.elements))

    @property
    def grid(self) -> SquareGrid:
        return self.board.grid

    def of(self, colour: str) -> Elements:
        """The elements ``colour`` has drawn (empty if none)."""
        return self._by_colour.get(colour, Elements())

    @property
    def colours(self) -> tuple[str, ...]:
        """Colours with elements on the board, in COLOURS order."""
        return tuple(c for c, _ in self.elements)

    def with_elements(self, colour: str, elements: Elements) -> Position:
        """A copy where ``colour``'s elements are replaced."""
        merged = dict(self.elements)
        merged[colour] = elements
        ordered = tuple((c, merged[c]) for c in COLOURS if c in merged and merged[c])
        return replace(self, elements=ordered)

    def replace(self, **changes: Any) -> Position:
        """A copy with some fields changed (``dataclasses.replace``)."""
        return replace(self, **changes)
