"""What a Terra Nova solve answers, and the pieces of it every solve path shares.

:class:`Answer` is the result of :func:`solver.terra_nova.solve.solve_puzzle`; the
functions build it from a CP-SAT solution (:func:`model_answer`) or, when the time
runs out before CP-SAT finds a line, from the engine's first legal line
(:func:`first_line`, :func:`time_up`). Both :mod:`solver.terra_nova.solve` and
:mod:`solver.terra_nova.deep` use them; the answer is replayed by the engine after
either.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat import SolveParams
from solver.cpsat.harness import UNSOLVED
from solver.errors import BuildTimeout, NoAnswer
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.model.geometry import Geometry
from solver.terra_nova.model.turn_model import TurnModel
from solver.terra_nova.notation import Turn, format_turn
from solver.terra_nova.position import Position

Progress = Callable[[str], None]


@dataclass
class Answer:
    """A solved puzzle: the line, its value and how sure we are."""

    kind: str
    """``best-turn``, ``max-points`` or ``min-turns``."""
    line: list[Turn]
    value: int
    """Points the player to move gains over the line."""
    others: int
    actions: int
    turn_points: list[int]
    turn_others: list[int]
    optimal: bool
    status: str
    wall_s: float
    build_s: float
    final: Position
    stats: dict[str, Any] = field(default_factory=dict)
    bound: int | None = None
    """Proven upper bound on :attr:`value` (own points; equal to it when proven
    optimal); None for min-turns."""
    fallback: bool = False
    """The time ran out before CP-SAT found a line: :attr:`line` is the engine's first
    legal one (:func:`time_up`), only shown so there is an answer."""

    @property
    def key(self) -> tuple[int, ...]:
        """The full objective tuple (as the exhaustive search reports it)."""
        if self.kind == "best-turn":
            return (self.value, self.others)
        if self.kind == "max-points":
            return (self.value, self.others, self.actions)
        return (len(self.line), self.actions)

    def line_text(self, position: Position) -> list[str]:
        """The line as turn strings."""
        return [format_turn(t, position.grid) for t in self.line]


class ClosingPath:
    """One of the solve paths of a max-points closing (:mod:`solver.terra_nova.deep`,
    :mod:`solver.terra_nova.halves`): the position, the horizon, the solve's parameters
    (its deadline started), who hears of progress, and when the command began."""

    def __init__(self, position: Position, horizon: int, params: SolveParams,
                 progress: Progress | None, start: float) -> None:
        self.position = position
        self.horizon = horizon
        self.params = params
        self.progress = progress
        self.start = start


def note(progress: Progress | None, text: str) -> None:
    """Tell ``progress`` (the live display) what the solve is doing now, if anyone listens."""
    if progress:
        progress(text)


def first_line(position: Position, turns: int, params: SolveParams) -> list[Turn]:
    """A legal line to hint the search with: the engine's first legal turn, each turn.

    Only a starting point — CP-SAT still proves optimality on its own model — so a
    time-limited solve always has an answer to print.
    """
    line: list[Turn] = []
    current = position
    for _ in range(turns):
        params.check()
        turn = next(iter(engine.legal_turns(current)), ())
        line.append(turn)
        current = engine.apply_turn(current, turn, advance=False).position
    return line


def unbuilt(horizon: int, params: SolveParams) -> BuildTimeout:
    """The error of a horizon whose model could not be built within the time limit
    (bad input: the request cannot be answered in that time, so exit 2)."""
    return BuildTimeout.of(f"{horizon}-turn model", params.time_limit,
                           "give more --time-limit or fewer --turns")


def candidates_in_time(position: Position, horizon: int, params: SolveParams,
                       progress: Progress | None, check: Callable[[], None] | None = None,
                       largest: int | None = None) -> tuple[list[Turn], Geometry]:
    """The engine's first line (the hint) and the model's geometry with its candidate
    regions found, both under the command's deadline; :class:`BuildTimeout` (via
    :func:`unbuilt`) when they are not done within it. ``check`` (default the
    deadline's) is what the candidate search calls to be stopped; ``largest``: list
    only the candidates of at most that many boundary cells (:attr:`Geometry.largest`)."""
    note(progress, "finding candidate regions")
    try:
        first = first_line(position, horizon, params)
        geo = Geometry(position, horizon, check=check or params.check, largest=largest)
        geo.candidates  # noqa: B018 -- the search, under the deadline
    except NoAnswer:
        raise unbuilt(horizon, params) from None
    return first, geo


def time_up(position: Position, kind: str, line: list[Turn], start: float,
            build: float, stats: Mapping[str, Any] | None = None) -> Answer:
    """The time limit ran out after the model was built but before CP-SAT found a line:
    the engine's first legal line (:func:`first_line`), not proven optimal, is the best
    answer there is (its status is CP-SAT's, ``unknown``). Its points come from the
    engine; the solve bridge's replay checks them again. ``stats``: the solve's that
    found nothing (default: none ran)."""
    outcome = engine.play_line(position, line)
    wall = time.perf_counter() - start
    return Answer(kind, line, outcome.points, outcome.others, outcome.actions,
                  list(outcome.turn_points), list(outcome.turn_others), False,
                  "unknown", wall, build, position, dict(UNSOLVED if stats is None else stats),
                  fallback=True)


def model_answer(position: Position, kind: str, tm: TurnModel, solver: cp_model.CpSolver,
                 result, start: float, build: float) -> Answer:
    """The answer CP-SAT's solution in ``solver`` gives: ``tm``'s line and its values."""
    line = tm.line(solver)
    return Answer(
        kind=kind, line=line,
        value=int(solver.value(tm.own_points())),
        others=int(solver.value(tm.other_points())),
        actions=int(solver.value(tm.actions())),
        turn_points=[int(solver.value(tm.own_points(t))) for t in range(tm.turns)],
        turn_others=[int(solver.value(tm.other_points(t))) for t in range(tm.turns)],
        optimal=result.optimal and not result.interrupted,
        status=result.status, wall_s=time.perf_counter() - start, build_s=build,
        final=position, stats=dict(result.stats, candidates=len(tm.candidates)),
    )
