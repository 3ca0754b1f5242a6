"""``bench --solvers``: every case's one model solved by CP-SAT, HiGHS and SCIP.

One tiny run (module fixture) gives the JSON, tables and cactus plot; a saved run shows
them again with ``--from``; a proven value differing between solvers fails the run; a
missing package is one line; the MIP solvers keep the time limit and stop on Ctrl-C.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.cpsat.mipsolvers import missing
from solver.paths import REPO_ROOT

pytestmark = pytest.mark.skipif(missing(["highs", "scip"]) is not None,
                                reason="HiGHS and SCIP (boardsat[solvers]) are not installed")

TINY = Path(__file__).parent / "data" / "bench-tiny.toml"
HARD_FOR_MIP = """
[suite]
time_limit = 5
cap = 0.01

[[case]]
name = "tn-full-late-2"
game = "terra-nova"
kind = "closing"
turns = 2
position = "positions/terra-nova/late-2p.toml"
"""
"""A two-turn closing on a full board: neither HiGHS nor SCIP proves it within a minute
(nor does CP-SAT's one model), so their runs are still going when a test stops them."""


def bench(*args: object):
    return CliRunner().invoke(main, ["bench", *map(str, args)])


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("solvers")
    result = bench("--suite-file", TINY, "--workers", "1", "--solvers", "scip,cp-sat,highs",
                   "--save", folder / "run.json", "--cactus", folder / "cactus.png",
                   "--instances", folder / "set")
    assert result.exit_code == 0, result.output
    return result.output, folder


def test_every_solver_proves_the_solve_paths_optimum(tiny_run) -> None:
    _, folder = tiny_run
    data = json.loads((folder / "run.json").read_text())
    assert data["solvers"] == ["cp-sat", "highs", "scip"]
    for record in data["cases"]:
        assert record["optimal"]
        for name in data["solvers"]:
            run = record["solvers"][name]
            assert run["status"] == "optimal" and run["value"] == record["value"], name
            assert run["bound"] == record["value"][0] and run["seconds"] > 0


def test_the_table_and_the_cactus_plot(tiny_run) -> None:
    output, folder = tiny_run
    assert "Solvers on the same model" in output
    assert "proven: CP-SAT 2/2, HiGHS 2/2, SCIP 2/2" in " ".join(output.split())
    assert (folder / "cactus.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_instance_set_has_each_model_and_its_proven_optimum(tiny_run) -> None:
    _, folder = tiny_run
    names = ["tn-6x7-best", "rv-identical-midgame"]
    assert sorted(p.name for p in (folder / "set").iterdir()) == sorted(
        ["README.md"] + [f"{n}{s}" for n in names for s in (".mps", ".pb", ".pb.txt")])
    readme = (folder / "set" / "README.md").read_text()
    for name in names:
        row = next(line for line in readme.splitlines() if line.startswith(f"| {name} |"))
        assert "CP-SAT" in row and "HiGHS" in row and "exhaustive search" in row
    assert "| 19 (19) |" in readme  # the objective, then the value
    assert "Puzzle: max score with 5 draws." in (folder / "set" / "rv-identical-midgame.mps"
                                                 ).read_text().replace("\n* ", " ")


def test_a_saved_run_shows_its_solvers_again(tiny_run, tmp_path) -> None:
    _, folder = tiny_run
    again = bench("--from", folder / "run.json", "--cactus", tmp_path / "c.png")
    assert again.exit_code == 0, again.output
    assert "Solvers on the same model" in again.output and (tmp_path / "c.png").is_file()


def test_proven_values_that_differ_fail_the_run(tiny_run, tmp_path) -> None:
    _, folder = tiny_run
    data = json.loads((folder / "run.json").read_text())
    data["cases"][1]["solvers"]["scip"]["value"] = [0]
    (tmp_path / "wrong.json").write_text(json.dumps(data))
    result = bench("--from", tmp_path / "wrong.json")
    assert result.exit_code == 1
    assert "proven optima disagree" in result.output and "SCIP proved [0]" in result.output


def test_a_missing_solver_is_one_line(monkeypatch) -> None:
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pyscipopt" else real(name, *a))
    result = bench("--suite-file", TINY, "--solvers", "highs,scip")
    assert result.exit_code == 2
    assert result.output.strip() == ("error: SCIP (pyscipopt) not installed: "
                                     "pip install 'boardsat[solvers]'")


def test_an_unknown_solver_is_refused() -> None:
    result = bench("--suite-file", TINY, "--solvers", "cp-sat,gurobi")
    assert result.exit_code == 2 and "--solvers takes cp-sat, highs, scip" in result.output


def test_the_mip_solvers_keep_the_time_limit(tmp_path) -> None:
    suite = tmp_path / "hard.toml"
    suite.write_text(HARD_FOR_MIP)
    result = bench("--suite-file", suite, "--workers", "1", "--time-limit", "1", "--solvers",
                   "highs,scip", "--json")
    assert result.exit_code == 0, result.output
    runs = json.loads(result.stdout)["cases"][0]["solvers"]
    for name, run in runs.items():
        assert run["status"] != "optimal" and run["seconds"] < 2.5, (name, run)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_ctrl_c_ends_the_run_and_the_mip_solver(tmp_path) -> None:
    suite = tmp_path / "hard.toml"
    suite.write_text(HARD_FOR_MIP)
    command = [sys.executable, "-c", "from cli import run; run()", "bench", "--suite-file",
               str(suite), "--workers", "1", "--solvers", "highs"]
    bench_process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not children(bench_process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    solver_processes = children(bench_process.pid)
    assert solver_processes, "the MIP solver never started"
    time.sleep(0.5)
    sent = time.monotonic()
    bench_process.send_signal(signal.SIGINT)
    _, err = bench_process.communicate(timeout=30)
    assert time.monotonic() - sent < 15  # the process exit alone takes seconds on a busy machine
    assert bench_process.returncode == 130, err
    for pid in solver_processes:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(
            f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    assert os.path.exists(suite)


def test_the_solver_process_ends_itself_when_its_parent_is_gone() -> None:
    """A bench killed outright (no Ctrl-C to clean up) leaves no solver running for nobody."""
    parent = subprocess.Popen(
        [sys.executable, "-c", "import time; from solver.cpsat.mipsolvers import MipSolvers; "
         "print(MipSolvers().process().pid, flush=True); time.sleep(60)"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = Path(f"/proc/{parent.stdout.readline().strip()}")
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while child.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not child.exists()
