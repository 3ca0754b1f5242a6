"""The shipped Rift Valley boards and positions: well-formed, legal, round-tripping, playable."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from solver.rift_valley.engine.draws import apply_draw, legal_draws, validate
from solver.rift_valley.engine.full_game import play_game
from solver.rift_valley.fileformat import parse_position, read_position, write_position
from solver.rift_valley.notation import DrawStop, DrawTrail
from solver.rift_valley.position import (
    ANIMALS,
    AREA_COUNT,
    COLOURS,
    RIFTS,
    TREE,
    WATER,
    Position,
)

BOARDS = Path("positions/rift-valley/boards")
ASYMMETRIC = {"savanna": "red", "riverbend": "yellow", "crater": "blue",
              "escarpment": "green", "delta": "purple"}
POSITIONS = sorted(Path("positions/rift-valley").rglob("*.toml"))


def board(name: str) -> Position:
    return read_position(BOARDS / f"{name}.toml")


def test_the_six_boards_are_shipped():
    assert sorted(p.stem for p in BOARDS.glob("*.toml")) == sorted(["identical", *ASYMMETRIC])


@pytest.mark.parametrize("name", ["identical", *ASYMMETRIC])
def test_board_is_well_formed_and_empty(name):
    position = board(name)
    validate(position)
    b = position.board
    assert position.elements == () and position.solution is None
    assert sorted(set(b.areas)) == list(range(1, AREA_COUNT + 1))
    assert {b.terrain[c] for c in b.animal_cells} == set(ANIMALS)
    assert b.rift_cells and all(b.terrain[c] in RIFTS for c in b.rift_cells)
    # animals are spread out, yet there is room for first stops away from them
    first = list(legal_draws(position, position.rift_owner, first=True))
    assert len(first) >= 8
    assert all(isinstance(d, DrawStop) for d in first)


def test_identical_board_is_smaller_without_trees_or_water():
    b = board("identical").board
    assert TREE not in b.terrain and WATER not in b.terrain
    assert b.grid.size < min(board(n).board.grid.size for n in ASYMMETRIC)
    assert board("identical").rift_owner == "red"


def test_asymmetric_boards_differ_and_own_distinct_rifts():
    boards = {name: board(name) for name in ASYMMETRIC}
    assert {name: p.rift_owner for name, p in boards.items()} == ASYMMETRIC
    assert sorted(ASYMMETRIC.values()) == sorted(COLOURS)
    layouts = {(p.board.grid, p.board.terrain, p.board.areas) for p in boards.values()}
    assert len(layouts) == len(boards)
    for p in boards.values():
        b = p.board
        assert 10 <= b.grid.rows <= 12 and 10 <= b.grid.cols <= 12
        assert TREE in b.terrain and WATER in b.terrain
        # asymmetric: not equal to its mirror images
        rows = [b.terrain[r * b.grid.cols:(r + 1) * b.grid.cols] for r in range(b.grid.rows)]
        assert rows != rows[::-1] and rows != [row[::-1] for row in rows]


@pytest.mark.parametrize("name", list(ASYMMETRIC))
def test_the_owner_can_cross_the_rift_and_others_cannot(name):
    """Stops on both sides of a rift cell: only the owner may join them across it."""
    position = board(name)
    b, grid = position.board, position.grid
    crossings = 0
    for cell in b.rift_cells:
        r, c = grid.coords[cell]
        steps = ((1, 0), (-1, 0)) if b.terrain[cell] == "-" else ((0, 1), (0, -1))
        ends = [grid.index(r + dr, c + dc) for dr, dc in steps]
        if None in ends or any(b.terrain[e] != "." for e in ends):
            continue
        crossings += 1
        other = next(x for x in COLOURS if x != position.rift_owner)
        for colour in (position.rift_owner, other):
            p = position
            for e in ends:
                p = apply_draw(p, colour, DrawStop(e))
            trails = [d for d in legal_draws(p, colour) if isinstance(d, DrawTrail)]
            assert bool(trails) == (colour == position.rift_owner)
    assert crossings >= 3


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_files_round_trip_exactly(path):
    position = read_position(path)
    validate(position)
    text = write_position(position)
    again = parse_position(text)
    assert again == position
    assert write_position(again) == text


def test_writer_round_trips_random_game_boards():
    boards = [board(name).board for name in ASYMMETRIC]
    result = play_game(boards, list(ASYMMETRIC.values()), random.Random(11))
    for position in result.boards:
        assert position.colours  # elements of several colours
        assert parse_position(write_position(position)) == position
