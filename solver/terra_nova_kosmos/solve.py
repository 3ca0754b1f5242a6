"""Solving the Terra Nova (KOSMOS) last-round puzzle with the CP-SAT model.

:func:`solve_last_round` builds :mod:`~solver.terra_nova_kosmos.model.last_round`,
solves it, reads the line back as turns and replays it through the reference
engine (:func:`~solver.terra_nova_kosmos.engine.lastround.evaluate`). An
illegal turn, or a value, others' total or turn count other than the model's,
raises :class:`~solver.errors.EngineDisagreement`. A time limit gives the best
line found, marked not proven optimal, with the model's bound on the value.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.cpsat import SolveParams, solve
from solver.errors import EngineDisagreement, PuzzleError
from solver.terra_nova_kosmos.engine.actions import IllegalTurn
from solver.terra_nova_kosmos.engine.lastround import Result, check_puzzle, evaluate
from solver.terra_nova_kosmos.engine.validate import validate
from solver.terra_nova_kosmos.model.last_round import (
    Predicted,
    Unsupported,
    build_last_round,
    hint_passing_at_once,
    predicted,
    read_line,
)
from solver.terra_nova_kosmos.notation import Action, Turn, format_turn
from solver.terra_nova_kosmos.position import Position

PROBING_LEVEL = 0
LINEARIZATION_LEVEL = 0
"""CP-SAT ``cp_model_probing_level`` and ``linearization_level`` for the last-round
model, measured on the small random positions of the tests (1 worker, seeds 0–47,
deterministic time / CPU seconds): default 2.58 / 10.8 (seeds 0–15); probing off
1.17 / 5.7; probing and LP off 0.46 / 4.3; probing off, LP level 2 4.1 / 13.8;
seeds 16–47: probing off 2.33 / 12.1, probing and LP off 0.75 / 6.6."""

Progress = Callable[[str], None]


@dataclass
class Answer:
    """A solved last-round puzzle: the line, what the engine says it is worth, and how
    sure the model is."""

    line: list[Turn]
    result: Result
    optimal: bool
    status: str
    bound: int | None
    """Upper bound on the value (equal to it when proven optimal; None: unknown)."""
    horizon: int
    wall_s: float
    build_s: float
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[int, int, int]:
        """As the exhaustive search orders results: value, −others, −turns."""
        return self.result.key

    def line_text(self, position: Position) -> list[str]:
        """The line as turn strings."""
        return [format_turn(t, position.grid) for t in self.line]


def settings() -> dict[str, int]:
    """The CP-SAT parameters the last-round model solves with."""
    return {"cp_model_probing_level": PROBING_LEVEL,
            "linearization_level": LINEARIZATION_LEVEL}


def replayed(position: Position, line: list[Turn], claim: Predicted, optimal: bool) -> Result:
    """The engine's result of the model's ``line``; EngineDisagreement when the engine
    refuses it or values it otherwise than the model's ``claim`` (a line that is not
    proven optimal may be worth more to the engine than the model counted)."""
    texts = [format_turn(t, position.grid) for t in line]
    try:
        replay = evaluate(position, line)
    except IllegalTurn as exc:
        raise EngineDisagreement(f"the engine refuses the model's line {texts}: "
                                 f"{exc.place}: {exc.message}") from None
    got = (replay.value, replay.others, replay.turns)
    want = (claim.value, claim.others, claim.turns)
    if got != want and (optimal or replay.value < claim.value):
        raise EngineDisagreement(f"the model's line {texts} is worth (value, others, "
                                 f"turns) {got} to the engine, {want} to the model")
    return replay


def solve_last_round(position: Position, params: SolveParams | None = None, *,
                     progress: Progress | None = None) -> Answer:
    """Solve the position's last-round puzzle; the engine replays the answer.

    PuzzleError when the position poses no last-round puzzle the model covers or
    no line is found in time; EngineDisagreement when the engine disagrees.
    """
    params = params or SolveParams()
    validate(position)
    check_puzzle(position)
    start = time.perf_counter()
    try:
        lr = build_last_round(position)
    except Unsupported as exc:
        raise PuzzleError(f"the CP-SAT model does not cover this position: {exc}") from None
    hint_passing_at_once(lr)
    build = time.perf_counter() - start

    def report(obj: float, best: float, wall: float) -> None:
        if progress:
            progress(f"best found: value {lr.objective.leading(obj)} "
                     f"(bound {lr.objective.leading(best)}) after {wall:.1f}s")

    solver, result = solve(lr.model, params.with_settings(**settings()), progress=report)
    if result.status == "infeasible":
        raise EngineDisagreement("the model has no line, yet passing at once is legal")
    if not result.feasible:
        # nothing found in time: the line that passes at once, not proven
        line = [Turn(Action("pass", tile=lr.pass_tile))]
        replay = evaluate(position, line)
        return Answer(line, replay, False, result.status, None, len(lr.steps),
                      time.perf_counter() - start, build, dict(result.stats))
    line = read_line(lr, solver)
    optimal = result.optimal and not result.interrupted
    claim = predicted(lr, solver)
    replay = replayed(position, line, claim, optimal)
    bound = lr.objective.leading(result.bound) if result.bound is not None else claim.value
    return Answer(line, replay, optimal, result.status, max(bound, replay.value),
                  len(lr.steps), time.perf_counter() - start, build,
                  dict(result.stats, nodes=lr.geometry.size))
