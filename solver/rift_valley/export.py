"""Rift Valley max-score puzzles as one CP-SAT model for ``boardsat export`` and
``bench --solvers``: :func:`solver.rift_valley.solve.max_score_model`'s, the one
``solve`` solves, a solution of it read as ``solve`` reads one and scored by the engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.cpsat import SolveParams
from solver.protocol import Case, Options, PuzzleModel, Replayed
from solver.rift_valley.engine.draws import validate
from solver.rift_valley.model.max_score import MaxScoreModel
from solver.rift_valley.notation import format_draw
from solver.rift_valley.position import Position
from solver.rift_valley.rules import DEFAULT_RULES
from solver.rift_valley.solve import engine_score, max_score_model

ANSWER = ("The draws are the variables set to 1: stop_<cell> a stop, tent_<cell> a tent "
          "(cells named as in docs/notation.md), trail_<k> the k-th trail candidate; the "
          "objective is the score.")
"""How the draws read from the max-score model's variables."""


def export_case(path: Path, options: Options) -> Case:
    """The file's max-score puzzle (``--draws``: with that budget) as a case."""
    return Case(name=path.stem, game="rift-valley", kind="max-score", position=path,
                draws=options.get("draws"))


def puzzle_model(position: Position, case: Case, params: SolveParams) -> PuzzleModel:
    """The case's model as ``solve`` builds it (:func:`max_score_model`)."""
    validate(position, DEFAULT_RULES)
    built, settings, workers = max_score_model(position, DEFAULT_RULES, params.check)
    budget = "any number of draws" if position.draws is None else f"{position.draws} draws"
    return PuzzleModel(built.model, settings, workers, f"max score with {budget}",
                       ("score (max)",), (1,), ANSWER, _replay_of(position, built))


def _replay_of(position: Position, built: MaxScoreModel) -> Any:
    def replayed(solver: Any, optimal: bool) -> Replayed:
        draws = tuple(built.draws(solver))
        value, _, _ = engine_score(position, draws, round(solver.objective_value), optimal,
                                   DEFAULT_RULES)
        return Replayed((value,), [format_draw(d, position.grid) for d in draws])
    return replayed
