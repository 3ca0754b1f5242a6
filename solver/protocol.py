"""What games and drivers exchange: the ``Game`` protocol and its value types.

A game package (``solver/<game>/``) provides one object implementing
:class:`Game` in its ``game.py``; the registry (:mod:`solver.games`) lists
them, and the drivers (the CLI, the benchmark runner, the puzzle generator)
talk to games only through this protocol and these types. Nothing here knows
any particular game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
    time_limit: float | None = None
    """CP-SAT seconds for this case; None: the suite's (``--time-limit`` holds for all)."""


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


@dataclass(frozen=True)
class ReviewTask:
    """One piece of a review's solving, run by an executor: ``fn(*args)`` returns a
    picklable result. ``fn`` is a module-level function, ``args`` carry positions and
    unstarted :class:`~solver.cpsat.SolveParams` (the task starts its own clock)."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Best:
    """A solve's answer as a review shows it: the line in notation, its value (own points
    first; a game's figures in its order), and how sure CP-SAT is."""

    line: tuple[str, ...]
    value: tuple[int, ...]
    proven: bool
    bound: int | None
    """Proven upper bound on ``value[0]`` (equal to it when proven)."""
    player: str = ""
    """Who would play it."""
    note: str = ""
    """Why there is no answer (an empty :attr:`line`): the model does not cover the
    position, or was not built in time."""


@dataclass(frozen=True)
class TurnReview:
    """One turn of a record against the best turn there (a game reviewed turn by turn)."""

    number: int
    player: str
    played: str
    played_value: tuple[int, ...]
    """What the turn played gained (engine), own points first."""
    score: int
    """The player's score after the turn played."""
    best: Best | None
    """The best turn in the position before it; None when not reviewed (interrupted)."""
    threat_after_played: Best | None = None
    """The next player's best turn after the turn played (None: the game is over, or
    not reviewed)."""
    threat_after_best: Best | None = None
    """The next player's best turn after :attr:`best`."""

    @property
    def loss(self) -> int | None:
        """Own points the turn played gained less than the best turn (never below 0);
        None when not reviewed or no turn was found in time."""
        if self.best is None or not self.best.value:
            return None
        return max(0, self.best.value[0] - self.played_value[0])


@dataclass(frozen=True)
class RoundReview:
    """One player's round of a record against the best plan from the round's start (a
    game reviewed by rounds)."""

    round: int
    player: str
    puzzle: str
    """The puzzle the plan answers (``best-round``, ``last-round``)."""
    objective: str
    played: tuple[str, ...]
    """The player's turns of the round, in notation."""
    played_value: Mapping[str, int]
    """What the round played is worth under :attr:`objective`, ``value`` first."""
    score: int
    """The player's score (VP) after the round played."""
    best: Best | None
    """The plan from the round's start; None when not reviewed (interrupted)."""
    figures: Mapping[str, int] = field(default_factory=dict)
    """The plan's figures by name (``value`` first), as ``solve --json`` names them."""
    in_total: bool = True
    """Whether its loss counts in the player's total (points; an objective in another
    unit does not)."""

    @property
    def loss(self) -> int | None:
        """The objective's value the round played fell short of the plan: below 0 when the
        others' turns helped the round played (the plan assumes they stand still); at
        least 0 when the plan is not proven (the round played is then a better line than
        the one found); None when not reviewed."""
        if self.best is None or not self.best.value:
            return None
        short = self.best.value[0] - self.played_value["value"]
        return short if self.best.proven else max(0, short)


@dataclass
class Review:
    """A record reviewed: by turns, by rounds, or both."""

    game: str
    record: str
    turns: list[TurnReview] = field(default_factory=list)
    rounds: list[RoundReview] = field(default_factory=list)
    players: tuple[str, ...] = ()
    unit: str = "turn"
    """What the game reviews one by one: ``turn`` (:attr:`turns`) or ``round``
    (:attr:`rounds`)."""


@dataclass(frozen=True)
class Replayed:
    """A solution of a :class:`PuzzleModel` as the engine replayed it."""

    value: tuple[int, ...]
    """The full objective tuple (as :attr:`Solved.value`)."""
    line: list[str]
    """The answer in the game's notation (turns, draws)."""


@dataclass
class PuzzleModel:
    """The one CP-SAT model of a puzzle, exactly as the game's ``solve`` builds it, with
    what ``boardsat export`` and ``bench --solvers`` need to pose it to any solver."""

    model: Any
    """The ``cp_model.CpModel``, its objective set (maximised), hinted as ``solve`` hints it."""
    settings: Mapping[str, Any]
    """The CP-SAT parameters ``solve`` sets on it (``SolveParams.settings``)."""
    workers: int | None
    """At most this many CP-SAT workers (None: as many as ``--workers`` asks)."""
    puzzle: str
    """The puzzle in words: ``closing over 2 turns``."""
    goals: tuple[str, ...]
    """The objective's goals in priority order, each with its sense:
    ``("own points (max)", "others' points (min)")``."""
    weights: tuple[int, ...]
    """Each goal's weight in the objective (``objective = sum(±weight * goal)``, the
    leading goal maximised); the leading goal is ``ceil(objective / weights[0])``."""
    answer: str
    """How the answer reads from the variables (their names in the model)."""
    replay: Callable[[Any, bool], Replayed]
    """``replay(solver, optimal)``: the solution ``solver`` holds (a ``CpSolver`` after a
    solve of :attr:`model`) read as the game's answer and replayed by the engine;
    ``EngineDisagreement`` when the engine refuses it or values it otherwise than the
    model (below it; at all when ``optimal``)."""
    note: str = ""
    """How ``solve`` goes beyond this model on this puzzle (empty: it solves exactly this)."""


@dataclass(frozen=True)
class Shown:
    """What ``solve`` shows besides the one answer (the same options in every game)."""

    top: int | None = None
    """``--top N``: the N best answers that differ on the answer itself, each proven in
    its rank."""
    hint: bool = False
    """``--hint``: only the answer's first action and what the answer is worth."""
    stats: bool = False
    """``--stats``: the solver's statistics under the answer (``--json`` always has them)."""


RATE_LIMIT = 1000
"""``rate`` counts the answers better than a given turn exactly up to this many; beyond,
it says "more than" this."""


def turns_of(words: Sequence[str]) -> list[str]:
    """The turns of an answer typed as words (``rate``'s arguments): joined by spaces,
    the turns separated by ``/`` (``c4-f4 #d5 / e5-e7 #e8``)."""
    return [turn.strip() for turn in " ".join(words).split("/")]


@dataclass(frozen=True)
class Played:
    """An answer given in notation, replayed by the engine: what it is worth and why.

    The one way an answer played is valued: ``rate`` takes its value from it, and so
    does a review for the turn played (games whose review measures a single answer).
    """

    value: tuple[int, ...]
    """The game's figures in its order, the value first (Terra Nova: own points, the
    others' gain; Rift Valley: the score; KOSMOS: the puzzle's value)."""
    explain: dict[str, Any]
    """The answer explained (the ``explain`` object of ``--json``)."""
    reasons: tuple[str, ...]
    """The same in words, one sentence each."""


@dataclass(frozen=True)
class Rating:
    """How good a given turn (or line, or set of draws) is: ``rate`` and game reviews.

    The value is the engine's; the better answers are counted by CP-SAT (each found,
    forbidden, and the count proven when no other is left); the best answer is the
    solve's, replayed by the engine.
    """

    value: int
    """What the given answer is worth (the engine's replay)."""
    better: int
    """Distinct answers worth strictly more, counted (at most :data:`RATE_LIMIT` + 1)."""
    exact: bool
    """True when :attr:`better` is proven exact (CP-SAT found no other)."""
    beyond: bool
    """True when more than :data:`RATE_LIMIT` answers are worth more."""
    best_value: int
    best_line: tuple[str, ...]
    best_optimal: bool
    """True when the best answer is proven optimal."""
    explain: dict[str, Any]
    """The given answer explained (the ``explain`` object of ``--json``)."""
    reasons: tuple[str, ...] = ()
    """The same in words, one sentence each."""
    stopped: str | None = None
    """``"interrupted"`` or ``"time limit"`` when counting ended before a proof."""
    separator: str = " / "
    """What joins the steps of :attr:`best_line` in words (turns, or ``, `` for draws)."""

    def said(self, yours: str = "your answer") -> str:
        """``your turn scores 6; 3 answers score more; the best scores 29 (b1-c1 #b2)``
        (``yours``: what the answer rated is called)."""
        if self.beyond:
            more = f"more than {RATE_LIMIT:,} answers score more"
        else:
            many = f"{self.better:,} answer{'s score' if self.better != 1 else ' scores'} more"
            more = many if self.exact else (f"at least {many} (counting stopped: "
                                            f"{self.stopped or 'not proven'})")
        top = "the best scores" if self.best_optimal else "the best found scores"
        best = self.separator.join(self.best_line)
        return f"{yours} scores {self.value}; {more}; {top} {self.best_value} ({best})"

    def as_json(self) -> dict[str, Any]:
        """The fields every game's ``rate --json`` prints (docs/json.md)."""
        return {"value": self.value, "better": self.better, "exact": self.exact,
                "beyond": self.beyond, "limit": RATE_LIMIT, "stopped": self.stopped,
                "best": {"value": self.best_value, "line": list(self.best_line),
                         "optimal": self.best_optimal},
                "explain": self.explain}


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
    horizon_unit: str
    """What a benchmark horizon counts: ``"turns"`` or ``"draws"``."""
    demo: str
    """A small generated puzzle (its first line names its candidate seed), relative to
    the positions folder (:data:`solver.paths.POSITIONS_DIR`): what examples and the
    conformance test use."""

    # Read-only (properties here), so that a game may hold them as a plain tuple or dict.
    @property
    def kinds(self) -> tuple[str, ...]:
        """Puzzle kinds for ``generate`` and ``bench``; the first is the default."""

    @property
    def options(self) -> Mapping[str, frozenset[str]]:
        """Command → the game-specific options it accepts; a command absent here is not
        offered."""

    @property
    def plot_colours(self) -> Mapping[str, str]:
        """Puzzle kind → matplotlib colour of the benchmark plot."""

    # ---- position files
    def read_position(self, path: Path) -> Any:
        """The position in ``path`` (InputError naming the file and place when bad)."""

    def write_position(self, position: Any) -> str:
        """The canonical file text of ``position``; reading it gives ``position`` back."""

    # ---- commands (the CLI); each prints on ``screen`` and returns the exit status
    def show(self, path: Path, screen: Screen) -> int:
        """Draw the position in ``path``."""

    def solve(self, path: Path, options: Options, params: SolveParams, as_json: bool,
              screen: Screen, show: Shown) -> int:
        """Solve the puzzle in ``path``; the answer is replayed by the engine and
        explained from the engine's replay (``show``: the answers asked for)."""

    def verify(self, path: Path, options: Options, as_json: bool, screen: Screen) -> int:
        """Check the file's ``[solution]`` with the engine; 1 when it does not hold."""

    def rate(self, path: Path, texts: Sequence[str], options: Options, params: SolveParams,
             as_json: bool, screen: Screen, show: Shown) -> int:
        """``rate``: print :meth:`rating` of the answer ``texts`` to the puzzle in ``path``."""

    # ---- answers judged and explained (``rate``; game reviews)
    def played(self, position: Any, texts: Sequence[str]) -> Played:
        """The answer ``texts`` replayed by the engine: its value and its explanation
        (the ``explain`` object of ``solve --json``, docs/json.md); InputError when it
        is malformed or illegal."""

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

    # ---- review (games whose :attr:`options` offer ``review``)
    def review_tasks(self, record: GameRecord, params: SolveParams) -> list[ReviewTask]:
        """The solves reviewing ``record`` needs, independent of each other."""

    def review_result(self, record: GameRecord, results: Sequence[Any | None]) -> Review:
        """The review from the tasks' results in task order (None: a task not run)."""

    def review_pictures(self, record: GameRecord, row: TurnReview | RoundReview
                        ) -> list[tuple[Scene, str]]:
        """A reviewed turn (round) drawn as ``sheet``'s answer pages draw answers: the
        turn played and the best one, each a scene with its heading."""

    # ---- export and other solvers (``boardsat export``, ``bench --solvers``)
    def export_case(self, path: Path, options: Options) -> Case:
        """The puzzle of the file ``path`` (its ``[puzzle]``, or the ``export`` options:
        ``turns``, ``draws``) as a case; InputError for a file without one."""

    def export_options(self, case: Case) -> dict[str, Any]:
        """The ``export`` options that pose ``case``'s puzzle on its position file (the
        inverse of :meth:`export_case`, for the headers of an instance set)."""

    def puzzle_model(self, position: Any, case: Case, params: SolveParams) -> PuzzleModel:
        """The case's one CP-SAT model (:class:`PuzzleModel`), built within ``params``'
        deadline; PuzzleError for a puzzle ``solve`` does not pose as one model."""

