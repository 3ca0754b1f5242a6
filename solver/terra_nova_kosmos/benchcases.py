"""Terra Nova (KOSMOS) benchmark cases: loading, CP-SAT solve, exhaustive search.

A case is a position file or a recipe ``{rows, cols, money, buildings, seed}``
for :func:`~solver.terra_nova_kosmos.puzzlegen.random_last_round`. Both sides
report the full objective tuple ``(value, −others, −turns)``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.protocol import Case, Solved
from solver.terra_nova_kosmos.commands import load as load_file
from solver.terra_nova_kosmos.engine.exhaustive import solve_last_round as exhaustive
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.puzzlegen import random_last_round
from solver.terra_nova_kosmos.solve import solve_last_round

RECIPE_KEYS = ("rows", "cols", "money", "buildings", "seed")


def load(case: Case, root: Path) -> Position:
    """The case's position: its file (relative to ``root``) or its recipe."""
    if case.position is not None:
        return load_file(root / case.position)
    recipe: dict[str, Any] = dict(case.recipe or {})
    unknown = sorted(set(recipe) - set(RECIPE_KEYS))
    if unknown:
        raise InputError(f"unknown recipe key {unknown[0]!r} (allowed: {', '.join(RECIPE_KEYS)})")
    rng = random.Random(recipe.pop("seed", 0))
    return random_last_round(rng, **recipe)


def solve_cpsat(position: Position, case: Case, params: Any) -> Solved:
    """The CP-SAT model's answer (replayed by the engine)."""
    answer = solve_last_round(position, params)
    return Solved(answer.key, answer.optimal, answer.result.turns,
                  dict(answer.stats, horizon=answer.horizon, build_s=answer.build_s))


def solve_exhaustive(position: Position, case: Case, cap: float) -> tuple[int, ...]:
    """The engine's memoised exhaustive search; TimeoutError past ``cap`` seconds."""
    result, _ = exhaustive(position, cap=cap)
    return result.key
