"""Solving the Terra Nova (KOSMOS) last-round and best-round puzzles with CP-SAT.

:func:`solve_last_round` builds :mod:`~solver.terra_nova_kosmos.model.last_round`,
solves it, reads the line back as turns and replays it through the reference
engine (:func:`~solver.terra_nova_kosmos.engine.lastround.evaluate`). An
illegal turn, or a value, others' total or turn count other than the model's,
raises :class:`~solver.errors.EngineDisagreement`. A time limit gives the best
line found, marked not proven optimal, with the model's bound on the value.
:func:`solve_best_round` does the same for the best-round model
(:mod:`~solver.terra_nova_kosmos.model.best_round`, replayed by
:func:`~solver.terra_nova_kosmos.engine.bestround.evaluate`), and
:func:`solve_last_rounds` for the last-rounds model
(:mod:`~solver.terra_nova_kosmos.model.last_rounds`, replayed by
:func:`~solver.terra_nova_kosmos.engine.lastrounds.evaluate`). :data:`SOLVERS`
names the solve of each puzzle kind.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.cpsat import Interrupted, SolveParams, solve
from solver.cpsat.objectives import Lexicographic
from solver.errors import BuildTimeout, EngineDisagreement, NoAnswer, PuzzleError
from solver.terra_nova_kosmos.engine import bestround, lastrounds
from solver.terra_nova_kosmos.engine.actions import IllegalTurn, apply_turn
from solver.terra_nova_kosmos.engine.lastround import Result, check_puzzle, evaluate
from solver.terra_nova_kosmos.engine.validate import validate
from solver.terra_nova_kosmos.model.best_round import (
    BestRound,
    build_best_round,
    read_best_line,
)
from solver.terra_nova_kosmos.model.last_round import (
    LastRound,
    Predicted,
    Unsupported,
    build_last_round,
    hint_passing_at_once,
    predicted,
    read_line,
)
from solver.terra_nova_kosmos.model.last_rounds import (
    LastRounds,
    build_last_rounds,
    hint_passing_rounds,
    predicted_rounds,
    read_rounds_line,
)
from solver.terra_nova_kosmos.notation import Action, Turn, format_turn
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import ROUNDS

PROBING_LEVEL = 0
LINEARIZATION_LEVEL = 0
"""CP-SAT ``cp_model_probing_level`` and ``linearization_level`` for the last-round
model, measured on the small random positions of the tests (1 worker, seeds 0–47,
deterministic time / CPU seconds): default 2.58 / 10.8 (seeds 0–15); probing off
1.17 / 5.7; probing and LP off 0.46 / 4.3; probing off, LP level 2 4.1 / 13.8;
seeds 16–47: probing off 2.33 / 12.1, probing and LP off 0.75 / 6.6."""

SAT_INPROCESSING = False
"""CP-SAT ``use_sat_inprocessing`` for the KOSMOS models: off. Their proofs take a few
thousand conflicts; the clause vivification, probing and subsumption between restarts
cost far more than they save there (benchmarks/EXPERIMENTS.md, Terra Nova (KOSMOS),
"The full map: horizon, reach and parameters")."""

ROUNDS_SETTINGS: dict[str, int | bool] = {"presolve_substitution_level": 0}
"""CP-SAT parameters the last-rounds model adds to :func:`settings`: no substitution
in presolve. The model scores its round tiles, town tiles, shipping track and pass
pieces through bounded totals (what a round can pay for, each tile once, the supply);
presolve's objective expansion would put the literals they sum back into the
objective, whose bound would again count every hex every step might touch
(benchmarks/EXPERIMENTS.md, Terra Nova (KOSMOS), "Last-rounds model")."""

SEARCH_WORKERS = 1
"""KOSMOS models solve on one CP-SAT worker, whatever ``--workers`` asks.

With two or more workers CP-SAT's portfolio sets its subsolvers' own LP levels
(``default_lp``: level 1), so the level 0 above only holds with one worker, and
the second thread's searches only add CPU: 3 to 7 times the wall time on the cases
measured (benchmarks/EXPERIMENTS.md, Terra Nova (KOSMOS), "Last-round model")."""

Progress = Callable[[str], None]


@dataclass
class Answer:
    """A solved last-round or best-round puzzle: the line, what the engine says it is
    worth, and how sure the model is."""

    line: list[Turn]
    result: Result | bestround.Result
    optimal: bool
    status: str
    bound: int | None
    """Upper bound on the value (equal to it when proven optimal; None: unknown)."""
    horizon: int
    wall_s: float
    build_s: float
    stats: dict[str, Any] = field(default_factory=dict)
    fallback: bool = False
    """CP-SAT found no line in time: :attr:`line` passes at once, only shown so there is
    an answer."""

    @property
    def key(self) -> tuple[int, ...]:
        """As the exhaustive search orders results (the objective with its tie-breaks)."""
        return self.result.key

    def line_text(self, position: Position) -> list[str]:
        """The line as turn strings."""
        return [format_turn(t, position.grid) for t in self.line]


def settings() -> dict[str, int | bool]:
    """The CP-SAT parameters the KOSMOS models solve with."""
    return {"cp_model_probing_level": PROBING_LEVEL,
            "linearization_level": LINEARIZATION_LEVEL,
            "use_sat_inprocessing": SAT_INPROCESSING}


def replayed(position: Position, line: list[Turn], claim: Predicted, optimal: bool,
             judge: Callable[[Position, list[Turn]], Result] = evaluate) -> Result:
    """The engine's result (``judge``: the puzzle's evaluation) of the model's ``line``;
    EngineDisagreement when the engine refuses it or values it otherwise than the
    model's ``claim`` (a line that is not proven optimal may be worth more to the
    engine than the model counted)."""
    texts = [format_turn(t, position.grid) for t in line]
    try:
        replay = judge(position, line)
    except IllegalTurn as exc:
        raise EngineDisagreement(f"the engine refuses the model's line {texts}: "
                                 f"{exc.place}: {exc.message}") from None
    got = (replay.value, replay.others, replay.turns)
    want = (claim.value, claim.others, claim.turns)
    if got != want and (optimal or replay.value < claim.value):
        raise EngineDisagreement(f"the model's line {texts} is worth (value, others, "
                                 f"turns) {got} to the engine, {want} to the model")
    return replay


def _run(model: Any, objective: Lexicographic, params: SolveParams,
         progress: Progress | None, more: Mapping[str, int | bool] | None = None
         ) -> tuple[Any, Any]:
    """Solve a KOSMOS model with :func:`settings` (and the model's ``more``), reporting
    the objective's first goal; EngineDisagreement when it has no line (passing at once
    is always legal)."""
    def report(obj: float, best: float, wall: float) -> None:
        if progress:
            progress(f"best found: value {objective.leading(obj)} "
                     f"(bound {objective.leading(best)}) after {wall:.1f}s")

    params = params.with_settings(**settings(), **(more or {})).with_workers_at_most(
        SEARCH_WORKERS)
    solver, result = solve(model, params, progress=report)
    if result.status == "infeasible":
        raise EngineDisagreement("the model has no line, yet passing at once is legal")
    return solver, result


def _build(kind: str, make: Callable[[Callable[[], None]], Any], params: SolveParams,
           hint: bool = True, hinting: Callable[[Any], None] = hint_passing_at_once) -> Any:
    """The ``kind`` model, ``make(check)``, built within the command's time limit and
    (``hint``) hinted with the action kinds of the line that passes at once
    (``hinting``).

    PuzzleError when the model does not cover the position; BuildTimeout when the
    limit ends during the build (exit 2, as the other games)."""
    try:
        built = make(params.check)
    except Unsupported as exc:
        raise PuzzleError(f"the CP-SAT model does not cover this position: {exc}") from None
    except NoAnswer:
        raise BuildTimeout.of(f"{kind} model", params.time_limit,
                              "give more --time-limit") from None
    if not hint:
        return built
    hinting(built)
    return built


def last_round_model(position: Position, params: SolveParams) -> LastRound:
    """The model :func:`solve_last_round` solves (and ``boardsat export`` writes), hinted
    with the line that passes at once; it is solved with :func:`settings` on
    :data:`SEARCH_WORKERS`. Errors as :func:`_build` (and InputError for an illegal
    position or one without a last-round puzzle)."""
    validate(position)
    check_puzzle(position)
    return _build("last-round", lambda check: build_last_round(position, check), params)


def best_round_model(position: Position, params: SolveParams, objective: str | None = None,
                     hint: bool = True) -> BestRound:
    """The model :func:`solve_best_round` solves (and ``boardsat export`` writes) under
    ``objective`` (default: the file's); as :func:`last_round_model`."""
    validate(position)
    bestround.check_puzzle(position)
    objective = objective or bestround.objective_of(position)
    return _build("best-round", lambda check: build_best_round(position, objective, check),
                  params, hint)


def last_rounds_model(position: Position, params: SolveParams, hint: bool = True
                      ) -> LastRounds:
    """The model :func:`solve_last_rounds` solves (and ``boardsat export`` writes); as
    :func:`last_round_model`, hinted with the line that passes at once in both
    rounds."""
    validate(position)
    lastrounds.check_puzzle(position)
    return _build("last-rounds", lambda check: build_last_rounds(position, check), params,
                  hint, hint_passing_rounds)


def solve_last_round(position: Position, params: SolveParams | None = None, *,
                     progress: Progress | None = None) -> Answer:
    """Solve the position's last-round puzzle; the engine replays the answer.

    PuzzleError when the position poses no last-round puzzle the model covers;
    BuildTimeout when the time limit ends while the model is built; EngineDisagreement
    when the engine disagrees. When CP-SAT finds no line in the time left, the answer
    is the line that passes at once, not proven optimal; Interrupted when Ctrl-C stops
    it before any line.
    """
    params = (params or SolveParams()).started()
    start = time.perf_counter()
    lr = last_round_model(position, params)
    build = time.perf_counter() - start
    solver, result = _run(lr.model, lr.objective, params, progress)
    if not result.feasible:
        if result.interrupted:
            raise Interrupted()
        # nothing found in time: the line that passes at once, not proven
        line = [Turn(Action("pass", tile=lr.pass_tile))]
        replay = evaluate(position, line)
        return Answer(line, replay, False, result.status, None, len(lr.steps),
                      time.perf_counter() - start, build, dict(result.stats), fallback=True)
    line = read_line(lr, solver)
    optimal = result.optimal and not result.interrupted
    claim = predicted(lr, solver)
    replay = replayed(position, line, claim, optimal)
    bound = lr.objective.leading(result.bound) if result.bound is not None else claim.value
    return Answer(line, replay, optimal, result.status, max(bound, replay.value),
                  len(lr.steps), time.perf_counter() - start, build,
                  dict(result.stats, nodes=lr.geometry.size))


def best_claim(br: BestRound, solver: Any) -> bestround.Result:
    """What the model says its solution is worth."""
    return bestround.Result(br.goal, solver.value(br.points), solver.value(br.leftover),
                            solver.value(br.given), solver.value(br.turns))


def best_replayed(position: Position, line: list[Turn], claim: bestround.Result,
                  optimal: bool) -> bestround.Result:
    """The engine's result of the model's best-round ``line``; EngineDisagreement when the
    engine refuses it or values it otherwise than the model's ``claim`` (a line not
    proven optimal may be worth more to the engine than the model counted)."""
    texts = [format_turn(t, position.grid) for t in line]
    try:
        replay = bestround.evaluate(position, line, claim.objective)
    except IllegalTurn as exc:
        raise EngineDisagreement(f"the engine refuses the model's line {texts}: "
                                 f"{exc.place}: {exc.message}") from None
    if replay != claim and (optimal or replay.key < claim.key):
        raise EngineDisagreement(f"the model's line {texts} is worth (points, leftover, "
                                 f"given, turns) {_figures(replay)} to the engine, "
                                 f"{_figures(claim)} to the model")
    return replay


def _figures(result: bestround.Result) -> tuple[int, int, int, int]:
    return (result.points, result.leftover, result.given, result.turns)


def solve_best_round(position: Position, params: SolveParams | None = None, *,
                     objective: str | None = None, progress: Progress | None = None,
                     hint: bool = True) -> Answer:
    """Solve the position's best-round puzzle under ``objective`` (default: the file's)
    with CP-SAT; the engine replays the answer. Errors as :func:`solve_last_round`.
    ``hint``: start from the line that passes at once (so a time limit always leaves a
    line; the cross-check tests, which run to the optimum, skip it)."""
    params = (params or SolveParams()).started()
    objective = objective or bestround.objective_of(position)
    start = time.perf_counter()
    br = best_round_model(position, params, objective, hint)
    build = time.perf_counter() - start
    solver, result = _run(br.model, br.objective, params, progress)
    if not result.feasible:
        if result.interrupted:
            raise Interrupted()
        # nothing found in time: the line that passes at once, not proven
        most = max(coins for _, coins in position.bonus_display)
        tile = next(t for t, c in position.bonus_display if c == most)
        line = [Turn(Action("pass", tile=tile))]
        replay = bestround.evaluate(position, line, objective)
        return Answer(line, replay, False, result.status, None, len(br.steps),
                      time.perf_counter() - start, build, dict(result.stats), fallback=True)
    line = read_best_line(br, solver)
    optimal = result.optimal and not result.interrupted
    replay = best_replayed(position, line, best_claim(br, solver), optimal)
    bound = br.objective.leading(result.bound) if result.bound is not None else None
    return Answer(line, replay, optimal, result.status,
                      None if bound is None else max(bound, replay.value), len(br.steps),
                      time.perf_counter() - start, build,
                      dict(result.stats, nodes=br.geometry.size))


def solve_last_rounds(position: Position, params: SolveParams | None = None, *,
                      progress: Progress | None = None, hint: bool = True) -> Answer:
    """Solve the position's last-rounds puzzle with CP-SAT; the engine replays the answer
    over both rounds. Errors as :func:`solve_last_round`; ``hint`` as for
    :func:`solve_best_round`. When CP-SAT finds no line in the time left, the answer
    passes at once in both rounds (the richest tile each time), not proven."""
    params = (params or SolveParams()).started()
    start = time.perf_counter()
    built = last_rounds_model(position, params, hint)
    build = time.perf_counter() - start
    horizon = sum(len(r.steps) for r in built.rounds)
    solver, result = _run(built.model, built.lr.objective, params, progress,
                          ROUNDS_SETTINGS)
    if not result.feasible:
        line = passing_at_once(position)
        replay = lastrounds.evaluate(position, line)
        return Answer(line, replay, False, result.status, None, horizon,
                      time.perf_counter() - start, build, dict(result.stats))
    line = read_rounds_line(built, solver)
    optimal = result.optimal and not result.interrupted
    claim = predicted_rounds(built, solver)
    replay = replayed(position, line, claim, optimal, lastrounds.evaluate)
    bound = (built.lr.objective.leading(result.bound) if result.bound is not None
             else claim.value)
    return Answer(line, replay, optimal, result.status, max(bound, replay.value), horizon,
                  time.perf_counter() - start, build,
                  dict(result.stats, nodes=built.lr.geometry.size))


def passing_at_once(position: Position) -> list[Turn]:
    """The last-rounds line that passes at once in every round, each time with the first
    tile with the most coins."""
    line: list[Turn] = []
    current = position
    for number in range(lastrounds.planned_rounds(position)):
        if number:
            current = lastrounds.between_rounds(current)
        tile = None
        if current.round < ROUNDS or current.rules.final_round_swap:
            most = max(coins for _, coins in current.bonus_display)
            tile = next(t for t, c in current.bonus_display if c == most)
        turn = Turn(Action("pass", tile=tile))
        line.append(turn)
        current = apply_turn(current, turn)
    return line


SOLVERS: dict[str, Callable[..., Answer]] = {
    "last-round": solve_last_round, "best-round": solve_best_round,
    "last-rounds": solve_last_rounds}
"""The CP-SAT solve of each puzzle kind (``position, params, *, progress``)."""
