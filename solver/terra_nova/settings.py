"""The CP-SAT parameters and the objective Terra Nova's turn models solve with.

:func:`settings` chooses the parameters by puzzle kind and board size,
:func:`line_objective` orders lines as the rules do. Every value here was chosen by
measurement; the docstrings name the rows of ``benchmarks/EXPERIMENTS.md`` (Terra
Nova) that decided it. Used by :mod:`solver.terra_nova.solve`,
:mod:`solver.terra_nova.deep` and :mod:`solver.terra_nova.uniqueness`.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat.objectives import Goal, Lexicographic, lexicographic
from solver.terra_nova.model.geometry import ACTIONS_PER_TURN
from solver.terra_nova.model.turn_model import TurnModel

PROBING_LEVEL = 0
"""CP-SAT ``cp_model_probing_level``: probing costs seconds on these models and buys
nothing measurable (benchmarks/terra_nova.py), so it is off."""

BEST_TURN_LINEARIZATION_LEVEL = 0
"""CP-SAT ``linearization_level`` for best-turn: without the LP the one-turn search is
faster (6 full-size mid-game positions, 1 worker: median 0.62 s -> 0.44 s). Closing
puzzles choose theirs in :func:`settings`."""

BEST_TURN_WORKERS = 1
"""Best-turn solves on one thread whatever ``--workers`` says: the search is a few
tenths of a second, and a second thread only doubled the CPU time it took
(benchmarks/EXPERIMENTS.md, Terra Nova #18)."""

BEST_TURN_SEARCH: dict[str, Any] = {
    "interleave_search": True,
    "subsolvers": ["fixed", "no_lp"],
    "num_full_subsolvers": 2,
    "use_lns": False,
    "use_sat_inprocessing": False,
}
"""Best-turn's search, on its one thread: CP-SAT's ``fixed`` subsolver (the model's
decision strategy: the most valuable closings first, :meth:`TurnModel.closings_by_value`)
finds the scoring lines, ``no_lp`` (the default search) refutes the closings that
cannot happen; interleaved in small batches, without LNS. Without SAT inprocessing:
the ``fixed`` search goes back to the root hundreds of times, and the inprocessing it
then ran was most of the search (solve CPU, 8 full boards, same optimum: 463 -> 206 ms
summed, det. 0.034 -> 0.012 on seed 1; benchmarks/EXPERIMENTS.md, Terra Nova #90)."""

BEST_TURN_PRESOLVE: dict[str, Any] = {"max_presolve_iterations": 0, "symmetry_level": 0}
"""Best-turn's presolve: ``max_presolve_iterations`` 0 and no symmetry detection.
More rounds took about a third of its CPU time and shortened no search (Terra Nova
#21); going from 1 round to 0 and leaving out the symmetry graphs (built twice)
saves another 10-45 % of the solve's CPU on these small models, the searches
unchanged (#70)."""


LARGE_BOARD_CELLS = 100
"""Max-points closings on boards of at least this many cells solve with CP-SAT's
``linearization_level`` 2: level 1 leaves the Boolean links "a region scores only
when closed, closed only when its boundary is stones" out of the LP, whose bound
then stays near 500 points on the full board, and never proved a full-board 2-turn
closing; level 2 proves most. Smaller boards search without the LP
(:data:`SMALL_BOARD_SEARCH`). Measured in benchmarks/EXPERIMENTS.md, Terra Nova #7,
#12, #14."""

LARGE_BOARD_SUBSOLVERS = ("default", "fixed")
"""The full CP-SAT subsolvers of max-points closings on large boards, one thread each
with two workers (one worker runs ``default`` alone): ``default`` is the parameters
as given (CP-SAT's ``default_lp`` would force level 1, ``max_lp`` adds every LP row
up front, 4x slower here), and proves; ``fixed`` follows the model's decision
strategy (:meth:`TurnModel.closings_by_value`: the most valuable closings first;
without the LP, :data:`LARGE_BOARD_FIXED_SEARCH`) and finds the best line early,
which the proof then only has to confirm. It replaced LNS on the second thread
(Terra Nova #14): full-board 2-turn closings, 2 workers, det. s per worker at the
proof, late-2p 19-50 -> 11-16 (its proof waited for the optimum); midgame-2p, the
played depth-suite position and seeds 0, 2, 3 of benchmarks/terra_nova.py within
their random-seed spread (-12 % to +21 %). benchmarks/EXPERIMENTS.md, Terra Nova
#44-#49, #57."""


LARGE_BOARD_FIXED_SEARCH: dict[str, Any] = {"name": "fixed", "linearization_level": 0}
"""The ``fixed`` subsolver of :data:`LARGE_BOARD_SUBSOLVERS` searches without the LP
(a named parameter set CP-SAT merges into its own ``fixed``): its nodes are cheap, it
reaches the valuable lines sooner, and the level-2 ``default`` search proves. 2-turn
closings, 2 workers, the same hour (load ~3), wall s with the fixed search at level 2
-> level 0: late-2p 41.6 -> 15.2, midgame-2p 23.8 -> 14.5, played depth-suite
position 14.2 -> 12.7 (benchmarks/EXPERIMENTS.md, Terra Nova #57)."""


SMALL_BOARD_SEARCH: dict[str, Any] = {
    "linearization_level": 0,
    "subsolvers": ["default"],
    "num_full_subsolvers": 1,
    "max_presolve_iterations": 1,
}
"""Max-points closings on boards under :data:`LARGE_BOARD_CELLS` cells search without
the LP (the parameters as given on the full thread, LNS beside it with two workers;
CP-SAT's own ``default_lp`` would force level 1), after one presolve round. There
the level-1 LP costs about half the CPU and shortens no proof: quick-suite 6x7
2-turn closing (38 cells), 2 workers, wall s at load 9-13, 50 / 41 -> 19 / 21
(without the LP); 1 worker, three 38-cell boards x three seeds: CPU 1.5-2.2x
lower, although CP-SAT counts up to 1.5x more det. time on one of them
(benchmarks/EXPERIMENTS.md, Terra Nova #71)."""


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
:mod:`solver.terra_nova.model.halves` on a thread each (:mod:`solver.terra_nova.halves`)
instead of the whole model on two workers. ``solve_puzzle`` end to end, wall s at seeds
0 / 1, whole model -> halves, alternated at load 4-6: late-2p 35.2 / 34.6 -> 22.2 / 26.0,
midgame-2p 36.7 / 26.9 -> 35.1 / 29.2, the played depth-suite position 28.6 / 24.6 ->
23.4 / 28.3 (benchmarks/EXPERIMENTS.md, Terra Nova #75; single-thread figures at
:data:`HALVES_SEARCH`). On the idle machine, same hour, two runs each, halves / whole
model: late-2p 9.0, 9.3 / 13.2, 14.0 s; midgame-2p 11.6, 11.0 / 11.3, 9.0 s (no gain
there; EXPERIMENTS.md, idle figures of session 9)."""

HALVES_SEARCH: dict[str, Any] = {
    "cp_model_probing_level": PROBING_LEVEL,
    "linearization_level": 0,
    "subsolvers": ["default"],
    "num_full_subsolvers": 1,
}
"""The first thread of a split closing (one worker): CP-SAT's default search without the
LP, for half (b) and then for half (a) with (b)'s own points as a floor. For the floored
(a), 1 worker, det. s at ``random_seed`` 0 / 1 / 2, CP-SAT's ``fixed`` search in the
model's decision strategy (the most valuable closings first) -> this: midgame-2p 6.60 /
6.60 / 6.60 -> 4.50 / 4.42 / 4.65, late-2p 4.79 / 4.97 / 4.84 -> 4.36 / 4.33 / 4.60, the
played depth-suite position 5.56 / 5.84 / 5.56 -> 4.39 / 4.09 / 4.13; level 1, quick
restarts and ``fixed`` interleaved with ``no_lp`` were slower (benchmarks/EXPERIMENTS.md,
Terra Nova #93). For (b), which is the whole proof when (a)'s relaxation refutes (a)
(#120), ``fixed`` -> this: the played depth-suite position 0.95 / 0.97 / 1.08 -> 0.71 /
0.64 / 0.74, played seed 3 1.36 ×3 -> 0.91 / 0.93 / 0.95, midgame-2p 1.63 ×3 -> 1.58 ×3,
late-2p 1.29 / 1.32 / 1.37 -> 1.23 / 1.37 / 1.27, played seed 0 the same, played seed 2
0.44 / 0.44 / 0.46 -> 1.31 / 1.25 / 1.23 (there (a) is the longer path either way;
#122). Level 2 for (b) was 4.58 on late-2p (#75)."""

HALVES_PROOF: dict[str, Any] = {**HALVES_SEARCH, "linearization_level": 2}
"""The second thread of a split closing (one worker): the level-2 ``default`` search of
:data:`LARGE_BOARD_SUBSOLVERS` on half (a), without a floor; where (a) holds the
optimum or (b)'s line is far below it, it proves (a) sooner than the first thread."""

DEEP_SEARCH: dict[str, Any] = {"use_sat_inprocessing": False}
"""Added to :func:`settings` for the restricted rounds of 3+-turn closings
(:mod:`solver.terra_nova.deep`): no SAT inprocessing. Their level-2 search goes back to
the root thousands of times (played 2's alone round: 2,242 of 12,622 branches) and ran
the inprocessing (vivification) each time, as best-turn's did (:data:`BEST_TURN_SEARCH`).
Alone rounds, 1 worker, det. s at ``random_seed`` 0 / 1 / 2: played 2 {903} 4.32 / 5.49 /
4.68 -> 2.27 / 1.51 / 1.60, late-2p {1724, 4998} 3.37 / 2.92 / 3.08 -> 1.50 / 2.95 /
0.77, played 0 {833} 4.22 / 4.06 / 4.08 -> 1.01 / 1.46 / 1.34, midgame-2p {258} 2.82 /
2.93 / 3.08 -> 0.30 / 0.40 / 0.39 (the depth suite's recipe at seeds 2 and 0; CPU
lower in 11 of 12). The caps' loose models (:mod:`solver.terra_nova.model.caps`) take it
too: played 2 {903} 2.99-3.18 -> 0.31-0.39, its far group of 15 4.10-5.31 -> 1.70-2.51,
played 0 {833} 3.32-3.83 -> 0.94-1.43, late-2p {1724, 4998} 2.51-2.54 -> 0.27-0.65,
midgame-2p {258} 2.77-2.92 -> 0.24-0.26 (seeds 0-2, same caps). The relaxation keeps its
inprocessing (no gain there). benchmarks/EXPERIMENTS.md, Terra Nova #191, #196."""

CAP_SEARCH: dict[str, Any] = {"linearization_level": 0}
"""Added to :data:`DEEP_SEARCH`'s settings for the caps' loose models
(:mod:`solver.terra_nova.model.caps`): no LP. Their objective counts only the capped
candidates, which the search settles without it; the level-2 LP made each node several
times dearer. 1 worker, seed 0, wall s (det. s), level 2 -> 0: played 2 {903} 2.5 (0.36)
-> 0.9 (0.15), its far group of 15 5.6 (1.70) -> 1.0 (0.47), played 0 {833} 7.3 (1.43) ->
0.9 (0.25), late-2p {1724, 4998} 2.1 (0.27) -> 0.7 (0.12), midgame-2p {258} 2.4 (0.26)
-> 0.9 (0.10); the same caps (benchmarks/EXPERIMENTS.md, Terra Nova #200)."""

RELAXATION_SETTINGS: dict[str, Any] = {"linearization_level": 2, "cp_model_presolve": False,
                                       "cp_model_probing_level": 0,
                                       "use_sat_inprocessing": False}
"""The relaxation (:mod:`solver.terra_nova.model.relaxation`) solves on one thread with
the level-2 LP and no presolve (presolve of the 4-turn relaxation alone took 45 s;
without it midgame-2p's 3-turn one is proven in 5.0 det. s instead of 13.1, and the
4-turn bound reaches 95 at 20 det. s instead of 173 at 40: benchmarks/EXPERIMENTS.md,
Terra Nova #67), and without SAT inprocessing (#210: with the clash rows' LP, #199, the
search's restarts ran it for nothing; 3-turn closings end to end, 60 s, 2 workers, seeds
0 / 1 / 2: played seed 0 26.4 / 29.1 / 28.7 -> 23.0 / 26.2 / 21.4 s, played seed 2 21.1 /
27.1 / 26.5 -> 17.8 / 22.4 / 22.5 s, midgame-2p 16.8 / 13.1 / 14.7 -> 13.0 / 11.7 / 10.2 s;
4 turns unchanged)."""

WITHIN_FLOOR_ROUNDS = 20
"""At most this many solves of half (a)'s relaxation find the candidates a line of (a)
worth (b)'s points can close (:func:`solver.terra_nova.halves.candidates_within_floor`;
each round adds at least one); past them the floored (a) keeps all its candidates. Full
boards: 1-8 rounds, 0.01-0.65 det. s in all (benchmarks/EXPERIMENTS.md, Terra Nova
#121); small dense test boards can need more than 20."""
