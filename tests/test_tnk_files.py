"""Terra Nova (KOSMOS): data files, position files, notation — round trips and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.errors import InputError
from solver.recordfile import is_record
from solver.terra_nova_kosmos.fileformat import (
    BOARDS_DIR,
    DATA_DIR,
    default_factions,
    parse_position,
    read_board,
    read_factions,
    read_position,
    write_position,
)
from solver.terra_nova_kosmos.notation import format_turn, parse_line, parse_turn
from solver.terra_nova_kosmos.rules import FACTION_IDS, LANDSCAPE_LETTER, RIVER
from solver.tomlfile import load_toml

POSITIONS = sorted(p for p in DATA_DIR.rglob("*.toml")
                   if p.parent != BOARDS_DIR and p.name != "factions.toml"
                   and not is_record(load_toml(p)[0]))

LATE = '''game = "terra-nova-kosmos"
players = ["blue", "red", "yellow"]
factions = { blue = "seebaeren", red = "golems", yellow = "feline" }
to_move = "blue"
start = "red"
round = 5
round_tiles = ["r-spade2", "r-house2", "r-kontor3", "r-town5", "r-ship2"]
power_actions_used = ["pa-money7", "pa-bridge3"]
bonus_display = { b-house = 2, b-ship = 1, b-palace = 1 }
passed = ["red", "yellow"]
rules = { bridge_adjacency = "owner" }
board = """
lBp lBh r.. w.. wRh
  lBk lBh r.. wRk d..
s.. f.. r.. d.. dYh
  lBh r.. lBh f.. d..
"""
bridge_spots = ["b2-d2"]

[player.blue]
vp = 48
money = 11
power = [1, 2, 5]
shipping = 1
bonus = "b-reach"
palaces = ["left"]
town_tiles = ["t9", "t8p6"]
towns = ["a1", "b4"]
bridges = ["b2-d2"]
links = ["a4-c4"]

[player.red]
vp = 51
money = 4
power = [3, 3, 2]
shipping = 2

[player.yellow]
vp = 40
power = [0, 0, 8]

[faction_data.seebaeren]
shipping_vp = [2, 3, 4, 5]
kontor_income = [[3, 1], [3, 1], [3, 2], [4, 2]]

[puzzle]
kind = "last-round"

[solution]
value = 0
line = ["terraform c3 build", "pa-ship", "pass b-house"]
'''


def test_bundled_positions_exist() -> None:
    assert {p.name for p in POSITIONS} >= {"setup-2p.toml", "setup-3p.toml", "setup-4p.toml"}


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.name)
def test_round_trip_bundled(path: Path) -> None:
    position = read_position(path)
    text = write_position(position)
    again = parse_position(text)
    assert again == position
    assert write_position(again) == text


def test_round_trip_every_field() -> None:
    position = parse_position(LATE)
    assert position.rules.bridge_adjacency == "owner"
    blue = position.player("blue")
    assert blue.links == ((position.grid.cell("a4"), position.grid.cell("c4")),)
    assert position.faction("blue").shipping_vp == (2, 3, 4, 5)
    assert position.faction("red").shipping_vp == default_factions()["golems"].shipping_vp
    assert position.player("yellow").money == default_factions()["feline"].start_money
    assert position.passed == ("red", "yellow")
    assert position.houses_left("blue") == 8 - 4
    assert position.kontore_left("blue") == 4 - 1
    assert position.palaces_left("blue") == 1
    text = write_position(position)
    assert parse_position(text) == position
    assert write_position(parse_position(text)) == text


BAD = [
    ("game = \"terra-nova-kosmos\"", "game = \"terra-nova\"", "line 1"),
    ("to_move = \"blue\"", "to_move = \"green\"", "to_move"),
    ("round = 5", "round = 6", "round"),
    ("lBp lBh r.. w.. wRh", "lBp lBh rBh w.. wRh", "cell c1"),
    ("lBp lBh r.. w.. wRh", "lBp lBh r.. w.. wRx", "cell e1"),
    ("lBp lBh r.. w.. wRh", "lBp lBh r.. w.. wNh", "cell e1"),
    ("lBp lBh r.. w.. wRh", "lBp lBh r.. w..", "board row 2"),
    ("power = [1, 2, 5]", "power = [1, 2, 4]", "power"),
    ("power = [1, 2, 5]", "power = [1, -2, 9]", "power"),
    ("money = 11", "money = \"many\"", "money"),
    ("power = [3, 3, 2]", "power = [3, 3, 3]", "line 35"),
    ("shipping = 1", "shipping = 7", "shipping"),
    ("towns = [\"a1\", \"b4\"]", "towns = [\"a1\"]", "towns"),
    ("towns = [\"a1\", \"b4\"]", "towns = [\"a1\", \"d3\"]", "towns"),
    ("bridges = [\"b2-d2\"]", "bridges = [\"a1-c1\"]", "bridges"),
    ("bridge_spots = [\"b2-d2\"]", "bridge_spots = [\"a1-b1\"]", "bridge_spots"),
    ("palaces = [\"left\"]", "palaces = []", "palaces"),
    ("bonus = \"b-reach\"", "bonus = \"b-house\"", "bonus_display"),
    ("passed = [\"red\", \"yellow\"]", "passed = [\"red\", \"blue\"]", "to_move"),
    ("red = \"golems\"", "red = \"feline\"", "factions"),
    ("red = \"golems\"", "red = \"flaschengeister\"", "factions"),
    ("kind = \"last-round\"", "kind = \"best-ever\"", "kind"),
    ("[player.red]", "[player.green]", "player.green"),
    ("shipping_vp = [2, 3, 4, 5]", "shipping_vp = []", "shipping_vp"),
    ("links = [\"a4-c4\"]", "links = [\"a1-b2\"]", "links"),
    ("round_tiles = [\"r-spade2\", ", "round_tiles = [", "round_tiles"),
    ("bridge_adjacency = \"owner\"", "bridge_adjacency = \"none\"", "bridge_adjacency"),
]


@pytest.mark.parametrize(("old", "new", "place"), BAD, ids=[b[1][:24] for b in BAD])
def test_bad_input_names_the_place(old: str, new: str, place: str | None) -> None:
    assert old in LATE
    text = LATE.replace(old, new, 1)
    with pytest.raises(InputError) as caught:
        parse_position(text, "late.toml")
    message = str(caught.value)
    assert message.startswith("late.toml")
    assert "\n" not in message
    if place:
        assert place in message


def test_bad_file_exits_2_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(LATE.replace("power = [1, 2, 5]", "power = [1, 2, 4]"), encoding="utf-8")
    run = CliRunner().invoke(main, ["show", str(path)])
    assert run.exit_code == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "bad.toml" in lines[0] and "line 23" in lines[0]


def test_show_draws_position_and_board() -> None:
    for path in (DATA_DIR / "setup-3p.toml", BOARDS_DIR / "base.toml"):
        run = CliRunner().invoke(main, ["show", str(path)])
        assert run.exit_code == 0, run.output
        assert max(len(line) for line in run.stdout.splitlines()) <= 80


# ---- data: factions [D7], boards [D2] -----------------------------------------------------

def test_factions_file_has_every_faction_and_rulebook_values() -> None:
    factions = read_factions()
    assert tuple(factions) == FACTION_IDS
    palace = {f: factions[f].palace_income for f in FACTION_IDS}
    assert palace == {"flaschengeister": (0, 2), "golems": (0, 4), "kobolde": (5, 2),
                      "feen": (2, 3), "wuestentoechter": (0, 2), "seebaeren": (0, 4),
                      "ifrit": (0, 4), "erfinderinnen": (0, 2), "druiden": (0, 4),
                      "feline": (0, 2)}
    assert factions["flaschengeister"].home == "lake"        # rulebook example
    assert factions["wuestentoechter"].home == "desert"      # [D5]
    for faction in factions.values():
        assert len(faction.house_income) == 8 and len(faction.kontor_income) == 4
        if faction.max_shipping >= 2:
            assert faction.shipping_vp[1] == 3                # text: shipping 2 → 3 VP
        assert faction.kontor_income[0] == (3, 1)             # text: leftmost Kontor 3$ + 1
    sides = [factions[f].side for f in FACTION_IDS]
    assert sides == ["A"] * 5 + ["B"] * 5
    colours = sorted(f.colour for f in factions.values())
    assert colours == sorted(["yellow", "blue", "green", "red", "black"] * 2)


def test_factions_file_marks_project_values() -> None:
    text = (DATA_DIR / "factions.toml").read_text(encoding="utf-8")
    for faction_id in FACTION_IDS:
        assert f"[faction.{faction_id}.project]" in text


def test_factions_file_bad_input(tmp_path: Path) -> None:
    text = (DATA_DIR / "factions.toml").read_text(encoding="utf-8")
    path = tmp_path / "factions.toml"
    path.write_text(text.replace("start_money = 15", "start_money = -1", 1), encoding="utf-8")
    with pytest.raises(InputError, match="factions.toml: line .*start_money"):
        read_factions(path)


@pytest.mark.parametrize("name", ["base", "two-player"])
def test_boards_d2(name: str) -> None:
    board, landscape = read_board(BOARDS_DIR / f"{name}.toml")
    grid = board.grid
    counts = {letter: landscape.count(letter) for letter in LANDSCAPE_LETTER.values()}
    assert min(counts.values()) >= 10 and max(counts.values()) - min(counts.values()) <= 2
    # the river is one connected body
    river = sorted(board.river)
    seen, todo = {river[0]}, [river[0]]
    while todo:
        for nb in grid.neighbours[todo.pop()]:
            if nb in board.river and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    assert seen == set(river)
    assert len(board.bridge_spots) >= 8
    for a, b in board.bridge_spots:
        assert landscape[a] != RIVER and landscape[b] != RIVER
        assert b not in grid.neighbours[a]
        assert set(grid.neighbours[a]) & set(grid.neighbours[b]) & board.river
    if name == "two-player":
        marked = [landscape[c] for c in board.neutral_marks]
        assert sorted(marked) == sorted(list(LANDSCAPE_LETTER.values()) * 4)
    else:
        assert board.neutral_marks == ()


def test_edge_hexes_d3() -> None:
    board, landscape = read_board(BOARDS_DIR / "base.toml")
    grid = board.grid
    corner, middle = grid.cell("a1"), grid.cell("g2")
    assert corner in board.edge and middle not in board.edge
    assert all(landscape[c] != RIVER for c in board.edge)
    assert all(len(grid.neighbours[c]) < 6 for c in board.edge)


# ---- notation ----------------------------------------------------------------------------

TURNS = [
    "build d5", "terraform d5", "terraform d5 build", "$2 terraform d5 build town:t9",
    "upgrade d5 k", "upgrade d5 pl", "upgrade d5 pr", "upgrade d5 pl @a9", "upgrade d5 pl ship",
    "ship", "bridge c4-e4", "pa-bridge3 c4-e4", "pa-bridge4 c4-e4", "pa-ship", "pa-money7 $3",
    "pa-spade1 d5", "pa-spade1 d5 build", "pa-spade2 d5 build", "pa-spade2 d5 e6",
    "pa-spade2 d5 e6 build e6", "b-spade d5 build", "feen-spade d5", "lake-house f7",
    "free-kontor d5 town:t9@d5 town:t8p6@g2", "desert-dig d5 build", "inv-kontor d5",
    "pass b-ship", "pass", "*2 $1 pass b-m3p3 $4", "build d5 town:tship@c4 *1",
]


@pytest.mark.parametrize("text", TURNS)
def test_notation_round_trip(text: str) -> None:
    board, _ = read_board(BOARDS_DIR / "base.toml")
    turn = parse_turn(text, board.grid)
    assert format_turn(turn, board.grid) == text
    assert parse_turn(format_turn(turn, board.grid), board.grid) == turn


@pytest.mark.parametrize("text", [
    "", "$2", "fly d5", "build", "build z99", "build d5 e5", "terraform d5 house",
    "upgrade d5 x", "upgrade d5 k @a9", "bridge c4", "pass b-none", "town:t9 build d5",
    "build d5 town:t0", "build d5 $1 town:t9", "build d5 ship", "pa-spade2 d5 e6 build f7",
    "build d5 town:", "$0 build d5",
])
def test_notation_bad_text(text: str) -> None:
    board, _ = read_board(BOARDS_DIR / "base.toml")
    with pytest.raises(InputError) as caught:
        parse_line([text], board.grid)
    assert str(caught.value).startswith("turn 1")
