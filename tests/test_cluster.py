"""Running on a real Dask cluster on loopback: the same files and values as a local run.

One ``LocalCluster`` (two worker processes, one thread each, on 127.0.0.1) for
the module; the test that kills a worker runs last.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import cloudpickle
import pytest
from click.testing import CliRunner
from distributed import LocalCluster

from cli.main import main
from solver.errors import InputError
from solver.executor import SCHEDULER_ENV, DaskExecutor
from solver.puzzlegen import Request, generate

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers get _slow by value

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "data" / "bench-tiny.toml"
PUZZLES = [ROOT / "positions" / "terra-nova" / "puzzles" / name
           for name in ("best-turn-two-regions.toml",)] + [
              ROOT / "positions" / "rift-valley" / "midgame-identical.toml"]
TIMING = ("wall_s", "stats", "cpsat_s", "cpsat_runs", "exhaustive_s", "ratio")
"""Fields that hold times: they differ from run to run, the values do not."""


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0") as local_cluster:
        yield local_cluster


def _request(out: Path) -> Request:
    return Request(game="terra-nova", kind="best-turn", turns=1, count=2, seed=7, out=out,
                   workers=1)


def _worker_pids(cluster) -> set[int]:
    with DaskExecutor(cluster.scheduler_address) as executor:
        return {int(pid) for pid in executor._client.run(os.getpid).values()}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _without_times(obj):
    if isinstance(obj, dict):
        return {k: _without_times(v) for k, v in obj.items() if k not in TIMING}
    if isinstance(obj, list):
        return [_without_times(v) for v in obj]
    return obj


def test_generate_on_the_cluster_writes_the_local_files_byte_for_byte(cluster, tmp_path):
    local = generate(_request(tmp_path / "local"))
    with DaskExecutor(cluster.scheduler_address) as executor:
        remote = generate(_request(tmp_path / "cluster"), executor=executor)
    assert [w.path.name for w in remote] == [w.path.name for w in local]
    assert _files(tmp_path / "cluster") == _files(tmp_path / "local")
    assert len(_files(tmp_path / "local")) == 2
    # the workers, not this process, ran the candidates
    pids = {int(where.rsplit(" ", 1)[1]) for where in executor.ran_on}
    assert pids and pids <= _worker_pids(cluster) and os.getpid() not in pids
    assert all(where.startswith("tcp://127.0.0.1:") for where in executor.ran_on)


def test_batch_through_the_environment_variable_gives_the_local_values(cluster, tmp_path):
    files = [*map(str, PUZZLES), str(tmp_path / "missing.toml")]
    local = CliRunner().invoke(main, ["batch", *files, "--workers", "1"])
    out = tmp_path / "results.jsonl"
    remote = CliRunner().invoke(main, ["batch", *files, "--out", str(out)],
                                env={SCHEDULER_ENV: cluster.scheduler_address})
    assert local.exit_code == remote.exit_code == 2, remote.output
    local_lines = [json.loads(line) for line in local.stdout.splitlines()]
    remote_lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["file"] for line in remote_lines] == files
    assert _without_times(remote_lines) == _without_times(local_lines)
    assert remote_lines[0]["game"] == "terra-nova" and remote_lines[0]["optimal"] is True
    assert remote_lines[1]["game"] == "rift-valley" and remote_lines[1]["optimal"] is True
    assert remote_lines[2] == {"file": files[2], "error": "no such file", "line": None,
                               "status": 2}
    assert "tasks ran on Dask scheduler" in remote.stderr


def test_bench_on_the_cluster_gives_the_local_values(cluster):
    runs = []
    for extra in ([], ["--scheduler", cluster.scheduler_address]):
        result = CliRunner().invoke(main, ["bench", "--suite-file", str(TINY), "--json",
                                           "--workers", "1", *extra])
        assert result.exit_code == 0, result.output
        runs.append(json.loads(result.stdout))
    local, remote = runs
    assert remote["ran_on"] == f"Dask scheduler {cluster.scheduler_address}"
    assert _without_times(remote["cases"]) == _without_times(local["cases"])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_scheduler_is_one_line_and_exit_2_within_seconds(tmp_path):
    address = f"tcp://127.0.0.1:{_free_port()}"
    start = time.monotonic()
    result = CliRunner().invoke(main, ["generate", "terra-nova", "--count", "1", "--out",
                                       str(tmp_path), "--scheduler", address])
    assert time.monotonic() - start < 10
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"cannot reach the Dask scheduler at {address}" in lines[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("address", ["nonsense", "tcp://127.0.0.1", "tcp://127.0.0.1:port"])
def test_a_malformed_scheduler_address_is_one_line_and_exit_2(address):
    """In a process of its own: a half-made Client used to print a traceback at exit."""
    result = subprocess.run(
        [sys.executable, "-c", "from cli.main import main; main()", "batch", "--verify",
         str(PUZZLES[0]), "--scheduler", address],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"bad Dask scheduler address '{address}': use tcp://HOST:PORT" in lines[0]
    assert result.stdout == ""


def test_ctrl_c_cancels_the_outstanding_tasks_and_keeps_what_is_done(cluster, tmp_path):
    def interrupt(kept: int, tried: int) -> None:
        raise KeyboardInterrupt

    with DaskExecutor(cluster.scheduler_address) as executor:
        with pytest.raises(KeyboardInterrupt):
            generate(_request(tmp_path), interrupt, executor)
        deadline = time.monotonic() + 5  # while this client is still connected
        while any(str(key).startswith("run_candidate-") for key in cluster.scheduler.tasks):
            assert time.monotonic() < deadline, "tasks still on the cluster"
            time.sleep(0.1)
    assert all(p.suffix == ".toml" for p in tmp_path.iterdir())  # no half-written file


def _fatal(index: int) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_task_that_kills_its_workers_is_one_line_not_a_traceback(cluster, monkeypatch):
    # Before: Dask's KilledWorker reached the user as a traceback.
    monkeypatch.setattr(cluster.scheduler, "allowed_failures", 0)  # give up at the first death
    with DaskExecutor(cluster.scheduler_address) as executor:
        with pytest.raises(InputError) as raised:
            list(executor.map_unordered(_fatal, [(0,)]))
    assert str(raised.value) == (
        f"the Dask cluster at {cluster.scheduler_address} gave up on task 1 (_fatal): the "
        f"workers that ran it died (1 tries, see the workers' logs: out of memory?)")


def _slow(index: int) -> tuple[int, int]:
    time.sleep(0.3)
    return index, os.getpid()


def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(cluster):
    killed = None
    seen = []
    with DaskExecutor(cluster.scheduler_address) as executor:
        for done in executor.map_unordered(_slow, [(i,) for i in range(10)]):
            seen.append(done)
            if killed is None:  # that worker has its next task by now
                killed = done.value[1]
                os.kill(killed, signal.SIGKILL)
    assert sorted(done.index for done in seen) == list(range(10))
    assert all(done.value[0] == done.index for done in seen)
    assert any(done.value[1] != killed for done in seen[1:])


def test_review_on_the_cluster_is_the_local_review(cluster, tmp_path):
    """``review --scheduler``: the turns' solves run on the workers; the review is the
    same as a local one (times aside)."""
    from solver.cpsat import SolveParams
    from solver.executor import LocalExecutor
    from solver.review.report import to_json
    from solver.review.run import review_record

    record = tmp_path / "game.toml"
    start = ROOT / "positions" / "terra-nova" / "midgame-2p.toml"
    played = CliRunner().invoke(main, ["play", str(start), "--turns", "8", "--record",
                                       str(record)])
    assert played.exit_code == 0, played.output
    params = SolveParams(workers=1, seed=0)
    with LocalExecutor(1) as local:
        here = to_json(review_record(record, params, local))
    with DaskExecutor(cluster.scheduler_address) as executor:
        there = to_json(review_record(record, params, executor))
        pids = {int(where.rsplit(" ", 1)[1]) for where in executor.ran_on}
    assert pids and os.getpid() not in pids
    assert _without_times(there) == _without_times(here)
    assert len(here["turns"]) == 8
