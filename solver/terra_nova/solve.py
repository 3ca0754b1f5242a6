"""Solving Terra Nova puzzles with the CP-SAT model, every answer replayed by the engine.

``solve_puzzle`` poses best-turn or closing puzzles to
:class:`~solver.terra_nova.model.turn_model.TurnModel`, reads the line back and
replays it through the reference engine; any difference in legality or points
raises :class:`~solver.errors.EngineDisagreement`. Closings of 3+ turns on large
boards take :mod:`solver.terra_nova.deep`'s path (a restricted model and a
relaxation), 2-turn closings there with two or more workers
:mod:`solver.terra_nova.halves`' (two halves of the lines, a thread each), before the
same replay.
``verify_solution`` checks a file's ``[solution]`` with the engine alone, and
``perft_via_model`` counts legal turns by enumerating the model's solutions.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.cpsat import (
    Interrupted,
    SolveParams,
    Stop,
    enumerate_projections,
    search_seconds_left,
    solve,
    startup_seconds,
)
from solver.cpsat.objectives import Lexicographic
from solver.errors import EngineDisagreement, InputError, NoAnswer, PuzzleError
from solver.terra_nova import deep, halves
from solver.terra_nova.answers import (
    Answer,
    Progress,
    first_line,
    model_answer,
    note,
    time_up,
    unbuilt,
)
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.model.geometry import Geometry, most_points_ever
from solver.terra_nova.model.relaxation import Relaxation
from solver.terra_nova.model.turn_model import TurnModel
from solver.terra_nova.notation import Turn, parse_line
from solver.terra_nova.position import MAX_PUZZLE_TURNS, Position
from solver.terra_nova.settings import (
    BEST_TURN_WORKERS,
    RELAXATION_SETTINGS,
    add_strategy,
    line_objective,
    settings,
)

MIN_TURNS_DEFAULT_CAP = 6
"""Horizon searched by a min-turns puzzle whose file gives no ``turns``."""

MIN_TURNS_RELAXATION_SHARE = 0.5
"""Part of the time left a min-turns horizon's relaxation may use (:func:`_relaxed_short`).
It stops early when a relaxed solution reaches the target, so it takes this much only
on its way to a proof, which the full model is far slower to give: a 3-turn target out
of reach on the 18-cell closing-min-turns puzzle is proven in 0.1-0.8 det. s by the
relaxation, not in 30 s by the full model."""

TARGET_KEY = "puzzle.target"
"""The file key a min-turns target out of reach is reported on."""

def puzzle_of(position: Position, turns: int | None) -> tuple[str, int, int | None]:
    """``(kind, horizon, target)``: ``--turns`` wins over the file's [puzzle]; default best-turn."""
    if turns is not None:
        if turns > MAX_PUZZLE_TURNS:
            raise PuzzleError(f"--turns {turns}: at most {MAX_PUZZLE_TURNS} turns are solved")
        return "max-points", turns, None
    puzzle = position.puzzle
    if puzzle is None or puzzle.kind == "best-turn":
        return "best-turn", 1, None
    if puzzle.objective == "min-turns":
        return "min-turns", puzzle.turns or MIN_TURNS_DEFAULT_CAP, puzzle.target
    return "max-points", puzzle.turns or 1, None


def solve_puzzle(position: Position, turns: int | None = None,
                 params: SolveParams | None = None, *,
                 progress: Progress | None = None) -> Answer:
    """Solve the position's puzzle (or a max-points closing over ``turns`` turns).

    Raises PuzzleError when a min-turns target cannot be reached within the
    horizon, EngineDisagreement when the engine does not reproduce the answer,
    Interrupted on Ctrl-C before any line. The time limit counts from
    ``params.started()`` and covers building the model: a model not built within it
    raises BuildTimeout (the horizon cannot be answered in that time); when it runs
    out after the build but before CP-SAT finds a line, the engine's first legal line
    is the answer (not proven optimal); a min-turns puzzle without a line reaching
    its target raises NoAnswer.
    """
    params = (params or SolveParams()).started()
    engine.validate(position)
    kind, horizon, target = puzzle_of(position, turns)
    start = time.perf_counter()
    if kind == "min-turns":
        answer = _min_turns(position, horizon, target, params, progress, start)
    elif deep.applies(position, kind, horizon):
        answer = deep.maximise(position, horizon, params, progress, start)
    elif halves.applies(position, kind, horizon, params):
        answer = (halves.maximise(position, horizon, params, progress, start)
                  or _maximise(position, kind, horizon, params, progress, start))
    else:
        answer = _maximise(position, kind, horizon, params, progress, start)
    replay(position, answer)
    return answer


@dataclass
class LineModel:
    """The one CP-SAT model of a best-turn or max-points puzzle, as :func:`line_model`
    poses it."""

    tm: TurnModel
    objective: Lexicographic
    settings: dict[str, Any]
    """The CP-SAT parameters it is solved with (:func:`~solver.terra_nova.settings.settings`)."""
    workers: int | None
    """At most this many CP-SAT workers (None: as many as asked)."""
    first: list[Turn]
    """The engine's first legal line, the model's hint."""


def line_model(position: Position, kind: str, horizon: int, params: SolveParams) -> LineModel:
    """The model :func:`solve_puzzle` solves for a best-turn or max-points puzzle in one
    piece (and ``boardsat export`` writes): the turn model over ``horizon`` turns with
    :func:`line_objective` maximised (most own points, then fewest points to others, then
    for closings fewest actions), hinted with the engine's first legal line, with the
    decision strategy its settings follow. NoAnswer when ``params``' deadline passes."""
    first = first_line(position, horizon, params)
    tm = TurnModel(position, horizon, check=params.check, short_last_move=kind == "best-turn")
    params.check()
    objective = line_objective(tm, horizon, actions=kind != "best-turn")
    tm.model.maximize(objective.expr)
    params.check()
    tm.hint_line(first)
    params.check()
    chosen = settings(kind, cells=position.grid.size)
    add_strategy(tm, chosen)
    return LineModel(tm, objective, chosen, BEST_TURN_WORKERS if kind == "best-turn" else None,
                     first)


def _maximise(position: Position, kind: str, horizon: int, params: SolveParams,
              progress: Progress | None, start: float) -> Answer:
    """Best-turn or max-points: one exactly lexicographic objective (:func:`line_model`):
    most own points, then fewest points to others, then (closing) fewest actions."""
    note(progress, "building the model")
    try:
        built = line_model(position, kind, horizon, params)
    except NoAnswer:
        raise unbuilt(horizon, params) from None
    build = time.perf_counter() - start
    tm, objective, first = built.tm, built.objective, built.first
    if built.workers is not None:
        params = params.with_workers_at_most(built.workers)
    chosen = built.settings
    cap = tm.own_upper_bound()

    def report(obj: float, best: float, wall: float) -> None:
        own, top = objective.leading(obj), min(cap, objective.leading(best))
        note(progress, f"best found: {own} points (bound {top}) after "
                       f"{time.perf_counter() - start:.1f}s")

    note(progress, f"solving ({len(tm.candidates)} candidate regions)")
    solver, result = solve(tm.model, params.with_settings(**chosen), progress=report)
    if not result.feasible:
        if result.status == "infeasible":
            return _forced_pass(position, kind, horizon, start, build, result)
        if result.interrupted:
            raise Interrupted()
        answer = time_up(position, kind, first, start, build,  # no line, still a bound
                         dict(result.stats, candidates=len(tm.candidates)))
    else:
        answer = model_answer(position, kind, tm, solver, result, start, build)
    # the cells' cap, or CP-SAT's bound when it proved a lower one
    found = cap if result.bound is None else min(cap, objective.leading(result.bound))
    answer.bound = answer.value if answer.optimal else max(answer.value, found)
    return answer


def _forced_pass(position: Position, kind: str, horizon: int, start: float, build: float,
                 result) -> Answer:
    """The model has no line: by [D] PASS_WITHOUT_LEGAL_SEQUENCE every turn is a pass.

    The model allows a pass only when no own piece can move; a player whose
    moves all break the no-return rule passes too (engine rule), which the model
    does not enumerate. The replay checks that the engine agrees.
    """
    line: list[Turn] = [()] * horizon
    return Answer(kind, line, 0, 0, 0, [0] * horizon, [0] * horizon, True, "optimal",
                  time.perf_counter() - start, build, position, dict(result.stats), bound=0)


def _min_turns(position: Position, cap: int, target: int | None, params: SolveParams,
               progress: Progress | None, start: float) -> Answer:
    """Fewest turns to reach ``target``, then fewest actions: deepen the horizon.

    A horizon of ``h`` turns is tried only after ``h - 1`` was proven infeasible,
    so the first feasible horizon is the minimum; its actions are then minimised.
    A horizon that times out unproven makes the answer 'not proven optimal'.

    Before the search, a target above :func:`most_points_ever` is refused (no number
    of turns reaches it). Each horizon first asks :func:`_relaxed_short` whether the
    relaxation proves the target out of reach within ``h`` turns; that proof covers
    every shorter horizon too (the relaxation's module doc: a line of fewer turns maps
    to it the same way), so the full model is solved only where it does not.
    PuzzleError (keyed to ``puzzle.target``) when every horizon up to ``cap`` is
    proven short of the target.
    """
    if target is None or target < 1:
        raise PuzzleError("a min-turns puzzle needs a target of at least 1 point")
    ceiling = most_points_ever(position)
    if target > ceiling:
        raise PuzzleError(f"{target} points cannot be reached: {position.to_move} can gain "
                          f"at most {ceiling} points on this board, whatever the number of "
                          "turns", key=TARGET_KEY)
    tried = _Tried(target)
    build = 0.0
    short = ""
    for horizon in range(1, cap + 1):
        note(progress, f"trying {horizon} turn(s) for {target} points")
        t0 = time.perf_counter()
        try:
            geo = Geometry(position, horizon, check=params.check)
            relaxed = _relaxed_short(geo, target, params)
            if relaxed is not None:  # proven for every horizon up to this one
                tried.impossible, tried.unfinished = list(range(1, horizon + 1)), []
                short = f" (at most {relaxed})"
                build += time.perf_counter() - t0
                continue
            tm = TurnModel(position, horizon, geometry=geo, check=params.check)
        except Interrupted:
            raise Interrupted(tried.said()) from None
        except NoAnswer:
            if tried.nothing():
                raise unbuilt(horizon, params) from None
            raise NoAnswer(tried.said(f"the {horizon}-turn model not built within the "
                                      "time limit")) from None
        build += time.perf_counter() - t0
        short = ""
        tm.model.add(tm.own_points() >= target)
        tm.model.minimize(tm.actions())

        def report(obj: float, best: float, wall: float, horizon: int = horizon) -> None:
            note(progress, f"{horizon} turn(s) reach {target} points: best found "
                            f"{obj:.0f} actions (bound {best:.0f}) after "
                            f"{time.perf_counter() - start:.1f}s")

        solver, result = solve(tm.model, params.with_settings(**settings()), progress=report)
        if result.feasible:
            answer = model_answer(position, "min-turns", tm, solver, result, start, build)
            answer.optimal = answer.optimal and not tried.unfinished
            return answer
        if result.interrupted:
            raise Interrupted(tried.said())
        if result.status == "infeasible":
            tried.impossible.append(horizon)
        else:
            tried.unfinished.append(horizon)
            if _out_of_time(params, tm):
                break
    if tried.unfinished:
        raise NoAnswer(tried.said())
    raise PuzzleError(f"{target} points cannot be reached within {cap} turn(s){short}",
                      key=TARGET_KEY)


@dataclass
class _Tried:
    """What a min-turns search has settled so far, said in its messages."""

    target: int
    impossible: list[int] = field(default_factory=list)
    """Horizons proven not to reach the target."""
    unfinished: list[int] = field(default_factory=list)
    """Horizons whose search the time limit stopped."""

    def nothing(self) -> bool:
        """Nothing settled or tried yet."""
        return not self.impossible and not self.unfinished

    def said(self, then: str | None = None) -> str:
        """"min-turns, N points: 1 and 2 turns proven impossible, 3 turns not finished
        within the time limit" (``then``: what happened next, instead of the last)."""
        parts = []
        if self.impossible:
            parts.append(f"{_turns(self.impossible)} proven impossible")
        if self.unfinished:
            parts.append(f"{_turns(self.unfinished)} not finished within the time limit")
        if then:
            parts.append(then)
        return f"min-turns, {self.target} points: " + (", ".join(parts) or "nothing tried")


def _turns(horizons: list[int]) -> str:
    """``[1, 2, 3]`` → "1, 2 and 3 turns"; ``[1]`` → "1 turn"."""
    names = [str(h) for h in horizons]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{listed} turn" + ("" if names == ["1"] else "s")


def _relaxed_short(geo: Geometry, target: int, params: SolveParams) -> int | None:
    """CP-SAT's proven bound on the :class:`Relaxation` of ``geo``'s horizon when it is
    below ``target`` (no line of that many turns or fewer reaches it), else None.

    One thread, :data:`~solver.terra_nova.settings.RELAXATION_SETTINGS`, within
    :data:`MIN_TURNS_RELAXATION_SHARE` of the time left; stopped as soon
    as a relaxed solution reaches the target (then it proves nothing) or the bound falls
    below it."""
    relax = Relaxation(geo, check=params.check)
    run = params.with_workers_at_most(1).with_settings(**RELAXATION_SETTINGS)
    left = params.deadline.remaining() if params.deadline is not None else None
    if left is not None:
        run = run.with_time_limit(max(0.001, MIN_TURNS_RELAXATION_SHARE * left))
    stop = Stop()

    def settled(obj: float, bound: float, wall: float) -> None:
        if obj >= target or bound < target:
            stop.stop()

    _, result = solve(relax.model, run, progress=settled, stop=stop)
    if result.interrupted:
        raise Interrupted()
    if result.bound is None or result.bound >= target:
        return None
    return math.floor(result.bound + 1e-6)


def _out_of_time(params: SolveParams, tm: TurnModel) -> bool:
    """After a solve stopped by the limit: no time for a longer horizon. CP-SAT stopped
    with :func:`~solver.cpsat.startup_seconds` of ``tm``'s model left (what it may
    overrun by), and a longer horizon's model is larger, so twice that is too little."""
    left = search_seconds_left(params, tm.model)
    return left is not None and left <= startup_seconds(tm.model)


def replay(position: Position, answer: Answer) -> None:
    """Play the answer through the engine; EngineDisagreement when anything differs."""
    text = " | ".join(answer.line_text(position))
    try:
        outcome = engine.play_line(position, answer.line)
    except InputError as exc:
        raise EngineDisagreement(f"the engine rejects the solver's line '{text}': {exc}") from None
    solver_side = (answer.value, answer.others, answer.turn_points, answer.turn_others,
                   answer.actions)
    engine_side = (outcome.points, outcome.others, list(outcome.turn_points),
                   list(outcome.turn_others), outcome.actions)
    if solver_side != engine_side:
        raise EngineDisagreement(
            f"line '{text}': solver says points {answer.value}, others {answer.others}, "
            f"per turn {answer.turn_points}/{answer.turn_others}, {answer.actions} actions; "
            f"engine says points {outcome.points}, others {outcome.others}, per turn "
            f"{list(outcome.turn_points)}/{list(outcome.turn_others)}, "
            f"{outcome.actions} actions")
    answer.final = outcome.position


@dataclass
class Verdict:
    """Result of checking a file's [solution] with the engine."""

    ok: bool
    message: str
    points: int | None = None


def verify_solution(position: Position) -> Verdict:
    """Check ``position.solution``: legal per the engine and worth its stated value.

    A closing max-points solution must have the puzzle's number of turns; a
    min-turns solution must reach the target.
    """
    solution = position.solution
    if solution is None:
        raise InputError("the file has no [solution] to verify")
    line = parse_line(solution.line, position.grid)
    engine.validate(position)
    try:
        outcome = engine.play_line(position, line)
    except InputError as exc:
        return Verdict(False, f"illegal: {exc}")
    puzzle = position.puzzle
    if (puzzle is None or puzzle.kind == "best-turn") and len(line) != 1:
        return Verdict(False, f"a best-turn solution has 1 turn, not {len(line)}", outcome.points)
    if puzzle is not None and puzzle.kind == "closing":
        if puzzle.objective == "max-points" and len(line) != puzzle.turns:
            return Verdict(False, f"the puzzle has {puzzle.turns} turn(s), the solution "
                                  f"{len(line)}", outcome.points)
        if puzzle.objective == "min-turns" and outcome.points < (puzzle.target or 0):
            return Verdict(False, f"the line gains {outcome.points} points, short of the "
                                  f"target {puzzle.target}", outcome.points)
    if outcome.points != solution.value:
        return Verdict(False, f"the line gains {outcome.points} points, not the stated "
                              f"{solution.value}", outcome.points)
    return Verdict(True, "", outcome.points)


@dataclass
class ModelPerft:
    """Turns and positions counted from the model's solutions."""

    turns: int
    positions: int
    wall_s: float


def perft_via_model(position: Position, params: SolveParams | None = None,
                    progress: Callable[[int], None] | None = None) -> ModelPerft:
    """Count legal turns (and resulting positions) by enumerating the one-turn model.

    Projects every solution on the answer variables (source, destination and stone
    cell per step) plus the final state, so auxiliary variables do not multiply
    the count. A player without any legal sequence passes (one turn, one position).
    ``progress(distinct solutions so far)``; NoAnswer past the time limit.
    """
    params = (params or SolveParams()).started()
    engine.validate(position)
    start = time.perf_counter()
    tm = TurnModel(position, 1, check=params.check)
    answer = tm.answer_vars()
    state = tm.state_vars()
    seen = enumerate_projections(tm.model, answer + state, params, progress=progress)
    if not seen:
        return ModelPerft(1, 1, time.perf_counter() - start)
    k = len(answer)
    turns = {t[:k] for t in seen}
    positions = {t[k:] for t in seen}
    return ModelPerft(len(turns), len(positions), time.perf_counter() - start)
