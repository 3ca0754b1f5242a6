"""``bench --solvers``: each case's one model (the one ``boardsat export`` writes) solved by
CP-SAT and by MIP solvers, with the same time limit and thread count.

CP-SAT solves the model with the parameters the game's ``solve`` sets on it
(:class:`~solver.protocol.PuzzleModel`); HiGHS and SCIP solve its exact MIP translation
from an ``.mps`` file (:mod:`solver.cpsat.mipsolvers`). Every solution found is checked
against the CP-SAT model (CP-SAT with each variable fixed to it), read as the game's
answer and replayed by the engine; a proven value that differs between solvers (or
from the CP-SAT solve path's proven optimum) fails the run as a CP-SAT/engine
disagreement does. Names no game.
"""

from __future__ import annotations

import math
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from solver.cpsat import SolveParams
from solver.cpsat.interrupt import Interrupted
from solver.errors import BuildTimeout, InputError, NoAnswer
from solver.protocol import Case, Game, PuzzleModel

SOLVERS = ("cp-sat", "highs", "scip")
"""What ``--solvers`` may name, in the order of the tables."""
TITLES = {"cp-sat": "CP-SAT", "highs": "HiGHS", "scip": "SCIP"}


@dataclass(frozen=True)
class SolverRun:
    """One solver on one case's model (a record's ``solvers[name]`` in the JSON)."""

    status: str
    """``optimal``, ``feasible`` (a line, not proven), ``infeasible``, ``unknown`` (none
    found), ``unbuilt`` (the model was not built within the time limit)."""
    seconds: float
    """Wall seconds of the solve (the model built and the file read before)."""
    value: list[int] | None = None
    """The objective tuple of its best solution, replayed by the engine."""
    objective: float | None = None
    bound: int | None = None
    """Its proven bound on the leading goal (None: none)."""
    threads: int = 1
    cpu_s: float | None = None
    """CPU seconds of the solve (CP-SAT: this process's, its threads included)."""
    deterministic_time: float | None = None

    @property
    def optimal(self) -> bool:
        """Proven optimal."""
        return self.status == "optimal"


def parse(text: str) -> tuple[str, ...]:
    """``cp-sat,highs`` → the solvers in table order; InputError naming an unknown one."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in SOLVERS]
    if unknown or not names:
        raise InputError(f"--solvers takes {', '.join(SOLVERS)} (comma-separated), "
                         f"not {text!r}")
    return tuple(name for name in SOLVERS if name in names)


def check_installed(solvers: tuple[str, ...]) -> None:
    """InputError (one line) when a MIP solver's package is missing."""
    from solver.cpsat.mipsolvers import missing
    absent = missing([name for name in solvers if name != "cp-sat"])
    if absent:
        raise InputError(absent)


def _leading(pm: PuzzleModel, bound: float | None) -> int | None:
    """The leading goal's bound from a bound on the whole objective."""
    if bound is None or not math.isfinite(bound):
        return None
    return -(-math.floor(bound + 1e-6) // pm.weights[0])


def run_solvers(game: Game, case: Case, position: Any, params: SolveParams,
                solvers: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Each of ``solvers`` on the case's model within ``params.time_limit`` seconds,
    on ``params.workers`` threads (CP-SAT at most the game's cap): ``{name: SolverRun
    as a dict}``. The model is built under the same time limit; when it is not built in
    time every solver is ``unbuilt``."""
    try:
        pm = game.puzzle_model(position, case, params.started())
    except (BuildTimeout, NoAnswer):
        limit = params.time_limit or 0.0
        return {name: asdict(SolverRun("unbuilt", limit)) for name in solvers}
    runs: dict[str, SolverRun] = {}
    if "cp-sat" in solvers:
        runs["cp-sat"] = _cpsat(pm, params)
    mip_solvers = [name for name in solvers if name != "cp-sat"]
    if mip_solvers:
        runs.update(_mip(pm, params, mip_solvers))
    return {name: asdict(run) for name, run in runs.items()}


def _cpsat(pm: PuzzleModel, params: SolveParams) -> SolverRun:
    from solver.cpsat import solve
    run = params.with_settings(**pm.settings).started()
    if pm.workers is not None:
        run = run.with_workers_at_most(pm.workers)
    cpu = time.process_time()
    solver, result = solve(pm.model, run)
    cpu = time.process_time() - cpu
    if result.interrupted:  # Ctrl-C ends the run, as between the cases
        raise Interrupted()
    value = list(pm.replay(solver, result.optimal).value) if result.feasible else None
    return SolverRun(result.status, round(result.wall_s, 4), value, result.objective,
                     _leading(pm, result.bound), run.workers, round(cpu, 4),
                     result.stats.get("deterministic_time"))


def _mip(pm: PuzzleModel, params: SolveParams, names: list[str]) -> dict[str, SolverRun]:
    from solver.cpsat.assignment import solve_assignment
    from solver.cpsat.mip import translate
    from solver.cpsat.mipsolvers import MipSolvers
    from solver.cpsat.modelfiles import message_of, solution_of, write_mip
    message = message_of(pm.model)
    mip = translate(message)
    runs = {}
    with tempfile.TemporaryDirectory() as folder, MipSolvers() as mip_solvers:
        path = Path(folder) / "model.mps"
        write_mip(mip, path, pm.puzzle)
        for name in names:
            run = mip_solvers.solve(name, path, mip.variables, params.time_limit,
                                    params.workers)
            value = None
            if run.values is not None:
                checked, fixed = solve_assignment(pm.model, solution_of(mip, run.values),
                                                  SolveParams(workers=1))
                if not fixed.feasible:
                    raise RuntimeError(f"{TITLES[name]}'s solution of the MIP is not a "
                                       f"solution of the CP-SAT model ({fixed.status})")
                value = list(pm.replay(checked, run.optimal).value)
            runs[name] = SolverRun(run.status, round(run.wall_s, 4), value, run.objective,
                                   _leading(pm, run.bound), params.workers if name == "highs"
                                   else 1, cpu_s=round(run.cpu_s, 4))
    return runs


def disagreement(name: str, value: list[int], optimal: bool,
                 solvers: dict[str, dict[str, Any]]) -> str | None:
    """What is wrong with a case whose proven values differ: between two solvers on its
    model, or between one of them and the CP-SAT solve path's proven ``value``; None
    when they agree."""
    proven = {TITLES[s]: run["value"] for s, run in solvers.items()
              if run["status"] == "optimal"}
    if optimal:
        proven = {"boardsat solve": value, **proven}
    if len({tuple(v) for v in proven.values()}) > 1:
        return f"case {name}: " + ", ".join(f"{who} proved {v}" for who, v in proven.items())
    return None
