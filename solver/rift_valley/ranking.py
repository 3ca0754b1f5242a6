"""Rift Valley's N best answers (``solve --top N``) and how good given draws are (``rate``).

An *answer* is the set of new elements (stops, trails, tents) in which every element
counts, as the model draws them: each new stop has a trail ending at it (but for one
animal-free first stop where the first-stop rule needs it) and each new tent a
connected stop beside it; two orders of one set are one answer. Answers are ranked
by score, then by fewer draws. Both questions are CP-SAT proofs on the max-score
model with every candidate trail (:func:`~solver.rift_valley.model.max_score.build_model`
``every_trail``): :func:`top_answers` forbids each set found and solves again;
:func:`rate_draws` counts the sets that score more than the given draws. Every answer
is replayed and explained by the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cpsat import SolveParams
from solver.cpsat.objectives import Goal, lexicographic
from solver.cpsat.ranking import Ranking, best_answers, count_answers
from solver.errors import BuildTimeout, EngineDisagreement, InputError, NoAnswer
from solver.protocol import RATE_LIMIT, Rating
from solver.rift_valley.engine.draws import validate
from solver.rift_valley.explain import Explanation, explain_draws
from solver.rift_valley.model.max_score import MaxScoreModel, build_model
from solver.rift_valley.notation import Draw, format_draw, parse_draw
from solver.rift_valley.position import Position
from solver.rift_valley.rules import DEFAULT_RULES, Rules
from solver.rift_valley.solve import SETTINGS, solve_max_score

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Ranked:
    """One answer of a ranking, replayed and explained by the engine."""

    rank: int
    proven: bool
    draws: tuple[Draw, ...]
    value: int
    explanation: Explanation

    @property
    def key(self) -> tuple[int, int]:
        """Score, then fewer draws (larger is better)."""
        return (self.value, -len(self.draws))


def _model(position: Position, rules: Rules, params: SolveParams) -> MaxScoreModel:
    try:
        return build_model(position, position.draws, rules.stops_block_all_colours,
                           params.check, every_trail=True)
    except NoAnswer:
        raise BuildTimeout.of("max-score model", params.time_limit,
                              "give more --time-limit") from None


def _elements(built: MaxScoreModel) -> list[cp_model.IntVar]:
    return list(built.stop.values()) + list(built.trail) + list(built.tent.values())


def _explained(position: Position, built: MaxScoreModel, solver: cp_model.CpSolver,
               rules: Rules, proven: bool) -> tuple[tuple[Draw, ...], Explanation]:
    """The model's draws, replayed and explained by the engine; EngineDisagreement when
    the engine refuses them, scores them below the model, or (``proven``) otherwise."""
    draws = tuple(built.draws(solver))
    try:
        explanation = explain_draws(position, draws, rules)
    except InputError as exc:
        texts = [format_draw(d, position.grid) for d in draws]
        raise EngineDisagreement(f"the engine refuses the model's draws {texts}: "
                                 f"{exc}") from None
    claim = round(solver.value(built.objective))
    if explanation.after < claim or (proven and explanation.after != claim):
        raise EngineDisagreement(f"the model scores its draws {claim}, the engine "
                                 f"{explanation.after}")
    return draws, explanation


def top_answers(position: Position, count: int, params: SolveParams | None = None,
                rules: Rules = DEFAULT_RULES, progress: Progress | None = None
                ) -> Ranking[Ranked]:
    """The ``count`` best answers (element sets) of the max-score puzzle, best first."""
    params = (params or SolveParams()).started()
    validate(position, rules)
    if progress:
        progress("building the model")
    built = _model(position, rules, params)
    elements = _elements(built)
    objective = lexicographic([Goal(built.objective, "max"),
                               Goal(sum(elements), "min", len(elements))])
    built.model.maximize(objective.expr)

    def read(solver: cp_model.CpSolver, proven: bool) -> Ranked:
        draws, explanation = _explained(position, built, solver, rules, proven)
        return Ranked(0, False, draws, explanation.after, explanation)

    def solving(rank: int) -> None:
        if progress:
            progress(f"solving for answer {rank} of {count}")

    ranking = best_answers(built.model, elements, params.with_settings(**SETTINGS), count,
                           read, solving)
    ranking.answers = [Ranked(k, proven, a.draws, a.value, a.explanation)
                       for k, (a, proven) in enumerate(zip(ranking.answers, ranking.proven,
                                                           strict=True), start=1)]
    return ranking


def rate_draws(position: Position, texts: Sequence[str], params: SolveParams | None = None,
               rules: Rules = DEFAULT_RULES, progress: Progress | None = None) -> Rating:
    """How good the draws ``texts`` are: their score (engine), how many answers score
    more (CP-SAT, up to :data:`~solver.protocol.RATE_LIMIT` + 1), the best answer."""
    params = (params or SolveParams()).started()
    validate(position, rules)
    draws = []
    for number, text in enumerate(texts, start=1):
        try:
            draws.append(parse_draw(text, position.grid))
        except InputError as exc:
            raise InputError(exc.message, place=f"draw {number} '{text}'") from None
    if position.draws is not None and len(draws) > position.draws:
        raise InputError(f"{len(draws)} draws; the budget is {position.draws}")
    played = explain_draws(position, draws, rules).played()
    value = played.value[0]
    if progress:
        progress("solving for the best answer")
    best = solve_max_score(position, None, params, rules=rules)
    better, exact, beyond, stopped = 0, True, False, None
    if best.value > value or not best.optimal:
        built = _model(position, rules, params)
        built.model.clear_objective()
        built.model.add(built.objective >= value + 1)

        def counted(found: int) -> None:
            if progress:
                progress(f"counting the answers that score more: {found:,} so far")

        count = count_answers(built.model, _elements(built), params, RATE_LIMIT, counted)
        better, beyond, stopped, exact = (len(count.found), count.beyond, count.stopped,
                                          count.complete)
    return Rating(value, better, exact, beyond, best.value, tuple(best.draw_strings()),
                  best.optimal, played.explain, played.reasons, stopped, ", ")
