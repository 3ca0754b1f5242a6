"""The N best answers of a model, and how many answers beat a value: CP-SAT proofs.

Both work as uniqueness does (:mod:`solver.cpsat.uniqueness`): an *answer* is the
values of a game's answer variables; two solutions that agree on them are one
answer. :func:`best_answers` solves, keeps the answer, forbids it (:func:`forbid`)
and solves again: each optimum is proven over every answer not yet listed, so the
k-th answer is proven k-th (ties keep the solver's order). :func:`count_answers`
counts the answers a model without objective allows (the caller adds "worth more than
v"), up to a limit, by CP-SAT's solution enumeration.

Ctrl-C and the command's time limit end the loop with what it has: the harness
stops the solve running then (keeping its best solution), and the loop stops after
it, saying why in :attr:`Ranking.stopped` / :attr:`Count.stopped`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ortools.sat.python import cp_model

from solver.cpsat.harness import SolveResult, enumerate_distinct, solve
from solver.cpsat.params import SolveParams
from solver.cpsat.uniqueness import forbid, forbid_values

T = TypeVar("T")

Reader = Callable[[cp_model.CpSolver, bool], T]
"""Reads the answer of the solution the solver holds, told whether it is proven in its
rank (and replays it through the engine, which must then agree exactly)."""


@dataclass
class Ranking(Generic[T]):
    """The answers found, best first, and whether each is proven in its rank."""

    answers: list[T] = field(default_factory=list)
    proven: list[bool] = field(default_factory=list)
    exhausted: bool = False
    """True when the model has no further answer (fewer exist than were asked for)."""
    stopped: str | None = None
    """``"interrupted"`` (Ctrl-C) or ``"time limit"`` when the loop ended early."""
    results: list[SolveResult] = field(default_factory=list)
    """Every solve, in order (their statistics)."""


def _why_stopped(result: SolveResult) -> str:
    return "interrupted" if result.interrupted else "time limit"


def best_answers(model: cp_model.CpModel, answer: Sequence[cp_model.IntVar | int],
                 params: SolveParams, count: int, read: Reader[T],
                 progress: Callable[[int], None] | None = None) -> Ranking[T]:
    """The ``count`` best answers of ``model`` (it holds the objective), each different
    on ``answer`` from those before it, best first.

    An answer found but not proven optimal among the rest (time limit, Ctrl-C) is kept,
    marked unproven, and ends the loop. ``progress(k)`` is called before the k-th solve.
    """
    ranking: Ranking[T] = Ranking()
    for rank in range(1, count + 1):
        if progress:
            progress(rank)
        solver, result = solve(model, params)
        ranking.results.append(result)
        if result.status == "infeasible":
            ranking.exhausted = True
            break
        if result.feasible:
            proven = result.optimal and not result.interrupted
            ranking.answers.append(read(solver, proven))
            ranking.proven.append(proven)
        if not result.optimal or result.interrupted:
            ranking.stopped = _why_stopped(result)
            break
        if rank < count:
            forbid(model, solver, answer)
    return ranking


COUNT_STALL = 100
"""A counting run stops after this many solutions in a row bring no new answer; the
answers found are then forbidden and the enumeration starts again. The models'
auxiliary variables (the order of a turn's actions, a piece's last move) give each
answer tens to hundreds of solutions, so one long enumeration spends most of its time
on answers it has, and one solve per answer restarts CP-SAT for each (measured in
benchmarks/EXPERIMENTS.md, Every game: counting answers)."""


@dataclass
class Count:
    """How many answers a model allows, counted up to a limit."""

    found: list[tuple[int, ...]] = field(default_factory=list)
    """The answers, as values of the answer variables."""
    complete: bool = False
    """True when CP-SAT proved there is no other answer: ``len(found)`` is the count."""
    beyond: bool = False
    """True when more than the limit exist (``found`` holds limit + 1 of them)."""
    stopped: str | None = None
    """``"interrupted"`` or ``"time limit"`` when counting ended before either."""


def count_answers(model: cp_model.CpModel, answer: Sequence[cp_model.IntVar],
                  params: SolveParams, limit: int,
                  progress: Callable[[int], None] | None = None) -> Count:
    """The answers ``model`` allows (it must have no objective), up to ``limit`` + 1.

    CP-SAT enumerates solutions, keeping their distinct values on ``answer``, until one
    run finishes (the count is proven: no other answer exists), more than ``limit``
    were found, or Ctrl-C or the time limit stop it; a run that stalls
    (:data:`COUNT_STALL`) forbids what it found and starts again. ``progress(found so
    far)`` after each run. The model gets the forbidding clauses.
    """
    if model.has_objective():
        raise ValueError("counting needs a model without objective")
    count = Count()
    known: set[tuple[int, ...]] = set()
    while True:
        run = enumerate_distinct(model, answer, params, known, want=limit + 1 - len(known),
                                 stall=COUNT_STALL)
        count.found += run.found
        known.update(run.found)
        if progress:
            progress(len(known))
        if len(known) > limit:
            count.beyond = True
            return count
        if run.complete:
            count.complete = True
            return count
        reason = params.stopped_by()
        if run.interrupted or reason is not None or not run.found:
            count.stopped = "interrupted" if run.interrupted else "time limit"
            return count
        for values in run.found:
            forbid_values(model, answer, values)
