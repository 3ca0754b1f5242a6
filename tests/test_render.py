"""``boardsat render`` and ``boardsat sheet``: every bundled file draws, the SVG holds
exactly the board's cells and pieces, a sheet has one page per puzzle plus the answers."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.drawing.output import FORMATS
from solver.paths import POSITIONS_DIR
from solver.recordfile import is_record
from solver.sheet import pack_answers
from solver.tomlfile import load_toml

SVG = "{http://www.w3.org/2000/svg}"


BENCH_FOLDERS = ("terra-nova/played", "terra-nova/holdout")
"""Folders of benchmark positions, all of one kind (played full boards): the first file of
each stands for the others (time)."""


def bundled() -> list[Path]:
    """Every position, board and puzzle file under positions/ (files with a ``game`` key,
    game records left out), one of each of :data:`BENCH_FOLDERS`."""
    files = [p for p in sorted(POSITIONS_DIR.rglob("*.toml"))
             if "game" in (data := load_toml(p)[0]) and not is_record(data)]
    firsts = {folder: next(p for p in files if p.parent == POSITIONS_DIR / folder)
              for folder in BENCH_FOLDERS}
    return [p for p in files if str(p.parent.relative_to(POSITIONS_DIR)) not in BENCH_FOLDERS
            or p in firsts.values()]


def has_solution(path: Path) -> bool:
    return "solution" in load_toml(path)[0]


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", data))


def run(*args: str) -> None:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("index_path", list(enumerate(bundled())),
                         ids=lambda ip: str(ip[1].relative_to(POSITIONS_DIR)))
def test_every_bundled_file_renders(index_path, tmp_path):
    """One format per file in turn (all three over the collection); the answer too for
    every third file that has one (time)."""
    index, path = index_path
    kind = FORMATS[index % len(FORMATS)]
    out = tmp_path / f"board.{kind}"
    run("render", str(path), "--out", str(out))
    data = out.read_bytes()
    assert len(data) > 1000
    if kind == "pdf":
        assert pdf_pages(data) == 1
    if has_solution(path) and index % 3 == 0:
        answer = tmp_path / f"answer.{FORMATS[(index + 1) % len(FORMATS)]}"
        run("render", str(path), "--solution", "--out", str(answer))
        assert answer.stat().st_size > 1000


def svg_ids(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return [el.get("id") for el in root.iter() if el.get("id")]


def test_svg_structure_matches_a_small_terra_nova_board(tmp_path):
    from solver.terra_nova.fileformat import read_position

    path = POSITIONS_DIR / "terra-nova" / "puzzles" / "closing-min-turns.toml"
    position = read_position(path)
    out = tmp_path / "board.svg"
    run("render", str(path), "--out", str(out))
    ids = svg_ids(out)
    grid = position.grid
    assert sorted(i[5:] for i in ids if i.startswith("cell-")) == sorted(
        grid.name(c) for c in range(grid.size))
    assert sorted(i[6:] for i in ids if i.startswith("piece-")) == sorted(
        grid.name(c) for c in position.pieces)
    assert sorted(i[6:] for i in ids if i.startswith("stone-")) == sorted(
        grid.name(c) for c in position.stones)
    assert not any(i.startswith(("arrow-", "badge-")) for i in ids)


def test_svg_answer_has_an_arrow_per_move_and_a_number_per_action(tmp_path):
    from solver.terra_nova.fileformat import read_position
    from solver.terra_nova.notation import Move, parse_line

    path = POSITIONS_DIR / "terra-nova" / "puzzles" / "closing-min-turns.toml"
    position = read_position(path)
    line = parse_line(position.solution.line, position.grid)
    actions = [a for turn in line for a in turn]
    out = tmp_path / "answer.svg"
    run("render", str(path), "--solution", "--out", str(out))
    ids = svg_ids(out)
    assert sum(i.startswith("arrow-") for i in ids) == sum(isinstance(a, Move) for a in actions)
    assert sorted(int(i[6:]) for i in ids if i.startswith("badge-")) == list(
        range(1, len(actions) + 1))


def test_rift_valley_svg_has_every_element(tmp_path):
    from solver.rift_valley.fileformat import read_position

    path = POSITIONS_DIR / "rift-valley" / "midgame-savanna.toml"
    position = read_position(path)
    out = tmp_path / "board.svg"
    run("render", str(path), "--out", str(out))
    ids = svg_ids(out)
    assert sum(i.startswith("cell-") for i in ids) == position.grid.size
    stops = sum(len(e.stops) for _, e in position.elements)
    trails = sum(len(e.trails) for _, e in position.elements)
    assert sum(i.startswith("stop-") for i in ids) == stops
    assert sum(i.startswith("trail-") for i in ids) == trails


def test_missing_output_folders_are_created(tmp_path):
    out = tmp_path / "new" / "folder" / "board.png"
    run("render", str(POSITIONS_DIR / "terra-nova" / "setup-2p.toml"), "--out", str(out))
    assert out.stat().st_size > 1000


def test_kosmos_answer_numbers_the_hexes_each_turn_changed(tmp_path):
    """last-round-demo: 'build g7', '$1 build f8 town:t9', 'pass b-spade'."""
    path = POSITIONS_DIR / "terra-nova-kosmos" / "puzzles" / "last-round-demo.toml"
    out = tmp_path / "answer.svg"
    run("render", str(path), "--solution", "--out", str(out))
    ids = svg_ids(out)
    assert sorted(i for i in ids if i.startswith("badge-")) == ["badge-1", "badge-2", "badge-2"]
    assert "house-g7" in ids and "house-f8" in ids


@pytest.mark.parametrize("kind", ["svg", "pdf"])
def test_output_is_reproducible(kind, tmp_path):
    path = POSITIONS_DIR / "terra-nova" / "puzzles" / "closing-min-turns.toml"
    first, second = tmp_path / f"a.{kind}", tmp_path / f"b.{kind}"
    run("render", str(path), "--solution", "--out", str(first))
    run("render", str(path), "--solution", "--out", str(second))
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize(("name", "words"), [
    ("terra-nova/puzzles/best-turn-majority.toml", "gains {} points"),
    ("rift-valley/puzzles/generated/rv-max-score-s1-c00007.toml", "scores {}:"),
])
def test_an_answer_missing_from_the_file_is_solved(name, words, tmp_path):
    """Without [solution] the answer comes from the solver (replayed by the engine) and is
    worth the file's stated optimum."""
    from solver.games import game_of

    text = (POSITIONS_DIR / name).read_text(encoding="utf-8")
    stripped = tmp_path / "puzzle.toml"
    stripped.write_text(text[:text.index("[solution]")], encoding="utf-8")
    value = load_toml(POSITIONS_DIR / name)[0]["solution"]["value"]
    scene = game_of(stripped).picture(stripped, solution=True)
    assert scene.badges
    assert words.format(value) in " ".join(scene.answer + scene.status)
    out = tmp_path / "answer.svg"
    run("render", str(stripped), "--solution", "--out", str(out))
    assert any(i.startswith("badge-") for i in svg_ids(out))  # optimal lines may differ


def test_sheet_has_a_page_per_puzzle_and_the_answer_pages(tmp_path):
    """Small boards: every two answers share a page."""
    folder = POSITIONS_DIR / "terra-nova" / "puzzles"
    files = sorted(folder.glob("*.toml"))
    rift = sorted((POSITIONS_DIR / "rift-valley" / "puzzles" / "generated").glob("*.toml"))[:1]
    out = tmp_path / "sheet.pdf"
    run("sheet", str(folder), str(rift[0]), "--out", str(out))
    puzzles = len(files) + 1
    assert pdf_pages(out.read_bytes()) == puzzles + -(-puzzles // 2)


@pytest.mark.parametrize(("fits", "pages"), [
    ([True, True, True], [[0, 1], [2]]),
    ([True, False, True, True], [[0], [1], [2, 3]]),
    ([False, False], [[0], [1]]),
    ([], []),
])
def test_answers_share_a_page_only_when_both_fit(fits, pages):
    assert pack_answers(fits) == pages


@pytest.mark.parametrize(("args", "message"), [
    (["render", "positions/terra-nova/setup-2p.toml", "--out", "x.jpg"], "must end in .svg"),
    (["sheet", "positions/terra-nova/puzzles", "--out", "x.png"], "written as PDF"),
    (["render", "positions/terra-nova-kosmos/boards/base.toml", "--solution", "--out", "x.svg"],
     "poses no puzzle"),
    (["sheet", "no/such/folder", "--out", "x.pdf"], "no such file or folder"),
    (["render", "positions/terra-nova/setup-2p.toml", "--out", "x.pdf/y.svg"],
     "exists and is not a folder"),
])
def test_bad_requests_are_one_line_and_exit_2(args, message, tmp_path):
    from solver.paths import REPO_ROOT

    args = [str(REPO_ROOT / a) if a.startswith(("positions/", "no/")) else str(tmp_path / a)
            if a.startswith("x") else a for a in args]
    (tmp_path / "x.pdf").write_text("a file, not a folder")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


WRONG_SOLUTIONS = [
    # (file, a change that keeps the line worth its value's engine count, illegal line)
    ("terra-nova/puzzles/closing-demo.toml", 29, ('"g3-e3 #d4 #d2"', '"g3-e3 #d4 #d4"')),
    ("rift-valley/midgame-identical.toml", 19, ('"o c6", "o f8"', '"o c6", "o c6"')),
    ("terra-nova-kosmos/puzzles/last-round-demo.toml", 26,
     ('"$1 build f8', '"$1 build g7')),
]


@pytest.mark.parametrize(("name", "value", "illegal"), WRONG_SOLUTIONS,
                         ids=[w[0].split("/")[0] for w in WRONG_SOLUTIONS])
def test_a_solution_that_does_not_hold_is_exit_1_everywhere(name, value, illegal, tmp_path):
    # Before: render --solution and sheet refused it with exit 2 (bad input), show exited
    # 1 on an illegal line but 0 on a wrong value (KOSMOS show: 0 on both), verify 1.
    # Now every command that replays a claimed [solution] says it does not hold: exit 1.
    text = (POSITIONS_DIR / name).read_text(encoding="utf-8")
    assert f"value = {value}\n" in text and illegal[0] in text
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(text.replace(f"value = {value}\n", f"value = {value + 1}\n"),
                     encoding="utf-8")
    bad = tmp_path / "illegal.toml"
    bad.write_text(text.replace(illegal[0], illegal[1], 1), encoding="utf-8")
    out = tmp_path / "answer.svg"
    for path in (wrong, bad):
        for args in (["show"], ["verify"], ["render", "--solution", "--out", str(out)],
                     ["sheet", "--out", str(tmp_path / "sheet.pdf")]):
            result = CliRunner().invoke(main, [*args, str(path)])
            assert result.exit_code == 1, (args, path.name, result.output)
            assert "Traceback" not in result.output
    result = CliRunner().invoke(main, ["render", str(wrong), "--solution", "--out", str(out)])
    assert (f"{wrong}: the [solution] claims value {value + 1}, the engine counts {value}"
            in result.stderr)
    assert not out.exists() and not (tmp_path / "sheet.pdf").exists()


def test_a_solution_line_that_does_not_parse_is_bad_input_naming_the_file(tmp_path):
    # Before: render --solution named no file for a Terra Nova line that does not parse.
    text = (POSITIONS_DIR / "terra-nova/puzzles/closing-demo.toml").read_text(encoding="utf-8")
    path = tmp_path / "badcell.toml"
    path.write_text(text.replace('"g3-e3 #d4 #d2"', '"g3-e3 #d4 #d9"'), encoding="utf-8")
    result = CliRunner().invoke(main, ["render", str(path), "--solution", "--out",
                                       str(tmp_path / "x.svg")])
    assert result.exit_code == 2
    assert f"{path}: [solution] line, turn 1, action '#d9'" in result.stderr
