"""The local side of the executor seam: order, and Ctrl-C ending a run of solves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from ortools.sat.python import cp_model

from solver.cpsat import SolveParams, ctrl_c_ends_run, enumerate_projections, solve
from solver.executor import LocalExecutor, in_order
from tests.support.models import hard_model


def test_in_order_hands_results_on_by_index():
    with LocalExecutor(2) as executor:
        ready = list(in_order(executor.map_unordered(pow, [(i, 2) for i in range(6)])))
    assert len(ready) == 6  # one entry per arrival
    assert [done.value for batch in ready for done in batch] == [0, 1, 4, 9, 16, 25]
    assert all(where.startswith("pid ") for where in executor.ran_on)


def _ctrl_c_once_solving() -> threading.Thread:
    """Press Ctrl-C (SIGINT to this process) as soon as the solve's handler is in place."""
    default = signal.getsignal(signal.SIGINT)

    def press() -> None:
        deadline = time.monotonic() + 10
        while signal.getsignal(signal.SIGINT) is default and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGINT)

    presser = threading.Thread(target=press)
    presser.start()
    return presser


def _endless_enumeration() -> tuple[cp_model.CpModel, list]:
    model = cp_model.CpModel()
    flags = [model.new_bool_var(f"b{i}") for i in range(40)]  # 2**40 solutions
    return model, flags


def test_ctrl_c_inside_a_run_stops_the_solve_and_ends_the_run():
    model, flags = _endless_enumeration()
    presser = _ctrl_c_once_solving()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), ctrl_c_ends_run():
        enumerate_projections(model, flags, SolveParams(workers=1))
    presser.join()
    assert time.monotonic() - start < 5


def test_ctrl_c_outside_a_run_only_stops_the_solve():
    model = hard_model()
    presser = _ctrl_c_once_solving()
    _, result = solve(model, SolveParams(workers=1))  # no exception: the best answer is kept
    presser.join()
    assert result.interrupted and not result.optimal


def test_ctrl_c_stops_an_enumeration_with_keyboard_interrupt():
    model, flags = _endless_enumeration()
    presser = _ctrl_c_once_solving()
    with pytest.raises(KeyboardInterrupt):  # an unfinished count is no answer (exit 130)
        enumerate_projections(model, flags, SolveParams(workers=1))
    presser.join()


def test_local_runs_and_help_do_not_import_dask():
    code = ("import sys\nfrom click.testing import CliRunner\nfrom cli.main import main\n"
            "from solver.executor import connect\n"
            "CliRunner().invoke(main, ['--help'])\n"
            "with connect(None, 1) as executor:\n"
            "    list(executor.map_unordered(abs, [(-1,)]))\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
