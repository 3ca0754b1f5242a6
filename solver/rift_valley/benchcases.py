"""Rift Valley benchmark cases for the benchmark runner: CP-SAT vs exhaustive search.

A case is a position file (a board, or a mid-game position) or a recipe
(:func:`solver.rift_valley.puzzlegen.position_from_recipe`) and a draw budget
(``draws``; absent: the file's, else unlimited).
"""

from __future__ import annotations

from pathlib import Path

from solver.cpsat import SolveParams
from solver.protocol import Case, Solved
from solver.rift_valley.engine.exhaustive import best_score
from solver.rift_valley.fileformat import read_position
from solver.rift_valley.position import Position
from solver.rift_valley.puzzlegen import position_from_recipe
from solver.rift_valley.solve import solve_max_score


def load(case: Case, root: Path) -> Position:
    """The case's position with its draw budget applied."""
    if case.position is not None:
        position = read_position(case.position)
    else:
        position = position_from_recipe(case.recipe or {}, root)
    if case.draws is not None:
        position = position.replace(draws=case.draws)
    return position


def size(position: Position) -> tuple[int, int]:
    """``(cells, colours with elements or the player)``."""
    colours = {c for c, e in position.elements if e.stops or e.trails or e.tents}
    return position.grid.size, len(colours | {position.player})


def solve_cpsat(position: Position, case: Case, params: SolveParams) -> Solved:
    """The CP-SAT max score (answer replayed and re-scored by the engine)."""
    answer = solve_max_score(position, params=params)
    return Solved((answer.value,), answer.optimal, len(answer.draws), answer.stats,
                  answer.bound)


def solve_exhaustive(position: Position, case: Case, cap: float) -> tuple[int, ...]:
    """The engine's exact search; TimeoutError past ``cap`` seconds."""
    return (best_score(position, time_cap=cap).value,)
