"""Terra Nova's N best answers (``solve --top N``) and how good a given line is (``rate``).

An *answer* here is where the stones go: the stones on the board after the line.
Two lines that place the same stones are one answer (the better of them counts);
lines that differ only in where a piece ends up, or in the order of their actions,
are not told apart. Both questions are CP-SAT proofs on the full
:class:`~solver.terra_nova.model.turn_model.TurnModel` (no short last move):
:func:`top_answers` solves with the rules' order of lines, forbids the stones found
and solves again (:func:`solver.cpsat.ranking.best_answers`); :func:`rate_line`
counts the answers whose own points beat the given line's
(:func:`solver.cpsat.ranking.count_answers`). Every answer is replayed by the engine
and explained from that replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat import SolveParams
from solver.cpsat.ranking import Ranking, best_answers, count_answers
from solver.errors import EngineDisagreement, InputError, NoAnswer, PuzzleError
from solver.protocol import RATE_LIMIT, Rating
from solver.terra_nova import solve as library
from solver.terra_nova.answers import unbuilt
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.explain import Explanation, explain_line
from solver.terra_nova.model.turn_model import TurnModel
from solver.terra_nova.notation import Turn, format_turn, parse_line
from solver.terra_nova.position import Position
from solver.terra_nova.settings import BEST_TURN_WORKERS, line_objective, settings

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Ranked:
    """One answer of a ranking, replayed by the engine."""

    rank: int
    proven: bool
    """True when CP-SAT proved it the best of the answers not ranked before it."""
    line: tuple[Turn, ...]
    value: int
    others: int
    actions: int
    explanation: Explanation

    @property
    def key(self) -> tuple[int, int, int]:
        """The rules' order (larger is better): points, fewer to others, fewer actions."""
        return (self.value, -self.others, -self.actions)


def ranked_kind(position: Position, turns: int | None) -> tuple[str, int]:
    """``(kind, turns)`` of the puzzle ranked or rated; PuzzleError for min-turns, where a
    line is judged by its turns, not its points."""
    kind, horizon, _ = library.puzzle_of(position, turns)
    if kind == "min-turns":
        raise PuzzleError("--top and rate are for best-turn and max-points puzzles; this one "
                          "asks for the fewest turns to a target", key="puzzle.objective")
    return kind, horizon


def _model(position: Position, horizon: int, params: SolveParams) -> TurnModel:
    try:
        return TurnModel(position, horizon, check=params.check)
    except NoAnswer:
        raise unbuilt(horizon, params) from None


def _stones(tm: TurnModel) -> list[Any]:
    """The answer variables: a stone on each cell that may get one, after the line."""
    end = tm.steps
    return [lit for x in tm.stone_cells
            if (lit := tm.stone[end][x]) is not True and lit is not False]


def _replayed(position: Position, tm: TurnModel, solver: cp_model.CpSolver
              ) -> tuple[list[Turn], engine.LineOutcome]:
    """The model's line played by the engine; EngineDisagreement when it differs."""
    line = tm.line(solver)
    claim = (int(solver.value(tm.own_points())), int(solver.value(tm.other_points())),
             int(solver.value(tm.actions())))
    text = " | ".join(format_turn(t, position.grid) for t in line)
    try:
        outcome = engine.play_line(position, line)
    except InputError as exc:
        raise EngineDisagreement(f"the engine refuses the model's line '{text}': "
                                 f"{exc}") from None
    engine_side = (outcome.points, outcome.others, outcome.actions)
    if engine_side != claim:
        raise EngineDisagreement(f"line '{text}': the model says (points, others, actions) "
                                 f"{claim}, the engine {engine_side}")
    return line, outcome


def top_answers(position: Position, turns: int | None, count: int,
                params: SolveParams | None = None, progress: Progress | None = None
                ) -> Ranking[Ranked]:
    """The ``count`` best answers of the position's puzzle (or an N-turn closing), best
    first, each placing other stones than those before it."""
    params = (params or SolveParams()).started()
    engine.validate(position)
    kind, horizon = ranked_kind(position, turns)
    if progress:
        progress("building the model")
    tm = _model(position, horizon, params)
    objective = line_objective(tm, horizon, actions=kind != "best-turn")
    tm.model.maximize(objective.expr)
    run = params.with_settings(**settings(kind, cells=position.grid.size))
    if kind == "best-turn":
        run = run.with_workers_at_most(BEST_TURN_WORKERS)

    def read(solver: cp_model.CpSolver, proven: bool) -> Ranked:
        line, outcome = _replayed(position, tm, solver)
        return Ranked(0, False, tuple(line), outcome.points, outcome.others, outcome.actions,
                      explain_line(position, line))

    def solving(rank: int) -> None:
        if progress:
            progress(f"solving for answer {rank} of {count}")

    ranking = best_answers(tm.model, _stones(tm), run, count, read, solving)
    ranking.answers = [Ranked(k, proven, a.line, a.value, a.others, a.actions, a.explanation)
                       for k, (a, proven) in enumerate(zip(ranking.answers, ranking.proven,
                                                           strict=True), start=1)]
    return ranking


def rate_line(position: Position, texts: Sequence[str], params: SolveParams | None = None,
              progress: Progress | None = None) -> Rating:
    """How good the line ``texts`` (one turn per puzzle turn) is: its points (engine), how
    many answers gain more (CP-SAT, up to :data:`~solver.protocol.RATE_LIMIT` + 1), and
    the best answer (the solve's, replayed by the engine)."""
    params = (params or SolveParams()).started()
    engine.validate(position)
    kind, horizon = ranked_kind(position, None)
    line = parse_line(list(texts), position.grid)
    if len(line) != horizon:
        raise InputError(f"the puzzle has {horizon} turn(s), the line to rate {len(line)}")
    played = explain_line(position, line).played()
    value = played.value[0]
    if progress:
        progress("solving for the best answer")
    best = library.solve_puzzle(position, None, params, progress=progress)
    better, exact, beyond, stopped = 0, True, False, None
    if best.value > value or not best.optimal:
        tm = _model(position, horizon, params)
        tm.model.add(tm.own_points() >= value + 1)

        def counted(found: int) -> None:
            if progress:
                progress(f"counting the answers that gain more: {found:,} so far")

        count = count_answers(tm.model, _stones(tm), params.with_settings(**settings()),
                              RATE_LIMIT, counted)
        better, beyond, stopped = len(count.found), count.beyond, count.stopped
        exact = count.complete
    return Rating(value, better, exact, beyond, best.value,
                  tuple(best.line_text(position)), best.optimal, played.explain,
                  played.reasons, stopped)
