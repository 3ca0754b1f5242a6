"""Realistic Terra Nova positions for the puzzle generator and the benchmarks.

Positions come from play, not noise: the setup phase on a board (the full 2006
board or a rectangle cut from it), then turns of a greedy player with one-action
lookahead (:func:`greedy_turn`), stopped part-way through the game. Everything
takes a ``random.Random`` or a seed, so the same seed always gives the same
position. Legality comes from the reference engine (``TurnState``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.geometry import HexGrid
from solver.terra_nova.engine import after_state, game_over, to_turn, turn_state
from solver.terra_nova.fileformat import read_position
from solver.terra_nova.notation import Turn
from solver.terra_nova.playout import STONE_CHANCE, setup
from solver.terra_nova.position import COLOURS, Board, Position
from solver.terra_nova.turngen import ACTIONS_PER_TURN, InternalAction, TurnState

FULL_BOARD = Path("positions/terra-nova/board-2006.toml")
"""The full-size board, relative to the repository."""

RECIPE_KEYS = ("board", "rows", "cols", "players", "pieces", "turns_played", "seed")


# ------------------------------------------------------------------ boards


def crop_board(board: Board, rows: int, cols: int) -> Board:
    """The cells of ``board`` in its first ``rows`` rows and ``cols`` columns.

    Starting at row 0 keeps the odd-r layout (odd rows stay shifted right), so
    neighbours and straight lines inside the rectangle are unchanged.
    """
    grid = board.grid
    mask = [[grid.index(r, c) is not None for c in range(min(cols, grid.cols))]
            for r in range(min(rows, grid.rows))]
    small = HexGrid.from_mask(mask)
    landscape = tuple(board.landscape[grid.index(*small.coords[i])] for i in range(small.size))
    used = set(landscape)
    names = tuple((k, v) for k, v in board.names if k in used)
    return Board(small, landscape, names)


def load_board(path: Path, rows: int | None = None, cols: int | None = None) -> Board:
    """The board of the position file ``path``, cropped to ``rows`` x ``cols`` if given."""
    board = read_position(path).board
    if rows is None and cols is None:
        return board
    return crop_board(board, rows or board.grid.rows, cols or board.grid.cols)


# ------------------------------------------------------------------ greedy play


def _gain(state: TurnState, action: InternalAction) -> tuple[int, int]:
    """Immediate ``(own points, others' points)`` that ``action`` would score."""
    if isinstance(action, tuple):
        return 0, 0
    me = state.me
    before_me, before_all = state.gains[me], sum(state.gains)
    token = state.do_stone(action)
    own = state.gains[me] - before_me
    others = sum(state.gains) - before_all - own
    state.undo_stone(action, token)
    return own, others


def _ordered(state: TurnState, rng: random.Random) -> list[InternalAction]:
    """Legal actions, best immediate gain first; equal gains in random order.

    A scoring stone is ranked by own points, then fewest points to others.
    Among non-scoring actions stones come before moves with
    :data:`~solver.terra_nova.playout.STONE_CHANCE` (as the random playouts do).
    """
    moves: list[InternalAction] = list(state.moves())
    stones: list[InternalAction] = list(state.stone_targets())
    rng.shuffle(moves)
    rng.shuffle(stones)
    scoring = []
    quiet_stones = []
    for stone in stones:
        own, others = _gain(state, stone)
        if own or others:
            scoring.append((-own, others, rng.random(), stone))
        else:
            quiet_stones.append(stone)
    scoring.sort()
    good = [a for own, _o, _r, a in scoring if own < 0]
    bad = [a for own, _o, _r, a in scoring if own >= 0]
    quiet: list[InternalAction] = []
    while moves or quiet_stones:
        pick_stone = quiet_stones and (not moves or rng.random() < STONE_CHANCE)
        quiet.append(quiet_stones.pop() if pick_stone else moves.pop())
    return good + quiet + bad


def greedy_turn(state: TurnState, rng: random.Random) -> tuple[InternalAction, ...]:
    """Play a greedy legal turn on ``state`` (left at its end); returns its actions.

    One-action lookahead: at every step take the action that scores most now
    (then gives others least), else a random one; backtrack only when a sequence
    cannot end legally (no return). ``()`` when the turn is a pass.
    """
    moves = list(state.moves())
    rng.shuffle(moves)
    for move in moves:
        token = state.do_move(*move)
        done = _extend(state, rng, 1, (move,))
        if done is not None:
            return done
        state.undo_move(*move, token)
    return ()


def _extend(state: TurnState, rng: random.Random, depth: int,
            done: tuple) -> tuple[InternalAction, ...] | None:
    if depth < ACTIONS_PER_TURN:
        order = _ordered(state, rng)
        if order:
            for action in order:
                token = state.do(action)
                result = _extend(state, rng, depth + 1, done + (action,))
                if result is not None:
                    return result
                state.undo(action, token)
            return None
    return None if state.returned() else done


def greedy_playout(position: Position, rng: random.Random, turns: int) -> Position:
    """``position`` after up to ``turns`` greedy turns (players in turn order).

    Stops early when the game is over or the stone supply is empty.
    """
    current = position
    for _ in range(turns):
        if game_over(current) or current.stones_left == 0:
            break
        state = turn_state(current)
        greedy_turn(state, rng)
        current = after_state(current, state, advance=True)
    return current


def greedy_line(position: Position, turns: int, rng: random.Random) -> tuple[int, int, list[Turn]]:
    """The greedy player's ``turns`` turns in a row (closing: nobody else moves).

    Returns ``(own points, others' points, line)``.
    """
    current = position
    own = others = 0
    line: list[Turn] = []
    for _ in range(turns):
        state = turn_state(current)
        actions = greedy_turn(state, rng)
        own += state.gains[state.me]
        others += sum(state.gains) - state.gains[state.me]
        line.append(to_turn(actions))
        current = after_state(current, state, advance=False)
    return own, others, line


# ------------------------------------------------------------------ recipes


def position_from_recipe(recipe: Mapping[str, Any], root: Path) -> Position:
    """A position made by setup and greedy play, as a benchmark suite describes it.

    Keys: ``board`` (position file relative to ``root``; default the full 2006
    board), ``rows``/``cols`` (crop), ``players`` (2–4), ``pieces`` (per player;
    default the full-game number), ``turns_played`` (greedy turns after setup),
    ``seed``.
    """
    unknown = sorted(set(recipe) - set(RECIPE_KEYS))
    if unknown:
        raise InputError(f"unknown recipe key {unknown[0]!r} (allowed: {', '.join(RECIPE_KEYS)})")
    board = load_board(root / recipe.get("board", str(FULL_BOARD)),
                       recipe.get("rows"), recipe.get("cols"))
    rng = random.Random(recipe.get("seed", 0))
    players = COLOURS[: recipe.get("players", 2)]
    start = setup(board, players, rng, recipe.get("pieces"))
    return greedy_playout(start, rng, recipe.get("turns_played", 0))
