"""One place where CP-SAT models are solved: limits, workers, seed, progress, results.

Game-neutral: it takes a built ``cp_model.CpModel`` and returns a
:class:`SolveResult` plus the solver (for reading values). Ctrl-C during a
solve stops the search and returns the best solution found so far instead of
raising, so callers can still print it (``SolveResult.interrupted``); inside
:func:`ctrl_c_ends_run` (a driver running many solves) it then raises
KeyboardInterrupt to end the whole run. A :class:`~solver.cpsat.deadline.Deadline`
in :class:`SolveParams` caps the solve at what is left of the command's time limit.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat import interrupt
from solver.cpsat.interrupt import Interrupted
from solver.cpsat.params import SolveParams, ctrl_c_ending_run
from solver.errors import NoAnswer

ProgressFn = Callable[[float, float, float], None]
"""Called on every improving solution and, once there is one, on every improvement of
the proven bound, with ``(objective, best_bound, wall_seconds)``."""

_STATUS = {
    cp_model.OPTIMAL: "optimal",
    cp_model.FEASIBLE: "feasible",
    cp_model.INFEASIBLE: "infeasible",
    cp_model.MODEL_INVALID: "model_invalid",
    cp_model.UNKNOWN: "unknown",
}


@dataclass
class SolveResult:
    """Outcome of one solve."""

    status: str
    objective: float | None
    bound: float | None
    wall_s: float
    stats: dict[str, Any]
    interrupted: bool = False

    @property
    def optimal(self) -> bool:
        """True only when CP-SAT proved optimality (or, without objective, feasibility)."""
        return self.status == "optimal"

    @property
    def feasible(self) -> bool:
        """True when a solution is available (proven optimal or not)."""
        return self.status in ("optimal", "feasible")


_STOP_AGAIN = 0.1
"""Seconds between the checks, while CP-SAT runs, for a Ctrl-C to pass on (:func:`_run`)."""

STARTUP_SECONDS_PER_CONSTRAINT = 3e-5
"""What CP-SAT may spend, per constraint of the model, beyond ``max_time_in_seconds``:
loading the model and presolve passes it does not interrupt (Terra Nova closings,
2 workers, load 12-16: a 0.01 s limit took 0.6-1.7 s on 111 k constraints, 17.4 s
on 1.1 M; a 20 s limit 23.1 s on the 3-turn late-2p model, whose presolve ran 3 s
over). This is about twice the worst rate seen. Under a command's deadline a solve
gets what is left minus this much per constraint (:func:`startup_seconds`), and is
not started when nothing remains."""


def startup_seconds(model: cp_model.CpModel) -> float:
    """Seconds CP-SAT may take on ``model`` beyond its time limit (an estimate from the
    number of constraints, :data:`STARTUP_SECONDS_PER_CONSTRAINT`)."""
    return len(model.proto.constraints) * STARTUP_SECONDS_PER_CONSTRAINT


def _no_time(params: SolveParams, model: cp_model.CpModel) -> bool:
    """True when what is left of the deadline cannot even pay for loading the model."""
    left = search_seconds_left(params, model)
    return left is not None and left <= 0


def search_seconds_left(params: SolveParams, model: cp_model.CpModel) -> float | None:
    """What is left of the command's deadline for searching ``model``: the deadline's
    remaining seconds minus :func:`startup_seconds` (None: no deadline)."""
    left = params.deadline.remaining() if params.deadline is not None else None
    return None if left is None else left - startup_seconds(model)


def _message(kind: type, fields: Mapping[str, Any]) -> Any:
    """A CP-SAT parameter message of type ``kind`` with these fields set (a named
    parameter set of ``subsolver_params``, given in the settings as a mapping)."""
    message = kind()
    for name, value in fields.items():
        setattr(message, name, value)
    return message


def _configure(solver: cp_model.CpSolver, params: SolveParams,
               model: cp_model.CpModel) -> None:
    p = solver.parameters
    for name, value in params.settings.items():
        if isinstance(value, (list, tuple)):
            getattr(p, name).extend([_message(type(p), v) if isinstance(v, Mapping) else v
                                     for v in value])
        else:
            setattr(p, name, value)
    p.num_workers = params.workers
    p.random_seed = params.seed
    p.log_search_progress = params.log
    p.catch_sigint_signal = False  # Ctrl-C is handled by solver.cpsat.interrupt
    limits = [params.time_limit] if params.time_limit is not None else []
    left = search_seconds_left(params, model)
    if left is not None:
        limits.append(left)
    if limits:
        p.max_time_in_seconds = max(0.001, float(min(limits)))


@contextmanager
def _stop_on_ctrl_c(solver: cp_model.CpSolver, params: SolveParams) -> Iterator[None]:
    """While solving, Ctrl-C asks CP-SAT to stop and keep its best solution (any thread;
    :mod:`solver.cpsat.interrupt`); inside :func:`ctrl_c_ends_run` it then raises
    :class:`Interrupted`."""
    with interrupt.polled(), interrupt.stopping(solver.stop_search):
        yield
    if params.interrupted() and ctrl_c_ending_run():
        raise Interrupted()


def _run(solver: cp_model.CpSolver, model: cp_model.CpModel,
         callback: cp_model.CpSolverSolutionCallback | None,
         stopping: Callable[[], bool]) -> Any:
    """``solver.solve(model, callback)``, stopped (keeping its best solution) while
    ``stopping()`` holds: a Ctrl-C since the command's deadline began, a :class:`Stop`
    that was stopped.

    The solve runs in a helper thread while the calling thread waits in short steps:

    * in the main thread, so the handler of :mod:`solver.cpsat.interrupt` runs at once
      (CP-SAT's own catching of Ctrl-C is off, :func:`_configure`): it stops the
      search, keeping the best solution, and records the interruption;
    * in every thread, so a stop is passed on again while the search runs: one that
      came while the solve was being set up (before ``CpSolver.solve`` made its search,
      when ``stop_search`` does nothing) would otherwise be lost, and the search would
      run to its end.
    """
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["code"] = solver.solve(model, callback) if callback else solver.solve(model)
        except BaseException as exc:  # handed to the waiting thread
            outcome["error"] = exc

    helper = threading.Thread(target=work, name="cp-sat solve", daemon=True)
    helper.start()
    while helper.is_alive():
        helper.join(_STOP_AGAIN)
        if stopping():
            solver.stop_search()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["code"]


class _Progress(cp_model.CpSolverSolutionCallback):
    """Reports the incumbent and the proven bound as either improves (see ProgressFn)."""

    def __init__(self, report: ProgressFn):
        super().__init__()
        self._report = report
        self._best: float | None = None
        self._start = time.perf_counter()

    def on_solution_callback(self) -> None:
        self._best = self.objective_value
        self._report(self.objective_value, self.best_objective_bound, self.wall_time)

    def on_bound(self, bound: float) -> None:
        """CP-SAT's ``best_bound_callback``: a better proven bound."""
        if self._best is not None:
            self._report(self._best, bound, time.perf_counter() - self._start)


class Stop:
    """Ends the solves handed to it (``solve(..., stop=...)``), e.g. when another
    thread's solve has settled the question: :meth:`stop` asks each to stop (it keeps
    its best solution), and a solve handed over afterwards returns at once, unsolved.
    Safe to call from any thread; a solve that was just starting when it came is stopped
    as soon as its search exists (:func:`_run` passes the stop on while it runs)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._solvers: list[cp_model.CpSolver] = []
        self.stopped = False

    def admit(self, solver: cp_model.CpSolver) -> bool:
        """Register ``solver`` before its solve; False when already stopped."""
        with self._lock:
            if not self.stopped:
                self._solvers.append(solver)
            return not self.stopped

    def stop(self) -> None:
        """Stop every registered solve and any handed over later."""
        with self._lock:
            self.stopped = True
            for solver in self._solvers:
                solver.stop_search()


UNSOLVED = {"branches": 0, "conflicts": 0, "booleans": 0, "deterministic_time": 0.0}
"""The statistics of a solve that did not start (:func:`_no_time`), and of an answer no
solve gave."""


def _stats(solver: cp_model.CpSolver) -> dict[str, Any]:
    return {
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "booleans": solver.num_booleans,
        "deterministic_time": round(solver.deterministic_time, 4),
    }


def solve(
    model: cp_model.CpModel,
    params: SolveParams,
    *,
    progress: ProgressFn | None = None,
    stop: Stop | None = None,
) -> tuple[cp_model.CpSolver, SolveResult]:
    """Solve ``model`` under ``params``; return the solver (to read values) and the result.

    Under a deadline CP-SAT gets what is left of it minus :func:`startup_seconds` (what
    it may overrun its limit by); when that is nothing it is not started (it would
    overrun the deadline just loading the model): the result is ``unknown``, without a
    solution, as if the time limit had stopped the search. So is the result when
    ``stop`` was stopped before the solve; stopped during it, the solve ends as if
    its time had run out. Once Ctrl-C came (since ``params`` :meth:`~SolveParams.started`;
    without that, since this call) no solve starts: the result is ``unknown`` and
    ``interrupted``; Ctrl-C during the solve stops it with its best solution
    (``interrupted``).
    """
    if params.deadline is None:
        params = params.started()
    solver = cp_model.CpSolver()
    if params.interrupted():
        return solver, SolveResult("unknown", None, None, 0.0, dict(UNSOLVED), interrupted=True)
    if _no_time(params, model) or (stop is not None and not stop.admit(solver)):
        return solver, SolveResult("unknown", None, None, 0.0, dict(UNSOLVED))
    _configure(solver, params, model)
    callback = _Progress(progress) if progress else None
    if callback is not None:
        solver.best_bound_callback = callback.on_bound
    start = time.perf_counter()
    with _stop_on_ctrl_c(solver, params):
        code = _run(solver, model, callback,
                    lambda: params.interrupted() or (stop is not None and stop.stopped))
    wall = time.perf_counter() - start
    status = _STATUS.get(code, "unknown")
    has_objective = model.has_objective()
    feasible = status in ("optimal", "feasible")
    result = SolveResult(
        status=status,
        objective=solver.objective_value if has_objective and feasible else None,
        bound=solver.best_objective_bound if has_objective and feasible else None,
        wall_s=wall,
        stats=_stats(solver),
        interrupted=params.interrupted(),
    )
    return solver, result


def enumerate_projections(
    model: cp_model.CpModel,
    variables: Sequence[cp_model.IntVar],
    params: SolveParams,
    progress: Callable[[int], None] | None = None,
) -> set[tuple[int, ...]]:
    """All distinct value tuples of ``variables`` over the model's solutions.

    Runs CP-SAT's solution enumeration (single worker, presolve off, as enumeration
    requires) and projects every solution onto ``variables``; auxiliary variables
    that multiply solutions are deduplicated away. The model must have no objective.
    ``progress(distinct so far)`` is called on each new tuple. Raises NoAnswer when
    the time limit stops the enumeration, :class:`Interrupted` when Ctrl-C does (or
    came before it).
    """
    if model.has_objective():
        raise ValueError("enumeration needs a model without objective")

    class Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.seen: set[tuple[int, ...]] = set()

        def on_solution_callback(self) -> None:
            before = len(self.seen)
            self.seen.add(tuple(self.value(v) for v in variables))
            if progress and len(self.seen) > before:
                progress(len(self.seen))

    if params.deadline is None:
        params = params.started()
    params.check()
    collector = Collector()
    code = _enumerate(model, params, collector)
    if params.interrupted():
        raise Interrupted()
    if code != cp_model.OPTIMAL and code != cp_model.INFEASIBLE:
        raise NoAnswer(f"the enumeration did not finish within the time limit "
                       f"({len(collector.seen)} found so far; {_STATUS.get(code, code)})")
    return collector.seen


def _enumerate(model: cp_model.CpModel, params: SolveParams,
               collector: cp_model.CpSolverSolutionCallback) -> Any:
    """Run CP-SAT's solution enumeration (one worker, as enumeration requires) with
    ``collector`` on every solution, stopped by Ctrl-C and the time limit; its status."""
    solver = cp_model.CpSolver()
    _configure(solver, replace(params, workers=1), model)
    solver.parameters.enumerate_all_solutions = True
    with _stop_on_ctrl_c(solver, params):
        return _run(solver, model, collector, params.interrupted)


@dataclass
class Enumerated:
    """What one run of :func:`enumerate_distinct` found."""

    found: list[tuple[int, ...]]
    """New distinct value tuples, in the order found."""
    complete: bool
    """True when CP-SAT enumerated every solution (no other tuple exists)."""
    interrupted: bool = False
    """True when Ctrl-C (or the time limit, if not :attr:`complete`) ended it."""


def enumerate_distinct(model: cp_model.CpModel, variables: Sequence[cp_model.IntVar],
                       params: SolveParams, known: set[tuple[int, ...]], *, want: int,
                       stall: int) -> Enumerated:
    """CP-SAT's solution enumeration (one worker) projected on ``variables``, stopped
    once ``want`` tuples not in ``known`` were found or ``stall`` solutions in a row
    brought none (auxiliary variables can multiply the solutions of one tuple many
    times over; forbidding what was found and enumerating again is then faster).

    Ctrl-C and the time limit stop it with what it found (``complete`` False); no run
    starts once Ctrl-C came."""
    if params.deadline is None:
        params = params.started()
    if params.interrupted() or _no_time(params, model):
        return Enumerated([], False, params.interrupted())

    class Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found: list[tuple[int, ...]] = []
            self.seen: set[tuple[int, ...]] = set()
            self.dry = 0
            self.cut = False

        def on_solution_callback(self) -> None:
            value = tuple(self.value(v) for v in variables)
            if value in known or value in self.seen:
                self.dry += 1
            else:
                self.found.append(value)
                self.seen.add(value)
                self.dry = 0
            if len(self.found) >= want or self.dry >= stall:
                self.cut = True
                self.stop_search()

    collector = Collector()
    code = _enumerate(model, params, collector)
    complete = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not collector.cut \
        and not params.interrupted()
    return Enumerated(collector.found, complete, params.interrupted())
