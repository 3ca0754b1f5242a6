"""Terra Nova benchmark cases for the benchmark runner: CP-SAT vs exhaustive search.

A case is a position file or a recipe
(:func:`solver.terra_nova.puzzlegen.position_from_recipe`), with ``kind``
best-turn or closing (max-points over ``turns`` turns).
"""

from __future__ import annotations

from pathlib import Path

from solver.cpsat import SolveParams
from solver.protocol import Case, Solved
from solver.terra_nova.engine import exhaustive
from solver.terra_nova.fileformat import read_position
from solver.terra_nova.position import Position
from solver.terra_nova.puzzlegen import position_from_recipe
from solver.terra_nova.solve import solve_puzzle


def load(case: Case, root: Path) -> Position:
    """The case's position."""
    if case.position is not None:
        return read_position(case.position)
    return position_from_recipe(case.recipe or {}, root)


def size(position: Position) -> tuple[int, int]:
    """``(cells, players)``."""
    return position.grid.size, len(position.players)


def solve_cpsat(position: Position, case: Case, params: SolveParams) -> Solved:
    """The CP-SAT optimum (answer replayed through the engine by the solve API) with its
    proven bound on own points (None: none proven)."""
    if case.kind == "closing":
        answer = solve_puzzle(position, case.turns, params)
    else:  # best-turn whatever the file's [puzzle] says
        answer = solve_puzzle(position.replace(puzzle=None), None, params)
    return Solved(tuple(answer.key), answer.optimal, answer.actions, answer.stats,
                  answer.bound)


def solve_exhaustive(position: Position, case: Case, cap: float) -> tuple[int, ...]:
    """The engine's exhaustive optimum (objective tuple); TimeoutError past ``cap`` seconds."""
    if case.kind == "best-turn":
        return exhaustive.best_turn(position, time_cap=cap).key
    return exhaustive.best_closing(position, case.turns, time_cap=cap).key
