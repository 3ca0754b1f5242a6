"""The Terra Nova commands show/perft/play through click, and bad input → one line, exit 2."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.terra_nova.engine.playout import random_playout
from solver.terra_nova.engine.turns import perft
from solver.terra_nova.fileformat import read_position
from solver.terra_nova.notation import format_turn

POSITIONS = Path(__file__).resolve().parent.parent / "positions" / "terra-nova"

GOOD = '''game = "terra-nova"
players = ["red", "yellow"]
to_move = "red"
board = """
aR b. c. d. e.
  b. c. dY e. a.
c. d. e. aR b.
"""
'''


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pos.toml"
    path.write_text(text, encoding="utf-8")
    return path


BIG_STONES = "\n".join(" ".join(["a#"] * 10) for _ in range(8)) + "\na# b. c. d. e. a. b. c. d. aR"

BAD = {
    "malformed TOML": (GOOD.replace('to_move = "red"', "to_move = "), "line 3", "malformed TOML"),
    "unknown key": (GOOD + "colour = 3\n", "unknown key 'colour'", "line"),
    "unequal rows": (GOOD.replace("c. d. e. aR b.", "c. d. e. aR"), "board row 3", "tokens"),
    "bad token": (GOOD.replace("c. d. e. aR", "c. d? e. aR"), "cell b3", "bad content"),
    "bad landscape": (GOOD.replace("c. d. e. aR", "c. D. e. aR"), "cell b3", "bad landscape"),
    "unknown colour": (GOOD.replace('"yellow"]', '"purple"]'), "players", "unknown colour"),
    "to_move": (GOOD.replace('to_move = "red"', 'to_move = "blue"'), "to_move",
                "not one of the players"),
    "piece in region": (GOOD.replace("aR b. c. d. e.", "aR b# c. d. e.").replace(
        "b. c. dY", "b# c. dY"), "cell a1", "inside a region"),
    "too many stones": (GOOD.replace("aR b. c. d. e.\n  b. c. dY e. a.\nc. d. e. aR b.",
                                     BIG_STONES), "board", "only 80"),
    "turn string": (GOOD + '\n[solution]\nvalue = 0\nline = ["a1-c1 #b1 c1"]\n',
                    "turn 1, action 'c1'", "FROM-TO"),
}


# show reads every case; perft and play do not look at the [solution] line.
CASES = [("show", case) for case in sorted(BAD)] + [
    (command, case) for command in ("perft", "play") for case in sorted(BAD)
    if case != "turn string"]


@pytest.mark.parametrize(("command", "case"), CASES)
def test_bad_input_is_one_line_naming_file_and_place(tmp_path, command, case):
    text, place, words = BAD[case]
    path = write(tmp_path, text)
    result = run(command, path)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(path) in lines[0] and place in lines[0] and words in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("case", sorted(set(BAD) - {"turn string"}))
def test_render_refuses_what_show_refuses(tmp_path, case):
    """A position show refuses (a piece inside a region included) is not drawn either."""
    text, place, words = BAD[case]
    path = write(tmp_path, text)
    out = tmp_path / "board.svg"
    result = run("render", path, "--out", out)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and words in lines[0], result.stderr
    assert not out.exists()


def test_verify_and_solve_name_an_unparsable_solution_line_as_show_does(tmp_path):
    path = write(tmp_path, BAD["turn string"][0])
    messages = []
    for command in ("show", "verify", "solve"):
        result = run(command, path)
        assert result.exit_code == 2, result.output
        messages.append(result.stderr.strip())
    assert messages[0] == messages[1] == messages[2]
    assert "[solution] line, turn 1, action 'c1'" in messages[1]


def test_show_draws_board_and_status(tmp_path):
    result = run("show", POSITIONS / "midgame-2p.toml")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "stones left 50" in out and "to move: red" in out
    assert " a " in out.splitlines()[1] and "13" in out


def test_piece_counts_read_as_words_on_screen_and_in_pictures(tmp_path):
    """One piece is "1 piece", not "1 pieces" (GOOD: red 2 pieces, yellow 1)."""
    from solver.terra_nova.picture import position_scene

    path = write(tmp_path, GOOD)
    out = run("show", path).stdout
    assert "red 0 pts (2 pieces)" in out and "yellow 0 pts (1 piece)" in out
    assert "1 pieces" not in out
    status = " ".join(position_scene(read_position(path)).status).replace("\u00a0", " ")
    assert "yellow 0 pts (1 piece)" in status and "1 pieces" not in status


def test_show_replays_a_claimed_solution(tmp_path):
    good = write(tmp_path, GOOD + '\n[solution]\nvalue = 0\nline = ["a1-c1 #b1 #d1"]\n')
    result = run("show", good)
    assert result.exit_code == 0 and "engine: legal; red gains 0" in result.stdout
    bad = write(tmp_path, GOOD + '\n[solution]\nvalue = 0\nline = ["a1-c1 #e3 #d1"]\n')
    result = run("show", bad)
    assert result.exit_code == 1 and "illegal: turn 1, action 2 '#e3'" in result.stdout


def test_perft_json_matches_engine():
    path = POSITIONS / "midgame-4p.toml"
    result = run("perft", path, "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    expected = perft(read_position(path))
    assert (data["turns"], data["positions"]) == (expected.turns, expected.positions)
    assert data["wall_s"] >= 0


def test_play_prints_turns_and_writes_final_position(tmp_path):
    source = POSITIONS / "setup-3p.toml"
    out = tmp_path / "after.toml"
    result = run("play", source, "--turns", 4, "--seed", 5, "--out", out)
    assert result.exit_code == 0, result.output
    final, history = random_playout(read_position(source), random.Random(5), turns=4)
    assert read_position(out) == final
    for _colour, turn, _gained in history:
        assert format_turn(turn, final.grid) in result.stdout
    again = run("play", source, "--turns", 4, "--seed", 5)
    assert again.stdout == result.stdout


def test_play_player_out_option(tmp_path):
    three = GOOD.replace('["red", "yellow"]', '["red", "yellow", "blue"]').replace("dY", "dB")
    path = write(tmp_path, three)
    assert "stopped after 3 turn(s)" in run("play", path, "--turns", 3).stdout
    result = run("play", path, "--turns", 3, "--player-out-ends-game")
    assert "game over" in result.stdout


def test_render_position_labels_edges_and_highlights():
    from rich.console import Console

    from solver.terra_nova.view import Marks, render_position

    position = read_position(POSITIONS / "midgame-3p.toml")
    console = Console(record=True, width=120, force_terminal=True, color_system="truecolor")
    console.print(render_position(position, Marks(changed=frozenset({0}))))
    text = console.export_text(clear=False)
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghijklmno") == lines[14].split()
    assert lines[1].split()[0] == "1" and lines[13].split()[-1] == "13"
    assert "lake" in text and "stones left 45" in text and "to move: red" in text
    assert "\x1b[" in console.export_text(styles=True)      # coloured
