"""Closings of 3+ turns on large boards: rounds of restricted lines against relaxed bounds.

The full closing model is too large at these horizons for CP-SAT to search within
minutes. :class:`DeepSearch` spends the time left after the candidate search on CP-SAT
solves, each under the command's deadline:

1. the relaxation over every candidate (:class:`~solver.terra_nova.relaxed_bounds.
   RelaxedBounds`): its proven bound bounds every line;
2. a *round*: the restricted model
   (:func:`~solver.terra_nova.model.restricted.restricted_model`) over part of the
   candidates, the others forbidden to close. Its lines are legal lines with exact points
   (replayed by the engine as always); its bound covers the lines that close no excluded
   candidate. The first round keeps the closings of (1)'s best solution and the few
   candidates worth more alone (:func:`first_round`): small, quick to prove, and its line
   reaches (1)'s bound when that solution is a legal line;
3. when (2) is proven, the relaxation again over the lines that close an excluded
   candidate (the round's *rest*): if that cannot reach the round's line, the line is the
   closing's optimum (own points; others' points and actions follow, since every other
   line gains fewer own points);
4. else another round, hinted with the best line so far: a *lazy* one over the
   candidates kept so far and those (3)'s optimum closes or walls (small; it settles what
   (3) found, e.g. another region worth as much, so that the tie-breaks get proven too),
   or, when (3) is not proven, a lazy round fell far below the bound, or the next usual
   round keeps every candidate anyway, the usual round with :data:`GROWTH` times the
   closing moments. Without a time limit the rounds end in a proof: each keeps more.

The answer's bound is the smallest of (1) and each round's max((2)'s bound, (3)'s bound).
Caps tighten every relaxation at :data:`CAP_TURNS`, pair cuts at :data:`PAIR_CUT_TURNS`
(:mod:`~solver.terra_nova.relaxed_bounds`).

At 4+ turns the candidates can be too many to list in time. When their search takes more
than :data:`FULL_SEARCH_STEPS` steps a second of the time (or, on a busy machine, more than
:data:`FULL_SEARCH_WALL` of the time left), only those of at most :data:`LISTED_BOUNDARY`
boundary cells are listed (:attr:`Geometry.largest`); then the rounds place at most that
many stones, and the relaxations count the others together (the relaxation's module doc
proves both still bound what they bound). When not even that list is done before the
deadline, the answer is the engine's first line with the bound that needs no list
(:func:`~solver.terra_nova.model.geometry.most_points_ever`): a time-limited closing
always prints a line and a bound.

Why each number below is what it is: benchmarks/EXPERIMENTS.md, Terra Nova, "Closings
over three and more turns: the deep path".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from solver.cpsat import Interrupted, OutOfTime, SolveParams, solve
from solver.errors import EngineDisagreement, NoAnswer
from solver.terra_nova.answers import (
    Answer,
    ClosingPath,
    Progress,
    candidates_in_time,
    first_line,
    model_answer,
    note,
    time_up,
)
from solver.terra_nova.model.geometry import Geometry, most_points_ever
from solver.terra_nova.model.paircuts import find_pair_cuts
from solver.terra_nova.model.relaxation import weights
from solver.terra_nova.model.restricted import choose, restricted_model
from solver.terra_nova.notation import Turn
from solver.terra_nova.position import Position
from solver.terra_nova.relaxed_bounds import (
    EXIT_SECONDS,
    ROUND_SECONDS,
    CapBook,
    RelaxedBounds,
    deep_search,
    seconds_left,
)
from solver.terra_nova.settings import LARGE_BOARD_CELLS, line_objective

DEEP_TURNS = 3
"""Max-points closings of at least this many turns on large boards
(:data:`~solver.terra_nova.settings.LARGE_BOARD_CELLS`) take this path."""

RELAXATION_SHARE = 0.2
"""The first relaxation's part of the time left at 4+ turns: its bound falls fastest in
its first seconds, and the rounds need the rest for a line."""

RELAXATION_SHARE_BY_TURNS = {3: 0.5}
"""The first relaxation's part of the time left at these horizons instead: at 3 turns it
is usually proven, and its optimum gives the first round the closings of its line."""

RESTRICTED_MOMENTS = 300
"""Closing moments (:func:`~solver.terra_nova.model.restricted.closing_moments`) the first
usual round keeps: a model CP-SAT proves in seconds."""

GROWTH = 2
"""Each usual round keeps this many times the closing moments of the one before."""

ALONE_SHARE = 0.5
"""A lazy round may use this part of the time left: the rounds after it need time to find
lines where its closings are no line."""

RICHER_ALONE = 5
"""The first round also keeps up to this many candidates worth more alone than every
region the relaxation's optimum closes: such a region may be a line by itself, hidden by
the optimum's combination, worth more but no line."""

LAZY_MIN_PART = 0.5
"""A lazy round whose line falls below this part of the bound is followed by the usual
round: the closings it kept are no line together."""

LISTED_TURNS = 4
"""From this many turns on, a time-limited solve may list only part of the candidates."""

FULL_SEARCH_STEPS = 5000
"""Steps of the candidate search (search nodes and candidates found) per second of the
time left before only the candidates of at most :data:`LISTED_BOUNDARY` boundary cells are
listed: a count, so the choice is the same at any load."""

FULL_SEARCH_WALL = 0.2
"""The part of the time left (wall seconds) after which the full candidate search gives way
to the partial one even within its step budget: on a busy machine the steps come slowly,
and a budget counted in steps alone left no time for the partial list (no answer at all)."""

LISTED_BOUNDARY = 6
"""The most boundary cells of a listed candidate when not all are listed (the most stones
of 3 turns)."""

UNPROVEN_PICK_TURNS = (3,)
"""At these horizons the first round keeps the closings of the first relaxation's best
solution even when the time stopped it before its proof (at 4 turns such a round took
half the time for a worse line)."""

PAIR_CUT_TURNS = (3,)
"""At these horizons every relaxation gets the pair cuts (at 4 turns the candidate lists
are too long for their search)."""

CAP_TURNS = (3,)
"""At these horizons the relaxations' closings get caps."""

CAP_KEEP = 0.6
"""The first relaxation's caps (and solves again) stop once less than this part of the
time left at its start remains: the rounds need time for a line."""


def applies(position: Position, kind: str, horizon: int) -> bool:
    """Whether a puzzle takes this path (max-points, 3+ turns, large board)."""
    return (kind == "max-points" and horizon >= DEEP_TURNS
            and position.grid.size >= LARGE_BOARD_CELLS)


def maximise(position: Position, horizon: int, params: SolveParams,
             progress: Progress | None, start: float) -> Answer:
    """The closing's answer (:class:`DeepSearch`); BuildTimeout when not even the
    candidate search ends within the time limit (never from :data:`LISTED_TURNS` turns
    on: the engine's first line then, with the bound that needs no list)."""
    first, geo = candidates_listed(position, horizon, params, progress)
    if geo is None:
        return _first_only(position, first, start, None)
    return DeepSearch(position, horizon, params, progress, start, first, geo).run()


def first_round(geo: Geometry, closings: list[int]) -> list[int]:
    """The candidates the first round keeps: ``closings`` (the first relaxation's) and up
    to :data:`RICHER_ALONE` candidates worth more alone than any of them, the highest
    weights first; none without closings."""
    if not closings:
        return closings
    scored = weights(geo)
    top = max(scored[i] for i in closings)
    richer = sorted((i for i, w in enumerate(scored) if w > top),
                    key=lambda i: (-scored[i], i))[:RICHER_ALONE]
    return sorted(set(closings) | set(richer))


@dataclass
class RoundResult:
    """What one round found (:meth:`DeepSearch.play_round`)."""

    answer: Answer
    """Its best line; ``status`` "optimal" when the restricted model was proven."""
    bound: int | None
    """The bound it proves on the closing's own points (None: none)."""
    proven: bool
    """The answer is the closing's optimum (the rest cannot reach its points)."""
    more: list[int] = field(default_factory=list)
    """When the rest relaxation was proven but reaches the line: the excluded candidates
    its optimum closes (a lazy round's additions)."""


@dataclass
class Round:
    """The record of one round, in the order they ran (:attr:`DeepSearch.rounds`)."""

    kept: list[int]
    """The candidates it kept (indices into the geometry's list)."""
    lazy: bool
    share: float
    """Its part of the time left."""
    result: RoundResult | None
    """None: it found no line."""


class DeepSearch(ClosingPath):
    """One 3+-turn closing on a large board (module doc): build it, :meth:`run` it once.

    The search state, as the rounds go: :attr:`relaxed` (the first relaxation's bound),
    :attr:`closings` (what the next usual round keeps first), :attr:`best` (the best
    answer so far and its bound), :attr:`moments` (the usual round's size), :attr:`hint`
    (the line the next round starts from), :attr:`keep` and :attr:`lazy` (the next
    round), :attr:`rounds` (the ones played)."""

    def __init__(self, position: Position, horizon: int, params: SolveParams,
                 progress: Progress | None, start: float, first: list[Turn],
                 geo: Geometry) -> None:
        super().__init__(position, horizon, params, progress, start)
        self.first, self.geo = first, geo
        """The engine's first legal line, and the geometry with its candidates
        (:func:`candidates_listed`)."""
        self.bounds = RelaxedBounds(
            self.geo, params, cuts=find_pair_cuts(self.geo, check=params.check)
            if horizon in PAIR_CUT_TURNS else None,
            caps=CapBook() if horizon in CAP_TURNS else None, progress=progress)
        self.relaxed: int | None = None
        """The first relaxation's bound on every line (None: none proven in time)."""
        self.closings: list[int] = []
        """Kept first by the usual rounds: the first relaxation's closings, and after a
        lazy round the candidates it kept."""
        self.best: Answer | None = None
        """The best answer so far, its ``bound`` the smallest proven."""
        self.moments = RESTRICTED_MOMENTS
        """The closing moments the next usual round keeps."""
        self.hint: list[Turn] = self.first
        """The line the next round is hinted with."""
        self.keep: list[int] = []
        """The candidates the next round keeps."""
        self.lazy = False
        """Whether the next round is lazy (its :attr:`keep` set here, not by size)."""
        self.rounds: list[Round] = []
        """The rounds played so far."""
        self.ever = most_points_ever(position)
        """A bound on every line that needs no solve
        (:func:`~solver.terra_nova.model.geometry.most_points_ever`)."""

    def run(self) -> Answer:
        """The closing's answer: the best line of the rounds, with its bound."""
        self._relax_first()
        candidates = len(self.geo.candidates)
        self.lazy, self.keep = bool(self.closings), first_round(self.geo, self.closings)
        while True:
            if not self.lazy:
                self.keep = choose(self.geo, self.moments, first=self.closings)
            share = ALONE_SHARE if self.lazy else 1.0
            try:
                self.params.check()  # Ctrl-C or the time limit: no new round
                result = self.play_round(self.keep, share)
            except KeyboardInterrupt:  # Ctrl-C (Interrupted), or a second one
                if self.best is None:
                    raise
                break  # Ctrl-C in a later round: the best line so far is the answer
            except OutOfTime:
                break
            self.rounds.append(Round(list(self.keep), self.lazy, share, result))
            if result is None:
                if self.lazy:  # no line over these closings alone: the usual round
                    self.lazy = False
                    continue
                break
            best = self._take(result)
            left = seconds_left(self.params)
            if (best.optimal or (result.answer.status != "optimal" and not self.lazy)
                    or len(self.keep) == candidates
                    or (left is not None and left < ROUND_SECONDS)):
                break
            self._plan_next(result)
            note(self.progress, f"best {best.value} points, bound {best.bound}: "
                                f"more candidate regions")
        return self._answer()

    def _relax_first(self) -> None:
        """The first relaxation: :attr:`relaxed` and :attr:`closings`."""
        left = seconds_left(self.params)
        part = RELAXATION_SHARE_BY_TURNS.get(self.horizon, RELAXATION_SHARE)
        share = None if left is None else max(0.001, part * left)
        note(self.progress, f"bounding ({len(self.geo.candidates)} candidate regions)")
        found = self.bounds.relax(share, unproven=self.horizon in UNPROVEN_PICK_TURNS,
                                  hint=self.first,
                                  keep=0.0 if left is None else CAP_KEEP * left)
        self.relaxed, self.closings = found.bound, found.closings
        note(self.progress, f"relaxed bound {self.relaxed}")

    def _take(self, result: RoundResult) -> Answer:
        """:attr:`best` after a round: its answer when proven or better, the bound the
        smallest proven so far."""
        best = self.best
        # the most the areas of the player's pieces can score bounds every line too: below
        # the others when the relaxation had little time (its bound the LP's or none)
        bounds = [b for b in (self.relaxed, result.bound, None if best is None else best.bound,
                              self.ever) if b is not None]
        if best is None or result.proven or _rank(result.answer) > _rank(best):
            best = result.answer
        best.bound = min(bounds)
        if best.bound is not None and best.bound < best.value:
            raise EngineDisagreement(f"the relaxed bound {best.bound} is below a line of "
                                     f"{best.value} points")
        best.optimal = result.proven
        if result.proven:
            best.bound = best.value
        self.best = best
        return best

    def _plan_next(self, result: RoundResult) -> None:
        """The next round after an unproven one: lazy over what the rest's optimum closes
        when that is small and promising, else the usual round, larger."""
        best = self.best
        assert best is not None
        if not self.lazy:
            self.moments *= GROWTH
        if self.lazy:
            self.closings = sorted(set(self.closings) | set(self.keep))
        self.hint = best.line
        # lazy unless the usual round keeps every candidate: the whole model is then
        # proven in one round
        far = (self.lazy and best.bound is not None
               and result.answer.value < LAZY_MIN_PART * best.bound)
        self.lazy = (bool(result.more) and not far
                     and len(choose(self.geo, self.moments, first=self.closings))
                     < len(self.geo.candidates))
        if self.lazy:
            self.keep = sorted(set(self.keep) | set(result.more))

    def _answer(self) -> Answer:
        """The answer once the rounds are over: the best line, or the engine's first line
        with the relaxed bound when no round found one."""
        best = self.best
        if best is None:
            return _first_only(self.position, self.first, self.start, self.relaxed)
        best.wall_s = time.perf_counter() - self.start
        if best.optimal:
            best.status = "optimal"
        elif best.status == "optimal":
            best.status = "restricted model optimal"
        return best

    def play_round(self, keep: list[int], share: float = 1.0) -> RoundResult | None:
        """One round: the restricted model over ``keep`` (within ``share`` of the time
        left), hinted with :attr:`hint`, and when it is proven the relaxation over the
        lines that close an excluded candidate (the rest); None when it found no line.

        Why "no line that closes an excluded candidate reaches its points" proves the
        whole objective, tie-breaks included: every line either closes no excluded
        candidate, and then is a line of the restricted model, whose proven optimum is at
        least as good in the rules' order (own points, then fewer to others, then fewer
        actions); or closes one, and then gains fewer own points than the answer."""
        geo, params, horizon = self.geo, self.params, self.horizon
        try:
            tm = restricted_model(geo, keep, check=params.check)
            objective = line_objective(tm, horizon, actions=True)
            tm.model.maximize(objective.expr)
            tm.hint_line(self.hint)
        except NoAnswer:
            return None
        build = time.perf_counter() - self.start
        chosen = deep_search(tm)
        note(self.progress, f"solving ({len(keep)} of {len(geo.candidates)} candidate "
                            f"regions, the others kept open)")
        run = params.with_settings(**chosen)
        left = seconds_left(params)
        if left is not None:
            run = run.with_time_limit(max(0.001, min(left - EXIT_SECONDS, share * left)))
        known = self.relaxed if self.best is None else self.best.bound
        shown = "unknown" if known is None else known

        def report(obj: float, best: float, wall: float) -> None:
            # the time since the command began, as in every round (CP-SAT's ``wall`` is
            # this solve's alone)
            note(self.progress, f"best found: {objective.leading(obj)} points "
                                f"(bound {shown}) after {time.perf_counter() - self.start:.1f}s")

        solver, result = solve(tm.model, run, progress=report if self.progress else None)
        if not result.feasible:
            if result.interrupted:
                raise Interrupted()
            return None
        answer = model_answer(self.position, "max-points", tm, solver, result, self.start,
                              build)
        answer.stats.update(candidates=len(geo.candidates), kept=len(keep))
        answer.optimal = False
        if not result.optimal or result.interrupted:
            answer.status = "feasible"
            return RoundResult(answer, None, False)
        assert result.bound is not None, "an optimal solve of an objective has its bound"
        kept_bound = objective.leading(result.bound)
        if len(keep) == len(geo.candidates) and geo.largest == geo.max_stones:
            return RoundResult(answer, kept_bound, True)  # nothing excluded: the whole model
        kept = set(keep)
        excluded = [i for i in range(len(geo.candidates)) if i not in kept]
        left = seconds_left(params)
        try:
            rest = self.bounds.relax(None if left is None else left - EXIT_SECONDS,
                                     require_one_of=excluded, hint=answer.line,
                                     floor=answer.value)
        except Interrupted:
            return RoundResult(answer, None, False)  # Ctrl-C: the line is still the answer
        if rest.bound is None and not rest.empty:
            return RoundResult(answer, None, False)
        # every line that closes an excluded candidate gains fewer own points
        proven = rest.below(answer.value)
        bound = kept_bound if rest.empty or rest.bound is None else max(kept_bound, rest.bound)
        more = [] if proven else [i for i in rest.closings if i not in kept]
        return RoundResult(answer, bound, proven, more)


def _rank(answer: Answer) -> tuple[int, int, int]:
    """Larger is better: most own points, then fewest to others, then fewest actions."""
    return answer.value, -answer.others, -answer.actions


class _SearchShare(Exception):
    """A candidate search ran past its share of the time (:func:`candidates_listed`)."""


def _budget(params: SolveParams, steps: float | None, seconds: float) -> Callable[[], None]:
    """The candidate search's check (:meth:`SolveParams.check`, Ctrl-C and the deadline)
    that also raises :class:`_SearchShare` after ``steps`` calls (None: no count) or
    ``seconds`` of wall time."""
    calls = 0
    until = time.perf_counter() + seconds

    def check() -> None:
        nonlocal calls
        params.check()
        calls += 1
        if (steps is not None and calls > steps) or time.perf_counter() > until:
            raise _SearchShare

    return check


def candidates_listed(position: Position, horizon: int, params: SolveParams,
                      progress: Progress | None) -> tuple[list[Turn], Geometry | None]:
    """The engine's first line and the geometry (:func:`candidates_in_time`): every
    candidate when their search ends within :data:`FULL_SEARCH_STEPS` a second of the
    time left and :data:`FULL_SEARCH_WALL` of it (always without a time limit, or below
    :data:`LISTED_TURNS` turns), else only those of at most :data:`LISTED_BOUNDARY`
    boundary cells; no geometry (None) when even that search is not done
    :data:`~solver.terra_nova.relaxed_bounds.EXIT_SECONDS` before the deadline."""
    left = seconds_left(params)
    if horizon < LISTED_TURNS or left is None:
        return candidates_in_time(position, horizon, params, progress)
    full = _budget(params, FULL_SEARCH_STEPS * left, FULL_SEARCH_WALL * left)
    try:
        return candidates_in_time(position, horizon, params, progress, check=full)
    except _SearchShare:
        note(progress, f"too many candidate regions: listing those of at most "
                       f"{LISTED_BOUNDARY} boundary cells")
    left = seconds_left(params) or 0.0
    try:
        return candidates_in_time(position, horizon, params, progress,
                                  check=_budget(params, None, left - EXIT_SECONDS),
                                  largest=LISTED_BOUNDARY)
    except _SearchShare:
        note(progress, "no time left to list the candidate regions")
        return first_line(position, horizon, params), None


def _first_only(position: Position, first: list[Turn], start: float,
                bound: int | None) -> Answer:
    """No CP-SAT line in time: the engine's first legal line, with the relaxed bound or
    :func:`~solver.terra_nova.model.geometry.most_points_ever`, whichever is lower."""
    answer = time_up(position, "max-points", first, start, time.perf_counter() - start)
    ever = most_points_ever(position)
    answer.bound = max(ever if bound is None else min(bound, ever), answer.value)
    return answer
