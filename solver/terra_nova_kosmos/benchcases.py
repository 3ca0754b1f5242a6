"""Terra Nova (KOSMOS) benchmark cases: loading, CP-SAT solve, exhaustive search.

A case is a position file or a recipe: ``{rows, cols, money, buildings, seed}``
for :func:`~solver.terra_nova_kosmos.puzzlegen.random_last_round` (kind
``last-round``), :func:`~solver.terra_nova_kosmos.puzzlegen.random_last_rounds`
(kind ``last-rounds``) or, with ``objective`` too,
:func:`~solver.terra_nova_kosmos.puzzlegen.random_best_round` (kind
``best-round``); or, on a full bundled map, ``{board, players, seed}`` (with
``round``, ``bridge_adjacency`` and ``objective`` where wanted) for
:func:`~solver.terra_nova_kosmos.puzzlegen.playout_position`: a seeded game played
until everyone but the player to move has passed. Both sides report the full
objective tuple: ``(value, −others, −turns)`` or the best-round objective with its
tie-breaks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.protocol import Case, Solved
from solver.terra_nova_kosmos.commands import load as load_file
from solver.terra_nova_kosmos.engine.exhaustive import solve_best_round as exhaustive_best
from solver.terra_nova_kosmos.engine.exhaustive import solve_last_round as exhaustive
from solver.terra_nova_kosmos.engine.exhaustive import solve_last_rounds as exhaustive_rounds
from solver.terra_nova_kosmos.position import OBJECTIVES, Position
from solver.terra_nova_kosmos.puzzlegen import (
    BEST_ROUND_FACTIONS,
    BRIDGE_ADJACENCY,
    board_names,
    playout_position,
    random_best_round,
    random_last_round,
    random_last_rounds,
)
from solver.terra_nova_kosmos.rules import ROUNDS
from solver.terra_nova_kosmos.solve import SOLVERS
from solver.tomlfile import MAX_NUMBER, SEEDS, check_numbers

RECIPE_KEYS = ("rows", "cols", "money", "buildings", "seed")
RECIPE_RANGES = {"rows": (1, 9), "cols": (1, 13), "money": (0, MAX_NUMBER),
                 "buildings": (1, 99), "seed": SEEDS}
"""The numbers a recipe takes: a map no larger than the base map (13 × 9)."""
BEST_RECIPE_KEYS = (*RECIPE_KEYS, "objective")
PLAYOUT_KEYS = ("board", "players", "seed", "round", "bridge_adjacency", "objective")
"""The keys of a recipe on a full bundled map (``board`` names its file)."""
PLAYOUT_RANGES = {"players": (2, 4), "seed": SEEDS, "round": (1, ROUNDS)}


def check_recipe(kind: str, recipe: Mapping[str, Any]) -> None:
    """InputError for a recipe of a ``kind`` case that :func:`load` does not take: an
    unknown key, a number outside :data:`RECIPE_RANGES`, an unknown objective."""
    allowed = BEST_RECIPE_KEYS if kind == "best-round" else RECIPE_KEYS
    if "board" in recipe:
        allowed = PLAYOUT_KEYS
    unknown = sorted(set(recipe) - set(allowed))
    if unknown:
        raise InputError(f"unknown recipe key {unknown[0]!r} (allowed: {', '.join(allowed)})")
    check_numbers(recipe, PLAYOUT_RANGES if "board" in recipe else RECIPE_RANGES,
                  "recipe key")
    if "board" in recipe and recipe["board"] not in board_names():
        raise InputError(f"recipe key 'board' is one of {', '.join(board_names())}, not "
                         f"{recipe['board']!r}")
    if recipe.get("bridge_adjacency", "all") not in BRIDGE_ADJACENCY:
        raise InputError(f"recipe key 'bridge_adjacency' is one of "
                         f"{', '.join(BRIDGE_ADJACENCY)}, not {recipe['bridge_adjacency']!r}")
    if recipe.get("objective", OBJECTIVES[0]) not in OBJECTIVES:
        raise InputError(f"recipe key 'objective' is one of {', '.join(OBJECTIVES)}, not "
                         f"{recipe['objective']!r}")


def load(case: Case, root: Path) -> Position:
    """The case's position: its file (relative to ``root``) or its recipe."""
    if case.position is not None:
        return load_file(root / case.position)
    recipe: dict[str, Any] = dict(case.recipe or {})
    check_recipe(case.kind, recipe)
    if "board" in recipe:
        return playout_position(case.kind, **recipe)
    rng = random.Random(recipe.pop("seed", 0))
    if case.kind == "best-round":
        return random_best_round(rng, factions=BEST_ROUND_FACTIONS, **recipe)
    if case.kind == "last-rounds":
        return random_last_rounds(rng, **recipe)
    return random_last_round(rng, **recipe)


def solve_cpsat(position: Position, case: Case, params: Any) -> Solved:
    """The CP-SAT model's answer (replayed by the engine)."""
    answer = SOLVERS[case.kind](position, params)
    return Solved(answer.key, answer.optimal, answer.result.turns,
                  dict(answer.stats, horizon=answer.horizon, build_s=answer.build_s),
                  answer.bound)


def solve_exhaustive(position: Position, case: Case, cap: float) -> tuple[int, ...]:
    """The engine's memoised exhaustive search; TimeoutError past ``cap`` seconds."""
    searches: dict[str, Callable[..., tuple[Any, Any]]] = {
        "best-round": exhaustive_best, "last-rounds": exhaustive_rounds}
    search = searches.get(case.kind, exhaustive)
    result, _ = search(position, cap=cap)
    return result.key
