"""`boardsat generate`: reproducible, verified, unique puzzles; no partial files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver.puzzlegen as puzzlegen
import solver.tomlfile as tomlfile
from cli.main import main
from solver.errors import InputError
from solver.protocol import Made
from solver.puzzlegen import Request, candidate_seed, generate
from solver.rift_valley.fileformat import parse_position as parse_rv
from solver.rift_valley.uniqueness import check_unique as rv_unique
from solver.terra_nova.fileformat import read_position as read_tn
from solver.terra_nova.puzzlegen import position_from_recipe
from solver.terra_nova.uniqueness import check_unique as tn_unique
from solver.terra_nova.uniqueness import engine_finals

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tn_runs(tmp_path_factory) -> tuple[Path, Path]:
    """The same request twice: inline, then with two worker processes."""
    first = tmp_path_factory.mktemp("one")
    second = tmp_path_factory.mktemp("two")
    for folder, workers in ((first, "1"), (second, "2")):
        result = CliRunner().invoke(main, ["generate", "terra-nova", "--count", "2", "--seed",
                                           "11", "--out", str(folder), "--workers", workers])
        assert result.exit_code == 0, result.output
    return first, second


def test_same_seed_same_files_whatever_the_workers(tn_runs):
    first, second = tn_runs
    names = sorted(p.name for p in first.glob("*.toml"))
    assert len(names) == 2
    assert names == sorted(p.name for p in second.glob("*.toml"))
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_generated_files_pass_verify_and_carry_puzzle_and_solution(tn_runs):
    for path in sorted(tn_runs[0].glob("*.toml")):
        position = read_tn(path)
        assert position.puzzle is not None and position.puzzle.kind == "best-turn"
        assert position.solution is not None and position.solution.value > 0
        result = CliRunner().invoke(main, ["verify", str(path), "--json"])
        assert result.exit_code == 0, result.output
        assert '"ok": true' in result.stdout


def test_generated_puzzles_are_unique(tn_runs):
    for path in sorted(tn_runs[0].glob("*.toml")):
        position = read_tn(path)
        checked = tn_unique(position, 1)
        assert checked is not None and checked.unique is True
        assert checked.key[0] == position.solution.value


def test_candidate_seeds_are_stable_and_distinct():
    assert candidate_seed(1, 0) == candidate_seed(1, 0)
    assert len({candidate_seed(1, i) for i in range(100)} | {candidate_seed(2, 0)}) == 101


def test_non_unique_terra_nova_position_is_detected():
    """Two optimal turns to different final positions: the engine pre-filter finds two
    finals and the CP-SAT check finds a second optimal answer; a unique one passes both."""
    double = position_from_recipe({"rows": 6, "cols": 7, "pieces": 3, "turns_played": 6,
                                   "seed": 0}, ROOT)
    single = position_from_recipe({"rows": 6, "cols": 7, "pieces": 3, "turns_played": 10,
                                   "seed": 0}, ROOT)
    rank, finals = engine_finals(double, 1)
    assert rank[0] > 0 and finals == 2
    assert tn_unique(double, 1).unique is False
    rank, finals = engine_finals(single, 1)
    assert finals == 1
    assert tn_unique(single, 1).unique is True


SYMMETRIC_BOARD = "\n".join([
    'game = "rift-valley"', 'player = "red"', 'rift_owner = "red"', "draws = 3",
    "terrain = '''",
    "- . . . . .", *[". . . . . ."] * 5,
    "'''",
    "areas = '''",
    "1 1 2 2 3 3", "1 1 2 2 3 3", "4 4 5 5 6 6", "4 4 5 5 6 6", "7 7 8 8 9 9", "7 7 8 8 9 9",
    "'''", ""])
"""A 6x6 board without animals, nine 2x2 areas and a one-cell rift."""


def test_non_unique_rift_valley_position_is_detected():
    """Three draws: an L trail through 5 areas between two stops fits in many places."""
    checked = rv_unique(parse_rv(SYMMETRIC_BOARD))
    assert checked is not None and checked.unique is False and checked.value == 5


def _fake_candidates(monkeypatch, text: str = 'game = "x"\n' * 50) -> None:
    def fake(game, seed, kind, turns):
        return Made(text, "easy", {"seed": seed})
    monkeypatch.setattr(puzzlegen, "run_candidate", fake)


def test_interrupted_write_leaves_no_partial_file(monkeypatch, tmp_path):
    _fake_candidates(monkeypatch)
    real_fdopen = os.fdopen

    class Breaking:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, text):
            self.handle.write(text[: len(text) // 2])
            self.handle.flush()
            raise KeyboardInterrupt

    monkeypatch.setattr(tomlfile.os, "fdopen", lambda *a, **k: Breaking(real_fdopen(*a, **k)))
    with pytest.raises(KeyboardInterrupt):
        generate(Request("terra-nova", "best-turn", 1, 3, 5, tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_interrupt_between_candidates_keeps_only_whole_files(monkeypatch, tmp_path):
    text = 'game = "terra-nova"\n'
    _fake_candidates(monkeypatch, text)

    def stop_after_two(kept, tried):
        if kept == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate(Request("terra-nova", "best-turn", 1, 5, 5, tmp_path), stop_after_two)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["tn-best-turn-s5-c00000.toml", "tn-best-turn-s5-c00001.toml"]
    assert all(f.read_text() == text for f in files)


def test_bad_request_is_one_line_error(tmp_path):
    result = CliRunner().invoke(main, ["generate", "rift-valley", "--kind", "closing",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "max-score" in result.output and "Traceback" not in result.output


def test_board_window_keeps_cells_and_refuses_odd_rows():
    from solver.terra_nova.puzzlegen import FULL_BOARD, crop_board, load_board
    full = load_board(ROOT / FULL_BOARD)
    window = load_board(ROOT / FULL_BOARD, 4, 6, 6, 4)
    assert window.grid.size == 24
    for cell in range(window.grid.size):
        row, col = window.grid.coords[cell]
        assert window.landscape[cell] == full.landscape[full.grid.index(row + 6, col + 4)]
    with pytest.raises(InputError, match="even row"):
        crop_board(full, 4, 6, 5, 4)


def test_min_turns_and_turns_requests_are_checked(tmp_path):
    for args, words in ((["--kind", "min-turns", "--turns", "3"], "answers of 2 turns"),
                        (["--kind", "best-turn", "--turns", "2"], "--turns is for closing")):
        result = CliRunner().invoke(main, ["generate", "terra-nova", "--out", str(tmp_path),
                                           *args])
        assert result.exit_code == 2 and words in result.output, result.output


@pytest.mark.sweep  # about a minute: make sweep
def test_min_turns_generation_reproduces_the_collection_file(tmp_path):
    written = generate(Request(game="terra-nova", kind="min-turns", turns=2, count=1, seed=31,
                               out=tmp_path))
    bundled = ROOT / "positions/terra-nova/puzzles/generated" / written[0].path.name
    assert written[0].path.read_bytes() == bundled.read_bytes()


def test_min_turns_question_names_the_cap_solve_uses():
    from solver.terra_nova.picture import question
    from solver.terra_nova.solve import MIN_TURNS_DEFAULT_CAP
    position = read_tn(ROOT / "positions/terra-nova/puzzles/generated"
                       / "tn-min-turns2-s31-c00003.toml")
    assert position.puzzle.turns is None
    assert question(position) == (f"Red: 14 points in the fewest turns "
                                  f"(at most {MIN_TURNS_DEFAULT_CAP})")
