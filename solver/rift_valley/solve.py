"""Solve a Rift Valley max-score puzzle with the CP-SAT model and check it with the engine.

The answer is replayed through the reference engine (draw by draw, in the
reported order) and re-scored there; any disagreement with the model raises
:class:`~solver.errors.EngineDisagreement`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.cpsat import Interrupted, SolveParams, solve
from solver.cpsat.harness import ProgressFn
from solver.errors import BuildTimeout, EngineDisagreement, NoAnswer, PuzzleError
from solver.rift_valley.engine.draws import IllegalDraw, play_draws, validate
from solver.rift_valley.engine.scoring import Score, score
from solver.rift_valley.model.max_score import MaxScoreModel, build_model
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
    built, a limit without any line found answers "no draws", not proven),
    Interrupted when Ctrl-C stops it before any draws were found, and
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
        built, settings, workers = max_score_model(position, rules, params.check)
    except NoAnswer:
        # the limit ran out while building: no search ran, so no answer (exit 2, as
        # Terra Nova), not "draw nothing" dressed up as one
        budget = "" if position.draws is None else f"{position.draws}-draw "
        raise BuildTimeout.of(f"{budget}max-score model", params.time_limit,
                              "give more --time-limit" + (" or fewer --draws"
                                                          if budget else "")) from None
    params = params.with_settings(**settings)
    if workers is not None:
        params = params.with_workers_at_most(workers)
    solver, result = solve(built.model, params, progress=progress)
    stats = dict(result.stats, trails=len(built.candidates.trails),
                 stop_cells=len(built.candidates.stop_cells),
                 tent_cells=len(built.candidates.tent_cells), status=result.status)
    if result.status == "model_invalid":
        raise RuntimeError(f"CP-SAT rejected the model or its parameters {built.model.validate()}")
    if result.status == "infeasible":
        raise PuzzleError("the max-score model has no solution (not even drawing nothing)")
    if result.interrupted and not result.feasible:
        raise Interrupted()  # Ctrl-C before any draws were found: no answer
    if result.feasible:
        assert result.objective is not None and result.bound is not None, "a solution's value"
        chosen = tuple(built.draws(solver))
        value = round(result.objective)
        bound = round(result.bound)
    else:
        chosen, value, bound = (), None, None
    value, after, breakdown = engine_score(position, chosen, value, result.optimal, rules)
    return Answer(value=value, draws=chosen, optimal=result.optimal, bound=bound,
                  wall_s=result.wall_s, before=position, after=after, breakdown=breakdown,
                  stats=stats)


def engine_score(position: Position, draws: tuple[Draw, ...], claim: int | None, optimal: bool,
                 rules: Rules) -> tuple[int, Position, Score]:
    """The engine's score of the model's ``draws``, the position after them and the
    score's breakdown. EngineDisagreement when the engine refuses the draws, or scores
    them otherwise than the model's ``claim`` (None: no claim): below it, or at all when
    ``optimal`` (a best-so-far answer may count less than its draws score, see
    :func:`solve_max_score`)."""
    after = replay(position, draws, rules)
    breakdown = score(after, position.player)
    if claim is not None and breakdown.total != claim and (optimal or breakdown.total < claim):
        raise EngineDisagreement(
            f"the model scores {_show(position, draws)} at {claim}, "
            f"the engine at {breakdown.total} ({breakdown})")
    return breakdown.total, after, breakdown


def max_score_model(position: Position, rules: Rules,
                    check: Callable[[], None]) -> tuple[MaxScoreModel, dict[str, Any], int | None]:
    """The model :func:`solve_max_score` solves (and ``boardsat export`` writes) for the
    position's budget, the CP-SAT parameters it is solved with and the most workers it
    gets (None: as many as asked): :data:`UNLIMITED_SETTINGS` on
    :data:`UNLIMITED_WORKERS` without a budget, else :data:`SETTINGS` with
    :data:`SEED_PORTFOLIO` and :func:`small_budget_settings`. NoAnswer when ``check``
    ends the build."""
    built = build_model(position, position.draws, rules.stops_block_all_colours, check)
    if position.draws is None:
        return built, dict(UNLIMITED_SETTINGS), UNLIMITED_WORKERS
    return built, {**SETTINGS, **SEED_PORTFOLIO, **small_budget_settings(position.draws)}, None


FULL_SUBSOLVERS = ("max_lp", "default_lp", "core", "quick_restart", "no_lp")
"""Full-problem CP-SAT subsolvers, in the order worker slots are given to them."""

SETTINGS = {"linearization_level": 2, "subsolvers": FULL_SUBSOLVERS,
            "probing_deterministic_time_limit": 0.1}
"""CP-SAT parameters of every max-score solve: the tree search uses the full LP relaxation.

Most of this model is clauses (a trail needs its stops, a tent its connected
stops); the LP only sees them at linearization level 2, and with them its bound
is several times tighter. With one worker the main search takes the level from
the base parameters; with more, the portfolio's full-problem slots are filled
from ``max_lp`` first.

Presolve probing is cut to 0.1 deterministic seconds (CP-SAT's default: 1): with
a small budget every probed trail fixes almost the whole model, and probing
spent its time writing binary clauses the search never needed. Measured in
benchmarks/EXPERIMENTS.md, Rift Valley, "Solver parameters".
"""


SEED_PORTFOLIO = {"subsolvers": ("max_lp", "max_lp"), "num_full_subsolvers": 2}
"""With a budget and 2 or more workers, two full-LP searches that differ only in their seed.

CP-SAT gives each full-problem worker its own seed. The proof's length varies
with the seed by 2× and more, while with two workers CP-SAT's default kept one
``max_lp`` search and gave the second worker to neighbourhood searches, which
never shorten the proof. Two ``max_lp`` searches prove when the luckier seed
does, and share bounds, solutions and learned clauses. One worker is unchanged.
Measured in benchmarks/EXPERIMENTS.md, Rift Valley, "Two workers with a budget".
"""


SMALL_BUDGET_DRAWS = 5
"""The largest budget solved without SAT inprocessing (:func:`small_budget_settings`)."""


def small_budget_settings(draws: int) -> dict[str, bool]:
    """CP-SAT parameters added to :data:`SETTINGS` for a budget of ``draws``: no SAT
    inprocessing up to :data:`SMALL_BUDGET_DRAWS` draws, nothing beyond.

    Inprocessing (vivification above all) re-derives clauses that small budgets
    do not need; from 6 draws on the larger trees use them and it pays again.
    Measured in benchmarks/EXPERIMENTS.md, Rift Valley, "Solver parameters".
    """
    return {"use_sat_inprocessing": False} if draws <= SMALL_BUDGET_DRAWS else {}


UNLIMITED_SETTINGS = {**SETTINGS, "cp_model_probing_level": 0, "add_zero_half_cuts": False,
                      "add_cg_cuts": False, "add_mir_cuts": False,
                      "find_big_linear_overlap": False, "use_sat_inprocessing": False}
"""With an unlimited budget, presolve probing, the big-overlap presolve step, three
families of LP cuts and SAT inprocessing cost more than the search they save.

Without a budget the LP is nearly tight and the proof takes a few hundred
branches, so what is left is CP-SAT's fixed work: probing, the big-overlap step
(at-most-ones and linear constraints sharing many literals), the separation of
zero-half, Chvátal–Gomory and MIR cuts and inprocessing all cost more than they
prune. With a budget probing pays, and the clique cuts stay in both (without them
the trees grow). Measured in benchmarks/EXPERIMENTS.md, Rift Valley, "Solver
parameters without a budget".
"""


UNLIMITED_WORKERS = 1
"""With an unlimited budget one CP-SAT worker, whatever ``--workers`` asks.

The proof is the ``max_lp`` worker's (the first full-problem subsolver): with
2 workers it takes the same branches as alone, and the second worker's
neighbourhood searches only add CPU, which on a busy machine the proof then
waits for. Measured in benchmarks/EXPERIMENTS.md, Rift Valley, "Solver
parameters without a budget".
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
