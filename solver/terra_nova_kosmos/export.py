"""Terra Nova (KOSMOS) puzzles as one CP-SAT model for ``boardsat export`` and
``bench --solvers``: the last-round, best-round or last-rounds model ``solve`` solves
(:func:`~solver.terra_nova_kosmos.solve.last_round_model`,
:func:`~solver.terra_nova_kosmos.solve.best_round_model`,
:func:`~solver.terra_nova_kosmos.solve.last_rounds_model`), a solution of it read as
``solve`` reads one and replayed by the engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.cpsat import SolveParams
from solver.protocol import Case, Options, PuzzleModel, Replayed
from solver.terra_nova_kosmos import solve
from solver.terra_nova_kosmos.commands import kind_of, load
from solver.terra_nova_kosmos.engine import bestround, lastrounds
from solver.terra_nova_kosmos.model.best_round import read_best_line
from solver.terra_nova_kosmos.model.last_round import predicted, read_line
from solver.terra_nova_kosmos.model.last_rounds import predicted_rounds, read_rounds_line
from solver.terra_nova_kosmos.notation import format_turn
from solver.terra_nova_kosmos.position import Position

ANSWER = ("The line is read step by step from the step variables (one set per action "
          "slot: its kind, then where it builds, digs or ships); boardsat reads a "
          "solution back with `boardsat export FILE --solution SOLUTION`.")
"""How the line reads from the KOSMOS models' variables."""

GOALS = {
    "last-round": ("own victory points at the game's end (max)",
                   "the other players' victory points (min)", "turns (min)"),
    "last-rounds": ("own victory points at the game's end (max)",
                    "the other players' victory points (min)", "turns of both rounds (min)"),
    "max-points": ("victory points this round (max)", "money left over (max)",
                   "coins given to others (min)", "turns (min)"),
    "max-value": ("victory points and money this round, as money (max)",
                  "coins given to others (min)", "turns (min)"),
}
"""The objective's goals by puzzle (best-round by its objective)."""


def export_case(path: Path, options: Options) -> Case:
    """The file's puzzle as a case."""
    return Case(name=path.stem, game="terra-nova-kosmos", kind=kind_of(load(path)),
                position=path)


def puzzle_model(position: Position, case: Case, params: SolveParams) -> PuzzleModel:
    """The case's model as ``solve`` builds it."""
    if case.kind == "best-round":
        objective = bestround.objective_of(position)
        br = solve.best_round_model(position, params, objective)

        def replay_best(solver: Any, optimal: bool) -> Replayed:
            line = read_best_line(br, solver)
            result = solve.best_replayed(position, line, solve.best_claim(br, solver), optimal)
            return Replayed(result.key, _texts(position, line))
        return PuzzleModel(br.model, solve.settings(), solve.SEARCH_WORKERS,
                           f"best round ({objective})", GOALS[objective], br.objective.weights,
                           ANSWER, replay_best)
    if case.kind == "last-rounds":
        built = solve.last_rounds_model(position, params)

        def replay_rounds(solver: Any, optimal: bool) -> Replayed:
            line = read_rounds_line(built, solver)
            result = solve.replayed(position, line, predicted_rounds(built, solver), optimal,
                                    lastrounds.evaluate)
            return Replayed(result.key, _texts(position, line))
        return PuzzleModel(built.model, {**solve.settings(), **solve.ROUNDS_SETTINGS},
                           solve.SEARCH_WORKERS, "last two rounds", GOALS["last-rounds"],
                           built.lr.objective.weights, ANSWER, replay_rounds)
    lr = solve.last_round_model(position, params)

    def replay_last(solver: Any, optimal: bool) -> Replayed:
        line = read_line(lr, solver)
        result = solve.replayed(position, line, predicted(lr, solver), optimal)
        return Replayed(result.key, _texts(position, line))
    return PuzzleModel(lr.model, solve.settings(), solve.SEARCH_WORKERS, "last round",
                       GOALS["last-round"], lr.objective.weights, ANSWER, replay_last)


def _texts(position: Position, line: list) -> list[str]:
    return [format_turn(t, position.grid) for t in line]
