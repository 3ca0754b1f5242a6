"""Terra Nova (2006) positions: the board, pieces, stones, scores and the puzzle posed.

Pure data, no rules: the reference engine (``engine.py``) and the CP-SAT model
(``model.py``) both read these types but share no legality or scoring code.
Cells are dense indices of the board's :class:`~solver.geometry.HexGrid`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from solver.geometry import HexGrid
from solver.tomlfile import Solution

COLOURS: tuple[str, ...] = ("red", "yellow", "blue", "green")
"""Player colours in order of use."""

PIECE_LETTER: dict[str, str] = {"red": "R", "yellow": "Y", "blue": "B", "green": "G"}
LETTER_COLOUR: dict[str, str] = {v: k for k, v in PIECE_LETTER.items()}

TOTAL_STONES = 80
"""Boundary stones in the common supply of a full game."""

PIECES_PER_PLAYER: dict[int, int] = {2: 13, 3: 10, 4: 8}
"""Pieces per player in a full game, by number of players."""

EMPTY = ""
STONE = "#"

PUZZLE_KINDS = ("best-turn", "closing")
OBJECTIVES = ("max-points", "min-turns")

MAX_PUZZLE_TURNS = 10
"""Most turns a closing puzzle (``[puzzle] turns``, ``solve --turns``) may span. The
model's candidate regions grow steeply with the horizon: 5 turns of the closing demo
already take about 20 s to build; beyond 10 nothing is solved in useful time."""

MAX_BOARD_ROWS = 30
MAX_BOARD_COLS = 30
"""Largest board read (the 2006 board is 13 rows × 15 columns). Larger boards are
refused with a clear message: region search and drawing grow with the area, and a
200×200 board took seconds just to show."""


@dataclass(frozen=True)
class Board:
    """The static board: which hexes exist and each one's landscape letter."""

    grid: HexGrid
    landscape: tuple[str, ...]
    names: tuple[tuple[str, str], ...] = ()
    """Optional ``(letter, name)`` pairs from the file's ``[landscapes]`` table, sorted."""

    @cached_property
    def letters(self) -> tuple[str, ...]:
        """The distinct landscape letters on the board, sorted."""
        return tuple(sorted(set(self.landscape)))

    @cached_property
    def landscape_id(self) -> tuple[int, ...]:
        """Per cell, the index of its landscape in :attr:`letters`."""
        ids = {letter: i for i, letter in enumerate(self.letters)}
        return tuple(ids[letter] for letter in self.landscape)

    def landscape_name(self, letter: str) -> str | None:
        """The name given to ``letter`` in ``[landscapes]``, if any."""
        return dict(self.names).get(letter)


@dataclass(frozen=True)
class Puzzle:
    """The ``[puzzle]`` table: what to solve."""

    kind: str = "best-turn"
    turns: int | None = None
    objective: str | None = None
    target: int | None = None

    @property
    def horizon(self) -> int:
        """Number of turns the puzzle looks at (1 for best-turn)."""
        return 1 if self.kind == "best-turn" else (self.turns or 1)


@dataclass(frozen=True)
class Position:
    """A Terra Nova position.

    ``occupant[i]`` is ``""`` (empty), ``"#"`` (stone) or a colour name (a piece).
    ``scores`` is aligned with ``players``.
    """

    board: Board
    players: tuple[str, ...]
    to_move: str
    occupant: tuple[str, ...]
    scores: tuple[int, ...]
    stones_left: int
    puzzle: Puzzle | None = None
    solution: Solution | None = None
    _pieces: dict[int, str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        pieces = {i: o for i, o in enumerate(self.occupant) if o not in (EMPTY, STONE)}
        object.__setattr__(self, "_pieces", pieces)

    @property
    def grid(self) -> HexGrid:
        return self.board.grid

    @property
    def pieces(self) -> Mapping[int, str]:
        """Cell → colour of every piece on the board."""
        return self._pieces

    @property
    def stones(self) -> frozenset[int]:
        """Cells holding a stone."""
        return frozenset(i for i, o in enumerate(self.occupant) if o == STONE)

    def pieces_of(self, colour: str) -> tuple[int, ...]:
        """Cells of ``colour``'s pieces, ascending."""
        return tuple(cell for cell, c in self._pieces.items() if c == colour)

    def score(self, colour: str) -> int:
        """Points of ``colour``."""
        return self.scores[self.players.index(colour)]

    @property
    def score_map(self) -> dict[str, int]:
        """Colour → points."""
        return dict(zip(self.players, self.scores, strict=True))

    def replace(self, **changes: Any) -> Position:
        """A copy with some fields changed (``dataclasses.replace``)."""
        return replace(self, **changes)
