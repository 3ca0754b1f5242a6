"""Seeded random Terra Nova games: invariants at every step, replay and file round trip."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from solver.geometry import HexGrid
from solver.terra_nova.engine.playout import random_playout, setup
from solver.terra_nova.engine.turns import STONE_SUPPLY, apply_turn, game_over, validate
from solver.terra_nova.fileformat import parse_position, read_position, write_position
from solver.terra_nova.notation import format_turn, parse_turn
from solver.terra_nova.position import COLOURS, Board

GAMES = 320
POSITIONS = Path(__file__).resolve().parent.parent / "positions" / "terra-nova"


def small_board(rng: random.Random) -> Board:
    """A 4-6 x 5-7 board, some corner slots missing, 4-6 landscapes in patches."""
    rows, cols = rng.randint(4, 6), rng.randint(5, 7)
    exists = [[True] * cols for _ in range(rows)]
    for r, c in ((0, 0), (rows - 1, cols - 1), (0, cols - 1)):
        exists[r][c] = rng.random() < 0.5
    grid = HexGrid.from_mask(exists)
    kinds = "abcdefw"[: rng.randint(4, 6)]
    letters = [rng.choice(kinds) for _ in range(grid.size)]
    for i in range(grid.size):
        if rng.random() < 0.5:
            letters[i] = letters[rng.choice(grid.neighbours[i])]
    board = Board(grid, tuple(letters))
    return board if len(board.letters) >= 4 else small_board(rng)


def check_game(seed: int) -> int:
    rng = random.Random(seed)
    board = small_board(rng)
    players = COLOURS[: 2 + seed % 3]
    start = setup(board, players, rng, pieces=rng.randint(2, 3))
    final, history = random_playout(start, rng)
    assert game_over(final) or final.stones_left == 0, "a game must end"
    current = start
    for colour, turn, gained in history:
        validate(current)                                   # no piece inside a region
        assert len(current.stones) + current.stones_left == STONE_SUPPLY
        text = write_position(current)
        again = parse_position(text)
        assert again == current and write_position(again) == text
        assert colour == current.to_move
        replayed = parse_turn(format_turn(turn, current.grid), current.grid)
        assert replayed == turn
        outcome = apply_turn(current, replayed)
        assert outcome.gained == gained
        assert all(b >= a for a, b in zip(current.scores, outcome.position.scores, strict=True))
        current = outcome.position
    assert current == final
    validate(final)
    assert len(final.stones) + final.stones_left == STONE_SUPPLY
    return len(history)


@pytest.mark.parametrize("chunk", range(8))
def test_random_playouts_keep_every_invariant(chunk):
    per_chunk = GAMES // 8
    turns = [check_game(seed) for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk)]
    assert all(t > 0 for t in turns)


def test_same_seed_same_game():
    start = read_position(POSITIONS / "setup-3p.toml")
    a = random_playout(start, random.Random(7), turns=6)
    b = random_playout(start, random.Random(7), turns=6)
    c = random_playout(start, random.Random(8), turns=6)
    assert a == b and a != c


def test_setup_places_all_pieces_in_turn_order():
    board = read_position(POSITIONS / "board-2006.toml").board
    position = setup(board, ("red", "yellow", "blue"), random.Random(3))
    assert [len(position.pieces_of(c)) for c in position.players] == [10, 10, 10]
    assert position.to_move == "red" and position.stones_left == STONE_SUPPLY
    validate(position)


def test_full_size_game_runs_to_its_end():
    start = read_position(POSITIONS / "setup-2p.toml")
    final, history = random_playout(start, random.Random(2006))
    assert game_over(final) or final.stones_left == 0
    assert sum(final.scores) > 0 and len(history) > 20
    validate(final)
