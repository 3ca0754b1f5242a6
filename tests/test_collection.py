"""The puzzle collection in positions/: every puzzle verifies with the engine; a sample
is re-checked for uniqueness with CP-SAT; the generated ones cover every grade."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.rift_valley.engine.draws import play_draws, score
from solver.rift_valley.fileformat import read_position as read_rv
from solver.rift_valley.uniqueness import check_unique as rv_unique
from solver.terra_nova.fileformat import read_position as read_tn
from solver.terra_nova.solve import verify_solution
from solver.terra_nova.uniqueness import check_unique as tn_unique

ROOT = Path(__file__).resolve().parent.parent
TN = sorted((ROOT / "positions/terra-nova/puzzles").rglob("*.toml"))
RV = sorted((ROOT / "positions/rift-valley/puzzles").rglob("*.toml"))
TN_GENERATED = [p for p in TN if "generated" in p.parts]
RV_GENERATED = [p for p in RV if "generated" in p.parts]
GRADE = re.compile(r"^# difficulty (easy|medium|hard):", re.MULTILINE)
SAMPLE = 3


def _grade(path: Path) -> str:
    match = GRADE.search(path.read_text())
    assert match, f"{path.name} has no difficulty line"
    return match.group(1)


@pytest.mark.parametrize("path", TN, ids=lambda p: p.name)
def test_terra_nova_puzzle_verifies(path):
    position = read_tn(path)
    assert position.puzzle is not None and position.solution is not None
    verdict = verify_solution(position)
    assert verdict.ok, verdict.message


@pytest.mark.parametrize("path", RV, ids=lambda p: p.name)
def test_rift_valley_puzzle_verifies(path):
    position = read_rv(path)
    assert position.solution is not None and position.draws is not None
    final = play_draws(position, list(position.solution.line))
    assert score(final, position.player).total == position.solution.value


def test_collection_size_and_grades():
    for files, kind_of in ((TN_GENERATED, "tn"), (RV_GENERATED, "rv")):
        assert len(files) >= 30, f"{kind_of}: {len(files)} generated puzzles"
        assert {_grade(p) for p in files} == {"easy", "medium", "hard"}
    kinds = {read_tn(p).puzzle.kind for p in TN_GENERATED}
    assert kinds == {"best-turn", "closing"}
    puzzles = [read_tn(p).puzzle for p in TN_GENERATED]
    assert sum(p.objective == "max-points" and p.turns == 3 for p in puzzles) >= 10
    assert sum(p.objective == "min-turns" for p in puzzles) >= 5


def _smallest(files: list[Path], size) -> list[Path]:
    return sorted(files, key=lambda p: (size(p), p.name))[:SAMPLE]


def test_sample_of_terra_nova_collection_is_unique():
    best = [p for p in TN_GENERATED if read_tn(p).puzzle.kind == "best-turn"]
    for path in _smallest(best, lambda p: read_tn(p).grid.size):
        position = read_tn(path)
        checked = tn_unique(position, 1)
        assert checked is not None and checked.unique is True, path.name
        assert checked.key[0] == position.solution.value


def _of_kind(objective: str, turns: int | None) -> list[Path]:
    return [p for p in TN_GENERATED if read_tn(p).puzzle.objective == objective
            and (turns is None or read_tn(p).puzzle.turns == turns)]


@pytest.mark.sweep  # 10-45 s: make sweep (the generator proved it; verify runs above)
def test_min_turns_puzzles_are_unique_and_take_their_turns():
    from solver.terra_nova.engine.exhaustive import best_closing
    for path in _of_kind("min-turns", None):
        position = read_tn(path)
        target, turns = position.puzzle.target, len(position.solution.line)
        assert best_closing(position, turns - 1).key[0] < target  # fewer turns fall short
        checked = tn_unique(position, turns, target=target)
        assert checked is not None and checked.unique is True, path.name
        assert checked.key[0] == position.solution.value


@pytest.mark.sweep  # 5-40 s each: make sweep
def test_three_turn_closings_are_unique_by_the_engine():
    from solver.terra_nova.uniqueness import engine_finals
    for path in _of_kind("max-points", 3):
        position = read_tn(path)
        rank, finals = engine_finals(position, 3, 2_000_000)
        assert finals == 1 and rank[0] == position.solution.value, path.name


def test_sample_of_rift_valley_collection_is_unique():
    for path in _smallest(RV_GENERATED, lambda p: read_rv(p).draws):
        position = read_rv(path)
        checked = rv_unique(position)
        assert checked is not None and checked.unique is True, path.name
        assert checked.value == position.solution.value


TNK = sorted((ROOT / "positions/terra-nova-kosmos/puzzles/generated").rglob("*.toml"))


@pytest.mark.parametrize("path", TNK, ids=lambda p: p.name)
def test_terra_nova_kosmos_puzzle_verifies(path):
    from solver.terra_nova_kosmos.commands import evaluate_line
    from solver.terra_nova_kosmos.fileformat import read_position
    from solver.terra_nova_kosmos.notation import parse_line
    position = read_position(path)
    assert position.puzzle is not None and position.solution is not None
    line = parse_line(position.solution.line, position.grid)
    assert evaluate_line(position, line).value == position.solution.value


def _tnk_kind(path):
    from solver.terra_nova_kosmos.fileformat import read_position
    return read_position(path).puzzle.kind


def test_terra_nova_kosmos_collection_size():
    assert len(TNK) >= 12
    assert {_grade(p) for p in TNK} == {"easy", "medium", "hard"}
    best = [p for p in TNK if _tnk_kind(p) == "best-round"]
    assert len(best) >= 6
    assert {_grade(p) for p in best} == {"easy", "medium", "hard"}


@pytest.mark.parametrize("kind", ["last-round", "best-round"])
def test_sample_of_terra_nova_kosmos_collection_is_unique(kind):
    from solver.terra_nova_kosmos.engine import bestround, lastround
    from solver.terra_nova_kosmos.fileformat import read_position
    from solver.terra_nova_kosmos.puzzlegen import check_unique, check_unique_best
    check, evaluate = ((check_unique, lastround.evaluate) if kind == "last-round"
                       else (check_unique_best, bestround.evaluate))
    files = [p for p in TNK if _tnk_kind(p) == kind]
    for path in _smallest(files, lambda p: len(read_position(p).solution.line))[:1]:
        position = read_position(path)
        checked = check(position)
        assert checked is not None and checked.unique is True, path.name
        assert evaluate(position, checked.line).value == position.solution.value
