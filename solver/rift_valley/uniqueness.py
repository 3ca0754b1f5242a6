"""Is a Rift Valley max-score answer unique? Checked with CP-SAT on the answer variables.

An answer is the set of new elements (stops, trails, tents). Optimal answers are
ordered by score, then by fewest draws (an element that adds nothing is never
part of an answer; the model already leaves out tents with no connected stop
beside them and stops no trail ends at, see :mod:`solver.rift_valley.model.max_score`).
The check: solve; fix the score and the draw count at their optima; forbid the
found set ("some element variable differs"); solve again: INFEASIBLE means the
optimal set is unique.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat import SolveParams
from solver.cpsat.uniqueness import unique_answer
from solver.errors import EngineDisagreement, InputError
from solver.rift_valley.engine.draws import play_draws, score
from solver.rift_valley.model.max_score import build_model
from solver.rift_valley.notation import Draw
from solver.rift_valley.position import Position
from solver.rift_valley.solve import SETTINGS


@dataclass(frozen=True)
class Checked:
    """The optimum of a max-score puzzle and whether its element set is unique.

    ``unique`` is None when a solve did not finish within its effort limit.
    """

    value: int
    draws: tuple[Draw, ...]
    unique: bool | None
    stats: dict[str, Any] = field(default_factory=dict)


def check_unique(position: Position, params: SolveParams | None = None,
                 effort: float | None = None) -> Checked | None:
    """Solve ``position``'s max-score puzzle and check that its optimal answer is unique.

    ``effort`` limits each solve in CP-SAT deterministic seconds (reproducible,
    unlike a wall-clock limit). Returns None when the optimum is not proven. The
    answer is replayed through the engine, which must give the same score.
    """
    params = (params or SolveParams(workers=1)).with_settings(
        **SETTINGS, max_deterministic_time=effort)
    built = build_model(position, position.draws)
    elements = list(built.stop.values()) + list(built.trail) + list(built.tent.values())
    found: dict[str, tuple[Draw, ...]] = {}

    def replay(solver: cp_model.CpSolver) -> None:
        draws = tuple(built.draws(solver))
        try:
            final = play_draws(position, draws)
        except InputError as exc:  # the engine refuses the model's draws: not bad input
            raise EngineDisagreement(f"the engine refuses the model's draws: {exc.message} "
                                     f"({exc.place})") from None
        total = score(final, position.player).total
        value = solver.value(built.objective)
        if total != value:
            raise EngineDisagreement(f"the model scores its answer {value}, the engine {total}")
        found["draws"] = draws

    checked = unique_answer(built.model, [(built.objective, "max"), (sum(elements), "min")],
                            elements, params, found=replay)
    if checked is None:
        return None
    first, second = checked.stages
    assert first.objective is not None, "an optimal solve of an objective has its value"
    stats = {"branches": first.stats["branches"] + second.stats["branches"],
             "conflicts": first.stats["conflicts"] + second.stats["conflicts"],
             "wall_s": round(first.wall_s + second.wall_s + checked.check.wall_s, 3)}
    return Checked(round(first.objective), found["draws"], checked.unique, stats)
