"""Rift Valley CLI: show, play, verify, and one-line errors with exit 2 for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

BOARDS = Path("positions/rift-valley/boards")
MIDGAME = sorted(Path("positions/rift-valley").glob("midgame-*.toml"))

GOOD = '''game = "rift-valley"
player = "red"
rift_owner = "red"
draws = 4
terrain = """
. . k . . .
. t . . - .
. . . w . .
. l . . . .
"""
areas = """
1 1 2 2 3 3
4 4 5 5 6 6
4 7 7 8 8 6
9 9 7 8 8 6
"""

[elements.red]
stops = ["a1", "a3"]
trails = ["a1-a3"]

[elements.blue]
stops = ["f4"]
'''


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def write(tmp_path: Path, text: str, name: str = "pos.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_good_file_shows(tmp_path):
    result = run("show", str(write(tmp_path, GOOD)))
    assert result.exit_code == 0, result.output
    assert "rift of red" in result.output and "●" in result.output


@pytest.mark.parametrize("board", sorted(BOARDS.glob("*.toml")), ids=lambda p: p.stem)
def test_every_board_shows(board):
    result = run("show", str(board))
    assert result.exit_code == 0, result.output


BAD = [
    ("malformed", GOOD.replace('draws = 4', 'draws = = 4'), "malformed TOML", "line 4"),
    ("unknown key", GOOD.replace('draws = 4', 'draws = 4\nturns = 3'), "unknown key 'turns'",
     "line 5"),
    ("unknown element key", GOOD.replace('stops = ["f4"]', 'stops = ["f4"]\nroads = []'),
     "unknown key 'elements.blue.roads'", "line"),
    ("bad terrain", GOOD.replace(". t . . - .", ". t . x - ."), "bad terrain 'x'", "cell d2"),
    ("bad area", GOOD.replace("4 4 5 5 6 6", "4 4 5 a 6 6"), "bad area 'a'", "cell d2"),
    ("area 10", GOOD.replace("4 4 5 5 6 6", "4 4 5 10 6 6"), "bad area '10'", "cell d2"),
    ("8 areas", GOOD.replace("9 9 7 8 8 6", "7 7 7 8 8 6"), "area 9 is missing", "areas"),
    ("disconnected", GOOD.replace("1 1 2 2 3 3", "1 1 2 2 3 9"), "not 4-connected", "areas"),
    ("rift in two pieces", GOOD.replace(". . . w . .", ". . . w . -"),    # [D] one chain
     "one connected chain", "terrain"),
    ("unknown colour", GOOD.replace('rift_owner = "red"', 'rift_owner = "pink"'),
     "unknown colour 'pink'", "rift_owner"),
    ("unknown element colour", GOOD.replace("[elements.blue]", "[elements.cyan]"),
     "unknown colour 'cyan'", "elements.cyan"),
    ("stop on water", GOOD.replace('stops = ["f4"]', 'stops = ["d3"]'), "not open",
     "(key 'elements.blue.stops'), stop 'd3'"),
    ("touching stops", GOOD.replace('stops = ["a1", "a3"]', 'stops = ["a1", "a3", "b3"]'),
     "touch", "(key 'elements.red.stops'), stop 'b3'"),
    ("trail through a tree", GOOD.replace('stops = ["f4"]', 'stops = ["b1", "b3"]\n'
                                          'trails = ["b1-b3"]'),
     "tree", "(key 'elements.blue.trails'), trail 'b1-b3'"),
    ("trail shape", GOOD.replace('trails = ["a1-a3"]', 'trails = ["a1-b3"]'),
     "straight trail", "(key 'elements.red'), trail 'a1-b3'"),
    ("off the board", GOOD.replace('stops = ["f4"]', 'stops = ["f9"]'), "off this", "f9"),
    ("wrong game", GOOD.replace('game = "rift-valley"', 'game = "chess"'), "unknown game",
     "game"),
]


@pytest.mark.parametrize("name,text,message,place", BAD, ids=[b[0] for b in BAD])
@pytest.mark.parametrize("command", ["show", "verify"])
def test_bad_input_is_one_line_naming_file_and_place(tmp_path, command, name, text, message,
                                                      place):
    path = write(tmp_path, text)
    result = run(command, str(path))
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert str(path) in lines[0] and message in lines[0] and place in lines[0], lines[0]
    assert "Traceback" not in result.output


def test_missing_file_exit_2(tmp_path):
    result = run("show", str(tmp_path / "nope.toml"))
    assert result.exit_code == 2 and "no such file" in result.output


@pytest.mark.parametrize("path", MIDGAME, ids=lambda p: p.stem)
def test_shipped_solutions_verify(path):
    result = run("verify", str(path), "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["ok"] is True and answer["game"] == "rift-valley"


def test_verify_wrong_value_and_illegal_draw_exit_1(tmp_path):
    right = GOOD + '\n[solution]\nvalue = 0\ndraws = ["o c3", "a3-c3"]\n'
    # a1-a3: areas 1, 4 → 2; a3-c3: areas 4, 7 → 2; kob c1? no; lion b4 next to a3..c3 → 3
    result = run("verify", str(write(tmp_path, right.replace("value = 0", "value = 7"))),
                 "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"game": "rift-valley", "kind": "max-score", "ok": True,
                                         "message": "", "claimed": 7, "value": 7}
    result = run("verify", str(write(tmp_path, right.replace("value = 0", "value = 8"))),
                 "--json")
    assert result.exit_code == 1
    answer = json.loads(result.output)
    assert answer["ok"] is False and "engine scores 7" in answer["message"]
    illegal = GOOD + '\n[solution]\nvalue = 7\ndraws = ["o c3", "a3-e3"]\n'
    result = run("verify", str(write(tmp_path, illegal)), "--json")
    assert result.exit_code == 1
    answer = json.loads(result.output)
    assert answer["ok"] is False and "a3-e3" in answer["message"]
    human = run("verify", str(write(tmp_path, illegal)))
    assert human.exit_code == 1 and "not ok" in human.output


def test_verify_budget_and_bad_draw_notation(tmp_path):
    over = GOOD + '\n[solution]\nvalue = 7\ndraws = ["o c3", "a3-c3", "o e1", "o e3", "^ f1"]\n'
    result = run("verify", str(write(tmp_path, over)), "--json")
    assert result.exit_code == 1 and "budget is 4" in json.loads(result.output)["message"]
    garbled = GOOD + '\n[solution]\nvalue = 7\ndraws = ["stop c3"]\n'
    result = run("verify", str(write(tmp_path, garbled)))
    assert result.exit_code == 2 and "solution.draws 1" in result.output
    result = run("verify", str(write(tmp_path, GOOD)))
    assert result.exit_code == 2 and "no [solution]" in result.output


def test_play_on_five_asymmetric_boards_is_seeded():
    files = [str(BOARDS / f"{n}.toml") for n in
             ("savanna", "riverbend", "crater", "escarpment", "delta")]
    first = run("play", *files, "--seed", "4")
    assert first.exit_code == 0, first.output
    assert "final scores" in first.output and "purple" in first.output
    assert run("play", *files, "--seed", "4").output == first.output
    assert run("play", *files, "--seed", "5").output != first.output


def test_play_one_board_for_several_players():
    board = str(BOARDS / "identical.toml")
    result = run("play", board, "--players", "3", "--seed", "1", "--stops-block-all-colours")
    assert result.exit_code == 0, result.output
    assert "yellow" in result.output and "blue" in result.output
    assert run("play", board).exit_code == 2
    assert run("play", board, board, "--players", "3").exit_code == 2


def test_play_rounds_fit_80_columns_one_line_each():
    """The rounds table names a draw's board by name only (its owner is in the boards'
    headings and the scores): with three boards every round is one line at 80 columns."""
    files = [str(BOARDS / f"{n}.toml") for n in ("savanna", "riverbend", "crater")]
    result = CliRunner().invoke(main, ["play", *files, "--seed", "1"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    rounds = result.output.split("\nsavanna (red)")[0].splitlines()
    title, header, rows = rounds[0], rounds[1], rounds[2:]
    assert "rounds" in title and "red" in header
    assert rows and all(line.split()[0].isdigit() for line in rows if line.strip())
    assert max(len(line.rstrip()) for line in rounds) <= 80
