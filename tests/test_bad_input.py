"""Bad input as a user gives it: every command that reads a file, for every game.

A broken file — empty, cut short, an unknown key at the top or inside a table, a
value of the wrong type, a cell off the board, a number far too large, a folder,
an unreadable file — gets exit status 2 and one line on standard error naming the
file and the place (``line N (key 'k')``, a cell, or the key itself), never a
traceback; ``batch`` gives the same message as its file's error line.

The cases marked "failed before its fix" found a bug in the 2026-11-27 audit:
a line number pointing into another table (``[elements.blue] stops`` reported on
``[elements.red]``'s line, ``[solution] draws`` on the top-level ``draws``, every
bench ``[[case]]`` on the first one), bench suites whose ``[suite]``, ``case`` or
recipe had the wrong shape (tracebacks), a Terra Nova ``objective = 0`` read as
the default, KOSMOS duplicates merged silently and numbers so large that CP-SAT's
sums overflowed, and files starting with a byte-order mark.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver import tomlfile
from solver.errors import InputError
from solver.terra_nova_kosmos.fileformat import read_position as read_kosmos
from solver.terra_nova_kosmos.rules import SPECIAL_ACTIONS
from solver.tomlfile import key_line

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "positions"
BASES = {
    "terra-nova": POSITIONS / "terra-nova" / "puzzles" / "closing-demo.toml",
    "rift-valley": POSITIONS / "rift-valley" / "midgame-savanna.toml",
    "terra-nova-kosmos": POSITIONS / "terra-nova-kosmos" / "puzzles" / "last-round-demo.toml",
}


def _text(game: str) -> str:
    return BASES[game].read_text(encoding="utf-8")


def _sub(game: str, old: str, new: str) -> str:
    text = _text(game)
    assert old in text, (game, old)
    return text.replace(old, new, 1)


# (game, what is broken, the file's text, what the one error line must say after the path)
BROKEN = [
    *[(game, "empty", "", "missing key 'game'") for game in BASES],
    *[(game, "cut short", _text(game)[:len(_text(game)) // 2], "malformed TOML")
      for game in BASES],
    *[(game, "unknown top key", "bogus = 1\n" + _text(game),
       "line 1 (key 'bogus'): unknown key 'bogus'") for game in BASES],
    ("terra-nova", "unknown [puzzle] key",
     _sub("terra-nova", "[puzzle]\n", "[puzzle]\nbogus = 1\n"),
     "line 17 (key 'puzzle.bogus'): unknown key 'puzzle.bogus'"),
    ("rift-valley", "unknown [elements.blue] key",
     _sub("rift-valley", "[elements.blue]\n", "[elements.blue]\nbogus = 1\n"),
     "line 36 (key 'elements.blue.bogus'): unknown key"),
    ("terra-nova-kosmos", "unknown [player.red] key",
     _sub("terra-nova-kosmos", "[player.red]\n", "[player.red]\nbogus = 1\n"),
     "line 40 (key 'player.red.bogus'): unknown key"),
    ("terra-nova", "wrong type", _sub("terra-nova", 'to_move = "red"', "to_move = 3"),
     "line 3 (key 'to_move'): 'to_move' must be str, not int"),
    # failed before its fix: reported on line 31, [elements.red]'s stops
    ("rift-valley", "wrong type in a second table",
     _sub("rift-valley", 'stops = ["f3", "e5"]', "stops = 1"),
     "line 36 (key 'elements.blue.stops'): 'elements.blue.stops' must be list, not int"),
    # failed before its fix: reported on line 4, the top-level draws
    ("rift-valley", "wrong type in [solution]",
     _sub("rift-valley", 'draws = ["o a4", "o d6", "a4-a7", "c4-d4-d6", "d6-i6-i7"]',
          "draws = 5"),
     "line 46 (key 'solution.draws'): 'solution.draws' must be list, not int"),
    ("terra-nova-kosmos", "wrong type", _sub("terra-nova-kosmos", "round = 5", 'round = "5"'),
     "line 6 (key 'round')"),
    ("terra-nova", "cell off the board",
     _sub("terra-nova", '"g3-e3 #d4 #d2"', '"g3-e3 #d4 #z99"'),
     "[solution] line, turn 1, action '#z99': 'z99' is not a cell of this board"),
    ("rift-valley", "cell off the board",
     _sub("rift-valley", '"a10", "g8", "e2"', '"a10", "g8", "z99"'),
     "line 35 (key 'elements.blue'), tent 'z99': 'z99' is off this 10×10 board"),
    ("terra-nova-kosmos", "cell off the board",
     _sub("terra-nova-kosmos", '"build g7"', '"build z99"'),
     "[solution] line, turn 1, token 'z99': 'z99' is not a cell of this board"),
    ("terra-nova", "wrong player", _sub("terra-nova", 'to_move = "red"', 'to_move = "purple"'),
     "line 3 (key 'to_move'): to_move 'purple' is not one of the players"),
    ("rift-valley", "wrong player", _sub("rift-valley", 'player = "red"', 'player = "black"'),
     "line 3 (key 'player'): unknown colour 'black'"),
    ("terra-nova-kosmos", "wrong player",
     _sub("terra-nova-kosmos", 'players = ["blue", "red"]', 'players = ["blue", "pink"]'),
     "line 2 (key 'players'): unknown colour 'pink'"),
    ("terra-nova", "a colour twice",
     _sub("terra-nova", 'players = ["red", "yellow"]', 'players = ["red", "yellow", "red"]'),
     "line 2 (key 'players'): a colour is listed twice"),
    ("rift-valley", "a stop twice",
     _sub("rift-valley", 'stops = ["f3", "e5"]', 'stops = ["f3", "e5", "f3"]'),
     # failed before its fix: no line
     "line 36 (key 'elements.blue.stops'), stop 'f3': f3 already holds an element"),
    # failed before its fix: the second c1-e1 was merged away
    ("terra-nova-kosmos", "a bridge twice",
     _sub("terra-nova-kosmos", 'bridges = ["c1-e1", "c6-b8"]',
          'bridges = ["c1-e1", "c6-b8", "c1-e1"]'),
     "line 49 (key 'player.red.bridges'): bridge c1-e1 is listed twice"),
    ("terra-nova", "too many turns", _sub("terra-nova", "turns = 2", "turns = 99999999999"),
     "line 18 (key 'turns'): turns = 99999999999: puzzles span at most 10 turns"),
    ("terra-nova", "too many stones",
     _sub("terra-nova", "stones_left = 12", "stones_left = 99999999999"),
     "line 5 (key 'stones_left'): stones_left = 99999999999"),
    ("rift-valley", "too many tents",
     _sub("rift-valley", 'tents = ["b5", "a8"]', 'tents = ["b5", "a8", "b1", "d1", "f1", "g1"]'),
     # failed before its fix: "elements (tents): …", no line
     "line 33 (key 'elements.red.tents'), tent 'g1': 9 tents on the board, at most 5"),
    ("terra-nova", "negative score", _sub("terra-nova", "red = 10", "red = -5"),
     "line 4 (key 'scores.red'): scores cannot be negative"),
    ("rift-valley", "negative budget", _sub("rift-valley", "draws = 5", "draws = -1"),
     "line 5 (key 'draws'): draws cannot be negative"),
    ("terra-nova-kosmos", "negative money",
     _sub("terra-nova-kosmos", "money = 2", "money = -1"),
     "line 41 (key 'player.red.money'): 'player.red.money' cannot be negative"),
    # failed before its fix: accepted, and CP-SAT's sums overflowed on the solve
    ("terra-nova-kosmos", "huge money",
     _sub("terra-nova-kosmos", "money = 2", "money = 4611686018427387903"),
     "line 41 (key 'player.red.money'): 'player.red.money' = 4611686018427387903 is more "
     "than 999"),
    # each failed before its fix: accepted (any 64-bit number was)
    ("terra-nova", "huge score", _sub("terra-nova", "red = 10", "red = 1000000000000000"),
     "line 4 (key 'scores.red'): 'scores.red' = 1000000000000000 is more than 999, the "
     "largest number a file takes"),
    ("rift-valley", "huge budget", _sub("rift-valley", "draws = 5", "draws = 1000"),
     "line 5 (key 'draws'): 'draws' = 1000 is more than 999, the largest number a file "
     "takes"),
    # failed before its fix: objective = 0 was read as the default max-points
    ("terra-nova", "falsy objective",
     _sub("terra-nova", 'objective = "max-points"', "objective = 0"),
     "line 19 (key 'puzzle.objective'): 'puzzle.objective' must be str, not int"),
    ("terra-nova", "not UTF-8", None, "line 2: not UTF-8 text (byte 0xe4)"),
]

COMMANDS = {
    "show": ["show"],
    "verify": ["verify"],
    "solve": ["solve", "--time-limit", "20", "--workers", "1"],
    "solve --json": ["solve", "--json", "--time-limit", "20", "--workers", "1"],
    "perft": ["perft"],
    "render": ["render", "--out", "{tmp}/x.svg"],
    "render --solution": ["render", "--solution", "--out", "{tmp}/x.svg"],
    "sheet": ["sheet", "--out", "{tmp}/x.pdf"],
    "play": ["play"],
    "apply": ["apply", "--out", "{tmp}/x.toml"],
    "batch": ["batch"],
    "batch --verify": ["batch", "--verify"],
}


def _write(tmp_path: Path, text: str | None) -> Path:
    path = tmp_path / "broken.toml"
    if text is None:  # a Latin-1 file
        path.write_bytes('game = "terra-nova"\nplayers = ["r\xe4d"]\n'.encode("latin-1"))
    else:
        path.write_text(text, encoding="utf-8")
    return path


SOLUTION_READERS = {"show", "verify", "solve", "solve --json", "render --solution", "sheet",
                    "batch", "batch --verify"}
"""The commands that read a file's ``[solution]`` (``show`` draws the board first);
``play``, ``perft`` and a plain ``render`` leave it unread."""


def _run(tmp_path: Path, command: str, path: Path):
    args = [a.format(tmp=tmp_path) for a in COMMANDS[command]]
    args.insert(1, str(path))
    return CliRunner().invoke(main, args)


def _one_error(result, path: Path, needle: str, command: str, board_first: bool = False
               ) -> None:
    """Exit 2, no traceback, one ``error: PATH: …`` line holding ``needle`` (batch: the
    file's JSON error line; --json: also the error object on standard output); nothing
    on standard output unless ``board_first`` (``show`` of a bad ``[solution]``)."""
    assert result.exit_code == 2, (command, result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    assert "Traceback" not in result.output
    if command.startswith("batch"):
        line = json.loads(result.stdout)  # the error object of --json, file first
        assert list(line) == ["file", "error", "line", "status"], line
        assert line["status"] == 2 and line["file"] == str(path), line
        assert needle in f"{path}: {line['error']}", (needle, line["error"])
        return
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, (command, result.stderr)
    assert lines[0].startswith(f"error: {path}: ") and needle in lines[0], (needle, lines[0])
    if command.endswith("--json"):
        error = json.loads(result.stdout)
        assert error["status"] == 2 and error["file"] == str(path)
        assert f"error: {path}: {error['error']}" == lines[0]  # one message, both ways
    elif not board_first:
        assert result.stdout == ""


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(("game", "broken", "text", "needle"), BROKEN,
                         ids=[f"{g}-{b}" for g, b, _, _ in BROKEN])
def test_a_broken_file_is_one_located_error_for_every_command(tmp_path, game, broken, text,
                                                               needle, command):
    in_solution = "[solution]" in needle or "solution." in needle
    # failed before its fix: KOSMOS solve and batch left the [solution]'s line unread
    if in_solution and command not in SOLUTION_READERS:
        pytest.skip(f"{command} does not read the [solution]'s line")
    path = _write(tmp_path, text)
    result = _run(tmp_path, command, path)
    if command in ("perft", "apply") and game == "rift-valley" and command in result.stderr:
        needle = f"'{command}' is for terra-nova"  # the file read well enough to know its game
    _one_error(result, path, needle, command, board_first=in_solution and command == "show")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_folder_and_an_unreadable_file_are_one_line_each(tmp_path, monkeypatch, command):
    folder = tmp_path / "adir.toml"
    folder.mkdir()
    _one_error(_run(tmp_path, command, folder), folder,
               "no .toml files" if command == "sheet" else "is a directory", command)
    locked = _write(tmp_path, _text("terra-nova"))
    real = Path.read_text

    def refuse(self, *args, **kwargs):
        if self == locked:
            raise PermissionError(13, "Permission denied")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", refuse)
    _one_error(_run(tmp_path, command, locked), locked, "cannot read: Permission denied",
               command)


# failed before its fix: a byte-order mark was "line 1, column 1: malformed TOML"
@pytest.mark.parametrize("game", BASES)
def test_a_byte_order_mark_is_read_past(tmp_path, game):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + BASES[game].read_bytes())
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------- key_line

KEYED = """game = "x"   # line 1
draws = 5
board = \"\"\"
[not a table]
stops = 1
\"\"\"
scores = { red = 1 }

[elements.red]
stops = ["a1"]

[elements.blue]
stops = ["b1"]
trails.long = ["b1-b3"]

[[case]]
name = "one"

[[case]]
name = "two"
recipe = { rows = 1 }

[solution]
draws = []
"""


@pytest.mark.parametrize(("key", "line"), [
    ("game", 1), ("draws", 2), ("board", 3), ("scores", 7), ("scores.red", 7),
    ("elements.red.stops", 10), ("elements.blue.stops", 13), ("elements.blue", 12),
    ("elements.blue.trails.long", 14), ("elements.blue.tents", 12), ("case.1.name", 17),
    ("case.2.name", 20), ("case.2.recipe.rows", 21), ("solution.draws", 24),
    ("stops", 10)])
def test_key_line_finds_a_key_in_its_own_table(key, line):
    assert key_line(KEYED, key) == line


# ---------------------------------------------------------------- bench suites

SUITE = """[suite]
time_limit = 5
cap = 2

[[case]]
name = "rv"
game = "rift-valley"
kind = "max-score"
position = "positions/rift-valley/midgame-identical.toml"

[[case]]
name = "tnk"
game = "terra-nova-kosmos"
kind = "last-round"
recipe = { rows = 3, cols = 4, money = 7, buildings = 4, seed = 11 }
"""
TN_RECIPE = ('[[case]]\nname = "tn"\ngame = "terra-nova"\nkind = "best-turn"\n'
             "recipe = { rows = 6, cols = 7, pieces = 2, turns_played = 4, seed = 5 }\n")
RV_RECIPE = ('[[case]]\nname = "rv"\ngame = "rift-valley"\nkind = "max-score"\n'
             "recipe = { random_board = 1, rows = 8, cols = 8, rounds = 2, seed = 1 }\n")


@pytest.mark.parametrize(("text", "needle"), [
    # each failed before its fix with a traceback
    ("suite = 1\n" + SUITE.split("\n", 3)[3],
     "line 1 (key 'suite'): 'suite' must be dict, not int"),
    ("case = 1\n", "line 1 (key 'case'): 'case' must be list, not int"),
    ("case = [1]\n", "line 1 (key 'case.1'): 'case.1' must be dict, not int"),
    (SUITE.replace("rows = 3", 'rows = "x"'),
     "line 15 (key 'case.2.recipe'): case 2: recipe key 'rows' must be a whole number from 1 "
     "to 9, not 'x'"),
    (SUITE.replace("buildings = 4", "buildings = 0"), "recipe key 'buildings' must be"),
    (SUITE.replace("seed = 11", "seed = true"), "recipe key 'seed' must be"),
    (TN_RECIPE.replace("rows = 6", "rows = 1.5"), "case 1: recipe key 'rows' must be"),
    (TN_RECIPE.replace("seed = 5", 'seed = 5, board = 3'), "recipe key 'board' must be a file"),
    (RV_RECIPE.replace("rows = 8", "rows = 1000000000000000"),
     "line 5 (key 'case.1.recipe'): case 1: recipe key 'rows' must be a whole number from 8 "
     "to 30"),
    (RV_RECIPE.replace("seed = 1", "seed = 1, players = 2, player = 3"),
     "recipe key 'player' is a seat from 0 to 1, not 3"),
    # each failed before its fix: the place was the first [[case]]'s line
    (SUITE.replace('name = "tnk"', "name = 4"),
     "line 12 (key 'case.2.name'): 'case.2.name' must be str, not int"),
    (SUITE.replace('name = "tnk"', 'name = "rv"'),
     "line 12 (key 'case.2.name'): two cases are named 'rv'"),
    (SUITE.replace('kind = "last-round"', 'kind = "best-turn"'),
     "line 14 (key 'case.2.kind'): case 2: terra-nova-kosmos has no kind 'best-turn'"),
    (SUITE.replace("[[case]]\nname = \"tnk\"", "[[case]]\nbogus = 1\nname = \"tnk\""),
     "line 12 (key 'case.2.bogus'): unknown key 'case.2.bogus'"),
    (SUITE.replace('name = "tnk"\n', ""), "line 11 (key 'case.2'): case 2 has no 'name'"),
    (SUITE.replace("time_limit = 5", "time_limit = -1"),
     "line 2 (key 'suite.time_limit'): 'suite.time_limit' must be more than 0 seconds"),
    (SUITE.replace("cap = 2", 'cap = "2"'),
     "line 3 (key 'suite.cap'): 'suite.cap' must be int or float, not str"),
])
def test_a_broken_suite_is_one_located_error(tmp_path, text, needle):
    path = tmp_path / "suite.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["bench", "--suite-file", str(path), "--workers", "1",
                                       "--time-limit", "1", "--cap", "1"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"error: {path}: ") and needle in last, (needle, result.stderr)


# ---------------------------------------------------------------- KOSMOS duplicates

@pytest.mark.parametrize(("old", "new", "needle"), [
    ('bridges = ["c1-e1", "c6-b8"]', 'bridges = ["c6-b8", "c1-e1", "c6-b8"]',
     "bridge c6-b8 is listed twice"),
    ("b-ship = 1", "b-ship = 1000", "'bonus_display.b-ship' = 1000 is more than 999"),
    ("vp = 13", "vp = 1000", "'player.red.vp' = 1000 is more than 999"),
])
def test_kosmos_refuses_duplicates_and_huge_numbers(tmp_path, old, new, needle):
    path = _write(tmp_path, _sub("terra-nova-kosmos", old, new))
    with pytest.raises(InputError, match=re.escape(needle)):
        read_kosmos(path)


def test_kosmos_refuses_a_special_action_twice(tmp_path):
    special = sorted(SPECIAL_ACTIONS)[0]
    path = _write(tmp_path, _sub("terra-nova-kosmos", "specials_used = []\ntown_tiles",
                                 f'specials_used = ["{special}", "{special}"]\ntown_tiles'))
    with pytest.raises(InputError, match="a special action is listed twice"):
        read_kosmos(path)


def test_read_text_names_the_line_of_a_byte_that_is_not_utf8(tmp_path):
    path = tmp_path / "l1.toml"
    path.write_bytes(b'game = "terra-nova"\n\nplayers = ["r\xe4d"]\n')
    with pytest.raises(InputError) as error:
        tomlfile.read_text(path)
    assert str(error.value) == (f"{path}: line 3: not UTF-8 text (byte 0xe4); save the file "
                                "as UTF-8")


# ---------------------------------------------------------------- generate --time-limit

# failed before its fix: generate had no --time-limit (a hard Rift Valley run took 29 min)
def test_generate_time_limit_ends_the_run_like_ctrl_c_with_exit_3(tmp_path):
    start = time.monotonic()
    result = CliRunner().invoke(main, ["generate", "rift-valley", "--difficulty", "hard",
                                       "--count", "5", "--seed", "3", "--workers", "1",
                                       "--out", str(tmp_path), "--time-limit", "2"])
    assert result.exit_code == 3, result.output
    assert time.monotonic() - start < 15  # one candidate alone takes seconds of CPU
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("time limit (2 s): ") and f"of 5 puzzle(s) written in {tmp_path}" \
        in last, result.stderr
    for written in tmp_path.glob("*.toml"):  # only complete files
        assert "[solution]" in written.read_text(encoding="utf-8")


# ---------------------------------------------------------------- bench --from

RECORD = {"case": "rv-identical-midgame", "game": "rift-valley", "kind": "max-score",
          "cells": 64, "players": 3, "horizon": 5, "value": [19], "optimal": True, "length": 5,
          "cpsat_s": 0.04, "cpsat_runs": [0.04], "exhaustive_s": 0.03, "exhaustive": "done",
          "exhaustive_value": [19], "agree": True, "ratio": 0.8, "cap": 1.0,
          "stats": {"branches": 154}, "cpsat": "answered", "bound": 19}


# each failed before its fix with a traceback (or drew the table from nonsense)
@pytest.mark.parametrize(("key", "value", "needle"), [
    ("cpsat_s", "x", "'cpsat_s' = 'x' is not float"),
    ("ratio", "fast", "'ratio' = 'fast' is not float or null"),
    ("horizon", [1], "'horizon' = [1] is not int or null"),
    ("value", "x", "'value' = 'x' is not a list of int"),
    ("optimal", 1, "'optimal' = 1 is not bool"),
    ("game", "chess", "unknown game 'chess'"),
])
def test_a_saved_bench_run_with_a_wrong_field_is_one_located_error(tmp_path, key, value,
                                                                    needle):
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps({"suite": "quick", "cases": [RECORD, {**RECORD, key: value}]}))
    result = CliRunner().invoke(main, ["bench", "--from", str(saved)])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: {saved}: case 2: not a bench record: {needle}\n"


def test_a_saved_bench_run_reads_back(tmp_path):
    saved = tmp_path / "run.json"
    capped = {**RECORD, "case": "capped", "horizon": None, "exhaustive_s": None,
              "exhaustive": "capped", "exhaustive_value": None, "agree": None, "ratio": None}
    saved.write_text(json.dumps({"suite": "quick", "cases": [RECORD, capped]}))
    result = CliRunner().invoke(main, ["bench", "--from", str(saved)])
    assert result.exit_code == 0, result.output


# failed before its fix: "line 6 (key 'board'): unknown key 'board' (allowed here: areas, …)"
def test_play_with_a_board_of_another_game_names_the_game():
    other = POSITIONS / "terra-nova" / "setup-2p.toml"
    result = CliRunner().invoke(main, ["play", str(POSITIONS / "rift-valley" / "boards" /
                                                  "savanna.toml"), str(other)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"error: {other}: line 1 (key 'game'): 'game' must be "
                             "\"rift-valley\" here, not 'terra-nova'\n")


# failed before its fix: the recipe was read when its case ran, after the cases before it
def test_a_bad_recipe_is_refused_before_any_case_runs(tmp_path, monkeypatch):
    from solver.bench import runner
    ran = []
    monkeypatch.setattr(runner, "run_case", lambda case, *args, **kwargs: ran.append(case))
    path = tmp_path / "suite.toml"
    path.write_text(SUITE.replace("rows = 3", "rows = 0"), encoding="utf-8")
    result = CliRunner().invoke(main, ["bench", "--suite-file", str(path), "--workers", "1"])
    assert result.exit_code == 2 and ran == [], result.output
    assert result.stderr == (f"error: {path}: line 15 (key 'case.2.recipe'): case 2: recipe "
                             "key 'rows' must be a whole number from 1 to 9, not 0\n")


# ---------------------------------------------------------------- impossible puzzles

MIN_TURNS = POSITIONS / "terra-nova" / "puzzles" / "closing-min-turns.toml"
"""Red's best in 3 turns is at most 45 (the relaxation's proven bound); 2 reach 34."""


# each failed before its fix: solve ran to its time limit (exit 3), or without one for
# minutes, on a target no line reaches; the first two are refused before any search by
# the board's ceiling, the last by the relaxation's bound within 3 turns
@pytest.mark.parametrize(("old", "new", "needle"), [
    ("target = 32", "target = 999",
     "line 18 (key 'puzzle.target'): 999 points cannot be reached: red can gain at most 54 "
     "points on this board, whatever the number of turns"),
    ("target = 32\nturns = 3", "target = 999",  # no horizon: the default one
     "line 18 (key 'puzzle.target'): 999 points cannot be reached: red can gain at most 54"),
    ("target = 32", "target = 46",
     "line 18 (key 'puzzle.target'): 46 points cannot be reached within 3 turn(s) (at most 45)"),
])
@pytest.mark.parametrize("command", ["solve", "solve --json", "batch"])
def test_an_unreachable_min_turns_target_is_one_located_error(tmp_path, old, new, needle,
                                                             command):
    text = MIN_TURNS.read_text(encoding="utf-8")
    assert old in text
    path = _write(tmp_path, text.replace(old, new, 1))
    # a limit the fix stays far below (it takes seconds at most), the old search not
    args = [*command.split(), str(path), "--time-limit", "60", "--workers", "1"]
    _one_error(CliRunner().invoke(main, args), path, needle, command)
