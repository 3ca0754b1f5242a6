"""Realistic Rift Valley positions for the puzzle generator and the benchmarks.

A position comes from a seeded game prefix on one board: the board passes from
player to player as in the real game (one draw per round, colours in seat
order, the rift owner first and bound by the first-stop rule on that draw),
each draw chosen by :func:`solver.rift_valley.engine.full_game.random_policy` (it prefers
trails). The puzzle's player then gets a draw budget.

:func:`greedy_draws` is the yardstick for difficulty: a greedy player who looks
one element ahead (a stop is judged together with the best trail it opens).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.paths import REPO_ROOT
from solver.protocol import Made
from solver.rift_valley.boardgen import random_large_board
from solver.rift_valley.engine.draws import apply_draw, draw_problem, legal_draws, play_draws, score
from solver.rift_valley.engine.full_game import random_policy
from solver.rift_valley.fileformat import parse_position, read_position, write_position
from solver.rift_valley.notation import Draw, DrawStop, DrawTrail, format_draw, parse_draw
from solver.rift_valley.position import (
    COLOURS,
    MAX_BOARD_COLS,
    MAX_BOARD_ROWS,
    Position,
    Trail,
)
from solver.rift_valley.rules import MAX_PLAYERS, MIN_PLAYERS
from solver.rift_valley.uniqueness import check_unique
from solver.tomlfile import SEEDS, Solution, check_numbers

RECIPE_KEYS = ("board", "random_board", "rows", "cols", "players", "rounds", "seed", "draws",
               "player")
RECIPE_RANGES = {"random_board": SEEDS, "rows": (8, MAX_BOARD_ROWS), "cols": (8, MAX_BOARD_COLS),
                 "players": (MIN_PLAYERS, MAX_PLAYERS), "rounds": (0, 999), "seed": SEEDS,
                 "draws": (0, 999), "player": (0, MAX_PLAYERS - 1)}
"""The numbers a benchmark recipe takes (``board`` is a file name)."""

GREEDY_PAIR_REACH = 6
"""Greedy lookahead: two new stops joined by a straight trail at most this many cells apart."""


def game_prefix(start: Position, colours: tuple[str, ...], rounds: int,
                rng: random.Random) -> Position:
    """``start`` after ``rounds`` draws, one per round, by ``colours`` in seat order.

    ``colours[0]`` owns the rift and draws first, under the first-stop rule. A
    colour with no legal draw passes.
    """
    position = start.replace(rift_owner=colours[0], draws=None, first_stop_rule=False,
                             solution=None)
    for number in range(rounds):
        colour = colours[number % len(colours)]
        first = number == 0
        draws = list(legal_draws(position, colour, first=first))
        if draws:
            draw = random_policy(position, colour, draws, False, rng)
            assert draw is not None, "a player that may not pass draws"
            position = apply_draw(position, colour, draw, first=first)
    return position


def check_recipe(recipe: Mapping[str, Any]) -> None:
    """InputError for a recipe :func:`position_from_recipe` does not take: an unknown
    key, neither or both of ``board`` and ``random_board``, a number outside
    :data:`RECIPE_RANGES`, a ``board`` that is no file name, a seat past the players."""
    unknown = sorted(set(recipe) - set(RECIPE_KEYS))
    if unknown:
        raise InputError(f"unknown recipe key {unknown[0]!r} (allowed: {', '.join(RECIPE_KEYS)})")
    if ("board" in recipe) == ("random_board" in recipe):
        raise InputError("a Rift Valley recipe needs a 'board' or a 'random_board' seed")
    check_numbers(recipe, RECIPE_RANGES, "recipe key")
    if not isinstance(recipe.get("board", ""), str):
        raise InputError(f"recipe key 'board' must be a file name, not {recipe['board']!r}")
    players = recipe.get("players", 3)
    if recipe.get("player", 0) >= players:
        raise InputError(f"recipe key 'player' is a seat from 0 to {players - 1}, "
                         f"not {recipe['player']}")


def position_from_recipe(recipe: Mapping[str, Any], root: Path) -> Position:
    """A mid-game puzzle position as a benchmark suite describes it.

    Keys: ``board`` (file relative to ``root``) or ``random_board`` (a seed for
    :func:`solver.rift_valley.boardgen.random_large_board`, with ``rows`` and
    ``cols``, default 10 × 12), ``players`` (2–5), ``rounds`` (draws made on the
    board before the puzzle), ``seed``, ``player`` (seat index of the puzzle's
    player, default 0) and ``draws`` (budget; absent: unlimited).
    """
    check_recipe(recipe)
    colours = COLOURS[: recipe.get("players", 3)]
    if "board" in recipe:
        board = read_position(root / recipe["board"])
    else:
        generated = random_large_board(random.Random(recipe["random_board"]),
                                       recipe.get("rows", 10), recipe.get("cols", 12))
        board = Position(board=generated, rift_owner=colours[0], player=colours[0])
    rng = random.Random(recipe.get("seed", 0))
    position = game_prefix(board, colours, recipe.get("rounds", 0), rng)
    player = colours[recipe.get("player", 0)]
    return position.replace(player=player, draws=recipe.get("draws"))


# ------------------------------------------------------------------ greedy player


def _options(position: Position, colour: str) -> list[tuple[Draw, ...]]:
    """Greedy moves: one legal draw, a new stop plus a trail from it to an own stop,
    or two new stops plus the straight trail joining them."""
    grid = position.grid
    singles = list(legal_draws(position, colour))
    options: list[tuple[Draw, ...]] = [(d,) for d in singles if not isinstance(d, DrawStop)]
    own = sorted(position.of(colour).stops)
    for stop in (d for d in singles if isinstance(d, DrawStop)):
        after = apply_draw(position, colour, stop)
        for other in own:
            for trail in _shapes(grid, stop.cell, other):
                if draw_problem(after, colour, DrawTrail(trail)) is None:
                    options.append((stop, DrawTrail(trail)))
        r, c = grid.coords[stop.cell]
        for dr, dc in ((0, 1), (1, 0)):
            for k in range(2, GREEDY_PAIR_REACH + 1):
                far = grid.index(r + dr * k, c + dc * k)
                if far is None:
                    break
                second = DrawStop(far)
                if draw_problem(after, colour, second) is not None:
                    continue
                both = apply_draw(after, colour, second)
                joined = DrawTrail(Trail(stop.cell, far))
                if draw_problem(both, colour, joined) is None:
                    options.append((stop, second, joined))
    return options


def _shapes(grid: Any, a: int, b: int) -> list[Trail]:
    (ra, ca), (rb, cb) = grid.coords[a], grid.coords[b]
    if ra == rb or ca == cb:
        return [Trail(a, b)]
    return [Trail(a, b, grid.index(ra, cb)), Trail(a, b, grid.index(rb, ca))]


def greedy_draws(position: Position, rng: random.Random) -> tuple[int, list[Draw]]:
    """The greedy player's score and draws within the position's budget.

    Each step takes the option (see :func:`_options`) with the best score gain
    per draw that fits the remaining budget, ties broken at random; it stops
    when no option gains anything. Tents only count when they score.
    """
    colour = position.player
    budget = position.draws
    current = position.replace(draws=None, first_stop_rule=False)
    total = score(current, colour).total
    chosen: list[Draw] = []
    first = position.first_stop_rule
    while budget is None or len(chosen) < budget:
        best: tuple[float, float] | None = None
        pick: tuple[tuple[Draw, ...], Position, int] | None = None
        for option in _options(current, colour):
            if budget is not None and len(chosen) + len(option) > budget:
                continue
            if first and not isinstance(option[0], DrawStop):
                continue
            after = current
            try:
                for number, draw in enumerate(option):
                    after = apply_draw(after, colour, draw, first=first and number == 0)
            except InputError:
                continue
            value = score(after, colour).total
            gain = (value - total) / len(option)
            rank = (gain, rng.random())
            if gain > 0 and (best is None or rank > best):
                best, pick = rank, (option, after, value)
        if pick is None:
            break
        option, current, total = pick
        chosen.extend(option)
        first = False
    return total, chosen


# ------------------------------------------------------------------ puzzles

BOARDS_DIR = Path("positions/rift-valley/boards")
"""Boards the candidates are played on, relative to the repository."""

BUDGETS = (3, 4, 5, 6, 8)
"""Draw budgets a candidate puzzle may get."""

GREEDY_RUNS = 4
"""Difficulty yardstick: the best of this many seeded greedy players."""

CPSAT_EFFORT = 10.0
"""Deterministic-time limit (CP-SAT deterministic seconds) per solve of the uniqueness check."""

GRADE_POINTS_SHORT = 2
"""Grades by how many points the greedy player (:func:`greedy_draws`, best of
:data:`GREEDY_RUNS` runs) falls short of the optimal score: easy — none (it reaches
the optimum); medium — at most this many; hard — more."""

MIN_GAIN = 4
"""Candidates whose optimal draws gain fewer points than this are dropped (no puzzle)."""


def candidate_position(seed: int, root: Path) -> Position:
    """The seeded candidate position: a board, a game prefix of 2–4 colours, a budget."""
    rng = random.Random(seed)
    boards = sorted((root / BOARDS_DIR).glob("*.toml"))
    players = rng.choice((2, 3, 4))
    recipe = {"board": str(rng.choice(boards)), "players": players,
              "rounds": rng.randint(2 * players, 5 * players), "seed": rng.getrandbits(32),
              "player": rng.randrange(players), "draws": rng.choice(BUDGETS)}
    return position_from_recipe(recipe, root)


def grade(optimum: int, greedy: int) -> str:
    """easy / medium / hard (see :data:`GRADE_POINTS_SHORT`)."""
    if greedy >= optimum:
        return "easy"
    return "medium" if optimum - greedy <= GRADE_POINTS_SHORT else "hard"


def make_puzzle(seed: int, kind: str, turns: int) -> Made | None:
    """One max-score candidate: a puzzle with a unique, engine-verified optimum; or None.

    The optimum is found and checked for uniqueness by
    :func:`~solver.rift_valley.uniqueness.check_unique` (score, then fewest
    draws); the written file's solution is replayed and scored by the engine.
    """
    del kind, turns  # Rift Valley has one kind; the budget is the candidate's
    position = candidate_position(seed, REPO_ROOT)
    checked = check_unique(position, effort=CPSAT_EFFORT)
    if checked is None or not checked.unique:
        return None
    base = score(position, position.player).total
    gain = checked.value - base
    if gain < MIN_GAIN:
        return None
    greedy = max(greedy_draws(position, random.Random(seed + k))[0] for k in range(GREEDY_RUNS))
    difficulty = grade(checked.value, greedy)
    draws = tuple(format_draw(d, position.grid) for d in checked.draws)
    posed = position.replace(solution=Solution(checked.value, draws))
    header = (f"# Generated by boardsat generate (candidate seed {seed}); unique optimum "
              f"{checked.value} with {len(draws)} draws\n# difficulty {difficulty}: score "
              f"before {base}, the greedy player reaches {greedy} of {checked.value}\n")
    text = header + write_position(posed)
    check = parse_position(text)
    if check.solution is None:
        raise AssertionError(f"generated file lost its [solution] (seed {seed})")
    final = play_draws(check, [parse_draw(d, check.grid) for d in check.solution.line])
    if score(final, check.player).total != checked.value:
        raise AssertionError(f"generated file fails verification (seed {seed})")
    return Made(text, difficulty, {"value": checked.value, "before": base, "greedy": greedy,
                                   "draws": len(draws), "budget": position.draws,
                                   "cells": position.grid.size,
                                   "solve_s": checked.stats["wall_s"]})
