"""The setup phase and seeded random playouts with the reference engine.

Both take a ``random.Random`` so the same seed always gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from solver.errors import InputError
from solver.geometry.bitboard import bits
from solver.terra_nova.engine.regions import Region, components, tables_for
from solver.terra_nova.engine.turngen import ACTIONS_PER_TURN, InternalAction, TurnState
from solver.terra_nova.engine.turns import (
    STONE_SUPPLY,
    Rules,
    after_state,
    game_over,
    to_turn,
    turn_state,
)
from solver.terra_nova.notation import Turn
from solver.terra_nova.position import EMPTY, PIECES_PER_PLAYER, Board, Position

STONE_CHANCE = 0.5
"""Playout policy: when both a move and a stone are possible, pick a stone this often."""

def setup(board: Board, players: Sequence[str], rng: random.Random,
          pieces: int | None = None) -> Position:
    """The setup phase: in turn order each player puts one piece on a random empty cell.

    Round after round until every player has ``pieces`` pieces (default: the
    full-game number for the player count). Cells inside a region of the bare
    board (a closed-off patch of at most 3 landscapes) are never chosen.
    """
    players = tuple(players)
    count = PIECES_PER_PLAYER[len(players)] if pieces is None else pieces
    tables = tables_for(board)
    open_cells = [c for comp in components(tables, 0) if not isinstance(comp, Region)
                  for c in bits(comp[0])]
    open_cells.sort()
    if count * len(players) > len(open_cells):
        raise InputError(f"{count} pieces for each of {len(players)} players do not fit on "
                         f"{len(open_cells)} open cells")
    occupant = [EMPTY] * board.grid.size
    for _round in range(count):
        for colour in players:
            free = [c for c in open_cells if occupant[c] == EMPTY]
            occupant[rng.choice(free)] = colour
    return Position(board=board, players=players, to_move=players[0],
                    occupant=tuple(occupant), scores=(0,) * len(players),
                    stones_left=STONE_SUPPLY)


def random_turn(state: TurnState, rng: random.Random) -> tuple[InternalAction, ...]:
    """Play a random legal turn on ``state`` (left at the end of it); returns its actions.

    A randomised depth-first search: at each step the local actions are tried in
    random order (stones first with :data:`STONE_CHANCE`), backtracking only when
    a sequence cannot end legally (no-return). ``()`` when the turn is a pass.
    """
    moves = state.moves()
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
        moves: list = state.moves()
        stones: list = state.stone_targets()
        if moves or stones:
            rng.shuffle(moves)
            rng.shuffle(stones)
            order = []
            while moves or stones:
                pick_stone = stones and (not moves or rng.random() < STONE_CHANCE)
                order.append(stones.pop() if pick_stone else moves.pop())
            for action in order:
                token = state.do(action)
                result = _extend(state, rng, depth + 1, done + (action,))
                if result is not None:
                    return result
                state.undo(action, token)
            return None
    return None if state.returned() else done


def random_playout(position: Position, rng: random.Random, turns: int | None = None,
                   rules: Rules = Rules()  # noqa: B008 (frozen)
                   ) -> tuple[Position, list[tuple[str, Turn, dict[str, int]]]]:
    """Play random legal turns from ``position`` until the game ends or ``turns`` are played.

    Returns the final position and, per turn, ``(colour, turn, points gained by
    each colour)``.
    """
    history: list[tuple[str, Turn, dict[str, int]]] = []
    current = position
    while turns is None or len(history) < turns:
        if game_over(current, rules):
            break
        state = turn_state(current)
        actions = random_turn(state, rng)
        gained = dict(zip(current.players, state.gains, strict=True))
        history.append((current.to_move, to_turn(actions), gained))
        current = after_state(current, state, advance=True)
    return current, history

