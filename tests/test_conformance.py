"""One conformance test every registered game passes, through the registry only.

A new game registered in :mod:`solver.games` is checked here without a line of
its own: its demo puzzle reads and writes back exactly, ``show``, ``solve``,
``verify`` and ``render`` work on it from the command line, and the game's
generator makes it again from the candidate seed its first line names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import main
from solver.games import GAMES
from solver.paths import POSITIONS_DIR
from solver.protocol import Game

REGISTERED = list(GAMES.values())
NAMES = [game.key for game in REGISTERED]


def run(*args: object) -> Result:
    """``boardsat ARGS`` in this process; its exit status is checked by the caller."""
    return CliRunner().invoke(main, [str(a) for a in args])


def demo(game: Game) -> Path:
    """The game's bundled demo puzzle (it must exist and name the game)."""
    path = POSITIONS_DIR / game.demo
    assert path.is_file(), f"{game.key}: demo {game.demo} is missing"
    return path


@pytest.mark.parametrize("game", REGISTERED, ids=NAMES)
def test_position_files_read_and_write_back_exactly(game, tmp_path):
    position = game.read_position(demo(game))
    text = game.write_position(position)
    copy = tmp_path / "copy.toml"
    copy.write_text(text, encoding="utf-8")
    assert game.read_position(copy) == position
    assert game.write_position(game.read_position(copy)) == text


@pytest.mark.parametrize("game", REGISTERED, ids=NAMES)
def test_show_solve_and_verify_the_demo(game):
    path = demo(game)
    shown = run("show", path)
    assert shown.exit_code == 0, shown.output
    assert path.name in shown.stdout.replace("\n", "")
    solved = run("solve", path, "--json", "--workers", 1)
    assert solved.exit_code == 0, solved.output
    answer = json.loads(solved.stdout)
    assert answer["game"] == game.key and answer["optimal"] is True
    claimed = game.read_position(path).solution
    assert answer["value"] == claimed.value
    verified = run("verify", path, "--json")
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.stdout)["ok"] is True


@pytest.mark.parametrize("game", REGISTERED, ids=NAMES)
def test_render_draws_the_demo_and_its_answer(game, tmp_path):
    for out, extra in ((tmp_path / "board.svg", ()), (tmp_path / "answer.png", ("--solution",))):
        result = run("render", demo(game), *extra, "--out", out)
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 0


def made_kind(game: Game, path: Path) -> str:
    """The puzzle kind a generated file's name carries (``tn-best-turn-s1-c00055``)."""
    labels = {kind: game.puzzle_label(kind, game.default_turns(kind)) for kind in game.kinds}
    kinds = [kind for kind, label in labels.items()
             if path.name.startswith(f"{game.prefix}-{label}-")]
    assert len(kinds) == 1, f"{path.name}: not named like a generated {game.key} puzzle"
    return kinds[0]


@pytest.mark.parametrize("game", REGISTERED, ids=NAMES)
def test_the_generator_makes_the_demo_again_from_its_seed(game, tmp_path):
    """The demo is a generated puzzle: its candidate seed makes the same position again,
    with a unique answer of the same value that ``verify`` accepts."""
    path = demo(game)
    text = path.read_text(encoding="utf-8")
    seed = re.search(r"candidate seed (-?\d+)", text.splitlines()[0])
    assert seed, f"{game.key}: the demo's first line names no candidate seed"
    kind = made_kind(game, path)
    made = game.make_puzzle(int(seed.group(1)), kind, game.default_turns(kind))
    assert made is not None
    position, again = text.split("[solution]")[0], made.text.split("[solution]")[0]
    assert again == position
    copy = tmp_path / path.name
    copy.write_text(made.text, encoding="utf-8")
    assert game.read_position(copy).solution.value == game.read_position(path).solution.value
    verified = run("verify", copy, "--json")
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.stdout)["ok"] is True
