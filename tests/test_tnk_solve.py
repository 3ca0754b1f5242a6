"""Solving Terra Nova (KOSMOS) last-round puzzles: the bridge and the command line."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.cpsat import SolveParams
from solver.errors import PuzzleError
from solver.terra_nova_kosmos.engine.lastround import evaluate
from solver.terra_nova_kosmos.fileformat import write_position
from solver.terra_nova_kosmos.solve import solve_last_round
from tests.support.solve_spy import solve_params_seen
from tests.support.tnk_last_round import last_round

TOWN = """
lBp lBp lBh l.. r..
  f.. f.. f.. r.. wRh
s.. w.. s.. r.. w..
"""
FACTIONS = {"blue": "flaschengeister", "red": "golems"}


def town_position():
    return last_round(TOWN, FACTIONS, {"blue": {
        "money": 4, "power": [8, 0, 0], "palaces": ["left", "right"]}})


def write(tmp_path: Path, position) -> str:
    path = tmp_path / "puzzle.toml"
    path.write_text(write_position(position))
    return str(path)


def test_lake_house_founds_the_town_for_free():
    # lake-house d1 (free): 2 palaces 6 + 2 houses ≥ 6 (TOWN6 built), 4 buildings:
    # r-house2 2 + Flaschengeister 4 + t9 9; pass: b-ship 0, b-house's 2 coins,
    # money 4 + 2 → 2 VP; area 4 vs 1 → 12: 29
    position = town_position()
    answer = solve_last_round(position, SolveParams(workers=1))
    assert answer.optimal
    assert answer.line_text(position)[0] in ("lake-house d1 town:t9",
                                             "lake-house d1 town:tship")
    assert answer.key == (29, -28, -2)
    assert evaluate(position, answer.line) == answer.result
    assert answer.bound == 29


def test_cli_solve_json_and_text(tmp_path: Path):
    path = write(tmp_path, town_position())
    result = CliRunner().invoke(main, ["solve", path, "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["value"], data["others"], data["turns"], data["optimal"]) == (29, 28, 2, True)
    text = CliRunner().invoke(main, ["solve", path, "--workers", "1"])
    assert text.exit_code == 0 and "optimal, replayed by the engine" in text.stdout


def test_time_limit_gives_a_line_not_proven(tmp_path: Path, monkeypatch):
    # a search cut short once the model is built (a --time-limit that ends during
    # the build is exit 2, tests/test_robustness.py): CP-SAT stops at once here
    from solver.terra_nova_kosmos import solve as kosmos_solve
    chosen = kosmos_solve.settings()
    monkeypatch.setattr(kosmos_solve, "settings",
                        lambda: dict(chosen, max_deterministic_time=1e-9))
    path = write(tmp_path, town_position())
    result = CliRunner().invoke(main, ["solve", path, "--workers", "1", "--time-limit",
                                       "60"])
    assert result.exit_code == 0, result.output
    assert "not proven optimal" in " ".join(result.stdout.split())


def test_positions_outside_the_model_are_refused(tmp_path: Path):
    position = last_round(TOWN.replace("lBp", "l..").replace("lBh", "l.."), FACTIONS)
    with pytest.raises(PuzzleError, match="no building"):
        solve_last_round(position)
    result = CliRunner().invoke(main, ["solve", write(tmp_path, position)])
    assert result.exit_code == 2 and "no building" in result.stderr


def test_generated_puzzle_is_the_same_for_a_seed():
    from solver.terra_nova_kosmos.puzzlegen import grade, make_puzzle
    first = make_puzzle(2, "last-round", 0)
    assert first is not None and first == make_puzzle(2, "last-round", 0)
    assert "[solution]" in first.text and first.difficulty == grade(first.signals["turns"])
    assert [grade(n) for n in (2, 3, 4, 7)] == ["easy", "medium", "hard", "hard"]


def test_generator_fails_when_the_engine_values_the_models_plan_otherwise(monkeypatch):
    """The uniqueness check replays its optimum through the engine like `solve` does:
    a model that claims one point more than the engine counts is an EngineDisagreement."""
    from solver.errors import EngineDisagreement
    from solver.terra_nova_kosmos import puzzlegen
    from tests.support.tnk_last_round import random_small

    honest = puzzlegen.predicted
    monkeypatch.setattr(puzzlegen, "predicted", lambda lr, solver: dataclasses.replace(
        honest(lr, solver), value=honest(lr, solver).value + 1))
    with pytest.raises(EngineDisagreement, match="to the engine"):
        puzzlegen.check_unique(random_small(3))


def test_kosmos_solves_on_one_worker_whatever_workers_says(monkeypatch):
    import solver.terra_nova_kosmos.solve as tnk_solve
    seen = solve_params_seen(monkeypatch, tnk_solve)
    answer = solve_last_round(town_position(), SolveParams(workers=2, seed=0))
    assert answer.optimal and answer.key == (29, -28, -2)
    assert [(p.workers, p.settings.get("linearization_level")) for p in seen] == [(1, 0)]
