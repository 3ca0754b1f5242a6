"""Terra Nova (KOSMOS)'s N best answers (``solve --top N``) and how good a line is (``rate``).

An *answer* is a plan, as for the generator's uniqueness
(:func:`~solver.terra_nova_kosmos.model.last_round.plan`): how often each action is
taken, the final buildings, habitable hexes, bridges, palace sides and town tiles
(best-round: and the tile taken on passing; last-rounds: each round's plan and the
tile taken on the first pass,
:func:`~solver.terra_nova_kosmos.model.last_rounds.rounds_plan`); the order of
independent turns is not part of it. Answers are ranked as the puzzle ranks lines (value, then its
tie-breaks). Both questions are CP-SAT proofs on the puzzle's model:
:func:`top_answers` forbids each plan found and solves again, :func:`rate_line` counts
the plans worth more than the given line. Every answer is replayed and explained by
the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat import SolveParams
from solver.cpsat.ranking import Ranking, best_answers, count_answers
from solver.errors import BuildTimeout, NoAnswer, PuzzleError
from solver.protocol import RATE_LIMIT, Rating
from solver.terra_nova_kosmos import solve as bridge
from solver.terra_nova_kosmos.engine import bestround, lastrounds
from solver.terra_nova_kosmos.engine.lastround import check_puzzle
from solver.terra_nova_kosmos.engine.validate import validate
from solver.terra_nova_kosmos.explain import Explanation, explain_line
from solver.terra_nova_kosmos.model.best_round import best_plan, build_best_round, read_best_line
from solver.terra_nova_kosmos.model.last_round import (
    Unsupported,
    build_last_round,
    plan,
    predicted,
    read_line,
)
from solver.terra_nova_kosmos.model.last_rounds import (
    build_last_rounds,
    predicted_rounds,
    read_rounds_line,
    rounds_plan,
)
from solver.terra_nova_kosmos.notation import Turn, format_turn, parse_line
from solver.terra_nova_kosmos.position import Position

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Ranked:
    """One answer of a ranking, replayed and explained by the engine."""

    rank: int
    proven: bool
    line: tuple[Turn, ...]
    result: Any
    """The engine's result (:class:`~solver.terra_nova_kosmos.engine.lastround.Result` or
    the best-round one): ``value`` and the tie-breaks, ``key`` their order."""
    explanation: Explanation


@dataclass
class _Built:
    """The puzzle's model, what its answer is made of and how to read a line back."""

    model: cp_model.CpModel
    objective: Any
    value: Any
    answer: list[Any]
    read: Callable[[cp_model.CpSolver, bool], tuple[list[Turn], Any]]


def _kind(position: Position) -> str:
    """The position's puzzle kind (``last-round`` without a ``[puzzle]``)."""
    return "last-round" if position.puzzle is None else position.puzzle.kind


def _check_puzzle(position: Position) -> None:
    """PuzzleError unless the position poses its puzzle (the engine's check)."""
    {"best-round": bestround.check_puzzle, "last-rounds": lastrounds.check_puzzle}.get(
        _kind(position), check_puzzle)(position)


def _build(position: Position, params: SolveParams) -> _Built:
    """The puzzle's model (last-round, best-round or last-rounds), built under the
    command's clock."""
    _check_puzzle(position)
    try:
        if _kind(position) == "last-rounds":
            rounds = build_last_rounds(position, params.check)

            def read_rounds(solver: cp_model.CpSolver, proven: bool
                            ) -> tuple[list[Turn], Any]:
                line = read_rounds_line(rounds, solver)
                return line, bridge.replayed(position, line, predicted_rounds(rounds, solver),
                                             proven, lastrounds.evaluate)

            return _Built(rounds.model, rounds.lr.objective, rounds.lr.value,
                          rounds_plan(rounds), read_rounds)
        if _kind(position) == "best-round":
            br = build_best_round(position, bestround.objective_of(position), params.check)

            def read_best(solver: cp_model.CpSolver, proven: bool) -> tuple[list[Turn], Any]:
                line = read_best_line(br, solver)
                return line, bridge.best_replayed(position, line, bridge.best_claim(br, solver),
                                                  proven)

            return _Built(br.model, br.objective, br.value, best_plan(br), read_best)
        lr = build_last_round(position, params.check)

        def read_last(solver: cp_model.CpSolver, proven: bool) -> tuple[list[Turn], Any]:
            line = read_line(lr, solver)
            return line, bridge.replayed(position, line, predicted(lr, solver), proven)

        return _Built(lr.model, lr.objective, lr.value, plan(lr), read_last)
    except Unsupported as exc:
        raise PuzzleError(f"the CP-SAT model does not cover this position: {exc}") from None
    except NoAnswer:
        raise BuildTimeout.of("model", params.time_limit, "give more --time-limit") from None


def ranked(position: Position) -> None:
    """PuzzleError unless the position poses a puzzle ``--top`` and ``rate`` can rank
    (what the engine checks before it replays a line)."""
    validate(position)
    _check_puzzle(position)


def top_answers(position: Position, count: int, params: SolveParams | None = None,
                progress: Progress | None = None) -> Ranking[Ranked]:
    """The ``count`` best plans of the position's puzzle (last-round, best-round or
    last-rounds: a plan there is each round's and the tile taken on the first pass)."""
    params = (params or SolveParams()).started()
    ranked(position)
    if progress:
        progress("building the model")
    built = _build(position, params)
    built.model.maximize(built.objective.expr)

    def read(solver: cp_model.CpSolver, proven: bool) -> Ranked:
        line, result = built.read(solver, proven)
        return Ranked(0, proven, tuple(line), result, explain_line(position, line))

    def solving(rank: int) -> None:
        if progress:
            progress(f"solving for answer {rank} of {count}")

    run = params.with_settings(**bridge.settings()).with_workers_at_most(bridge.SEARCH_WORKERS)
    ranking = best_answers(built.model, built.answer, run, count, read, solving)
    ranking.answers = [Ranked(k, a.proven, a.line, a.result, a.explanation)
                       for k, a in enumerate(ranking.answers, start=1)]
    return ranking


def rate_line(position: Position, texts: Sequence[str], params: SolveParams | None = None,
              progress: Progress | None = None) -> Rating:
    """How good the line ``texts`` (the player's turns up to the pass) is: its value
    (engine), how many plans are worth more (CP-SAT, up to
    :data:`~solver.protocol.RATE_LIMIT` + 1), the best line (the solve's)."""
    params = (params or SolveParams()).started()
    ranked(position)
    line = parse_line(list(texts), position.grid)
    played = explain_line(position, line).played()
    value = played.value[0]
    if progress:
        progress("solving for the best answer")
    best = bridge.SOLVERS[_kind(position)](position, params)
    better, exact, beyond, stopped = 0, True, False, None
    if best.result.value > value or not best.optimal:
        built = _build(position, params)
        built.model.clear_objective()
        built.model.add(built.value >= value + 1)

        def counted(found: int) -> None:
            if progress:
                progress(f"counting the answers worth more: {found:,} so far")

        count = count_answers(built.model, built.answer,
                              params.with_settings(**bridge.settings()), RATE_LIMIT, counted)
        better, beyond, stopped, exact = (len(count.found), count.beyond, count.stopped,
                                          count.complete)
    return Rating(value, better, exact, beyond, best.result.value,
                  tuple(format_turn(t, position.grid) for t in best.line), best.optimal,
                  played.explain, played.reasons, stopped)
