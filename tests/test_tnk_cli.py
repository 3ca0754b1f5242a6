"""Terra Nova (KOSMOS) through the command line: show, perft, play, refusals."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from solver.terra_nova_kosmos.fileformat import DATA_DIR, read_position

SETUP = str(DATA_DIR / "setup-3p.toml")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_perft_json_depth_2() -> None:
    one = run("perft", SETUP, "--json")
    assert one.exit_code == 0, one.output
    data = json.loads(one.stdout)
    assert data["game"] == "terra-nova-kosmos" and data["turns"] > 0
    assert data["positions"] <= data["turns"] and data["pairs"] is None
    two = json.loads(run("perft", SETUP, "--json", "--depth", "2").stdout)
    assert two["turns"] == data["turns"] and two["pairs"] > two["turns"]


def test_perft_refuses_the_other_games_option() -> None:
    result = run("perft", SETUP, "--via-model")
    assert result.exit_code == 2
    assert "--via-model is for Terra Nova files" in result.stderr


def test_play_to_the_end_and_write(tmp_path: Path) -> None:
    result = run("play", SETUP, "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "winner" in result.stdout
    out = tmp_path / "after.toml"
    result = run("play", SETUP, "--seed", "5", "--turns", "9", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert read_position(out).players


def test_solve_not_offered_yet() -> None:
    result = run("solve", SETUP)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1


DEMO = DATA_DIR / "puzzles" / "last-round-demo.toml"


def test_verify_demo_and_wrong_claims(tmp_path: Path) -> None:
    assert run("verify", str(DEMO)).exit_code == 0
    text = DEMO.read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(text.replace("value = 26", "value = 27"), encoding="utf-8")
    result = run("verify", str(wrong), "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["value"] == 26
    illegal = tmp_path / "illegal.toml"
    illegal.write_text(text.replace('"build g7", ', ""), encoding="utf-8")
    result = run("verify", str(illegal))
    assert result.exit_code == 1 and "not ok" in result.stdout


def test_a_map_file_is_refused_as_a_map_outside_show_and_render(tmp_path: Path) -> None:
    """Before: "unknown key 'description' (allowed here: board, …)" from the position reader."""
    board = str(DATA_DIR / "boards" / "base.toml")
    for args in (("solve", board), ("verify", board), ("perft", board), ("play", board)):
        result = run(*args)
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and board in lines[0], result.stderr
        assert "a map file, not a position" in lines[0]
    assert run("show", board).exit_code == 0
    assert run("render", board, "--out", str(tmp_path / "map.svg")).exit_code == 0


def test_solve_names_the_file_and_the_puzzle_first() -> None:
    """As Terra Nova's and Rift Valley's solve do (before: the map came first, unnamed)."""
    path = DATA_DIR / "puzzles" / "generated" / "tnk-best-round-s0-c00018.toml"
    result = run("solve", str(path), "--workers", "1")
    assert result.exit_code == 0, result.output
    flat = "".join(result.stdout.split())       # a long path may be folded anywhere
    assert flat.startswith("".join(f"{path} — best-round (max-points), green to move".split()))
