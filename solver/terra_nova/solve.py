"""Solving Terra Nova puzzles with the CP-SAT model, every answer replayed by the engine.

``solve_puzzle`` poses best-turn or closing puzzles to
:class:`~solver.terra_nova.model.turn_model.TurnModel`, reads the line back and
replays it through the reference engine; any difference in legality or points
raises :class:`~solver.errors.EngineDisagreement`.
``verify_solution`` checks a file's ``[solution]`` with the engine alone, and
``perft_via_model`` counts legal turns by enumerating the model's solutions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat import (
    SolveParams,
    enumerate_projections,
    search_seconds_left,
    solve,
    startup_seconds,
)
from solver.cpsat.objectives import Goal, Lexicographic, lexicographic
from solver.errors import EngineDisagreement, InputError, NoAnswer, PuzzleError
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
from solver.terra_nova.model.geometry import ACTIONS_PER_TURN
from solver.terra_nova.model.turn_model import TurnModel
from solver.terra_nova.notation import Turn, parse_line
from solver.terra_nova.position import MAX_PUZZLE_TURNS, Position

MIN_TURNS_DEFAULT_CAP = 6
"""Horizon searched by a min-turns puzzle whose file gives no ``turns``."""

PROBING_LEVEL = 0
"""CP-SAT ``cp_model_probing_level``: probing costs seconds on these models and buys
nothing measurable (benchmarks/terra_nova.py), so it is off."""

BEST_TURN_LINEARIZATION_LEVEL = 0
"""CP-SAT ``linearization_level`` for best-turn: without the LP the one-turn search is
faster (6 full-size mid-game positions, 1 worker: median 0.62 s -> 0.44 s). Closing
puzzles choose theirs in :func:`settings`."""

BEST_TURN_WORKERS = 1
"""Best-turn solves on one thread whatever ``--workers`` says: the search is a few
tenths of a second, and a second thread only doubled the CPU time it took
(benchmarks/EXPERIMENTS.md, Terra Nova #18)."""

BEST_TURN_SEARCH: dict[str, Any] = {
    "interleave_search": True,
    "subsolvers": ["fixed", "no_lp"],
    "num_full_subsolvers": 2,
    "use_lns": False,
}
"""Best-turn's search, on its one thread: CP-SAT's ``fixed`` subsolver (the model's
decision strategy: the most valuable closings first, :meth:`TurnModel.closings_by_value`)
finds the scoring lines, ``no_lp`` (the default search) refutes the closings that
cannot happen; interleaved in small batches, without LNS."""

BEST_TURN_PRESOLVE: dict[str, Any] = {"max_presolve_iterations": 0, "symmetry_level": 0}
"""Best-turn's presolve: ``max_presolve_iterations`` 0 and no symmetry detection.
More rounds took about a third of its CPU time and shortened no search (Terra Nova
#21); going from 1 round to 0 and leaving out the symmetry graphs (built twice)
saves another 10-45 % of the solve's CPU on these small models, the searches
unchanged (#70)."""

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


LARGE_BOARD_CELLS = 100
"""Max-points closings on boards of at least this many cells solve with CP-SAT's
``linearization_level`` 2: level 1 leaves the Boolean links "a region scores only
when closed, closed only when its boundary is stones" out of the LP, whose bound
then stays near 500 points on the full board, and never proved a full-board 2-turn
closing; level 2 proves most. Smaller boards search without the LP
(:data:`SMALL_BOARD_SEARCH`). Measured in benchmarks/EXPERIMENTS.md, Terra Nova #7,
#12, #14."""

LARGE_BOARD_SUBSOLVERS = ("default", "fixed")
"""The full CP-SAT subsolvers of max-points closings on large boards, one thread each
with two workers (one worker runs ``default`` alone): ``default`` is the parameters
as given (CP-SAT's ``default_lp`` would force level 1, ``max_lp`` adds every LP row
up front, 4x slower here), and proves; ``fixed`` follows the model's decision
strategy (:meth:`TurnModel.closings_by_value`: the most valuable closings first;
without the LP, :data:`LARGE_BOARD_FIXED_SEARCH`) and finds the best line early,
which the proof then only has to confirm. It replaced LNS on the second thread
(Terra Nova #14): full-board 2-turn closings, 2 workers, det. s per worker at the
proof, late-2p 19-50 -> 11-16 (its proof waited for the optimum); midgame-2p, the
played depth-suite position and seeds 0, 2, 3 of benchmarks/terra_nova.py within
their random-seed spread (-12 % to +21 %). benchmarks/EXPERIMENTS.md, Terra Nova
#44-#49, #57."""


LARGE_BOARD_FIXED_SEARCH: dict[str, Any] = {"name": "fixed", "linearization_level": 0}
"""The ``fixed`` subsolver of :data:`LARGE_BOARD_SUBSOLVERS` searches without the LP
(a named parameter set CP-SAT merges into its own ``fixed``): its nodes are cheap, it
reaches the valuable lines sooner, and the level-2 ``default`` search proves. 2-turn
closings, 2 workers, the same hour (load ~3), wall s with the fixed search at level 2
-> level 0: late-2p 41.6 -> 15.2, midgame-2p 23.8 -> 14.5, played depth-suite
position 14.2 -> 12.7 (benchmarks/EXPERIMENTS.md, Terra Nova #57)."""


SMALL_BOARD_SEARCH: dict[str, Any] = {
    "linearization_level": 0,
    "subsolvers": ["default"],
    "num_full_subsolvers": 1,
    "max_presolve_iterations": 1,
}
"""Max-points closings on boards under :data:`LARGE_BOARD_CELLS` cells search without
the LP (the parameters as given on the full thread, LNS beside it with two workers;
CP-SAT's own ``default_lp`` would force level 1), after one presolve round. There
the level-1 LP costs about half the CPU and shortens no proof: quick-suite 6x7
2-turn closing (38 cells), 2 workers, wall s at load 9-13, 50 / 41 -> 19 / 21
(without the LP); 1 worker, three 38-cell boards x three seeds: CPU 1.5-2.2x
lower, although CP-SAT counts up to 1.5x more det. time on one of them
(benchmarks/EXPERIMENTS.md, Terra Nova #71)."""


def settings(kind: str | None = None, *, cells: int = 0) -> dict[str, Any]:
    """The CP-SAT parameters Terra Nova models solve with (``SolveParams.settings``);
    ``cells`` (the board's size) chooses the LP of max-points closings."""
    chosen: dict[str, Any] = {"cp_model_probing_level": PROBING_LEVEL}
    if kind == "best-turn":
        chosen["linearization_level"] = BEST_TURN_LINEARIZATION_LEVEL
        chosen.update(BEST_TURN_SEARCH)
        chosen.update(BEST_TURN_PRESOLVE)
    elif kind == "max-points" and cells >= LARGE_BOARD_CELLS:
        chosen["linearization_level"] = 2
        chosen["subsolvers"] = list(LARGE_BOARD_SUBSOLVERS)
        chosen["num_full_subsolvers"] = len(LARGE_BOARD_SUBSOLVERS)
        chosen["subsolver_params"] = [dict(LARGE_BOARD_FIXED_SEARCH)]
    elif kind == "max-points":
        chosen.update(SMALL_BOARD_SEARCH)
    return chosen


def follows_strategy(chosen: dict[str, Any]) -> bool:
    """True when CP-SAT parameters ``chosen`` (:func:`settings`) run the ``fixed``
    subsolver, which searches in the model's decision strategy (without one CP-SAT
    leaves it out)."""
    return "fixed" in chosen.get("subsolvers", ())


def line_objective(tm: TurnModel, turns: int, actions: bool) -> Lexicographic:
    """The rules' order of lines as one objective: own points up, others' points down,
    then (``actions``) fewer actions. Bounds: ``actions <= 3 * turns`` and others'
    points ``<= tm.others_upper_bound()`` (every candidate region closes at most once)."""
    goals = [Goal(tm.own_points(), "max"), Goal(tm.other_points(), "min", tm.others_upper_bound())]
    if actions:
        goals.append(Goal(tm.actions(), "min", ACTIONS_PER_TURN * turns))
    return lexicographic(goals)


def solve_puzzle(position: Position, turns: int | None = None,
                 params: SolveParams | None = None, *,
                 progress: Progress | None = None) -> Answer:
    """Solve the position's puzzle (or a max-points closing over ``turns`` turns).

    Raises PuzzleError when a min-turns target cannot be reached within the
    horizon, EngineDisagreement when the engine does not reproduce the answer,
    KeyboardInterrupt on Ctrl-C before any line. The time limit counts from
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
    elif _deep(position, kind, horizon):
        from solver.terra_nova import deep
        answer = deep.maximise(position, horizon, params, progress, start)
    else:
        answer = _maximise(position, kind, horizon, params, progress, start)
    _replay(position, answer)
    return answer


def _deep(position: Position, kind: str, horizon: int) -> bool:
    """Whether :mod:`solver.terra_nova.deep` answers (3+-turn closings, large boards)."""
    from solver.terra_nova import deep
    return deep.applies(position, kind, horizon)


def _maximise(position: Position, kind: str, horizon: int, params: SolveParams,
              progress: Progress | None, start: float) -> Answer:
    """Best-turn or max-points: one exactly lexicographic objective (:func:`line_objective`):
    most own points, then fewest points to others, then (closing) fewest actions."""
    note(progress, "building the model")
    try:
        first = first_line(position, horizon, params)
        tm = TurnModel(position, horizon, check=params.check)
        params.check()
        objective = line_objective(tm, horizon, actions=kind != "best-turn")
        tm.model.maximize(objective.expr)
        params.check()
        tm.hint_line(first)
        params.check()
    except NoAnswer:
        raise unbuilt(horizon, params) from None
    build = time.perf_counter() - start
    chosen = settings(kind, cells=position.grid.size)
    if kind == "best-turn":
        params = params.with_workers_at_most(BEST_TURN_WORKERS)
    if follows_strategy(chosen):
        tm.model.add_decision_strategy(tm.closings_by_value(), cp_model.CHOOSE_FIRST,
                                       cp_model.SELECT_MAX_VALUE)

    def report(obj: float, best: float, wall: float) -> None:
        own, top = objective.leading(obj), objective.leading(best)
        note(progress, f"best found: {own} points (bound {top}) after {wall:.1f}s")

    note(progress, f"solving ({len(tm.candidates)} candidate regions)")
    solver, result = solve(tm.model, params.with_settings(**chosen), progress=report)
    if not result.feasible:
        if result.status == "infeasible":
            return _forced_pass(position, kind, horizon, start, build, result)
        if result.interrupted:
            raise KeyboardInterrupt
        return time_up(position, kind, first, start, build)
    answer = model_answer(position, kind, tm, solver, result, start, build)
    if result.bound is not None:
        answer.bound = (answer.value if answer.optimal
                        else max(answer.value, objective.leading(result.bound)))
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
                  time.perf_counter() - start, build, position, dict(result.stats))


def _min_turns(position: Position, cap: int, target: int | None, params: SolveParams,
               progress: Progress | None, start: float) -> Answer:
    """Fewest turns to reach ``target``, then fewest actions: deepen the horizon.

    A horizon of ``h`` turns is tried only after ``h - 1`` was proven infeasible,
    so the first feasible horizon is the minimum; its actions are then minimised.
    A horizon that times out unproven makes the answer 'not proven optimal'.
    """
    if target is None or target < 1:
        raise PuzzleError("a min-turns puzzle needs a target of at least 1 point")
    proven = True
    build = 0.0
    for horizon in range(1, cap + 1):
        note(progress, f"trying {horizon} turn(s) for {target} points")
        t0 = time.perf_counter()
        try:
            tm = TurnModel(position, horizon, check=params.check)
        except NoAnswer:
            raise unbuilt(horizon, params) from None
        build += time.perf_counter() - t0
        tm.model.add(tm.own_points() >= target)
        tm.model.minimize(tm.actions())

        def report(obj: float, best: float, wall: float, horizon: int = horizon) -> None:
            note(progress, f"{horizon} turn(s) reach {target} points: best found "
                            f"{obj:.0f} actions (bound {best:.0f}) after {wall:.1f}s")

        solver, result = solve(tm.model, params.with_settings(**settings()), progress=report)
        if result.feasible:
            answer = model_answer(position, "min-turns", tm, solver, result, start, build)
            answer.optimal = answer.optimal and proven
            return answer
        if result.interrupted:
            raise KeyboardInterrupt
        if result.status != "infeasible":
            proven = False
            if _out_of_time(params, tm):
                break
    if not proven:
        raise NoAnswer(f"no line reaching {target} points found within the time limit "
                       f"(up to {cap} turn(s) tried)")
    raise PuzzleError(f"{target} points cannot be reached within {cap} turn(s)")


def _out_of_time(params: SolveParams, tm: TurnModel) -> bool:
    """After a solve stopped by the limit: no time for a longer horizon. CP-SAT stopped
    with :func:`~solver.cpsat.startup_seconds` of ``tm``'s model left (what it may
    overrun by), and a longer horizon's model is larger, so twice that is too little."""
    left = search_seconds_left(params, tm.model)
    return left is not None and left <= startup_seconds(tm.model)


def _replay(position: Position, answer: Answer) -> None:
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
