"""The best-round CP-SAT model against the engine's exhaustive search, and `solve` on
best-round files.

Seeded small random positions (3 × 3 hexes in make test, 3 × 4 in make sweep; two
players; every faction the model takes; both objectives by turns). A coverage test
checks on the engine alone that most of the sample's optima are more than the pass.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.cpsat import SolveParams
from solver.errors import EngineDisagreement
from solver.terra_nova_kosmos import solve as bridge
from solver.terra_nova_kosmos.engine.exhaustive import solve_best_round as exhaustive
from solver.terra_nova_kosmos.fileformat import write_position
from solver.terra_nova_kosmos.position import Position, Puzzle
from solver.terra_nova_kosmos.puzzlegen import BEST_ROUND_FACTIONS, random_best_round
from solver.terra_nova_kosmos.solve import solve_best_round
from tests.support.tnk_positions import make

SEEDS = range(100)
SWEEP = range(100, 400)
OWN_SAMPLE = range(12)
"""Seeds of the Ifrit, Druiden and Seebären samples (factions the generator does not draw)."""
PARAMS = SolveParams(workers=1, seed=0)


def sample(seed: int, rows: int = 3, cols: int = 3,
           factions: tuple[str, ...] = BEST_ROUND_FACTIONS) -> Position:
    """Seed → a small best-round position; even seeds max-points, odd max-value."""
    return random_best_round(random.Random(seed), ("max-points", "max-value")[seed % 2],
                             rows=rows, cols=cols, money=12, factions=factions)


def check(position: Position) -> None:
    best, _ = exhaustive(position, cap=60)
    answer = solve_best_round(position, PARAMS, hint=False)
    assert answer.optimal
    assert answer.key == best.key


@pytest.mark.parametrize("seed", SEEDS)
def test_model_equals_exhaustive(seed: int) -> None:
    check(sample(seed))


@pytest.mark.parametrize("faction", ["ifrit", "druiden", "seebaeren"])
@pytest.mark.parametrize("seed", OWN_SAMPLE)
def test_model_equals_exhaustive_own_samples(faction: str, seed: int) -> None:
    check(sample(seed, factions=(faction,)))


@pytest.mark.sweep
@pytest.mark.parametrize("seed", SWEEP)
def test_model_equals_exhaustive_sweep(seed: int) -> None:
    check(sample(seed, rows=3, cols=4,
                 factions=BEST_ROUND_FACTIONS + ("ifrit", "druiden", "seebaeren")))


def test_the_sample_covers_more_than_passing() -> None:
    lengths, kinds, towns, given = [], set(), 0, 0
    for seed in SEEDS:
        result, line = exhaustive(sample(seed), cap=60)
        lengths.append(len(line))
        kinds |= {t.action.name for t in line}
        towns += any(t.towns for t in line)
        given += result.given > 0
    assert sum(1 for n in lengths if n > 1) > len(lengths) // 2
    assert sum(1 for n in lengths if n >= 3) >= 10
    assert {"build", "terraform", "upgrade", "ship", "pa-money7"} <= kinds
    assert towns >= 3 and given >= 5


# ---- the bridge and the command line

SMALL = """
lBh l.. r.. wRh
  r.. r.. r.. r..
"""


def small(objective: str, faction: str = "flaschengeister") -> Position:
    colour = {"flaschengeister": "blue", "seebaeren": "blue", "druiden": "green"}[faction]
    board = SMALL.replace("lBh", "fGh").replace("l..", "s..") if colour == "green" else SMALL
    position = make(board, {colour: faction, "red": "golems"},
                    {colour: {"money": 4, "power": [8, 0, 0], "bonus": "b-house"},
                     "red": {"bonus": "b-ship"}},
                    round=2, passed=["red"],
                    round_tiles=["r-spade2", "r-house2", "r-kontor3", "r-town5", "r-ship2"],
                    bonus_display={"b-money6": 1, "b-kontor": 2})
    return position.replace(puzzle=Puzzle("best-round", objective))


def write(tmp_path: Path, position: Position) -> str:
    path = tmp_path / "puzzle.toml"
    path.write_text(write_position(position), encoding="utf-8")
    return str(path)


def test_both_objectives_by_hand() -> None:
    for objective, value in (("max-points", 4), ("max-value", 3 * 4 + 2)):
        answer = solve_best_round(small(objective), PARAMS)
        assert answer.optimal and answer.result.value == value
        assert answer.line_text(small(objective)) == ["build b1", "pass b-kontor"]


def test_cli_solve_json_and_text(tmp_path: Path) -> None:
    path = write(tmp_path, small("max-value"))
    result = CliRunner().invoke(main, ["solve", path, "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert (obj["kind"], obj["objective"], obj["value"], obj["points"]) == (
        "best-round", "max-value", 14, 4)
    assert obj["line"] == ["build b1", "pass b-kontor"] and obj["optimal"] is True
    result = CliRunner().invoke(main, ["solve", path, "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "blue scores 14" in result.output and "optimal" in result.output


def test_seebaeren_solve_and_replay(tmp_path: Path) -> None:
    # Before the last-round model took the Seebären, best-round refused them.
    path = write(tmp_path, small("max-points", "seebaeren"))
    result = CliRunner().invoke(main, ["solve", path, "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "replayed by the engine" in result.output and "optimal" in result.output


def test_druiden_close_with_their_triples() -> None:
    # 7 in bowl III: pass (b-house: 1 VP), then *2 = 4 VP, 1 power + 2 coins left
    position = small("max-points", "druiden")
    position = position.with_player(dataclasses.replace(
        position.player("green"), money=0, power=(1, 0, 7)))
    answer = solve_best_round(position, PARAMS)
    # the triples before the pass or after it, or one of each: the same (no palace, no
    # pass power)
    assert answer.line_text(position) in (["pass b-kontor *2"], ["*2 pass b-kontor"],
                                          ["*1 pass b-kontor *1"])
    assert (answer.result.points, answer.result.leftover) == (1 + 4, 1 + 2)


def test_the_engine_disagreeing_is_a_loud_failure(monkeypatch) -> None:
    position = small("max-points")
    real = bridge.bestround.evaluate

    def off_by_one(*args, **kwargs):
        result = real(*args, **kwargs)
        return type(result)(result.objective, result.points + 1, result.leftover,
                            result.given, result.turns)

    monkeypatch.setattr(bridge.bestround, "evaluate", off_by_one)
    with pytest.raises(EngineDisagreement, match="to the engine"):
        solve_best_round(position, PARAMS)


def test_generator_remakes_a_collection_puzzle_byte_for_byte() -> None:
    from solver.terra_nova_kosmos.puzzlegen import grade, make_puzzle
    path = Path("positions/terra-nova-kosmos/puzzles/generated/tnk-best-round-s0-c00000.toml")
    text = path.read_text(encoding="utf-8")
    seed = int(text.split("candidate seed ")[1].split(")")[0])
    made = make_puzzle(seed, "best-round", 0)
    assert made is not None and made.text == text
    assert made.difficulty == grade(made.signals["turns"])
    assert made.signals["objective"] == "max-value"
