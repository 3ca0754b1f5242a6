"""File names are printed as they are: brackets in a path are not rich markup.

A folder ``x[`` holding ``]y.toml`` gives the path ``…/x[/]y.toml``, whose ``[/]``
rich would read as a closing tag (a MarkupError traceback), and a file named
``[old]savanna.toml`` would lose its ``[old]`` as an unknown style.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.paths import POSITIONS_DIR


def run(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def flat(text: str) -> str:
    """``text`` without white space (a long path may be wrapped or centred)."""
    return "".join(text.split())


def bracketed(tmp_path: Path, source: str) -> Path:
    """A copy of the bundled ``source`` at ``tmp_path/x[/]y.toml``."""
    folder = tmp_path / "x["
    folder.mkdir()
    path = folder / "]y.toml"
    shutil.copy(POSITIONS_DIR / source, path)
    assert "[/]" in str(path)
    return path


CASES = [
    ("terra-nova/puzzles/best-turn-majority.toml", ("show",)),
    ("terra-nova/puzzles/best-turn-majority.toml", ("solve", "--workers", "1")),
    ("terra-nova/puzzles/best-turn-majority.toml", ("perft",)),
    ("terra-nova/setup-2p.toml", ("play", "--turns", "1")),
    ("terra-nova-kosmos/setup-2p.toml", ("show",)),
    ("terra-nova-kosmos/setup-2p.toml", ("perft",)),
    ("terra-nova-kosmos/setup-2p.toml", ("play", "--turns", "1")),
    ("terra-nova-kosmos/boards/base.toml", ("show",)),
]


@pytest.mark.parametrize(("source", "command"), CASES,
                         ids=[f"{c[0]}-{s}" for s, c in CASES])
def test_a_path_with_brackets_is_printed_as_it_is(tmp_path, source, command):
    path = bracketed(tmp_path, source)
    result = run(command[0], path, *command[1:])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert flat(str(path)) in flat(result.stdout)


@pytest.mark.parametrize("source", ["terra-nova/setup-2p.toml",
                                    "terra-nova-kosmos/setup-2p.toml"])
def test_files_written_under_brackets_are_named_as_they_are(tmp_path, source):
    path = bracketed(tmp_path, source)
    out = path.parent / "]after.toml"
    result = run("play", path, "--turns", "1", "--out", out)
    assert result.exit_code == 0, result.output
    assert flat(f"wrote {out}") in flat(result.stderr)
    picture = path.parent / "]board.svg"
    result = run("render", path, "--out", picture)
    assert result.exit_code == 0, result.output
    assert flat(f"wrote {picture}") in flat(result.stderr)


def test_batch_summary_names_its_out_file_as_it_is(tmp_path):
    path = bracketed(tmp_path, "terra-nova/puzzles/best-turn-majority.toml")
    out = path.parent / "]lines.jsonl"
    result = run("batch", "--verify", path, "--out", out, "--workers", "1")
    assert result.exit_code == 0, result.output
    assert flat(f"1 file: 1 ok, 0 failed in {out}") in flat(result.stderr)


def test_rift_valley_board_names_keep_their_brackets(tmp_path):
    boards = POSITIONS_DIR / "rift-valley" / "boards"
    named = tmp_path / "[old]savanna.toml"
    shutil.copy(boards / "savanna.toml", named)
    result = run("play", named, boards / "riverbend.toml", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert flat("@[old]savanna ") in flat(result.stdout)           # the rounds table
