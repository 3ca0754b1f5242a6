"""Solve a Rift Valley max-score puzzle with the CP-SAT model and check it with the engine.

The answer is replayed through the reference engine (draw by draw, in the
reported order) and re-scored there; any disagreement with the model raises
:class:`~solver.errors.EngineDisagreement`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.cpsat import SolveParams, solve
from solver.cpsat.harness import ProgressFn
from solver.errors import BuildTimeout, EngineDisagreement, NoAnswer, PuzzleError
from solver.rift_valley.engine.draws import IllegalDraw, play_draws, validate
from solver.rift_valley.engine.scoring import Score, score
from solver.rift_valley.model.max_score import build_model
from solver.rift_valley.notation import Draw, format_draw
from solver.rift_valley.position import Position
from solver.rift_valley.rules import DEFAULT_RULES, Rules


@dataclass(frozen=True)
class Answer:
    """A solved max-score puzzle.

    ``value`` is the player's score on the board after ``draws`` (in a legal
    drawing order); ``optimal`` is True only when CP-SAT proved it; ``bound``
    is the proven upper bound. ``before``/``after`` are the positions around the
    draws (``before`` carries the budget used) and ``breakdown`` the engine's
    score of ``after``.
    """

    value: int
    draws: tuple[Draw, ...]
    optimal: bool
    bound: int | None
    wall_s: float
    before: Position
    after: Position
    breakdown: Score
    stats: dict[str, Any] = field(default_factory=dict)

    def draw_strings(self) -> list[str]:
        """The draws in notation."""
        return [format_draw(d, self.before.grid) for d in self.draws]


def solve_max_score(position: Position, draws: int | None = None,
                    params: SolveParams | None = None, rules: Rules = DEFAULT_RULES,
                    progress: ProgressFn | None = None) -> Answer:
    """The highest score ``position.player`` can reach on this board, with the draws to get it.

    ``draws`` overrides the position's budget; None keeps it (for an unlimited
    budget on a position that has one, pass ``position.replace(draws=None)``).
    Raises InputError for an illegal position, PuzzleError if the model finds
    no legal set of draws (never expected: drawing nothing is always legal),
    BuildTimeout when the time limit ends while the model is built (once it is
    built, a limit without any line found answers "no draws", not proven) and
    EngineDisagreement if the engine rejects or re-scores the answer.

    The model's score variables (connected stops, animals beside trails, tent
    and stop pairs) are only bounded from above by what makes them true, so
    they are exact at a proven optimum but a time-limited answer may count
    less than its draws are worth. Such an answer carries the engine's score;
    an engine score below the model's, or any difference at a proven
    optimum, is a disagreement.
    """
    params = (params or SolveParams()).started()
    if draws is not None:
        position = position.replace(draws=draws)
    validate(position, rules)
    try:
        built = build_model(position, position.draws, rules.stops_block_all_colours,
                            params.check)
    except NoAnswer:
        # the limit ran out while building: no search ran, so no answer (exit 2, as
        # Terra Nova), not "draw nothing" dressed up as one
        budget = "" if position.draws is None else f"{position.draws}-draw "
        raise BuildTimeout.of(f"{budget}max-score model", params.time_limit,
                              "give more --time-limit" + (" or fewer --draws"
                                                          if budget else "")) from None
    if position.draws is None:
        params = params.with_settings(**UNLIMITED_SETTINGS).with_workers_at_most(
            UNLIMITED_WORKERS)
    else:
        params = params.with_settings(**{**SETTINGS, **SEED_PORTFOLIO,
                                         **small_budget_settings(position.draws)})
    solver, result = solve(built.model, params, progress=progress)
    stats = dict(result.stats, trails=len(built.candidates.trails),
                 stop_cells=len(built.candidates.stop_cells),
                 tent_cells=len(built.candidates.tent_cells), status=result.status)
    if result.status == "model_invalid":
        raise RuntimeError(f"CP-SAT rejected the model or its parameters {built.model.validate()}")
    if result.status == "infeasible":
        raise PuzzleError("the max-score model has no solution (not even drawing nothing)")
    if result.feasible:
        chosen = tuple(built.draws(solver))
        value = round(result.objective)
        bound = round(result.bound)
    else:
        chosen, value, bound = (), None, None
    after = replay(position, chosen, rules)
    breakdown = score(after, position.player)
    if value is None or (not result.optimal and breakdown.total > value):
        # A best-so-far answer may count less than its draws score (see below).
        value = breakdown.total
    elif breakdown.total != value:
        raise EngineDisagreement(
            f"the model scores {_show(position, chosen)} at {value}, "
            f"the engine at {breakdown.total} ({breakdown})")
    return Answer(value=value, draws=chosen, optimal=result.optimal, bound=bound,
                  wall_s=result.wall_s, before=position, after=after, breakdown=breakdown,
                  stats=stats)


FULL_SUBSOLVERS = ("max_lp", "default_lp", "core", "quick_restart", "no_lp")
"""Full-problem CP-SAT subsolvers, in the order worker slots are given to them."""

SETTINGS = {"linearization_level": 2, "subsolvers": FULL_SUBSOLVERS,
            "probing_deterministic_time_limit": 0.1}
"""CP-SAT parameters of every max-score solve: the tree search uses the full LP relaxation.

Most of this model is clauses (a trail needs its stops, a tent its connected
stops); the LP only sees them at linearization level 2, and with them its bound
is several times tighter (measured: 5–20× fewer branches on the random
cross-check boards). With one worker the main search takes the level from the
base parameters; with more, the portfolio's full-problem slots are filled from
``max_lp`` first.

Presolve probing is cut to 0.1 deterministic seconds (CP-SAT's default: 1).
With a small budget every probed trail fixes almost the whole model, and
probing spent up to 1.5 deterministic seconds writing a million binary
clauses. Measured (1 worker, eight large empty boards): 3 draws 1.2–9.3 →
1.3–6.0 deterministic seconds (faster on 7 of 8), 5 and 8 draws unchanged.
See benchmarks/EXPERIMENTS.md.
"""


SEED_PORTFOLIO = {"subsolvers": ("max_lp", "max_lp"), "num_full_subsolvers": 2}
"""With a budget and 2 or more workers, two full-LP searches that differ only in their seed.

CP-SAT gives each full-problem worker its own seed. The proof's length
varies with the seed by 2× and more (the same model, one worker, 8 draws:
proven in 5–18 deterministic seconds or not in 20), while with two workers
CP-SAT's default kept one ``max_lp`` search and gave the second worker to
neighbourhood searches, which never shorten the proof. Two ``max_lp``
searches prove when the luckier seed does, and share bounds, solutions and
learned clauses. Measured (``--workers 2``, the eight large boards of the
``budgets`` suite at 8 draws, alternating with the default, 240 s limit, load
15.5–20): proven on 7 boards instead of 4, median 138 s instead of over 211 s
(CPU of both threads 27 instead of over 36 s); slower on the two boards where
the default's seed was lucky. See benchmarks/EXPERIMENTS.md, Rift Valley #46.
One worker is unchanged (the same branches).
"""


SMALL_BUDGET_DRAWS = 5
"""The largest budget solved without SAT inprocessing (:func:`small_budget_settings`)."""


def small_budget_settings(draws: int) -> dict[str, bool]:
    """CP-SAT parameters added to :data:`SETTINGS` for a budget of ``draws``: no SAT
    inprocessing up to :data:`SMALL_BUDGET_DRAWS` draws, nothing beyond.

    Inprocessing (vivification above all: 116 587 of the 165 782 branches of
    crater at 8 draws) re-derives clauses that small budgets do not need.
    Measured (1 worker, det. cap 20, the eight large boards of the ``budgets``
    suite, deterministic time): 5 draws (seeds 0–2) median 1.84 → 1.50, sum
    70.2 → 49.9, board medians lower on 6 of 8; 4 draws (seeds 0–2) median
    2.58 → 2.08, sum 66.7 → 52.8, board medians lower on 6 of 8; 3 draws (seed
    0) the same branches on 7 boards, the eighth 6.13 → 5.04. From 6 draws on
    it no longer pays: 6 draws median 7.9 → 6.6 but the sum 212 → 213 and one
    proof fewer (21 → 20 of 24); 7 draws median 6.3 → 7.4, sum 193 → 212,
    board medians higher on 5 of 8; 8 draws (seeds 0–4) board medians higher
    on 5 of 8. See benchmarks/EXPERIMENTS.md, Rift Valley #52 and #57.
    """
    return {"use_sat_inprocessing": False} if draws <= SMALL_BUDGET_DRAWS else {}


UNLIMITED_SETTINGS = {**SETTINGS, "cp_model_probing_level": 0, "add_zero_half_cuts": False,
                      "add_cg_cuts": False, "add_mir_cuts": False,
                      "find_big_linear_overlap": False, "use_sat_inprocessing": False}
"""With an unlimited budget, presolve probing, the big-overlap presolve step, three
families of LP cuts and SAT inprocessing cost more than the search they save.

Probing: measured (2 workers, the five asymmetric boards, alternating):
deterministic time 0.49–1.07 → 0.10–0.73, wall (loaded machine) better on 4
of 5 boards; with a budget of 8 draws probing pays (crater, 1 worker: det 9.5
→ 11.7 without it).

Zero-half, Chvátal–Gomory and MIR cuts: CPU seconds (1 worker, ten boards,
twice each, alternating) 4.04 → 2.81 in all, lower or within 0.02 s on every
board (savanna 0.53 → 0.22, the 10×12 generated board 0.94 → 0.55). The
deterministic time moves less and either way (delta 0.30 → 0.43 while its CPU
fell 0.82 → 0.72): it seems not to count the cut separation. The clique cuts
stay: without them the trees grew (crater 474 → 3606 branches, riverbend 346
→ 7104).

The big-overlap step (at-most-ones and linear constraints sharing many
literals) changes nothing here: the same branches on ten boards, CPU 2.84 →
2.71 s in all, lower or equal on each.

SAT inprocessing (vivification above all: 10 974 of delta's 16 152 branches):
deterministic time (1 worker, the eight large boards, seeds 0–2) lower or equal
on every board and seed, delta 0.42 / 0.32 / 0.35 → 0.36 / 0.28 / 0.23. See
benchmarks/EXPERIMENTS.md (Rift Valley #70).
"""


UNLIMITED_WORKERS = 1
"""With an unlimited budget one CP-SAT worker, whatever ``--workers`` asks.

The proof is the ``max_lp`` worker's (the first full-problem subsolver): with
2 workers it takes the same branches as alone, and the second worker's
neighbourhood searches only add CPU, which on a busy machine the proof then
waits for. Measured (the eight large boards of the ``budgets`` suite, empty,
alternating): CPU 0.40–1.63 → 0.24–0.93 s, wall at load 11–14 1.3–7.9 →
0.8–5.8 s, the same branch counts. See benchmarks/EXPERIMENTS.md.
"""


def replay(position: Position, draws: tuple[Draw, ...], rules: Rules) -> Position:
    """``position`` after the player's ``draws``, via the engine; EngineDisagreement if illegal."""
    try:
        return play_draws(position, draws, rules)
    except IllegalDraw as exc:
        raise EngineDisagreement(
            f"the model's answer {_show(position, draws)} is illegal for the engine: {exc}"
        ) from None


def _show(position: Position, draws: tuple[Draw, ...]) -> str:
    return "[" + ", ".join(format_draw(d, position.grid) for d in draws) + "]"
