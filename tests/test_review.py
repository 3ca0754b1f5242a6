"""``boardsat review``: a game record turn by turn (Terra Nova) or round by round (KOSMOS).

On small boards every best value the review finds is the engine's exhaustive optimum,
on every turn of seeded games; a record with a known missed closing is flagged with
the right loss; --json, --worst, --plot and --sheet; Ctrl-C (a real SIGINT) ends a
review within seconds keeping what was reviewed, and --time-limit holds.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.cpsat import SolveParams
from solver.games import get
from solver.geometry import HexGrid
from solver.paths import POSITIONS_DIR, REPO_ROOT
from solver.protocol import GameRecord
from solver.terra_nova.engine.exhaustive import best_turn as exhaustive_best_turn
from solver.terra_nova.engine.playout import random_playout, setup
from solver.terra_nova.engine.turns import apply_turn
from solver.terra_nova.notation import format_turn
from solver.terra_nova.position import Board

PARAMS = SolveParams(workers=1, seed=0)
TN_GAMES = range(5)
"""Seeded games in make test; make sweep adds :data:`TN_SWEEP` (20 games in all)."""
TN_SWEEP = range(5, 20)
MISSED = """\
game = "terra-nova"

[position]
players = ["red", "blue"]
to_move = "red"
stones_left = 10
board = \"\"\"
a# a. a# b. b. c.
  a# aB a# b. c. c.
a. aR a. d. d. c.
  d. d. d. d. c. c.
\"\"\"

[[turn]]
player = "red"
turn = "b3-c3 c3-d3 #d2"
note = "b3-d3 #c4 #c3 closes the a-region for 12"

[[turn]]
player = "blue"
turn = "b2-b1 b1-b2 b2-c3"
"""
"""A record whose first turn misses the 12-point closing of the best-turn-two-regions
puzzle (the same board)."""


def run(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def reviewed_inline(record: GameRecord):
    """The game's review of ``record`` with its tasks run here, in order."""
    game = get(record.game)
    results = [task.fn(*task.args) for task in game.review_tasks(record, PARAMS)]
    return game.review_result(record, results)


def tn_game(seed: int) -> GameRecord:
    """A seeded random game to its end on a small board (2 pieces each, few stones)."""
    rng = random.Random(seed)
    grid = HexGrid.full(4, 5)
    letters = [rng.choice("abcd") for _ in range(grid.size)]
    board = Board(grid, tuple(letters))
    start = setup(board, ("red", "yellow"), rng, pieces=2).replace(stones_left=12)
    positions, turns, players, texts = [start], [], [], []
    current = start
    from solver.terra_nova.engine.turns import game_over
    while not game_over(current):
        _, history = random_playout(current, rng, turns=1)
        colour, turn, _ = history[0]
        current = apply_turn(current, turn).position
        positions.append(current)
        turns.append(turn)
        players.append(colour)
        texts.append(format_turn(turn, grid))
    return GameRecord("terra-nova", Path(f"game-{seed}.toml"), tuple(positions), tuple(turns),
                      tuple(players), tuple(texts))


@pytest.mark.parametrize("seed", TN_GAMES)
def test_tn_best_values_are_the_exhaustive_optima_on_every_turn(seed):
    check_tn_game(seed)


@pytest.mark.sweep
@pytest.mark.parametrize("seed", TN_SWEEP)
def test_tn_best_values_are_the_exhaustive_optima_sweep(seed):
    check_tn_game(seed)


def check_tn_game(seed: int) -> None:
    record = tn_game(seed)
    review = reviewed_inline(record)
    assert len(review.turns) == len(record.turns) > 0
    for row, before in zip(review.turns, record.positions, strict=False):
        assert row.best is not None and row.best.proven
        assert row.best.value == exhaustive_best_turn(before).key, row.number
        assert row.loss == row.best.value[0] - row.played_value[0] >= 0
        # the turn played valued as rate values it, and as the engine's own gain
        assert row.played_value == get("terra-nova").played(before, [row.played]).value
        gained = apply_turn(before, record.turns[row.number - 1]).gained
        mine = gained[row.player]
        assert row.played_value == (mine, sum(gained.values()) - mine)
    for row, after in zip(review.turns, record.positions[1:], strict=True):
        threat = row.threat_after_played
        assert threat is None or threat.value == exhaustive_best_turn(after).key


def test_a_missed_closing_is_flagged_with_its_loss(tmp_path):
    record = tmp_path / "missed.toml"
    record.write_text(MISSED, encoding="utf-8")
    result = run("review", record, "--json", "--workers", 1)
    assert result.exit_code == 0, result.output
    review = json.loads(result.stdout)
    first = review["turns"][0]
    assert first["played_value"] == [0, 0] and first["best_value"][0] == 12
    assert first["loss"] == 12 and first["proven"] and first["bound"] == 12
    assert sorted(first["best"].split()) == ["#c3", "#c4", "b3-d3"]
    assert review["summary"]["players"]["red"] == {
        "reviewed": 1, "loss": 12, "costly": 1, "worst": 1, "worst_loss": 12,
        "not_proven": 0}
    table = run("review", record, "--worst", 1, "--workers", 1)
    assert table.exit_code == 0, table.output
    assert "the 1 costliest turn" in table.stdout and "b3-d3 #c" in table.stdout
    assert "red: 1 turns reviewed, 12 points lost on 1; the costliest: turn 1 (12)" in \
        table.stdout


def test_plot_and_sheet_are_written(tmp_path):
    record = tmp_path / "missed.toml"
    record.write_text(MISSED, encoding="utf-8")
    plot, sheet = tmp_path / "review.png", tmp_path / "review.pdf"
    result = run("review", record, "--workers", 1, "--worst", 1, "--plot", plot,
                 "--sheet", sheet)
    assert result.exit_code == 0, result.output
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert sheet.read_bytes()[:4] == b"%PDF"
    assert "wrote" in result.stderr and "(1 pages)" in result.stderr
    bad = run("review", record, "--workers", 1, "--plot", tmp_path / "x.svg")
    assert bad.exit_code == 2 and "must end in .png" in bad.stderr


def test_a_bad_record_is_one_line_naming_the_turn(tmp_path):
    record = tmp_path / "bad.toml"
    record.write_text(MISSED.replace('turn = "b2-b1 b1-b2 b2-c3"', 'turn = "b2-b1 #e4"'),
                      encoding="utf-8")
    result = run("review", record, "--json")
    assert result.exit_code == 2
    line, = result.stderr.strip().splitlines()
    assert str(record) in line and "turn 2 (line 19)" in line and "is illegal" in line
    assert json.loads(result.stdout)["status"] == 2


def test_the_time_limit_holds_and_says_not_proven(tmp_path):
    record = POSITIONS_DIR / "terra-nova" / "records" / "random-2p.toml"
    start = time.monotonic()
    result = run("review", record, "--json", "--workers", 1, "--time-limit", 0.01)
    assert result.exit_code == 0, result.output
    assert time.monotonic() - start < 60
    turns = json.loads(result.stdout)["turns"]
    assert any(not t["proven"] for t in turns)
    for t in turns:
        if not t["proven"] and t["best"] is not None:
            assert t["bound"] >= t["best_value"][0]


def test_ctrl_c_ends_a_review_within_seconds_keeping_what_was_reviewed(tmp_path):
    """A real SIGINT to the real command (a subprocess): exit 130 within 2 s, the turns
    reviewed so far printed."""
    record = POSITIONS_DIR / "terra-nova" / "records" / "random-2p.toml"
    process = subprocess.Popen(
        [sys.executable, "-c", "import cli; cli.run()", "review", str(record), "--json",
         "--workers", "1"],
        cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "COLUMNS": "80"})
    began = process.stderr.readline()  # the solving began (the imports take a while)
    assert began.startswith("reviewing 40 turns: 41 solve tasks"), began
    time.sleep(2)
    assert process.poll() is None, process.communicate()
    process.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = process.communicate(timeout=30)
    assert time.monotonic() - sent < 2.0 + 1.0, err  # a second of slack for a busy machine
    assert process.returncode == 130, err
    review = json.loads(out)
    assert review["summary"]["interrupted"]
    assert 0 < review["summary"]["done"] < review["summary"]["tasks"]
    assert any(t["best"] is not None for t in review["turns"])
    assert "interrupted: " in err


def _poor(slots: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Income slots paying at most 1 money each: a round starts with little money, so its
    plan (and the exhaustive search the test runs) stays small."""
    return tuple((min(money, 1), power) for money, power in slots)


def tnk_game(seed: int) -> GameRecord:
    """A seeded random KOSMOS game on a 2 × 4 map (few hexes to build on, little money:
    every round's plan is solved in moments)."""
    from solver.terra_nova_kosmos.engine import playout, rounds
    from solver.terra_nova_kosmos.fileformat import default_factions
    from solver.terra_nova_kosmos.notation import format_turn as tnk_format
    from solver.terra_nova_kosmos.position import Board as KosmosBoard
    from solver.terra_nova_kosmos.puzzlegen import BEST_ROUND_FACTIONS
    from solver.terra_nova_kosmos.rules import HOME, LANDSCAPE_LETTER

    rng = random.Random(seed)
    factions = default_factions()
    while True:
        first, second = (factions[f] for f in rng.sample(BEST_ROUND_FACTIONS, 2))
        if first.colour != second.colour:
            break
    chosen = [dataclasses.replace(f, start_money=3, house_income=_poor(f.house_income),
                                  kontor_income=_poor(f.kontor_income))
              for f in (first, second)]
    homes = [LANDSCAPE_LETTER[HOME[f.colour]] for f in chosen]
    cells = list(range(8))
    rng.shuffle(cells)
    land = ["r"] * 8  # three hexes of each home (the Wüstentöchter start with three
    for number, cell in enumerate(cells[:7]):  # houses), one more, one river hex
        land[cell] = homes[number % 2] if number < 6 else rng.choice("lfwds")
    grid = HexGrid.full(2, 4)
    board = KosmosBoard(grid, frozenset(i for i in range(8) if land[i] == "r"))
    position = rounds.setup(board, tuple(land), chosen, rng)
    positions, turns, players, texts = [position], [], [], []
    while not rounds.game_over(position):
        turn, after = playout.random_turn(position, rng)
        turns.append(turn)
        players.append(position.to_move)
        texts.append(tnk_format(turn, grid))
        position = rounds.advance(after, rng)
        positions.append(position)
    return GameRecord("terra-nova-kosmos", Path(f"kosmos-{seed}.toml"), tuple(positions),
                      tuple(turns), tuple(players), tuple(texts))


def check_tnk_game(seed: int) -> None:
    from solver.terra_nova_kosmos.engine.exhaustive import solve_best_round, solve_last_round
    from solver.terra_nova_kosmos.review import alone, player_rounds

    record = tnk_game(seed)
    review = reviewed_inline(record)
    starts = {(p.round, p.player): alone(record.positions[p.turns[0]])
              for p in player_rounds(record)}
    assert len(review.rounds) == 4 * 2 * 2 + 2
    for row in review.rounds:
        start = starts[(row.round, row.player)]
        assert row.best is not None and row.best.proven, row
        if row.puzzle == "last-round":
            best, _ = solve_last_round(start, cap=60)
        else:
            best, _ = solve_best_round(start, row.objective, cap=60)
        assert row.figures["value"] == best.value, row
        assert row.best.value[0] == best.value


@pytest.mark.sweep
@pytest.mark.parametrize("seed", range(20))
def test_tnk_plans_are_the_exhaustive_optima_sweep(seed):
    check_tnk_game(seed)


def test_a_kosmos_review_prints_rounds_and_their_lines(tmp_path):
    record = tmp_path / "game.toml"
    assert run("play", POSITIONS_DIR / "terra-nova-kosmos" / "setup-2p.toml", "--seed", 3,
               "--turns", 6, "--record", record).exit_code == 0
    result = run("review", record, "--json", "--workers", 1, "--time-limit", 0.5)
    assert result.exit_code == 0, result.output
    review = json.loads(result.stdout)
    assert "turns" not in review and review["game"] == "terra-nova-kosmos"
    for row in review["rounds"]:
        assert row["round"] == 1 and row["objective"] in ("max-points", "max-value")
        assert row["played"][-1].startswith("pass")
