"""The CP-SAT parameters and the objective Terra Nova's turn models solve with.

:func:`settings` chooses the parameters by puzzle kind and board size,
:func:`line_objective` orders lines as the rules do. Every value here was chosen by
measurement, in benchmarks/EXPERIMENTS.md, Terra Nova (the topic is named at each).
Used by :mod:`solver.terra_nova.solve`, the hard paths (:mod:`solver.terra_nova.deep`,
:mod:`solver.terra_nova.halves`) and :mod:`solver.terra_nova.uniqueness`.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat.objectives import Goal, Lexicographic, lexicographic
from solver.terra_nova.model.geometry import ACTIONS_PER_TURN
from solver.terra_nova.model.turn_model import TurnModel

PROBING_LEVEL = 0
"""CP-SAT ``cp_model_probing_level``: probing costs seconds on these models and shortens
no search."""

BEST_TURN_LINEARIZATION_LEVEL = 0
"""Best-turn searches without the LP: the one-turn search is faster without it ("Best
turn"). Closing puzzles choose theirs in :func:`settings`."""

BEST_TURN_WORKERS = 1
"""Best-turn solves on one thread whatever ``--workers`` says: the search takes tenths of
a second, and a second thread only doubled its CPU time ("Best turn")."""

BEST_TURN_SEARCH: dict[str, Any] = {
    "interleave_search": True,
    "subsolvers": ["fixed", "no_lp"],
    "num_full_subsolvers": 2,
    "use_lns": False,
    "use_sat_inprocessing": False,
}
"""Best-turn's search, on its one thread: CP-SAT's ``fixed`` subsolver (the model's
decision strategy: the most valuable closings first, :meth:`TurnModel.closings_by_value`)
finds the scoring lines, ``no_lp`` (the default search) refutes the closings that cannot
happen; interleaved in small batches, without LNS. Without SAT inprocessing: the ``fixed``
search goes back to the root hundreds of times, and the inprocessing it ran there was
most of the search ("Best turn")."""

BEST_TURN_PRESOLVE: dict[str, Any] = {"max_presolve_iterations": 0, "symmetry_level": 0}
"""Best-turn's presolve: no iteration and no symmetry detection (its graphs were built
twice). On these small models presolve took a good part of the CPU and shortened no
search ("Best turn")."""


LARGE_BOARD_CELLS = 100
"""Max-points closings on boards of at least this many cells solve with CP-SAT's
``linearization_level`` 2: level 1 leaves the Boolean links "a region scores only when
closed, closed only when its boundary is stones" out of the LP, whose bound then stays
far above every line on the full board. Smaller boards search without the LP
(:data:`SMALL_BOARD_SEARCH`; "LP level, cuts and hints")."""

LARGE_BOARD_SUBSOLVERS = ("default", "fixed")
"""The full CP-SAT subsolvers of max-points closings on large boards, one thread each
with two workers (one worker runs ``default`` alone): ``default`` is the parameters as
given (CP-SAT's ``default_lp`` would force level 1, ``max_lp`` adds every LP row up
front) and proves; ``fixed`` follows the model's decision strategy (the most valuable
closings first, without the LP: :data:`LARGE_BOARD_FIXED_SEARCH`) and finds the best
line early, which the proof then only has to confirm. It replaced LNS on the second
thread ("The second worker of a two-turn closing")."""


LARGE_BOARD_FIXED_SEARCH: dict[str, Any] = {"name": "fixed", "linearization_level": 0}
"""The ``fixed`` subsolver of :data:`LARGE_BOARD_SUBSOLVERS` searches without the LP (a
named parameter set CP-SAT merges into its own ``fixed``): its nodes are cheap, it
reaches the valuable lines sooner, and the level-2 ``default`` search proves ("The second
worker of a two-turn closing")."""


SMALL_BOARD_SEARCH: dict[str, Any] = {
    "linearization_level": 0,
    "subsolvers": ["default"],
    "num_full_subsolvers": 1,
    "max_presolve_iterations": 1,
}
"""Max-points closings on boards under :data:`LARGE_BOARD_CELLS` cells search without
the LP (the parameters as given on the full thread, LNS beside it with two workers;
CP-SAT's own ``default_lp`` would force level 1), after one presolve round: there the
LP costs about half the CPU and shortens no proof ("Small boards")."""


def settings(kind: str | None = None, *, cells: int = 0) -> dict[str, Any]:
    """The CP-SAT parameters Terra Nova models solve with (``SolveParams.settings``);
    ``cells`` (the board's size) chooses the LP of max-points closings."""
    chosen: dict[str, Any] = {"cp_model_probing_level": PROBING_LEVEL}
    if kind == "best-turn":
        chosen["linearization_level"] = BEST_TURN_LINEARIZATION_LEVEL
        chosen.update(BEST_TURN_SEARCH)
        chosen.update(BEST_TURN_PRESOLVE)
    elif kind == "max-points" and cells >= LARGE_BOARD_CELLS:
        chosen["linearization_level"] = 2
        chosen["subsolvers"] = list(LARGE_BOARD_SUBSOLVERS)
        chosen["num_full_subsolvers"] = len(LARGE_BOARD_SUBSOLVERS)
        chosen["subsolver_params"] = [dict(LARGE_BOARD_FIXED_SEARCH)]
    elif kind == "max-points":
        chosen.update(SMALL_BOARD_SEARCH)
    return chosen


def follows_strategy(chosen: dict[str, Any]) -> bool:
    """True when CP-SAT parameters ``chosen`` (:func:`settings`) run the ``fixed``
    subsolver, which searches in the model's decision strategy (without one CP-SAT
    leaves it out)."""
    return "fixed" in chosen.get("subsolvers", ())


def add_strategy(tm: TurnModel, chosen: dict[str, Any]) -> None:
    """Give ``tm``'s model its decision strategy (the most valuable closings first,
    :meth:`TurnModel.closings_by_value`) when ``chosen`` runs the ``fixed`` subsolver
    that follows it (:func:`follows_strategy`)."""
    if follows_strategy(chosen):
        tm.model.add_decision_strategy(tm.closings_by_value(), cp_model.CHOOSE_FIRST,
                                       cp_model.SELECT_MAX_VALUE)


def line_objective(tm: TurnModel, turns: int, actions: bool) -> Lexicographic:
    """The rules' order of lines as one objective: own points up, others' points down,
    then (``actions``) fewer actions. Bounds: ``actions <= 3 * turns`` and others'
    points ``<= tm.others_upper_bound()`` (every candidate region closes at most once)."""
    goals = [Goal(tm.own_points(), "max"), Goal(tm.other_points(), "min", tm.others_upper_bound())]
    if actions:
        goals.append(Goal(tm.actions(), "min", ACTIONS_PER_TURN * turns))
    return lexicographic(goals)


HALVES_TURNS = 2
"""Max-points closings of this many turns on boards of :data:`LARGE_BOARD_CELLS` cells or
more, with two or more workers, solve the two halves of
:mod:`solver.terra_nova.model.full_boundaries` on a thread each
(:mod:`solver.terra_nova.halves`) instead of the whole model on two workers: faster
where the whole model waits for its optimum, as fast elsewhere ("Two halves: lines
split by their final stones")."""

HALVES_SEARCH: dict[str, Any] = {
    "cp_model_probing_level": PROBING_LEVEL,
    "linearization_level": 0,
    "subsolvers": ["default"],
    "num_full_subsolvers": 1,
}
"""The first thread of a split closing (one worker): CP-SAT's default search without the
LP, for half (b) and then for half (a) with (b)'s own points as a floor. It beat the
``fixed`` search in the model's decision strategy on both (for (b), which is the whole
proof when (a)'s relaxation refutes (a), on all but one position), and level 1, quick
restarts and ``fixed`` interleaved with ``no_lp`` were slower ("Two halves: lines split
by their final stones")."""

HALVES_PROOF: dict[str, Any] = {**HALVES_SEARCH, "linearization_level": 2}
"""The second thread of a split closing (one worker): the level-2 ``default`` search of
:data:`LARGE_BOARD_SUBSOLVERS` on half (a), without a floor; where (a) holds the
optimum or (b)'s line is far below it, it proves (a) sooner than the first thread."""

DEEP_SEARCH: dict[str, Any] = {"use_sat_inprocessing": False}
"""Added to :func:`settings` for the restricted rounds of 3+-turn closings
(:mod:`solver.terra_nova.deep`) and the caps' loose models: no SAT inprocessing. Their
level-2 search goes back to the root thousands of times and ran the inprocessing
(vivification) each time, as best-turn's did, for most of its time. The relaxation
keeps its own settings (:data:`RELAXATION_SETTINGS`; "Search settings on the deep
path")."""

CAP_SEARCH: dict[str, Any] = {"linearization_level": 0}
"""Added to :data:`DEEP_SEARCH`'s settings for the caps' loose models
(:mod:`solver.terra_nova.model.caps`): no LP. Their objective counts only the capped
candidates, which the search settles without it; the LP made each node several times
dearer ("Caps on closings")."""

CAP_LP_SEARCH: dict[str, Any] = {
    "subsolvers": ["default", "lp"],
    "num_full_subsolvers": 2,
    "subsolver_params": [{"name": "lp", "linearization_level": 2}],
}
"""Added to :data:`CAP_SEARCH` when a cap solves on two workers: :data:`CAP_SEARCH`'s
search on one thread and the same with the level-2 LP on the other. Most caps are
proven sooner without the LP, but some (a pair of regions far apart) take the search
without it two to three times longer ("Caps on closings")."""

RELAXATION_SETTINGS: dict[str, Any] = {"linearization_level": 2, "cp_model_presolve": False,
                                       "cp_model_probing_level": 0,
                                       "use_sat_inprocessing": False}
"""The relaxation (:mod:`solver.terra_nova.model.relaxation`) solves on one thread with
the level-2 LP, without presolve (which took longer than the search at 4 turns and slowed
the 3-turn proofs; "Relaxation and restricted rounds") and without SAT inprocessing (with
the clash rows' LP the search restarts often, and ran it each time; "A tighter
relaxation")."""

WITHIN_FLOOR_ROUNDS = 20
"""At most this many solves of half (a)'s relaxation find the candidates a line of (a)
worth (b)'s points can close (:func:`solver.terra_nova.halves.candidates_within_floor`;
each round adds at least one); past them the floored (a) keeps all its candidates. Full
boards need a few rounds; small dense test boards can need more ("Two halves: lines split
by their final stones")."""
