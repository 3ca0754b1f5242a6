"""docs/json.md's promises held by real output on the paths a time limit cuts short:
``stats.status`` takes only the values the docs list, ``stopped`` says why, ``bound`` is
there whatever the worker count, and every game's ``verify --json`` has the same core.
"""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.cpsat import SolveParams, harness
from solver.terra_nova import deep
from solver.terra_nova.relaxed_bounds import Relaxed, RelaxedBounds
from tests.support.json_docs import listed_statuses
from tests.support.tn_random import three_turn_sample

TN = "positions/terra-nova/"
SOLVES = [
    ("terra-nova", TN + "puzzles/closing-demo.toml", []),
    ("terra-nova", TN + "puzzles/best-turn-majority.toml", []),
    ("terra-nova", TN + "midgame-2p.toml", ["--turns", "2", "--workers", "2"]),
    ("rift-valley", "positions/rift-valley/midgame-identical.toml", []),
    ("terra-nova-kosmos", "positions/terra-nova-kosmos/puzzles/generated/"
     "tnk-last-round-s0-c00018.toml", []),
    ("terra-nova-kosmos", "positions/terra-nova-kosmos/puzzles/generated/"
     "tnk-best-round-s0-c00018.toml", []),
]


def solved(file: str, *args: str) -> dict:
    result = CliRunner().invoke(main, ["solve", file, "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(("game", "file", "args"), SOLVES,
                         ids=[f"{g}:{f.rsplit('/', 1)[-1]}" for g, f, _ in SOLVES])
def test_no_time_to_search_gives_documented_status_stopped_and_bound(monkeypatch, game, file,
                                                                      args):
    # what is left of the limit cannot pay for loading any model: every solve is skipped
    # (status "unknown", the trivial line), as when the limit runs out before a line
    monkeypatch.setattr(harness, "STARTUP_SECONDS_PER_CONSTRAINT", 1.0)
    answer = solved(file, "--time-limit", "60", *args)
    assert answer["stats"]["status"] == "unknown" and not answer["optimal"]
    assert {"branches", "conflicts", "booleans", "deterministic_time"} <= set(answer["stats"])
    assert answer["stopped"] == "time limit"
    if game == "terra-nova":  # the cells' cap at least, whatever the worker count
        assert answer["bound"] is not None and answer["bound"] >= answer["value"]
    assert {"unknown", "optimal", "feasible"} <= listed_statuses(game)


PROVEN = SOLVES[:2] + SOLVES[3:5]
"""Solves proven in a fraction of a second."""


@pytest.mark.parametrize(("game", "file", "args"), PROVEN,
                         ids=[f"{g}:{f.rsplit('/', 1)[-1]}" for g, f, _ in PROVEN])
def test_a_proven_answer_is_optimal_and_not_stopped(game, file, args):
    answer = solved(file, "--workers", "1", *args)
    assert answer["stats"]["status"] == "optimal" and answer["optimal"]
    assert answer["stopped"] is None and answer["bound"] == answer["value"]
    assert answer["stats"]["status"] in listed_statuses(game)


def test_verify_has_the_same_core_fields_in_every_game():
    files = [TN + "puzzles/closing-demo.toml", "positions/rift-valley/midgame-identical.toml",
             "positions/terra-nova-kosmos/puzzles/last-round-demo.toml",
             "positions/terra-nova-kosmos/puzzles/best-round-demo.toml"]
    for file in files:
        result = CliRunner().invoke(main, ["verify", file, "--json"])
        checked = json.loads(result.stdout)
        assert list(checked)[:6] == ["game", "kind", "ok", "message", "claimed", "value"], file
        assert checked["ok"] and checked["claimed"] == checked["value"], file


def test_one_error_object_for_json_and_batch(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('game = "terra-nova"\nbogus = 1\n', encoding="utf-8")
    alone = CliRunner().invoke(main, ["solve", str(broken), "--json"])
    batch = CliRunner().invoke(main, ["batch", str(broken), "--workers", "1"])
    assert alone.exit_code == batch.exit_code == 2
    assert json.loads(alone.stdout) == json.loads(batch.stdout.splitlines()[0])



def test_a_deep_line_without_a_proven_bound_still_has_one(monkeypatch):
    # the relaxation gives no bound (not done in time), one round finds a line without
    # its proof, then the time is up: the most the areas of the player's pieces can
    # score still bounds the line (it once gave "bound": null)
    monkeypatch.setattr(RelaxedBounds, "relax", lambda *args, **kw: Relaxed(None))
    monkeypatch.setattr(deep, "RESTRICTED_MOMENTS", 1)
    played: list[bool] = []
    real = deep.DeepSearch.play_round

    def play_round(search, *args, **kw):
        found = real(search, *args, **kw)
        played.append(found is not None)
        return found

    monkeypatch.setattr(deep.DeepSearch, "play_round", play_round)
    monkeypatch.setattr(deep, "seconds_left", lambda params: 0.0 if played else None)
    answer = deep.maximise(three_turn_sample(1)[0], 3, SolveParams(workers=1).started(),
                           None, time.perf_counter())
    assert played == [True] and not answer.optimal
    assert answer.bound is not None and answer.bound >= answer.value
