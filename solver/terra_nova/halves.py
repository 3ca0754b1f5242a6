"""2-turn closings on large boards: the two halves of the lines on a thread each.

The lines split by their final stones (:mod:`solver.terra_nova.model.halves`): (a) no
full boundary stoned, (b) exactly one. The first thread solves (b) by the default search
without the LP (:data:`~solver.terra_nova.settings.HALVES_SEARCH`), which finds and
proves its line quickly, then (a) with (b)'s own points as a floor: first (a)'s
relaxation with that floor, which when infeasible refutes (a) without a search
(:func:`~solver.terra_nova.model.halves.no_full_boundary_relaxation`), else (a) itself,
over the candidates the relaxation keeps (:func:`candidates_within_floor`), by the same
search; the second thread solves (a) with the level-2 proof
(:data:`~solver.terra_nova.settings.HALVES_PROOF`).
The answer is proven once (b) is settled and (a) is settled on either thread; the
solve still running is then stopped (:class:`solver.cpsat.Stop`). The best line of all
the solves is the answer, replayed by the engine as always. While they run, the live
report shows the best line so far over both halves and, once both have one, a bound.
Measured against the whole model on two workers in benchmarks/EXPERIMENTS.md, Terra Nova
#75 (and #93 for the floored (a), #120-#122 for its relaxation and the search of (b)).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cpsat import Interrupted, SolveParams, SolveResult, Stop, solve
from solver.cpsat.objectives import Lexicographic
from solver.cpsat.params import ctrl_c_ending_run
from solver.errors import NoAnswer
from solver.terra_nova.answers import (
    Answer,
    Progress,
    candidates_in_time,
    model_answer,
    note,
    time_up,
    unbuilt,
)
from solver.terra_nova.model.geometry import Geometry, cells_cap
from solver.terra_nova.model.halves import (
    no_full_boundary,
    no_full_boundary_candidates,
    no_full_boundary_relaxation,
    one_full_boundary,
)
from solver.terra_nova.model.turn_model import TurnModel
from solver.terra_nova.position import Position
from solver.terra_nova.settings import (
    HALVES_PROOF,
    HALVES_SEARCH,
    HALVES_TURNS,
    LARGE_BOARD_CELLS,
    RELAXATION_SETTINGS,
    WITHIN_FLOOR_ROUNDS,
    add_strategy,
    line_objective,
)


def applies(position: Position, kind: str, horizon: int, params: SolveParams) -> bool:
    """Whether a puzzle takes this path (max-points, :data:`HALVES_TURNS` turns, large
    board, two or more workers)."""
    return (kind == "max-points" and horizon == HALVES_TURNS and params.workers >= 2
            and position.grid.size >= LARGE_BOARD_CELLS)


@dataclass
class _Solved:
    """One solve of a half: its model, objective, solver and result. A half refuted by
    its relaxation has no model and no objective (``None``): its result is the
    relaxation's, infeasible."""

    tm: TurnModel | None
    objective: Lexicographic | None
    solver: cp_model.CpSolver
    result: SolveResult
    floor: int | None

    @property
    def settled(self) -> bool:
        """Proven optimal or infeasible, not cut short."""
        return self.result.status in ("optimal", "infeasible") and not self.result.interrupted

    @property
    def key(self) -> tuple[int, int, int]:
        """The line's order (own points up, others' down, actions down) as a max key."""
        s, tm = self.solver, self.tm
        return (int(s.value(tm.own_points())), -int(s.value(tm.other_points())),
                -int(s.value(tm.actions())))

    def own_bound(self) -> int:
        """A bound on the own points of this half's lines (those above the floor, and
        below it the floor itself)."""
        below = 0 if self.floor is None else self.floor - 1
        if self.result.status == "infeasible":
            return below
        if self.result.status == "optimal":
            return max(below, self.key[0])
        cap = self.tm.own_upper_bound()
        if self.result.bound is None:
            return max(below, cap)
        return max(below, min(cap, self.objective.leading(self.result.bound)))


def _proven(solved: dict[str, _Solved]) -> bool:
    """(b) settled, and (a) settled on either thread."""
    return ("b" in solved and solved["b"].settled
            and any(name in solved and solved[name].settled for name in ("a", "a_floor")))


def _bound(solved: dict[str, _Solved], value: int, cap: int) -> int:
    """A proven bound on own points over every line: ``cap`` (the cells' cap) for a half
    that never got solved."""
    a = [solved[n].own_bound() for n in ("a", "a_floor") if n in solved]
    b = solved["b"].own_bound() if "b" in solved else cap
    return max(value, b, min(a, default=cap))


def _shown(lines: dict[str, int], bounds: dict[str, int], wall: float) -> str:
    """The live report: the best line's own points over the halves so far and, once
    (b) and (a) (on either thread) have a bound, the bound over both (as :func:`_bound`)."""
    best = max(lines.values())
    a = [bounds[n] for n in ("a", "a_floor") if n in bounds]
    bound = max(best, bounds["b"], min(a)) if "b" in bounds and a else "unknown"
    return f"best found: {best} points (bound {bound}) after {wall:.1f}s"


def candidates_within_floor(
    geo: Geometry, floor: int, params: SolveParams, stop: Stop,
) -> tuple[list[int] | None, cp_model.CpSolver, SolveResult]:
    """The candidates of half (a) that a line of (a) with ``floor`` or more own points
    can close, from (a)'s relaxation with that floor
    (:func:`~solver.terra_nova.model.halves.no_full_boundary_relaxation`), with its last
    solve; ``[]`` when there is no such line, None when the rounds did not end (stopped,
    or more than :data:`WITHIN_FLOOR_ROUNDS`).

    The rounds: solve the relaxation; add the candidates its solution closes to the set
    found; require one candidate the relaxation scores outside the set to close; again,
    until it is infeasible. Why the answer holds every candidate such a line closes: the
    line maps to a solution of the relaxation (its proof) in which every candidate the
    line closes and the relaxation scores is closed; the last round admits no solution
    closing one outside the set. Candidates the relaxation does not score (worth nothing
    to the player, or never walled) are kept as they are."""
    relax = no_full_boundary_relaxation(geo, floor, check=params.check)
    relax.model.clear_objective()  # any solution worth the floor will do
    run = params.with_workers_at_most(1).with_settings(**RELAXATION_SETTINGS)
    found: set[int] = set()
    for _ in range(WITHIN_FLOOR_ROUNDS):
        solver, result = solve(relax.model, run, stop=stop)
        if result.interrupted or result.status not in ("optimal", "infeasible"):
            return None, solver, result
        if result.status == "infeasible":
            if not found:
                return [], solver, result
            return ([i for i in no_full_boundary_candidates(geo)
                     if i not in relax.closed or i in found], solver, result)
        found |= {i for i, var in relax.closed.items() if solver.value(var)}
        relax.model.add_bool_or([var for i, var in relax.closed.items() if i not in found])
    return None, solver, result


def maximise(position: Position, horizon: int, params: SolveParams,
             progress: Progress | None, start: float) -> Answer | None:
    """The closing's answer (module doc); None when it is worth no own point or has
    no line in either half (the halves leave out lines worth nothing to the player:
    the caller then solves the whole model). BuildTimeout when the models are not
    built within the time limit."""
    first, geo = candidates_in_time(position, horizon, params, progress)
    build = time.perf_counter() - start
    stop = Stop()
    lock = threading.Lock()
    solved: dict[str, _Solved] = {}
    errors: list[BaseException] = []
    lines: dict[str, int] = {}  # half -> own points of its best line so far (progress)
    bounds: dict[str, int] = {}  # half -> its bound on own points so far (progress)

    def tell() -> None:
        """Show the best line and the bound so far (under ``lock``)."""
        if lines:
            note(progress, _shown(lines, bounds, time.perf_counter() - start))

    def reporter(name: str, tm: TurnModel, objective: Lexicographic, floor: int | None):
        """CP-SAT's progress callback for half ``name``: its line's own points and its
        bound (below ``floor`` the floor itself: :meth:`_Solved.own_bound`)."""
        cap, below = tm.own_upper_bound(), -1 if floor is None else floor - 1

        def report(obj: float, bound: float, wall: float) -> None:
            with lock:
                lines[name] = objective.leading(obj)
                bounds[name] = max(below, min(cap, objective.leading(bound)))
                tell()
        return report

    def half(name: str, make: Callable[..., TurnModel], chosen: dict,
             floor: int | None = None) -> None:
        if stop.stopped:
            return
        tm = make(geo, check=params.check)
        if floor is not None:
            tm.model.add(tm.own_points() >= floor)
        objective = line_objective(tm, horizon, actions=True)
        tm.model.maximize(objective.expr)
        tm.hint_line(first)
        add_strategy(tm, chosen)
        solver, result = solve(tm.model, params.with_workers_at_most(1).with_settings(**chosen),
                               stop=stop,
                               progress=reporter(name, tm, objective, floor) if progress else None)
        done = _Solved(tm, objective, solver, result, floor)
        with lock:
            solved[name] = done
            if done.settled:  # its exact bound (CP-SAT's last callback may be older)
                bounds[name] = done.own_bound()
                tell()
            if _proven(solved):
                stop.stop()

    def guarded(work: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                work()
            except BaseException as exc:  # handed to the waiting thread
                errors.append(exc)
                stop.stop()
        return run

    def relaxed(floor: int) -> list[int] | None:
        """The candidates a line of (a) worth ``floor`` can close
        (:func:`candidates_within_floor`); when there is no such line, (a) is recorded
        as settled and the answer is []."""
        only, solver, result = candidates_within_floor(geo, floor, params, stop)
        if only == []:
            with lock:
                solved["a_floor"] = _Solved(None, None, solver, result, floor)
                bounds["a_floor"] = floor - 1
                tell()
                if _proven(solved):
                    stop.stop()
        return only

    def primal() -> None:
        half("b", one_full_boundary, HALVES_SEARCH)
        b = solved.get("b")
        floor = b.key[0] if b is not None and b.result.feasible else None
        only = None if floor is None or stop.stopped else relaxed(floor)
        if only != []:
            half("a_floor", lambda g, check: no_full_boundary(g, check, only),
                 HALVES_SEARCH, floor)

    def proof() -> None:
        half("a", no_full_boundary, HALVES_PROOF)

    note(progress, f"solving two halves ({len(geo.candidates)} candidate regions)")
    threads = [threading.Thread(target=guarded(primal), name="halves (b), then (a)"),
               threading.Thread(target=guarded(proof), name="halves (a)")]
    for thread in threads:
        thread.start()
    try:  # Ctrl-C stops both threads' solves (solver.cpsat.interrupt), their builds check
        while any(thread.is_alive() for thread in threads):
            for thread in threads:
                thread.join(0.1)
            if stop.stopped or params.interrupted():
                stop.stop()  # reaches a solve that was starting at the first call
    except KeyboardInterrupt:  # a second Ctrl-C: no answer, at once
        stop.stop()
        raise
    interrupted = params.interrupted()
    lines = [s for s in solved.values() if s.result.feasible]
    for error in errors:  # stopped building a half: an error only without a line
        if not isinstance(error, (NoAnswer, Interrupted)):
            raise error
        if not lines and not interrupted:
            raise unbuilt(horizon, params) from None
    proven = _proven(solved) and not interrupted
    cap = cells_cap(geo.candidates)
    if not lines:
        if interrupted:
            raise Interrupted()
        if proven:
            return None
        answer = time_up(position, "max-points", first, start, build)
        answer.bound = _bound(solved, answer.value, cap)
        return answer
    best = max(lines, key=lambda s: s.key)
    if proven and best.key[0] < 1:
        return None
    answer = model_answer(position, "max-points", best.tm, best.solver, best.result,
                          start, build)
    answer.optimal = proven
    answer.status = "optimal" if proven else "feasible"
    answer.bound = answer.value if proven else _bound(solved, answer.value, cap)
    answer.stats["halves"] = {name: s.result.stats["deterministic_time"]
                              for name, s in solved.items()}
    if interrupted and ctrl_c_ending_run():
        raise Interrupted()
    return answer
