"""Terra Nova puzzles as one CP-SAT model for ``boardsat export`` and ``bench --solvers``.

The model is :func:`solver.terra_nova.solve.line_model`'s, the one ``solve`` solves
for a best-turn or max-points puzzle; a solution of it is read as ``solve`` reads one
and replayed by the engine. Min-turns puzzles are not one model (a horizon after
another), so they are refused unless ``--turns`` asks for the closing model instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.cpsat import SolveParams, SolveResult
from solver.errors import PuzzleError
from solver.protocol import Case, Options, PuzzleModel, Replayed
from solver.terra_nova import deep, halves
from solver.terra_nova.answers import model_answer
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.fileformat import read_position
from solver.terra_nova.position import Position
from solver.terra_nova.solve import LineModel, line_model, puzzle_of, replay

ANSWER = ("Each turn is 3 steps (step s belongs to turn s // 3). Step s moves a piece "
          "from cell a to cell b when from_{s}_{a} and to_{s}_{b} are 1, and places a "
          "stone on cell x when place_{s}_{x} is 1 (cells numbered row by row from 0); "
          "a turn's last move may be cut short where it scores nothing.")
"""How a line reads from the turn model's variables."""

DEEP_NOTE = ("boardsat solve does not solve this model in one piece: on boards this large "
             "a closing of 3 or more turns goes through a relaxation (an upper bound) and "
             "rounds over part of the candidate regions, each round a smaller model. This "
             "is the exact model of the same puzzle, which CP-SAT alone finds hard.")
HALVES_NOTE = ("With 2 or more workers boardsat solve splits this puzzle's lines in two "
               "halves (by their final stones), a thread each; with --workers 1 it solves "
               "exactly this model.")


def export_case(path: Path, options: Options) -> Case:
    """The file's puzzle (``--turns``: a closing over that many turns) as a case."""
    position = read_position(path)
    kind, horizon, _ = puzzle_of(position, options.get("turns"))
    if kind == "min-turns":
        raise PuzzleError("a min-turns puzzle is solved horizon after horizon, not as one "
                          "model; give --turns N to export the closing over N turns")
    return Case(name=path.stem, game="terra-nova", kind="closing" if kind == "max-points"
                else kind, position=path, turns=horizon)


def puzzle_model(position: Position, case: Case, params: SolveParams) -> PuzzleModel:
    """The case's model as ``solve`` builds it (:func:`line_model`)."""
    engine.validate(position)
    kind = "max-points" if case.kind == "closing" else "best-turn"
    horizon = case.turns or 1
    built = line_model(position, kind, horizon, params)
    goals: tuple[str, ...] = ("own points (max)", "points to the other players (min)")
    if kind == "max-points":
        goals += ("actions (min)",)
        puzzle = f"closing over {horizon} turn{'s' if horizon > 1 else ''}"
    else:
        puzzle = "best turn"
    note = (DEEP_NOTE if deep.applies(position, kind, horizon) else
            HALVES_NOTE if halves.applies(position, kind, horizon, SolveParams(workers=2))
            else "")
    return PuzzleModel(built.tm.model, built.settings, built.workers, puzzle, goals,
                       built.objective.weights, ANSWER, _replay_of(position, kind, built), note)


def _replay_of(position: Position, kind: str, built: LineModel) -> Any:
    def replayed(solver: Any, optimal: bool) -> Replayed:
        result = SolveResult("optimal" if optimal else "feasible", None, None, 0.0, {})
        answer = model_answer(position, kind, built.tm, solver, result, 0.0, 0.0)
        replay(position, answer)  # the model's points are exact on every line
        return Replayed(answer.key, answer.line_text(position))
    return replayed
