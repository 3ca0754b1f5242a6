"""2-turn closings on large boards: the two halves of the lines on a thread each.

The lines split by their final stones (:mod:`solver.terra_nova.model.full_boundaries`):
half (a) covers no full boundary, half (b) exactly one. The first thread solves (b) by
the default search without the LP (:data:`~solver.terra_nova.settings.HALVES_SEARCH`),
which finds and proves its line quickly, then (a) with (b)'s own points as a floor:
first (a)'s relaxation with that floor, which when infeasible refutes (a) without a
search, else (a) itself over the candidates the relaxation keeps
(:func:`candidates_within_floor`), by the same search; the second thread solves (a)
whole with the level-2 proof (:data:`~solver.terra_nova.settings.HALVES_PROOF`).
The answer is proven once (b) is settled and (a) is settled on either thread; the solve
still running is then stopped (:class:`solver.cpsat.Stop`). The best line of all the
solves is the answer, replayed by the engine as always. While they run, the live report
shows the best line so far over both halves and, once both have one, a bound.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from ortools.sat.python import cp_model

from solver.cpsat import Interrupted, SolveParams, SolveResult, Stop, solve
from solver.cpsat.objectives import Lexicographic
from solver.cpsat.params import ctrl_c_ending_run
from solver.errors import NoAnswer
from solver.terra_nova.answers import (
    Answer,
    ClosingPath,
    Progress,
    candidates_in_time,
    model_answer,
    note,
    time_up,
    unbuilt,
)
from solver.terra_nova.model.full_boundaries import (
    no_full_boundary,
    no_full_boundary_candidates,
    no_full_boundary_relaxation,
    one_full_boundary,
)
from solver.terra_nova.model.geometry import Geometry, cells_cap
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


class Half(Enum):
    """The two halves of the lines, by their final stones; the values are the names
    ``--json`` gives them (docs/json.md, ``stats.halves``)."""

    NO_FULL_BOUNDARY = "a"
    ONE_FULL_BOUNDARY = "b"


@dataclass(frozen=True)
class Part:
    """One solve of the split: a half, with or without (b)'s points as a floor."""

    half: Half
    floored: bool = False

    @property
    def name(self) -> str:
        """How ``--json`` names the solve: ``a``, ``b`` or ``a_floor``."""
        return self.half.value + ("_floor" if self.floored else "")


B = Part(Half.ONE_FULL_BOUNDARY)
"""Half (b), on the first thread."""
A_FLOORED = Part(Half.NO_FULL_BOUNDARY, floored=True)
"""Half (a) with (b)'s points as a floor, on the first thread after (b)."""
A = Part(Half.NO_FULL_BOUNDARY)
"""Half (a) whole, on the second thread."""


def applies(position: Position, kind: str, horizon: int, params: SolveParams) -> bool:
    """Whether a puzzle takes this path (max-points, :data:`HALVES_TURNS` turns, large
    board, two or more workers)."""
    return (kind == "max-points" and horizon == HALVES_TURNS and params.workers >= 2
            and position.grid.size >= LARGE_BOARD_CELLS)


@dataclass
class HalfSolve:
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
        assert tm is not None
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
        assert self.tm is not None and self.objective is not None
        cap = self.tm.own_upper_bound()
        if self.result.bound is None:
            return max(below, cap)
        return max(below, min(cap, self.objective.leading(self.result.bound)))


def proven(settled: Callable[[Part], bool]) -> bool:
    """Whether the split is proven, ``settled`` telling which solves are: (b) settled,
    and (a) settled on either thread."""
    return settled(B) and (settled(A) or settled(A_FLOORED))


def split_bound(bounds: dict[Part, int]) -> int | None:
    """A bound on own points over every line from the halves' ``bounds`` so far (None:
    (b) or (a) has none yet): (b)'s and the smaller of (a)'s two."""
    a = [bounds[part] for part in (A, A_FLOORED) if part in bounds]
    if B not in bounds or not a:
        return None
    return max(bounds[B], min(a))


@dataclass(frozen=True)
class WithinFloor:
    """What :func:`candidates_within_floor` found, with its last solve."""

    candidates: list[int] | None
    """The candidates a line of (a) worth the floor can close; ``[]``: there is no such
    line; None: the rounds did not end."""
    solver: cp_model.CpSolver
    result: SolveResult


def candidates_within_floor(geo: Geometry, floor: int, params: SolveParams,
                            stop: Stop) -> WithinFloor:
    """The candidates of half (a) that a line of (a) with ``floor`` or more own points
    can close, from (a)'s relaxation with that floor
    (:func:`~solver.terra_nova.model.full_boundaries.no_full_boundary_relaxation`); the
    rounds end when the relaxation is infeasible, or not (stopped, or more than
    :data:`WITHIN_FLOOR_ROUNDS`).

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
            return WithinFloor(None, solver, result)
        if result.status == "infeasible":
            if not found:
                return WithinFloor([], solver, result)
            return WithinFloor([i for i in no_full_boundary_candidates(geo)
                                if i not in relax.closed or i in found], solver, result)
        found |= {i for i, var in relax.closed.items() if solver.value(var)}
        relax.model.add_bool_or([var for i, var in relax.closed.items() if i not in found])
    return WithinFloor(None, solver, result)


class SplitSolve(ClosingPath):
    """The two threads of one 2-turn closing (module doc); :meth:`run` once."""

    def __init__(self, position: Position, horizon: int, params: SolveParams,
                 progress: Progress | None, start: float) -> None:
        super().__init__(position, horizon, params, progress, start)
        self.first, self.geo = candidates_in_time(position, horizon, params, progress)
        """The engine's first legal line (every solve's hint) and the geometry."""
        self.build = time.perf_counter() - start
        self.stop = Stop()
        """Stops the solve still running once the split is proven."""
        self.lock = threading.Lock()
        """Guards :attr:`solved`, :attr:`lines` and :attr:`bounds` across the threads."""
        self.solved: dict[Part, HalfSolve] = {}
        self.errors: list[BaseException] = []
        """Raised in a thread, handed to the waiting one."""
        self.lines: dict[Part, int] = {}
        """The own points of each solve's best line so far (the live report)."""
        self.bounds: dict[Part, int] = {}
        """Each solve's bound on own points so far (the live report)."""

    def proven(self) -> bool:
        """(b) settled, and (a) settled on either thread."""
        return proven(lambda part: part in self.solved and self.solved[part].settled)

    def bound(self, value: int) -> int:
        """A proven bound on own points over every line, at least ``value``: the cells'
        cap (:func:`~solver.terra_nova.model.geometry.cells_cap`) for a half never solved."""
        cap = cells_cap(self.geo.candidates)
        bounds = {part: s.own_bound() for part, s in self.solved.items()}
        a = [bounds[part] for part in (A, A_FLOORED) if part in bounds]
        return max(value, bounds.get(B, cap), min(a, default=cap))

    def _tell(self) -> None:
        """Show the best line and the bound so far (under :attr:`lock`)."""
        if self.lines:
            best = max(self.lines.values())
            bound = split_bound(self.bounds)
            shown = "unknown" if bound is None else max(best, bound)
            note(self.progress, f"best found: {best} points (bound {shown}) after "
                                f"{time.perf_counter() - self.start:.1f}s")

    def _reporter(self, part: Part, tm: TurnModel, objective: Lexicographic,
                  floor: int | None) -> Callable[[float, float, float], None]:
        """CP-SAT's progress callback for ``part``: its line's own points and its bound
        (below ``floor`` the floor itself: :meth:`HalfSolve.own_bound`)."""
        cap, below = tm.own_upper_bound(), -1 if floor is None else floor - 1

        def report(obj: float, bound: float, wall: float) -> None:
            with self.lock:
                self.lines[part] = objective.leading(obj)
                self.bounds[part] = max(below, min(cap, objective.leading(bound)))
                self._tell()
        return report

    def _settle(self, part: Part, done: HalfSolve) -> None:
        """Record ``done`` (under :attr:`lock`) and stop the other thread once proven."""
        with self.lock:
            self.solved[part] = done
            if done.settled:  # its exact bound (CP-SAT's last callback may be older)
                self.bounds[part] = done.own_bound()
                self._tell()
            if self.proven():
                self.stop.stop()

    def _half(self, part: Part, make: Callable[..., TurnModel], chosen: dict,
              floor: int | None = None) -> None:
        """Solve ``part``'s model (``make``) with the settings ``chosen``."""
        if self.stop.stopped:
            return
        params = self.params
        tm = make(self.geo, check=params.check)
        if floor is not None:
            tm.model.add(tm.own_points() >= floor)
        objective = line_objective(tm, self.horizon, actions=True)
        tm.model.maximize(objective.expr)
        tm.hint_line(self.first)
        add_strategy(tm, chosen)
        report = self._reporter(part, tm, objective, floor) if self.progress else None
        solver, result = solve(tm.model, params.with_workers_at_most(1).with_settings(**chosen),
                               stop=self.stop, progress=report)
        self._settle(part, HalfSolve(tm, objective, solver, result, floor))

    def _within(self, floor: int) -> list[int] | None:
        """The candidates a line of (a) worth ``floor`` can close
        (:func:`candidates_within_floor`); when there is no such line, (a) is recorded
        as settled and the answer is []."""
        within = candidates_within_floor(self.geo, floor, self.params, self.stop)
        if within.candidates == []:  # refuted: settled, its bound the floor's
            self._settle(A_FLOORED, HalfSolve(None, None, within.solver, within.result, floor))
        return within.candidates

    def _primal(self) -> None:
        """The first thread: (b), then (a) above (b)'s points."""
        self._half(B, one_full_boundary, HALVES_SEARCH)
        b = self.solved.get(B)
        floor = b.key[0] if b is not None and b.result.feasible else None
        only = None if floor is None or self.stop.stopped else self._within(floor)
        if only != []:
            self._half(A_FLOORED, lambda g, check: no_full_boundary(g, check, only),
                       HALVES_SEARCH, floor)

    def _proof(self) -> None:
        """The second thread: (a) whole, with the LP."""
        self._half(A, no_full_boundary, HALVES_PROOF)

    def _guarded(self, work: Callable[[], None]) -> Callable[[], None]:
        """``work`` handing what it raises to the waiting thread."""
        def run() -> None:
            try:
                work()
            except BaseException as exc:  # handed to the waiting thread
                self.errors.append(exc)
                self.stop.stop()
        return run

    def run(self) -> Answer | None:
        """The closing's answer (module doc); None when it is worth no own point or has
        no line in either half (the halves leave out lines worth nothing to the player:
        the caller then solves the whole model). BuildTimeout when the models are not
        built within the time limit."""
        note(self.progress, f"solving two halves ({len(self.geo.candidates)} candidate "
                            f"regions)")
        threads = [threading.Thread(target=self._guarded(self._primal),
                                    name="halves (b), then (a)"),
                   threading.Thread(target=self._guarded(self._proof), name="halves (a)")]
        for thread in threads:
            thread.start()
        try:  # Ctrl-C and the stop reach both threads' solves (the harness), their builds check
            while any(thread.is_alive() for thread in threads):
                for thread in threads:
                    thread.join(0.1)
        except KeyboardInterrupt:  # a second Ctrl-C: no answer, at once
            self.stop.stop()
            raise
        return self._answer(self.params.interrupted())

    def _answer(self, interrupted: bool) -> Answer | None:
        """The answer once both threads are done (:meth:`run`)."""
        lines = [s for s in self.solved.values() if s.result.feasible]
        for error in self.errors:  # stopped building a half: an error only without a line
            if not isinstance(error, (NoAnswer, Interrupted)):
                raise error
            if not lines and not interrupted:
                raise unbuilt(self.horizon, self.params) from None
        done = self.proven() and not interrupted
        if not lines:
            if interrupted:
                raise Interrupted()
            if done:
                return None
            answer = time_up(self.position, "max-points", self.first, self.start, self.build)
            answer.bound = self.bound(answer.value)
            return answer
        best = max(lines, key=lambda s: s.key)
        if done and best.key[0] < 1:
            return None
        assert best.tm is not None
        answer = model_answer(self.position, "max-points", best.tm, best.solver, best.result,
                              self.start, self.build)
        answer.optimal = done
        answer.status = "optimal" if done else "feasible"
        answer.bound = answer.value if done else self.bound(answer.value)
        answer.stats["halves"] = {part.name: s.result.stats["deterministic_time"]
                                  for part, s in self.solved.items()}
        if interrupted and ctrl_c_ending_run():
            raise Interrupted()
        return answer


def maximise(position: Position, horizon: int, params: SolveParams,
             progress: Progress | None, start: float) -> Answer | None:
    """The closing's answer (:meth:`SplitSolve.run`)."""
    return SplitSolve(position, horizon, params, progress, start).run()
