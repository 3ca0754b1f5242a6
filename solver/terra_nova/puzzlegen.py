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

from solver.cpsat import SolveParams
from solver.errors import InputError
from solver.geometry import HexGrid, cell_at
from solver.paths import REPO_ROOT
from solver.protocol import Made
from solver.terra_nova.engine import exhaustive
from solver.terra_nova.engine.playout import STONE_CHANCE, setup
from solver.terra_nova.engine.turngen import ACTIONS_PER_TURN, InternalAction, TurnState
from solver.terra_nova.engine.turns import after_state, game_over, to_turn, turn_state
from solver.terra_nova.fileformat import parse_position, read_position, write_position
from solver.terra_nova.notation import Turn, format_turn
from solver.terra_nova.position import (
    COLOURS,
    MAX_BOARD_COLS,
    MAX_BOARD_ROWS,
    Board,
    Position,
    Puzzle,
)
from solver.terra_nova.solve import solve_puzzle, verify_solution
from solver.terra_nova.uniqueness import Checked, check_unique, engine_finals
from solver.tomlfile import SEEDS, Solution, check_numbers

FULL_BOARD = Path("positions/terra-nova/board-2006.toml")
"""The full-size board, relative to the repository."""

RECIPE_KEYS = ("board", "rows", "cols", "top", "left", "players", "pieces", "turns_played",
               "seed")
RECIPE_RANGES = {"rows": (1, MAX_BOARD_ROWS), "cols": (1, MAX_BOARD_COLS),
                 "top": (0, MAX_BOARD_ROWS - 1), "left": (0, MAX_BOARD_COLS - 1),
                 "players": (2, len(COLOURS)), "pieces": (1, 99), "turns_played": (0, 999),
                 "seed": SEEDS}
"""The numbers a benchmark recipe takes (``board`` is a file name)."""


# ------------------------------------------------------------------ boards


def crop_board(board: Board, rows: int, cols: int, top: int = 0, left: int = 0) -> Board:
    """The cells of ``board`` in ``rows`` rows from row ``top`` and ``cols`` columns
    from column ``left``.

    ``top`` must be even: the window keeps the odd-r layout (odd rows stay
    shifted right), so neighbours and straight lines inside it are unchanged.
    """
    if top % 2:
        raise InputError(f"a board window starts on an even row, not row {top}")
    grid = board.grid
    bottom, right = min(top + rows, grid.rows), min(left + cols, grid.cols)
    mask = [[grid.index(r, c) is not None for c in range(left, right)]
            for r in range(top, bottom)]
    small = HexGrid.from_mask(mask)
    landscape = tuple(board.landscape[cell_at(grid, r + top, c + left)]
                      for r, c in (small.coords[i] for i in range(small.size)))
    used = set(landscape)
    names = tuple((k, v) for k, v in board.names if k in used)
    return Board(small, landscape, names)


def load_board(path: Path, rows: int | None = None, cols: int | None = None,
               top: int = 0, left: int = 0) -> Board:
    """The board of the position file ``path``, cut to ``rows`` x ``cols`` from
    (``top``, ``left``) if given."""
    board = read_position(path).board
    if rows is None and cols is None and top == left == 0:
        return board
    return crop_board(board, rows or board.grid.rows - top, cols or board.grid.cols - left,
                      top, left)


# ------------------------------------------------------------------ greedy play


def _value(state: TurnState, action: InternalAction, depth: int, lookahead: int) -> tuple:
    """``(own, -others)`` points of ``action`` plus the best of the next ``lookahead - 1``
    actions of this turn after it (a move alone scores nothing)."""
    me = state.me
    before_me, before_all = state.gains[me], sum(state.gains)
    token = state.do(action)
    own = state.gains[me] - before_me
    value = (own, own - (sum(state.gains) - before_all))
    if lookahead > 1 and depth + 1 < ACTIONS_PER_TURN:
        nexts: list[InternalAction] = list(state.moves()) + list(state.stone_targets())
        best = max((_value(state, a, depth + 1, lookahead - 1) for a in nexts), default=(0, 0))
        best = max(best, (0, 0))
        value = (value[0] + best[0], value[1] + best[1])
    state.undo(action, token)
    return value


def _ordered(state: TurnState, rng: random.Random, depth: int,
             lookahead: int) -> list[InternalAction]:
    """Legal actions, most promising first; equal ones in random order.

    An action is worth what it scores now plus the best the next
    ``lookahead - 1`` actions of the turn can add (own points, then fewest to
    others). Among actions worth nothing, stones come before moves with
    :data:`~solver.terra_nova.engine.playout.STONE_CHANCE` (as random playouts do);
    actions that only give points to others come last.
    """
    ranked = []
    quiet_moves: list[InternalAction] = []
    quiet_stones: list[InternalAction] = []
    actions: list[InternalAction] = list(state.moves()) + list(state.stone_targets())
    for action in actions:
        value = _value(state, action, depth, lookahead)
        if value != (0, 0):
            ranked.append((value, rng.random(), action))
        elif isinstance(action, tuple):
            quiet_moves.append(action)
        else:
            quiet_stones.append(action)
    ranked.sort(reverse=True)
    good = [a for value, _r, a in ranked if value > (0, 0)]
    bad = [a for value, _r, a in ranked if value < (0, 0)]
    rng.shuffle(quiet_moves)
    rng.shuffle(quiet_stones)
    quiet: list[InternalAction] = []
    while quiet_moves or quiet_stones:
        pick_stone = quiet_stones and (not quiet_moves or rng.random() < STONE_CHANCE)
        quiet.append(quiet_stones.pop() if pick_stone else quiet_moves.pop())
    return good + quiet + bad


def greedy_turn(state: TurnState, rng: random.Random,
                lookahead: int = 1) -> tuple[InternalAction, ...]:
    """Play a greedy legal turn on ``state`` (left at its end); returns its actions.

    At every step take the action that is worth most with ``lookahead`` actions
    of lookahead (1: what it scores now; see :func:`_ordered`), else a random
    one; backtrack only when a sequence cannot end legally (no return). ``()``
    when the turn is a pass.
    """
    return _extend(state, rng, 0, (), lookahead) or ()


def _extend(state: TurnState, rng: random.Random, depth: int, done: tuple,
            lookahead: int) -> tuple[InternalAction, ...] | None:
    if depth < ACTIONS_PER_TURN:
        order = _ordered(state, rng, depth, lookahead)
        if order:
            for action in order:
                token = state.do(action)
                result = _extend(state, rng, depth + 1, done + (action,), lookahead)
                if result is not None:
                    return result
                state.undo(action, token)
            return None
    return None if state.returned() else done


def greedy_playout(position: Position, rng: random.Random, turns: int) -> Position:
    """``position`` after up to ``turns`` greedy turns (players in turn order).

    Stops early when the game is over.
    """
    current = position
    for _ in range(turns):
        if game_over(current):
            break
        state = turn_state(current)
        greedy_turn(state, rng)
        current = after_state(current, state, advance=True)
    return current


def greedy_line(position: Position, turns: int, rng: random.Random,
                lookahead: int = 1) -> tuple[int, int, list[Turn]]:
    """The greedy player's ``turns`` turns in a row (closing: nobody else moves).

    Returns ``(own points, others' points, line)``.
    """
    current = position
    own = others = 0
    line: list[Turn] = []
    for _ in range(turns):
        state = turn_state(current)
        actions = greedy_turn(state, rng, lookahead)
        own += state.gains[state.me]
        others += sum(state.gains) - state.gains[state.me]
        line.append(to_turn(actions))
        current = after_state(current, state, advance=False)
    return own, others, line


# ------------------------------------------------------------------ recipes


def check_recipe(recipe: Mapping[str, Any]) -> None:
    """InputError for a recipe :func:`position_from_recipe` does not take: an unknown
    key, a number outside :data:`RECIPE_RANGES`, a ``board`` that is no file name."""
    unknown = sorted(set(recipe) - set(RECIPE_KEYS))
    if unknown:
        raise InputError(f"unknown recipe key {unknown[0]!r} (allowed: {', '.join(RECIPE_KEYS)})")
    check_numbers(recipe, RECIPE_RANGES, "recipe key")
    if not isinstance(recipe.get("board", ""), str):
        raise InputError(f"recipe key 'board' must be a file name, not {recipe['board']!r}")


def position_from_recipe(recipe: Mapping[str, Any], root: Path) -> Position:
    """A position made by setup and greedy play, as a benchmark suite describes it.

    Keys: ``board`` (position file relative to ``root``; default the full 2006
    board), ``rows``/``cols`` (crop) from row ``top`` (even) and column ``left``
    (default 0), ``players`` (2–4), ``pieces`` (per player;
    default the full-game number), ``turns_played`` (greedy turns after setup),
    ``seed``.
    """
    check_recipe(recipe)
    board = load_board(root / recipe.get("board", str(FULL_BOARD)),
                       recipe.get("rows"), recipe.get("cols"), recipe.get("top", 0),
                       recipe.get("left", 0))
    rng = random.Random(recipe.get("seed", 0))
    players = COLOURS[: recipe.get("players", 2)]
    start = setup(board, players, rng, recipe.get("pieces"))
    return greedy_playout(start, rng, recipe.get("turns_played", 0))


# ------------------------------------------------------------------ puzzles

GREEDY_RUNS = 4
"""Difficulty yardstick: the best of this many seeded greedy lines."""

PREFILTER_NODES = {1: 400_000, 2: 2_000_000, 3: 2_000_000}
"""Engine pre-filter node budget by horizon; larger candidates are skipped (reproducible)."""

CPSAT_EFFORT = 30.0
"""Deterministic-time limit (CP-SAT deterministic seconds) per solve of the uniqueness check."""

BEST_TURN_BOARDS = ((None, None, None, (10, 60)), (9, 11, 6, (6, 30)), (7, 9, 4, (4, 20)))
"""best-turn candidates: (rows, cols, pieces per player, greedy turns played range);
None = the full 2006 board with the full-game number of pieces."""

CLOSING_BOARDS = ((6, 7), (7, 8), (8, 9))
"""2-turn closing candidates: small boards cut from the 2006 board, 2–3 pieces per player,
so that the engine pre-filter and the multi-turn model stay fast."""

SMALL_WINDOWS = ((4, 6, 6, 4), (4, 6, 2, 2), (4, 6, 8, 4), (4, 5, 6, 5), (4, 5, 2, 3))
"""3-turn closing and min-turns candidates: ``(rows, cols, top, left)`` windows of the
2006 board whose every cell is open (4–5 landscapes), 1–2 pieces per player, where the
engine's exact search over 2–3 turns ends within its node budget."""

ENGINE_PROVEN_TURNS = 3
"""Closings over this many turns are proven unique by the engine's exact search alone
(:func:`~solver.terra_nova.uniqueness.engine_finals` finds a single optimal final
position): the CP-SAT model does not prove 3-turn optima within the generator's
effort even on these windows, so its check would reject every candidate."""

GRADE_SHORTFALL = 0.5
"""Grades by how far greedy players fall short of the optimal own points. The
yardstick is the best of :data:`GREEDY_RUNS` seeded runs each of a greedy player
with one action of lookahead (take what scores now) and one with two (a move is
worth the best stone after it). easy: one of them reaches the optimum; medium:
the best falls short by at most this fraction of the optimum; hard: by more."""


def grade(points: int, position: Position, turns: int, seed: int) -> tuple[str, int]:
    """The grade and the greedy players' best own points (see :data:`GRADE_SHORTFALL`)."""
    greedy = max(greedy_line(position, turns, random.Random(seed + k), lookahead)[0]
                 for lookahead in (1, 2) for k in range(GREEDY_RUNS))
    if greedy >= points:
        return "easy", greedy
    return ("medium" if points - greedy <= GRADE_SHORTFALL * points else "hard"), greedy


def candidate_position(seed: int, kind: str, root: Path, turns: int = 2) -> Position:
    """The seeded candidate position for a puzzle of ``kind`` over ``turns`` turns: setup
    plus greedy play (min-turns and 3-turn closings on :data:`SMALL_WINDOWS`)."""
    rng = random.Random(seed)
    rows: int | None
    cols: int | None
    pieces: int | None
    recipe: dict[str, int | None]
    if kind == "min-turns" or (kind == "closing" and turns >= ENGINE_PROVEN_TURNS):
        rows, cols, top, left = rng.choice(SMALL_WINDOWS)
        recipe = {"rows": rows, "cols": cols, "top": top, "left": left, "players": 2,
                  "pieces": rng.choice((1, 2)), "turns_played": rng.randint(2, 10),
                  "seed": rng.getrandbits(32)}
        return position_from_recipe(recipe, root)
    if kind == "best-turn":
        rows, cols, pieces, played = rng.choice(BEST_TURN_BOARDS)
        players = rng.choice((2, 2, 3)) if rows is None else 2
    else:
        rows, cols = rng.choice(CLOSING_BOARDS)
        pieces, played, players = rng.choice((2, 3)), (4, 20), 2
    recipe = {"players": players, "turns_played": rng.randint(*played),
              "seed": rng.getrandbits(32)}
    if rows is not None:
        recipe.update(rows=rows, cols=cols, pieces=pieces)
    return position_from_recipe(recipe, root)


def make_puzzle(seed: int, kind: str, turns: int) -> Made | None:
    """One candidate: a puzzle with a unique, engine-verified optimum, graded; or None.

    Steps: a candidate position (:func:`candidate_position`); the engine
    pre-filter (:func:`~solver.terra_nova.uniqueness.engine_finals`) drops
    positions whose optimum is 0 or reached by two final positions; the CP-SAT
    check (:func:`~solver.terra_nova.uniqueness.check_unique`) must prove the
    optimum and its uniqueness and agree with the engine; the written file's
    solution is verified by the engine. ``min-turns``: see :func:`_min_turns`.
    """
    position = candidate_position(seed, kind, REPO_ROOT, turns)
    if not position.pieces_of(position.to_move) or game_over(position):
        return None
    if kind == "min-turns":
        return _min_turns(seed, position, turns)
    if turns >= ENGINE_PROVEN_TURNS:
        return _engine_proven(seed, position, turns)
    try:
        rank, finals = engine_finals(position, turns, PREFILTER_NODES[turns])
    except TimeoutError:
        return None
    if rank[0] <= 0 or finals != 1:
        return None
    checked = check_unique(position, turns, effort=CPSAT_EFFORT)
    if checked is None or not checked.unique:
        return None
    engine_key = tuple(abs(v) for v in rank)
    if checked.key != engine_key:
        raise AssertionError(f"CP-SAT optimum {checked.key} differs from the engine's "
                             f"{engine_key} (seed {seed})")
    if kind == "best-turn":
        puzzle = Puzzle(kind="best-turn")
    else:
        puzzle = Puzzle(kind="closing", turns=turns, objective="max-points")
    return _posed(seed, position, puzzle, turns, checked)


def _min_turns(seed: int, position: Position, turns: int) -> Made | None:
    """A min-turns puzzle whose answer takes exactly ``turns`` turns, or None.

    The target is the most own points ``turns`` turns can gain, kept only when
    ``turns - 1`` turns gain fewer (both by the engine's exact search, node-capped);
    the CP-SAT check proves that the ``turns``-turn lines reaching the target with
    the fewest actions all end in the same final position; then the solver must
    answer the posed file with that line's turns, actions and points.
    """
    try:
        target = engine_finals(position, turns, PREFILTER_NODES[turns])[0][0]
        fewer = engine_finals(position, turns - 1, PREFILTER_NODES[turns - 1])[0][0]
    except TimeoutError:
        return None
    if target <= fewer:
        return None
    checked = check_unique(position, turns, effort=CPSAT_EFFORT, target=target)
    if checked is None or not checked.unique:
        return None
    puzzle = Puzzle(kind="closing", objective="min-turns", target=target)
    params = SolveParams(workers=1).with_settings(max_deterministic_time=CPSAT_EFFORT)
    answer = solve_puzzle(position.replace(puzzle=puzzle), None, params)
    if not answer.optimal:
        return None
    solved = (len(answer.line), answer.value, answer.actions)
    if solved != (turns, target, checked.key[2]):
        raise AssertionError(f"the solver answers the min-turns puzzle with (turns, points, "
                             f"actions) {solved}, the check with "
                             f"{(turns, target, checked.key[2])} (seed {seed})")
    return _posed(seed, position, puzzle, turns, checked)


def _engine_proven(seed: int, position: Position, turns: int) -> Made | None:
    """A max-points closing over ``turns`` turns proven unique by the engine alone (see
    :data:`ENGINE_PROVEN_TURNS`): a single optimal final position, and the engine's
    optimal line, both within the node budget; or None."""
    try:
        rank, finals = engine_finals(position, turns, PREFILTER_NODES[turns])
        if rank[0] <= 0 or finals != 1:
            return None
        best = exhaustive.best_closing(position, turns, node_cap=PREFILTER_NODES[turns])
    except TimeoutError:
        return None
    if best.key != tuple(abs(v) for v in rank):
        raise AssertionError(f"the engine's two searches differ: {best.key} and {rank} "
                             f"(seed {seed})")
    checked = Checked(best.key, tuple(best.line), True, {"wall_s": round(best.wall_s, 3)})
    puzzle = Puzzle(kind="closing", turns=turns, objective="max-points")
    return _posed(seed, position, puzzle, turns, checked, prover="the engine's exact search")


def _posed(seed: int, position: Position, puzzle: Puzzle, turns: int,
           checked: Checked, prover: str = "CP-SAT") -> Made:
    """The puzzle file of ``checked``'s unique answer: graded, verified by the engine."""
    points = checked.key[0]
    difficulty, greedy = grade(points, position, turns, seed)
    actions = sum(len(t) for t in checked.line)
    line = tuple(format_turn(t, position.grid) for t in checked.line)
    posed = position.replace(puzzle=puzzle, solution=Solution(points, line))
    header = (f"# Generated by boardsat generate (candidate seed {seed}); unique optimum "
              f"{checked.key}{'' if prover == 'CP-SAT' else f' (proven by {prover})'}\n"
              f"# difficulty {difficulty}: greedy players reach {greedy} of "
              f"{points} points; {actions} actions\n")
    text = header + write_position(posed)
    verdict = verify_solution(parse_position(text))
    if not verdict.ok:
        raise AssertionError(f"generated file fails verification: {verdict.message}")
    return Made(text, difficulty, {"points": points, "greedy": greedy,
                                   "actions": actions, "cells": position.grid.size,
                                   "solve_s": checked.stats["wall_s"]})
