"""MIP solvers beside CP-SAT: HiGHS (``highspy``) and SCIP (``pyscipopt``) on a model
file (``.mps``/``.lp``, :mod:`solver.cpsat.modelfiles`), from the optional extra
``boardsat[solvers]``.

OR-tools carries its own copy of HiGHS, and the two cannot be loaded in one process
(their symbols clash), so the solvers run in a child process
(``python -m solver.cpsat.mipsolvers``) that never imports OR-tools: :class:`MipSolvers`
starts it on first use and keeps it for the next solves. A request and its answer are
one JSON line each. The child ignores Ctrl-C; in the parent, Ctrl-C (or a solve that
overruns its time limit by more than :data:`GRACE_SECONDS`) ends the child, which the
next solve starts again. A child whose parent dies ends itself.
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from solver.cpsat import interrupt

SOLVERS = {"highs": ("HiGHS", "highspy"), "scip": ("SCIP", "pyscipopt")}
"""MIP solver name → (its name in tables, the Python package that brings it)."""

EXTRA = "pip install 'boardsat[solvers]'"
"""How a user installs the MIP solvers."""

GRACE_SECONDS = 10.0
"""How long past its time limit (plus 10 % of it) a MIP solve may take before the child
is ended and the run counted unsolved: reading a large file and the solver's own
clean-up come on top of its search."""


@dataclass(frozen=True)
class MipRun:
    """One MIP solve: status ``optimal``, ``feasible`` (a solution, not proven),
    ``infeasible`` or ``unknown`` (nothing found)."""

    solver: str
    status: str
    objective: float | None
    bound: float | None
    wall_s: float
    cpu_s: float
    values: list[float | None] | None = None
    """The first ``variables`` columns of the solution (the CP-SAT model's variables);
    None for a column the file does not mention (in no row and not in the objective:
    a model file need not list it, so the solver never saw it)."""

    @property
    def optimal(self) -> bool:
        """Proven optimal (or, without objective, feasible)."""
        return self.status == "optimal"


def missing(solvers: Iterable[str]) -> str | None:
    """One line naming the solvers whose package is not installed, None when all are."""
    absent = [name for name in solvers
              if importlib.util.find_spec(SOLVERS[name][1]) is None]
    if not absent:
        return None
    names = " and ".join(f"{SOLVERS[n][0]} ({SOLVERS[n][1]})" for n in absent)
    return f"{names} not installed: {EXTRA}"


# ---------------------------------------------------------------- the child process
def _highs(path: str, time_limit: float | None, threads: int, variables: int) -> MipRun:
    import highspy
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", threads)
    h.setOptionValue("mip_rel_gap", 0.0)
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    if h.readModel(path) != highspy.HighsStatus.kOk:
        raise ValueError(f"HiGHS could not read {path}")
    wall, cpu = time.perf_counter(), time.process_time()
    h.run()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    status = h.getModelStatus()
    info = h.getInfo()
    found = info.primal_solution_status == 2  # kSolutionStatusFeasible
    if status == highspy.HighsModelStatus.kOptimal:
        code = "optimal"
    elif status == highspy.HighsModelStatus.kInfeasible:
        code = "infeasible"
    else:
        code = "feasible" if found else "unknown"
    values = None
    if found:
        lp, column = h.getLp(), h.getSolution().col_value
        index = {name: k for k, name in enumerate(lp.col_names_)}
        values = [column[index[f"x{i}"]] if f"x{i}" in index else None
                  for i in range(variables)]
    return MipRun("highs", code, info.objective_function_value if found else None,
                  info.mip_dual_bound if found or code == "optimal" else None, wall, cpu, values)


def _scip(path: str, time_limit: float | None, threads: int, variables: int) -> MipRun:
    import pyscipopt
    m = pyscipopt.Model()
    m.hideOutput()
    m.setParam("misc/catchctrlc", False)
    if time_limit is not None:
        m.setParam("limits/time", float(time_limit))
    m.readProblem(path)
    wall, cpu = time.perf_counter(), time.process_time()
    m.optimizeNogil()  # the GIL free: the child's watchdog keeps running
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    status = m.getStatus()
    found = m.getNSols() > 0
    code = ("optimal" if status == "optimal" else "infeasible" if status == "infeasible"
            else "feasible" if found else "unknown")
    values = None
    if found:
        best = m.getBestSol()
        by_name = {v.name: v for v in m.getVars()}
        values = [m.getSolVal(best, by_name[f"x{i}"]) if f"x{i}" in by_name else None
                  for i in range(variables)]
    bound = m.getDualbound() if found or code == "optimal" else None
    return MipRun("scip", code, m.getObjVal() if found else None, bound, wall, cpu, values)


_RUN = {"highs": _highs, "scip": _scip}

ORPHAN_POLL_SECONDS = 0.5


def _orphan_watch(parent: int) -> None:
    """End the child as soon as its parent is gone (killed without closing it), so that
    no solve goes on for nobody; the solvers run without the GIL, so this thread runs."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_POLL_SECONDS)
    os._exit(1)


def serve(requests: IO[str], answers: IO[str], parent: int) -> None:
    """The child's loop: one JSON request per line in, one :class:`MipRun` (or
    ``{"error": ...}``) per line out; it ends when process ``parent`` is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides about Ctrl-C
    threading.Thread(target=_orphan_watch, args=(parent,), daemon=True).start()
    for line in requests:
        request = json.loads(line)
        try:
            run = _RUN[request["solver"]](request["path"], request["time_limit"],
                                          request["threads"], request["variables"])
            answer: dict[str, Any] = asdict(run)
        except Exception as exc:  # reported to the parent, which raises it there
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


# ---------------------------------------------------------------- the parent
class MipSolvers:
    """The child process that runs HiGHS and SCIP (module doc); a context manager."""

    def __init__(self) -> None:
        self._child: subprocess.Popen[str] | None = None

    def __enter__(self) -> MipSolvers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the child process, if any."""
        child, self._child = self._child, None
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()

    def process(self) -> subprocess.Popen[str]:
        """The child process, started if need be."""
        if self._child is None or self._child.poll() is not None:
            self._child = subprocess.Popen(
                [sys.executable, "-m", "solver.cpsat.mipsolvers", str(os.getpid())],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
        return self._child

    def solve(self, solver: str, path: Path, variables: int, time_limit: float | None,
              threads: int = 1) -> MipRun:
        """Solve the MIP file ``path`` with ``solver`` (``highs`` or ``scip``) within
        ``time_limit`` seconds on ``threads`` threads (SCIP searches on one whatever
        this says); the values of the first ``variables`` columns come back.
        KeyboardInterrupt on Ctrl-C (the child is ended)."""
        child = self.process()
        assert child.stdin is not None and child.stdout is not None
        request = {"solver": solver, "path": str(path.resolve()), "time_limit": time_limit,
                   "threads": threads, "variables": variables}
        start = time.perf_counter()
        child.stdin.write(json.dumps(request) + "\n")
        child.stdin.flush()
        patience = None if time_limit is None else time_limit * 1.1 + GRACE_SECONDS
        try:
            while not select.select([child.stdout], [], [], 0.1)[0]:
                interrupt.check()  # Ctrl-C in a command that keeps its best answer
                if patience is not None and time.perf_counter() - start > patience:
                    self.close()
                    return MipRun(solver, "unknown", None, None, time.perf_counter() - start,
                                  0.0)
                if child.poll() is not None:
                    raise RuntimeError(f"the {SOLVERS[solver][0]} process ended "
                                       f"(exit status {child.returncode})")
            line = child.stdout.readline()
            if not line:
                raise RuntimeError(f"the {SOLVERS[solver][0]} process ended "
                                   f"(exit status {child.wait()})")
        except BaseException:  # Ctrl-C: the solve must not go on behind the run's back
            self.close()
            raise
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"{SOLVERS[solver][0]}: {answer['error']}")
        return MipRun(**answer)


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout, int(sys.argv[1]))
