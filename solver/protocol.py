"""What games and drivers exchange: the ``Game`` protocol and its value types.

A game package (``solver/<game>/``) provides one object implementing
:class:`Game` in its ``game.py``; the registry (:mod:`solver.games`) lists
them, and the drivers (the CLI, the benchmark runner, the puzzle generator)
talk to games only through this protocol and these types. Nothing here knows
any particular game.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from solver.cpsat import SolveParams
    from solver.drawing.scene import Scene


class Status(Protocol):
    """A live status line (a spinner) whose text can change."""

    def update(self, text: str) -> None:
        """Show ``text`` instead of the current status."""


class Screen(Protocol):
    """Where a game's command output goes: the CLI passes its consoles."""

    def print(self, *renderables: Any) -> None:
        """Standard output: boards, tables, answers (rich renderables or markup)."""

    def note(self, *renderables: Any) -> None:
        """Standard error: progress and remarks."""

    def json(self, obj: Any) -> None:
        """The one JSON object of ``--json`` on standard output."""

    def status(self, text: str) -> AbstractContextManager[Status]:
        """A spinner on standard error while the block runs."""


@dataclass(frozen=True)
class Case:
    """One benchmark case: a position (file or recipe) and the puzzle to solve on it."""

    name: str
    game: str
    kind: str
    position: Path | None = None
    recipe: dict[str, Any] | None = None
    turns: int | None = None
    draws: int | None = None
    repeat: int = 1
    """How often the CP-SAT solve is timed; the record keeps the median."""
    cap: float | None = None
    """Seconds the exhaustive search may take on this case; None: the suite's cap."""


@dataclass(frozen=True)
class Solved:
    """What a game's CP-SAT solve of a benchmark case returns to the runner."""

    value: tuple[int, ...]
    """The full objective tuple (e.g. points, others[, actions]; or (score,))."""
    optimal: bool
    length: int
    """Actions or draws in the answer."""
    stats: dict[str, Any] = field(default_factory=dict)
    bound: int | None = None
    """CP-SAT's proven upper bound on the leading value (equal to it when optimal;
    None: the solve proved none)."""


@dataclass(frozen=True)
class Made:
    """A kept generated puzzle: the file text, its difficulty grade and the signals behind it."""

    text: str
    difficulty: str
    signals: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameRecord:
    """A game record replayed by the engine (:func:`solver.records.replay`): the position
    before each turn and after the last, and each turn as the game reads it."""

    game: str
    path: Path
    positions: tuple[Any, ...]
    """Before turn 1, 2, …, and after the last turn (one more than :attr:`turns`)."""
    turns: tuple[Any, ...]
    """The turns as the game's notation reads them."""
    players: tuple[str, ...]
    """Who played each turn."""
    texts: tuple[str, ...]
    """Each turn in canonical notation."""
    notes: tuple[str | None, ...] = ()


Options = Mapping[str, Any]
"""Command-line options given to a game command, by parameter name (``draws``, ``turns``…)."""


class Game(Protocol):
    """One game as the drivers see it. Implementations import heavy modules lazily."""

    key: str
    """The ``game`` key of its position files: ``"terra-nova"``."""
    title: str
    """Full name: ``"Terra Nova (Winning Moves 2006)"``."""
    short: str
    """Name in messages: ``"Terra Nova"`` (``--draws is for Rift Valley files``)."""
    prefix: str
    """Start of generated file names: ``"tn"``."""
    kinds: tuple[str, ...]
    """Puzzle kinds for ``generate`` and ``bench``; the first is the default."""
    options: Mapping[str, frozenset[str]]
    """Command → the game-specific options it accepts; a command absent here is not offered."""
    horizon_unit: str
    """What a benchmark horizon counts: ``"turns"`` or ``"draws"``."""
    plot_colours: Mapping[str, str]
    """Puzzle kind → matplotlib colour of the benchmark plot."""
    demo: str
    """A small generated puzzle (its first line names its candidate seed), relative to
    the positions folder (:data:`solver.paths.POSITIONS_DIR`): what examples and the
    conformance test use."""

    # ---- position files
    def read_position(self, path: Path) -> Any:
        """The position in ``path`` (InputError naming the file and place when bad)."""

    def write_position(self, position: Any) -> str:
        """The canonical file text of ``position``; reading it gives ``position`` back."""

    # ---- commands (the CLI); each prints on ``screen`` and returns the exit status
    def show(self, path: Path, screen: Screen) -> int:
        """Draw the position in ``path``."""

    def solve(self, path: Path, options: Options, params: SolveParams, as_json: bool,
              screen: Screen) -> int:
        """Solve the puzzle in ``path``; the answer is replayed by the engine."""

    def verify(self, path: Path, options: Options, as_json: bool, screen: Screen) -> int:
        """Check the file's ``[solution]`` with the engine; 1 when it does not hold."""

    def perft(self, path: Path, options: Options, as_json: bool, screen: Screen) -> int:
        """Count the legal turns (only when ``"perft"`` is in :attr:`options`)."""

    def play(self, paths: tuple[Path, ...], options: Options, seed: int, screen: Screen) -> int:
        """Play a seeded random game from ``paths``."""

    # ---- pictures (``render``, ``sheet``)
    def picture(self, path: Path, solution: bool) -> Scene:
        """The position in ``path`` as a drawing scene, its puzzle in words; with
        ``solution`` the answer drawn on it (the file's ``[solution]`` checked by the
        engine, else solved and replayed by the engine)."""

    # ---- the puzzle generator
    def default_turns(self, kind: str) -> int:
        """Turns of a ``kind`` puzzle when ``--turns`` is not given."""

    def check_generate(self, kind: str, turns: int) -> None:
        """InputError for a request this game does not make (kind already checked)."""

    def puzzle_label(self, kind: str, turns: int) -> str:
        """The kind part of generated file names (``closing2``)."""

    def make_puzzle(self, seed: int, kind: str, turns: int) -> Made | None:
        """Make one candidate puzzle from ``seed``; None when rejected (runs in workers)."""

    # ---- the benchmark runner
    def case_turns(self, kind: str, turns: int | None) -> int | None:
        """A suite case's ``turns`` after defaults; ValueError(message) when invalid."""

    def check_recipe(self, kind: str, recipe: Mapping[str, Any]) -> None:
        """InputError for a suite case's ``recipe`` this game does not take (an unknown
        key, a number out of range); the suite is read before any case runs."""

    def bench_load(self, case: Case, root: Path) -> Any:
        """The case's position."""

    def bench_size(self, position: Any) -> tuple[int, int]:
        """``(cells, players)`` of a case position."""

    def bench_horizon(self, position: Any, case: Case) -> int | None:
        """Turns or draw budget of the case (None: unlimited)."""

    def bench_solve(self, position: Any, case: Case, params: SolveParams) -> Solved:
        """The CP-SAT optimum, replayed through the engine."""

    def bench_exhaustive(self, position: Any, case: Case, cap: float) -> tuple[int, ...]:
        """The engine's exhaustive optimum; TimeoutError past ``cap`` seconds."""

    def horizon_text(self, horizon: int | None) -> str:
        """``1 turn``, ``8 draws``, ``any draws``."""

    # ---- game records (``play --record``, ``apply``, ``review``): games whose
    # :attr:`options` offer ``apply``
    def load_position(self, path: Path) -> Any:
        """The position in the position file ``path``, checked as ``show`` checks it."""

    def inline_position(self, table: Mapping[str, Any], text: str, path: Path) -> Any:
        """The position a record writes inline (its ``[position]`` table; ``text`` is the
        record's, to place errors)."""

    def to_move(self, position: Any) -> str:
        """The player to move."""

    def game_over(self, position: Any) -> str | None:
        """Why the game is over in ``position`` (``the stone supply is empty``), or None."""

    def parse_turn(self, position: Any, text: str) -> Any:
        """A turn in the game's notation; InputError (its place: the action) when malformed."""

    def format_turn(self, position: Any, turn: Any) -> str:
        """A turn in canonical notation."""

    def play_turn(self, position: Any, turn: Any) -> Any:
        """The position after the player to move plays ``turn``, the next player to move;
        InputError saying why when the turn is illegal."""
