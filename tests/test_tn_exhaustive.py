"""The exhaustive oracle against plain enumeration with ``legal_turns`` and ``apply_turn``.

The brute forces here try every turn (or every line of turns) through the
engine's public API with no pruning, memo or transposition at all, so they check
the oracle's pruning (skipped final moves, memoised boards, breadth-first
layers) rather than the turn rules (test_tn_perft does those).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from solver.errors import PuzzleError
from solver.geometry import HexGrid
from solver.terra_nova.engine.exhaustive import best_closing, best_turn
from solver.terra_nova.engine.playout import random_playout, setup
from solver.terra_nova.engine.turns import apply_turn, legal_turns, play_line
from solver.terra_nova.fileformat import read_position
from solver.terra_nova.position import Board

POSITIONS = Path(__file__).resolve().parent.parent / "positions" / "terra-nova"


def random_position(seed, rows=4, cols=5, pieces=2, stones_left=None):
    rng = random.Random(seed)
    grid = HexGrid.full(rows, cols)
    while True:
        letters = [rng.choice("abcde") for _ in range(grid.size)]
        for i in range(grid.size):
            if rng.random() < 0.4:
                letters[i] = letters[rng.choice(grid.neighbours[i])]
        board = Board(grid, tuple(letters))
        if len(board.letters) >= 4:
            break
    players = ("red", "yellow", "blue")[: rng.choice((2, 2, 3))]
    final, _ = random_playout(setup(board, players, rng, pieces=pieces), rng,
                              turns=rng.randint(1, 3))
    if stones_left is not None:
        final = final.replace(stones_left=min(stones_left, final.stones_left))
    return final


def gains(outcome, me):
    return outcome.gained[me], sum(v for c, v in outcome.gained.items() if c != me)


def brute_best_turn(position):
    me = position.to_move
    return max((g, -o) for g, o in (gains(apply_turn(position, t), me)
                                    for t in legal_turns(position)))


def brute_closing(position, turns):
    """Best (points, -others, -actions) over every line of ``turns`` turns."""
    if turns == 0:
        return (0, 0, 0)
    me = position.to_move
    best = None
    for t in legal_turns(position):
        outcome = apply_turn(position, t, advance=False)
        g, o = gains(outcome, me)
        sub = brute_closing(outcome.position, turns - 1)
        total = (g + sub[0], -o + sub[1], -outcome.actions + sub[2])
        best = total if best is None or total > best else best
    return best


@pytest.mark.parametrize("seed", range(25))
def test_best_turn_matches_plain_enumeration(seed):
    position = random_position(seed)
    result = best_turn(position)
    points, neg_others = brute_best_turn(position)
    assert result.key == (points, -neg_others)
    outcome = apply_turn(position, result.line[0])
    assert gains(outcome, position.to_move) == result.key
    assert result.nodes > 0 and result.wall_s >= 0


@pytest.mark.parametrize("seed", range(6))
def test_two_turn_closing_matches_plain_enumeration(seed):
    position = random_position(100 + seed, rows=3, cols=4, pieces=1, stones_left=2)
    result = best_closing(position, 2)
    points, neg_others, neg_actions = brute_closing(position, 2)
    assert result.key == (points, -neg_others, -neg_actions)
    replay = play_line(position, result.line)
    assert (replay.points, replay.others, replay.actions) == result.key


@pytest.mark.parametrize("seed", range(6))
def test_one_turn_closing_is_best_turn_plus_fewest_actions(seed):
    position = random_position(200 + seed)
    result = best_closing(position, 1)
    points, neg_others, neg_actions = brute_closing(position, 1)
    assert result.key == (points, -neg_others, -neg_actions)
    assert result.key[:2] == best_turn(position).key


def brute_min_turns(position, target, cap):
    """Fewest turns, then fewest actions, to reach ``target`` points: plain search."""
    me = position.to_move
    best = None

    def walk(p, used, points, actions):
        nonlocal best
        if points >= target:
            if best is None or (used, actions) < best:
                best = (used, actions)
            return
        if used == cap or (best is not None and used >= best[0]):
            return
        for t in legal_turns(p):
            outcome = apply_turn(p, t, advance=False)
            walk(outcome.position, used + 1, points + outcome.gained[me],
                 actions + outcome.actions)

    walk(position, 0, 0, 0)
    return best


@pytest.mark.parametrize("seed", range(12))
def test_min_turns_matches_plain_search(seed):
    position = random_position(300 + seed, rows=3, cols=4, pieces=1, stones_left=3)
    one = best_closing(position, 1).key[0]
    target = max(1, one + 1)     # usually needs 2 turns
    expected = brute_min_turns(position, target, 2)
    if expected is None:
        with pytest.raises(PuzzleError, match="cannot be reached within 2"):
            best_closing(position, 2, "min-turns", target)
        return
    result = best_closing(position, 2, "min-turns", target)
    assert result.key == expected
    replay = play_line(position, result.line)
    assert replay.points >= target and replay.actions == expected[1]
    assert len(result.line) == expected[0]


def test_time_cap_raises_timeout():
    position = read_position(POSITIONS / "midgame-2p.toml")
    with pytest.raises(TimeoutError, match="time cap"):
        best_closing(position, 2, time_cap=0.05)
