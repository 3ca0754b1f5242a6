"""Closings of 3+ turns on large boards: a restricted model's line and a relaxation's bound.

The full closing model is too large at these horizons for CP-SAT to search within a
few minutes (benchmarks/EXPERIMENTS.md, Terra Nova #43). Here the time left after
the candidate search goes to three CP-SAT solves, each under the command's deadline:

1. :class:`~solver.terra_nova.model.relaxation.Relaxation` over every candidate:
   its proven bound bounds every line (the module's docstring proves it);
2. :func:`~solver.terra_nova.model.restricted.restricted_model` over the candidates
   of smallest boundaries, the others forbidden to close: its lines are legal lines
   with exact points (replayed by the engine as always), its bound covers the lines
   that close no excluded candidate;
3. when (2) is proven, the relaxation again, over the lines that close an excluded
   candidate: if that cannot reach the restricted optimum, the restricted optimum is
   the closing's (own points; others' points and actions follow, since every other
   line gains fewer own points).

The answer's bound is the smaller of (1) and max((2)'s bound, (3)'s bound).
"""

from __future__ import annotations

import math
import time

from solver.cpsat import SolveParams, solve
from solver.errors import EngineDisagreement, NoAnswer
from solver.terra_nova.answers import (
    Answer,
    Progress,
    first_line,
    model_answer,
    note,
    time_up,
    unbuilt,
)
from solver.terra_nova.model.geometry import Geometry
from solver.terra_nova.model.relaxation import Relaxation
from solver.terra_nova.model.restricted import choose, restricted_model
from solver.terra_nova.position import Position
from solver.terra_nova.settings import (
    LARGE_BOARD_CELLS,
    add_strategy,
    line_objective,
    settings,
)

DEEP_TURNS = 3
"""Max-points closings of at least this many turns on large boards
(:data:`~solver.terra_nova.settings.LARGE_BOARD_CELLS`) take this path."""

RELAXATION_SHARE = 0.2
"""Part of the time left after the candidate search the first relaxation may use (its
bound falls fastest in the first seconds: midgame-2p at 4 turns 395, 145, 103, 95 after
3.6, 4.8, 9.1, 11.5 s; the rest goes to the restricted model's line)."""

EXIT_SECONDS = 1.5
"""Left over after the restricted model's solve: freeing its models and printing took
up to 1.4 s past a 30 s limit at 3 turns (load 6)."""

RESTRICTED_MOMENTS = 300
"""Closing moments (:func:`~solver.terra_nova.model.restricted.closing_moments`) the
restricted model keeps."""

RELAXATION_SETTINGS = {"linearization_level": 2, "cp_model_presolve": False,
                       "cp_model_probing_level": 0}
"""The relaxation solves on one thread with the level-2 LP and no presolve (presolve
of the 4-turn relaxation alone took 45 s; without it midgame-2p's 3-turn one is proven
in 5.0 det. s instead of 13.1, and the 4-turn bound reaches 95 at 20 det. s instead of
173 at 40: benchmarks/EXPERIMENTS.md, Terra Nova #67)."""


def applies(position: Position, kind: str, horizon: int) -> bool:
    """Whether a puzzle takes this path (max-points, 3+ turns, large board)."""
    return (kind == "max-points" and horizon >= DEEP_TURNS
            and position.grid.size >= LARGE_BOARD_CELLS)


def maximise(position: Position, horizon: int, params: SolveParams,
             progress: Progress | None, start: float) -> Answer:
    """The closing's answer (see the module doc); BuildTimeout when not even the
    candidate search ends within the time limit."""
    note(progress, "finding candidate regions")
    try:
        first = first_line(position, horizon, params)
        geo = Geometry(position, horizon, check=params.check)
        geo.candidates  # noqa: B018 -- the search, under the deadline
    except NoAnswer:
        raise unbuilt(horizon, params) from None
    left = params.deadline.remaining() if params.deadline is not None else None
    share = None if left is None else max(0.001, RELAXATION_SHARE * left)
    note(progress, f"bounding ({len(geo.candidates)} candidate regions)")
    whole = _relaxed_bound(geo, params, share)
    note(progress, f"relaxed bound {whole}")
    keep = choose(geo, RESTRICTED_MOMENTS)
    try:
        tm = restricted_model(geo, keep, check=params.check)
        objective = line_objective(tm, horizon, actions=True)
        tm.model.maximize(objective.expr)
        tm.hint_line(first)
    except NoAnswer:
        return _first_only(position, first, start, whole)
    build = time.perf_counter() - start
    chosen = settings("max-points", cells=position.grid.size)
    add_strategy(tm, chosen)
    note(progress, f"solving ({len(keep)} of {len(geo.candidates)} candidate "
                   f"regions, the others kept open)")
    run = params.with_settings(**chosen)
    if params.deadline is not None and params.deadline.remaining() is not None:
        run = run.with_time_limit(max(0.001, params.deadline.remaining() - EXIT_SECONDS))
    shown = "unknown" if whole is None else whole

    def report(obj: float, best: float, wall: float) -> None:
        note(progress, f"best found: {objective.leading(obj)} points "
                       f"(bound {shown}) after {wall:.1f}s")

    solver, result = solve(tm.model, run, progress=report if progress else None)
    if not result.feasible:
        if result.interrupted:
            raise KeyboardInterrupt
        return _first_only(position, first, start, whole, build)
    answer = model_answer(position, "max-points", tm, solver, result, start, build)
    answer.stats.update(candidates=len(geo.candidates), kept=len(keep))
    kept_bound = objective.leading(result.bound) if result.bound is not None else None
    rest = None
    if result.optimal and len(keep) < len(geo.candidates):
        kept = set(keep)
        excluded = [i for i in range(len(geo.candidates)) if i not in kept]
        left = params.deadline.remaining() if params.deadline is not None else None
        try:
            rest = _relaxed_bound(geo, params, None if left is None else left - EXIT_SECONDS,
                                  require_one_of=excluded)
        except KeyboardInterrupt:
            rest = None  # Ctrl-C: the line found is still the answer, unproven
    elif result.optimal:
        rest = -1  # nothing excluded: the restricted model is the whole one
    bounds = [b for b in (whole, None if kept_bound is None or rest is None
                          else max(kept_bound, rest)) if b is not None]
    bound = min(bounds) if bounds else None
    if bound is not None and bound < answer.value:
        raise EngineDisagreement(f"the relaxed bound {bound} is below a line of "
                                 f"{answer.value} points")
    answer.optimal = result.optimal and rest is not None and rest < answer.value
    if not answer.optimal and answer.status == "optimal":
        answer.status = "restricted model optimal"
    answer.bound = answer.value if answer.optimal else bound
    return answer


def _relaxed_bound(geo: Geometry, params: SolveParams, seconds: float | None,
                   require_one_of: list[int] | None = None) -> int | None:
    """CP-SAT's proven bound on a :class:`Relaxation` of ``geo`` (None: not reached
    within the time; -1: no line closes one of ``require_one_of``); KeyboardInterrupt
    on Ctrl-C."""
    try:
        relax = Relaxation(geo, require_one_of=require_one_of or (), check=params.check)
    except NoAnswer:
        return None
    if relax.impossible:
        return -1
    run = params.with_workers_at_most(1).with_settings(**RELAXATION_SETTINGS)
    if seconds is not None:
        run = run.with_time_limit(min(seconds, run.time_limit or seconds))
    _, result = solve(relax.model, run)
    if result.interrupted:
        raise KeyboardInterrupt
    if result.status == "infeasible":
        return -1
    if result.bound is None:
        return None
    return math.floor(result.bound + 1e-6)


def _first_only(position: Position, first, start: float, bound: int | None,
                build: float | None = None) -> Answer:
    """No CP-SAT line in time: the engine's first legal line, with the relaxed bound."""
    build = time.perf_counter() - start if build is None else build
    answer = time_up(position, "max-points", first, start, build)
    answer.bound = None if bound is None else max(bound, answer.value)
    return answer
