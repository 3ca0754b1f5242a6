"""Closings of 3+ turns on large boards: a restricted model's line and a relaxation's bound.

The full closing model is too large at these horizons for CP-SAT to search within a
few minutes (benchmarks/EXPERIMENTS.md, Terra Nova #43). Here the time left after
the candidate search goes to CP-SAT solves, each under the command's deadline:

1. :class:`~solver.terra_nova.model.relaxation.Relaxation` over every candidate:
   its proven bound bounds every line (the module's docstring proves it; at
   :data:`PAIR_CUT_TURNS` with the pair cuts of :mod:`~solver.terra_nova.model.paircuts`,
   which prove it still does);
2. :func:`~solver.terra_nova.model.restricted.restricted_model` over the candidates
   that (1)'s best solution closes (in the first round with only the few worth more
   alone, :data:`RICHER_ALONE`: small, quick to prove, and its line reaches (1)'s bound
   when that solution is a legal line), later with
   those of smallest boundaries, the others forbidden to close: its lines are legal lines
   with exact points (replayed by the engine as always), its bound covers the lines
   that close no excluded candidate;
3. when (2) is proven, the relaxation again, over the lines that close an excluded
   candidate: if that cannot reach the restricted optimum, the restricted optimum is
   the closing's (own points; others' points and actions follow, since every other
   line gains fewer own points).

4. when (2) is proven but (3) reaches its optimum, another round of (2) and (3),
   hinted with the best line so far: over the candidates kept so far and those that
   (3)'s optimum closes or walls (a *lazy* round: small, and it settles what (3)
   found, e.g. another region worth as much when the line already reaches the bound,
   so that the tie-breaks, others' points and actions, get proven too), or, when (3)
   is not proven, a lazy round is not, or the next usual round keeps every candidate
   anyway, with :data:`GROWTH` times the closing moments. Until the
   answer is proven, every candidate is kept (the whole model) or the time is nearly
   out. Without a time limit the rounds end in a proof: each one keeps more
   candidates.

The answer's bound is the smallest of (1) and each round's max((2)'s bound, (3)'s
bound).

*Caps* (:mod:`~solver.terra_nova.model.caps`, at :data:`CAP_TURNS`): when (1)'s or (3)'s
proven optimum closes a set of candidates not capped yet, the loose turn model over that
set alone bounds the points any line gains from it; a cap below what the relaxation
counted for the set becomes a row of every later relaxation
(:meth:`~solver.terra_nova.model.relaxation.Relaxation.add_cap`), and when it removes at
least :data:`CAP_RESOLVE_PART` of those points the relaxation is solved again (its
closings were far from any line), as it is when (3)'s cap is at most the round's line
(those closings alone cannot beat it, and solving (3) again costs less than a round over
them), else the rounds go on with the closings found. A cap
of 0 is followed by one over the variants walled by the same far stone
(:func:`_far_group`). The first relaxation's caps keep :data:`CAP_KEEP` of the time for
the rounds.

At 4+ turns the candidates can be too many to list in time (late-2p: 161,686). When
their search takes more than :data:`FULL_SEARCH_STEPS` steps a second of the time, only
those of at most :data:`LISTED_BOUNDARY` boundary cells are listed
(:attr:`Geometry.largest`); then (2) places at most that many stones, and (1) and (3)
count the others together (the relaxation's module doc proves both still bound what
they bound).
"""

from __future__ import annotations

import math
import time

from solver.cpsat import Interrupted, OutOfTime, SolveParams, solve
from solver.errors import EngineDisagreement, NoAnswer
from solver.terra_nova.answers import (
    Answer,
    Progress,
    candidates_in_time,
    model_answer,
    note,
    time_up,
)
from solver.terra_nova.model.caps import cap_model
from solver.terra_nova.model.geometry import Geometry, most_points_ever
from solver.terra_nova.model.paircuts import PairCuts, find_pair_cuts
from solver.terra_nova.model.relaxation import Relaxation, weights
from solver.terra_nova.model.restricted import choose, restricted_model
from solver.terra_nova.model.turn_model import TurnModel
from solver.terra_nova.position import Position
from solver.terra_nova.settings import (
    CAP_SEARCH,
    DEEP_SEARCH,
    LARGE_BOARD_CELLS,
    RELAXATION_SETTINGS,
    add_strategy,
    line_objective,
    settings,
)

DEEP_TURNS = 3
"""Max-points closings of at least this many turns on large boards
(:data:`~solver.terra_nova.settings.LARGE_BOARD_CELLS`) take this path."""

RELAXATION_SHARE = 0.2
"""Part of the time left after the candidate search the first relaxation may use at 4+
turns (its bound falls fastest in the first seconds: midgame-2p at 4 turns 395, 145,
103, 95 after 3.6, 4.8, 9.1, 11.5 s; the rest goes to the restricted model's line)."""

RELAXATION_SHARE_BY_TURNS = {3: 0.5}
"""The first relaxation's part of the time left at these horizons instead of
:data:`RELAXATION_SHARE`. At 3 turns it is proven in 1-8 det. s, and its optimum gives
the first round its closings (late-2p: 10-20 CPU s, more than a fifth of 60 s; its alone
round then proves 48 where the usual round finds 34-37; midgame-2p under load: 24 -> 44,
its optimum: benchmarks/EXPERIMENTS.md, Terra Nova #130, #132); positions whose
relaxation ends sooner are not affected."""

EXIT_SECONDS = 1.5
"""Left over after the restricted model's solve: freeing its models and printing took
up to 1.4 s past a 30 s limit at 3 turns (load 6)."""

RESTRICTED_MOMENTS = 300
"""Closing moments (:func:`~solver.terra_nova.model.restricted.closing_moments`) the
first restricted model keeps."""

ALONE_SHARE = 0.5
"""A lazy round (the first one, over the relaxation's closings alone, and the ones over
the closings (3) adds) may use this part of the time left (the rounds after it need
time to find lines where those closings are no legal line: late-2p at 3 turns,
benchmarks/EXPERIMENTS.md, Terra Nova #83)."""

RICHER_ALONE = 5
"""The first round also keeps up to this many candidates worth more alone than every
region the relaxation's optimum closes (:func:`_with_richer`): such a region may be a
line by itself that the optimum's combination, worth more but no line, hides. Late-2p
at 3 turns: the optimum closes 1724 and 4998 (30 and 48 alone; no line closes both) and
the round found 48; 4996, worth 51 alone, is the closing's optimum
(benchmarks/EXPERIMENTS.md, Terra Nova #213)."""

LAZY_MIN_PART = 0.5
"""A lazy round whose line falls below this part of the bound proven so far is followed
by the usual round, not another lazy one: the closings it kept are no legal line
together (played seed 2 at 3 turns: 0 points against 54, where the usual rounds find
10; benchmarks/EXPERIMENTS.md, Terra Nova #134, #150)."""

GROWTH = 2
"""When a restricted model is proven but not the closing, the next round keeps this
many times the closing moments (hinted with the best line so far)."""

LISTED_TURNS = 4
"""From this many turns on, a time-limited solve may list only part of the candidates
(:func:`_geometry`)."""

FULL_SEARCH_STEPS = 5000
"""Steps (calls of the search's check: search nodes and candidates found) per second of
the time left the search for every candidate may take before the path lists only those
of at most :data:`LISTED_BOUNDARY` boundary cells: a count, so the choice is the same at
any load. At 4 turns (benchmarks/EXPERIMENTS.md, Terra Nova #110, #140) the full search
takes played seed 1 156 k steps, midgame-2p 279 k (listed in full at 60 s: bound 174
against 227 with the partial list), played seed 2 632 k (partial at 120 s: 39 / 225
against no bound with the full list), played seed 0 1.13 M, late-2p 1.36 M; about 0.2
of the time in CPU seconds (18-39 k steps a second), the share used before."""

LISTED_BOUNDARY = 6
"""The most boundary cells of a listed candidate when not all are listed (the most
stones of 3 turns)."""

UNPROVEN_PICK_TURNS = (3,)
"""At these horizons the first round keeps the closings of the first relaxation's best
solution even when the time stopped it before its proof, if that solution reaches at
least :data:`UNPROVEN_PICK_PART` of the bound (at 4 turns such a solution's closings
took half the time for a worse line: played seed 1, 3 points instead of 37, Terra Nova
#83; at 3 turns late-2p's relaxation, stopped by the time, had found its optimum's 78
with the bound at 82: Terra Nova #132)."""

UNPROVEN_PICK_PART = 0.5
"""See :data:`UNPROVEN_PICK_TURNS`: a solution far below the bound (3 points of 102 on
late-2p after a fifth of the time) would give the first round a poor line."""

ROUND_SECONDS = 3.0
"""No new round with less time than this left before the deadline."""

PAIR_CUT_TURNS = (3,)
"""At these horizons every relaxation gets the pair cuts of
:mod:`~solver.terra_nova.model.paircuts` (two candidates whose stones and entering moves
do not fit in the horizon together). Late-2p at 3 turns: bound 78 -> 63 (det. 8.1 / 4.8 /
4.1 -> 8.0 / 6.3 / 9.1 at seeds 0 / 1 / 2; end to end, 60 s, 2 workers: 48 / 74-75 ->
48 / 62); midgame-2p and played seeds 1 and 2 get none, played seed 0 five that do not
change its bound (their relaxation's optimum closes one candidate), at 0.2-1.1 s of CPU
for the search (late-2p the most); at 4 turns the candidate lists are 5-30 times longer
(benchmarks/EXPERIMENTS.md, Terra Nova #170-#172)."""

CAP_TURNS = (3,)
"""At these horizons the relaxations' closings get caps (module doc)."""

CAP_SHARE = 0.5
"""A cap's solve may use this part of the time left (as a lazy round: :data:`ALONE_SHARE`)."""

CAP_WORKERS = 1
"""A cap solves on one thread (CP-SAT's ``default`` search, without the LP since Terra
Nova #200), like the relaxation: with the level-2 LP (#184) played seed 2's group of 15
candidates took 5.6 det. s on one and 9.9-10.1 summed on two (14 s wall at load 3), with
no sooner proof."""

CAP_KEEP = 0.6
"""The first relaxation's caps (and its solves again) stop once less than this part of
the time left at its start remains: the rounds need time for a line (played seeds 0 and
2 at 60 s and load 2-3 spent it all on caps and relaxations and answered 0 points; with
half kept played seed 2 was proven, played seed 0's round over closings not capped yet
found 3 points)."""

CAP_RESOLVE_PART = 0.5
"""A cap that removes at least this part of the points the relaxation counted for its
candidates sends the relaxation to be solved again; a smaller one is only kept as a row
for later relaxations (late-2p at 3 turns: 63 -> 48 on the first closings, whose round
finds 48, and each solve again fell by one point to closings of worse lines; played
seeds 0 and 2: 62 -> 31 and 56 -> 0, then 54 over the optimum's closings)."""


class Caps:
    """The caps found so far (:mod:`~solver.terra_nova.model.caps`) and the sets of
    candidates tried, shared by every relaxation of one closing."""

    def __init__(self) -> None:
        self.rows: list[tuple[tuple[int, ...], int]] = []
        self.tried: set[frozenset[int]] = set()

    def add_to(self, relax: Relaxation) -> None:
        """Give ``relax`` every cap row (after any pair cuts)."""
        for members, cap in self.rows:
            relax.add_cap(members, cap)


def applies(position: Position, kind: str, horizon: int) -> bool:
    """Whether a puzzle takes this path (max-points, 3+ turns, large board)."""
    return (kind == "max-points" and horizon >= DEEP_TURNS
            and position.grid.size >= LARGE_BOARD_CELLS)


def maximise(position: Position, horizon: int, params: SolveParams,
             progress: Progress | None, start: float) -> Answer:
    """The closing's answer (see the module doc); BuildTimeout when not even the
    candidate search ends within the time limit."""
    first, geo = _geometry(position, horizon, params, progress)
    left = _left(params)
    part = RELAXATION_SHARE_BY_TURNS.get(horizon, RELAXATION_SHARE)
    share = None if left is None else max(0.001, part * left)
    note(progress, f"bounding ({len(geo.candidates)} candidate regions)")
    cuts = find_pair_cuts(geo) if horizon in PAIR_CUT_TURNS else None
    caps = Caps() if horizon in CAP_TURNS else None
    whole, picked = _relaxed_bound(geo, params, share, cuts=cuts, caps=caps, hint=first,
                                   unproven=horizon in UNPROVEN_PICK_TURNS,
                                   keep=0.0 if left is None else CAP_KEEP * left,
                                   progress=progress)
    note(progress, f"relaxed bound {whole}")
    best: Answer | None = None
    moments, hint = RESTRICTED_MOMENTS, first
    # the first round: the relaxation's closings alone, and the richer single regions
    lazy, keep = bool(picked), _with_richer(geo, picked)
    while True:
        if not lazy:
            keep = choose(geo, moments, first=picked)
        try:
            params.check()  # Ctrl-C or the time limit: no new round
            step = _restricted(geo, keep, hint, params, progress, start,
                               whole if best is None else best.bound,
                               ALONE_SHARE if lazy else 1.0, cuts, caps)
        except KeyboardInterrupt:  # Ctrl-C (Interrupted), or a second one
            if best is None:
                raise
            break  # Ctrl-C in a later round: the best line so far is the answer
        except OutOfTime:
            break
        if step is None:
            if lazy:  # no line over these closings alone: the usual round
                lazy = False
                continue
            break
        answer, bound, proven, more = step
        bounds = [b for b in (whole, bound, None if best is None else best.bound)
                  if b is not None]
        if best is None or proven or _rank(answer) > _rank(best):
            best = answer
        best.bound = min(bounds) if bounds else None
        if best.bound is not None and best.bound < best.value:
            raise EngineDisagreement(f"the relaxed bound {best.bound} is below a line of "
                                     f"{best.value} points")
        best.optimal = proven
        if proven:
            best.bound = best.value
        left = _left(params)
        if (best.optimal or (answer.status != "optimal" and not lazy)
                or len(keep) == len(geo.candidates)
                or (left is not None and left < ROUND_SECONDS)):
            break
        if not lazy:
            moments *= GROWTH
        picked = sorted(set(picked) | set(keep)) if lazy else picked
        hint = best.line
        # lazy unless the usual round keeps every candidate: the whole model, proven
        # in one round (small boards: 26 positions, det. 7.5 s lazily against 4.1)
        far = lazy and best.bound is not None and answer.value < LAZY_MIN_PART * best.bound
        lazy = (bool(more) and not far
                and len(choose(geo, moments, first=picked)) < len(geo.candidates))
        if lazy:
            keep = sorted(set(keep) | set(more))
        note(progress, f"best {best.value} points, bound {best.bound}: "
                       f"more candidate regions")
    if best is None:
        return _first_only(position, first, start, whole)
    best.wall_s = time.perf_counter() - start
    if best.optimal:
        best.status = "optimal"
    elif best.status == "optimal":
        best.status = "restricted model optimal"
    return best


def _with_richer(geo: Geometry, picked: list[int]) -> list[int]:
    """``picked`` and up to :data:`RICHER_ALONE` candidates (the highest weights first)
    worth more alone than any of them."""
    if not picked:
        return picked
    scored = weights(geo)
    top = max(scored[i] for i in picked)
    richer = sorted((i for i, w in enumerate(scored) if w > top),
                    key=lambda i: (-scored[i], i))[:RICHER_ALONE]
    return sorted(set(picked) | set(richer))


class _SearchShare(Exception):
    """The full candidate search ran past its share of the time (:func:`_geometry`)."""


def _geometry(position: Position, horizon: int, params: SolveParams,
              progress: Progress | None):
    """The engine's first line and the geometry (:func:`candidates_in_time`): every
    candidate when their search ends within :data:`FULL_SEARCH_STEPS` a second of the
    time left (always without a time limit, or below :data:`LISTED_TURNS` turns), else
    only those of at most :data:`LISTED_BOUNDARY` boundary cells
    (:attr:`Geometry.largest`: the restricted models then place at most that many
    stones, and the relaxation counts the other candidates together)."""
    left = _left(params)
    if horizon < LISTED_TURNS or left is None:
        return candidates_in_time(position, horizon, params, progress)
    budget = FULL_SEARCH_STEPS * left
    steps = 0

    def check() -> None:
        nonlocal steps
        params.check()
        steps += 1
        if steps > budget:
            raise _SearchShare

    try:
        return candidates_in_time(position, horizon, params, progress, check=check)
    except _SearchShare:
        note(progress, f"too many candidate regions: listing those of at most "
                       f"{LISTED_BOUNDARY} boundary cells")
        return candidates_in_time(position, horizon, params, progress,
                                  largest=LISTED_BOUNDARY)


def _rank(answer: Answer) -> tuple[int, int, int]:
    """Larger is better: most own points, then fewest to others, then fewest actions."""
    return answer.value, -answer.others, -answer.actions


def _left(params: SolveParams) -> float | None:
    """Seconds left before the command's deadline (None: no time limit)."""
    return params.deadline.remaining() if params.deadline is not None else None


def _restricted(geo: Geometry, keep: list[int], hint, params: SolveParams,
                progress: Progress | None, start: float, known: int | None,
                share: float = 1.0, cuts: PairCuts | None = None,
                caps: Caps | None = None
                ) -> tuple[Answer, int | None, bool, list[int]] | None:
    """One round: the restricted model over ``keep`` (within ``share`` of the time
    left), hinted with ``hint`` (``known``:
    the bound proven so far, shown in progress reports), and (when it
    is proven) the relaxation over the lines that close an excluded candidate (with
    ``cuts``, :meth:`PairCuts.add_to`, and ``caps``: :func:`_relaxed_bound`). Returns
    its answer (``status`` "optimal" when the restricted model is proven), the bound
    this round proves on the closing's own points (None: none), whether the answer
    is the closing's optimum (the restricted model proven and no line that closes an
    excluded candidate reaching its points) and, when it is not but that relaxation
    was proven, the excluded candidates its optimum closes (else none); None when it
    found no line.

    Why "no line that closes an excluded candidate reaches its points" proves the
    whole objective, tie-breaks included: every line either closes no excluded
    candidate, and then is a line of the restricted model, whose proven optimum is at
    least as good in the rules' order (own points, then fewer to others, then fewer
    actions); or closes one, and then gains fewer own points than the answer."""
    position, horizon = geo.position, geo.turns
    try:
        tm = restricted_model(geo, keep, check=params.check)
        objective = line_objective(tm, horizon, actions=True)
        tm.model.maximize(objective.expr)
        tm.hint_line(hint)
    except NoAnswer:
        return None
    build = time.perf_counter() - start
    chosen = _search(tm)
    note(progress, f"solving ({len(keep)} of {len(geo.candidates)} candidate "
                   f"regions, the others kept open)")
    run = params.with_settings(**chosen)
    left = _left(params)
    if left is not None:
        run = run.with_time_limit(max(0.001, min(left - EXIT_SECONDS, share * left)))
    shown = "unknown" if known is None else known

    def report(obj: float, best: float, wall: float) -> None:
        # the time since the command began, as in every round (CP-SAT's ``wall`` is
        # this solve's alone)
        note(progress, f"best found: {objective.leading(obj)} points "
                       f"(bound {shown}) after {time.perf_counter() - start:.1f}s")

    solver, result = solve(tm.model, run, progress=report if progress else None)
    if not result.feasible:
        if result.interrupted:
            raise Interrupted()
        return None
    answer = model_answer(position, "max-points", tm, solver, result, start, build)
    answer.stats.update(candidates=len(geo.candidates), kept=len(keep))
    answer.optimal = False
    if not result.optimal or result.interrupted:
        answer.status = "feasible"
        return answer, None, False, []
    kept_bound = objective.leading(result.bound)
    if len(keep) == len(geo.candidates) and geo.largest == geo.max_stones:
        return answer, kept_bound, True, []  # nothing excluded: the whole model, proven
    kept = set(keep)
    excluded = [i for i in range(len(geo.candidates)) if i not in kept]
    left = _left(params)
    try:
        rest, closes = _relaxed_bound(geo, params,
                                      None if left is None else left - EXIT_SECONDS,
                                      require_one_of=excluded, cuts=cuts, caps=caps,
                                      hint=answer.line, floor=answer.value,
                                      progress=progress)
    except KeyboardInterrupt:
        return answer, None, False, []  # Ctrl-C: the line found is still the answer
    if rest is None:
        return answer, None, False, []
    # rest < value: every line that closes an excluded candidate gains fewer own points
    proven = rest < answer.value
    more = [] if proven else [i for i in closes if i not in kept]
    return answer, max(kept_bound, rest), proven, more


def _search(tm: TurnModel) -> dict:
    """The CP-SAT settings of the restricted rounds and the caps (the max-points search
    with :data:`~solver.terra_nova.settings.DEEP_SEARCH`), its strategy added to ``tm``."""
    chosen = {**settings("max-points", cells=tm.position.grid.size), **DEEP_SEARCH}
    add_strategy(tm, chosen)
    return chosen


def _relaxed_bound(geo: Geometry, params: SolveParams, seconds: float | None,
                   require_one_of: list[int] | None = None, unproven: bool = False,
                   cuts: PairCuts | None = None, caps: Caps | None = None,
                   hint=None, floor: int | None = None, keep: float = 0.0,
                   progress: Progress | None = None) -> tuple[int | None, list[int]]:
    """CP-SAT's proven bound on a :class:`Relaxation` of ``geo`` (with ``cuts`` added:
    :meth:`PairCuts.add_to`, and the rows of ``caps``) (None: not reached
    within the time; -1: no line closes one of ``require_one_of``, nor, with candidates
    not listed, places more stones than the restricted models do) and the candidates its
    optimum closes, none when it is not proven (``unproven``: then those of its best
    solution) or closes unlisted ones (the first
    restricted model keeps them: on midgame-2p and the played position at 3 turns their
    line reaches the bound, Terra Nova #82), with ``require_one_of`` also those of them
    whose boundary its stones cover (they may close in that line too; the relaxation
    leaves out the ones that score nothing for the player unless required);
    Interrupted on Ctrl-C.

    With ``caps``: a proven optimum whose closings were not tried yet gets a cap
    (:func:`_cap`, its solve hinted with the line ``hint``; module doc), kept when below
    the optimum, and the relaxation is solved again (each solve within ``seconds``)
    when the cap removes at least :data:`CAP_RESOLVE_PART` of it or, with a ``floor``, is
    at most the floor (late-2p at 3 turns: its rest relaxations' optima each close a set
    capped below the 51-point line, and a round over each took 10-14 s where solving
    again took 3-5 s: bound 62 -> 60 at 60 s, benchmarks/EXPERIMENTS.md, Terra Nova
    #214); not once the bound
    is at most ``floor`` (a line's points: below it proves what it is asked; at it the
    next lazy round settles the tie-breaks, and played seed 1's caps there only cost
    time: 2.8 det. s that found a line of 39 = its points), nor with less
    than ``keep`` seconds (or :data:`ROUND_SECONDS`) left. The bound is the smallest
    proven; the closings are the last solve's, none when its cap removed that part and
    there was no time to solve again (played seed 2: a round over a candidate capped at
    0 took 10 det. s for a 0-point line). ``progress`` hears of each cap (the first
    relaxation's caps and solves again took half of played seed 2's minute)."""
    def out_of_time() -> bool:
        left = _left(params)
        return left is not None and left < max(keep, ROUND_SECONDS)

    best = None
    while True:
        bound, picked, proven = _relax_once(geo, params, seconds, require_one_of,
                                            unproven, cuts, caps)
        if bound is not None:
            best = bound if best is None else min(best, bound)
        if (caps is None or not proven or not picked or bound <= 0
                or (floor is not None and bound <= floor)
                or frozenset(picked) in caps.tried or out_of_time()):
            return best, picked
        caps.tried.add(frozenset(picked))
        note(progress, f"relaxed bound {bound}: capping the {len(picked)} candidate "
                       f"regions it closes")
        cap = _cap(geo, picked, params, hint)
        if cap is None or cap >= bound:
            return best, picked
        caps.rows.append((tuple(picked), cap))
        group = _far_group(geo, picked) if cap == 0 else []
        if len(group) > len(picked) and frozenset(group) not in caps.tried:
            caps.tried.add(frozenset(group))
            most = _cap(geo, group, params, hint)
            if most is not None:
                caps.rows.append((tuple(group), most))
        if bound - cap < CAP_RESOLVE_PART * bound and (floor is None or cap > floor):
            return best, picked
        if out_of_time():
            return best, []  # far from any line, and no time to look again: no picks


def _relax_once(geo: Geometry, params: SolveParams, seconds: float | None,
                require_one_of: list[int] | None, unproven: bool,
                cuts: PairCuts | None, caps: Caps | None
                ) -> tuple[int | None, list[int], bool]:
    """One solve of :func:`_relaxed_bound`: its bound, closings and whether it was
    proven."""
    try:
        relax = Relaxation(geo, require_one_of=require_one_of, check=params.check)
    except NoAnswer:
        return None, [], False
    if relax.impossible:
        return -1, [], False
    if cuts is not None:
        cuts.add_to(relax)
    if caps is not None:
        caps.add_to(relax)
    run = params.with_workers_at_most(1).with_settings(**RELAXATION_SETTINGS)
    if seconds is not None:
        run = run.with_time_limit(min(seconds, run.time_limit or seconds))
    solver, result = solve(relax.model, run)
    if result.interrupted:
        raise Interrupted()
    if result.status == "infeasible":
        return -1, [], False
    # a proven optimum's closings, an unproven solution's only where asked
    # (UNPROVEN_PICK_TURNS: at 4 turns one took half the time for a worse line), and
    # none of a solution that closes unlisted candidates: its listed closings are not
    # what a line closes (nothing can be read off a solve that found no solution: one
    # the time limit stopped early, or never started for want of time)
    alone = result.feasible and (relax.large is None or not solver.value(relax.large))
    picked = ([i for i, var in sorted(relax.closed.items()) if solver.value(var)]
              if alone and (result.optimal or (unproven and result.feasible and
                                               result.objective >= UNPROVEN_PICK_PART
                                               * result.bound)) else [])
    if picked and require_one_of:
        stones = {x for x, var in relax.stone.items() if solver.value(var)}
        picked = sorted(set(picked) | {i for i in require_one_of
                                       if stones.issuperset(geo.candidates[i].boundary)})
    if result.bound is None:
        return None, picked, False
    return math.floor(result.bound + 1e-6), picked, result.optimal and alone


FAR_GROUP_SLACK = 2
"""A far group (:func:`_far_group`) keeps the candidates whose boundary holds all but at
most this many of the capped ones' boundary cells: their variants, not every region
next to the far cell (played seed 2: 270 of them)."""


def _far_group(geo: Geometry, picked: list[int]) -> list[int]:
    """``picked`` and every candidate that can score whose boundary holds one of
    their farthest boundary cells and all but :data:`FAR_GROUP_SLACK` of their boundary
    cells, when that cell is 2 or more own moves away (fewest moves, at least one, that
    put a piece next to it: a start cell counts 2): where a cap of 0 comes from a stone
    no piece reaches in time, its variants walled by that stone may share the reason
    (played seed 2 at 3 turns: 15 candidates walled by a5, 3 moves away, capped 0
    together at 5.6 det. s on one thread; benchmarks/EXPERIMENTS.md, Terra Nova #166)."""
    nbrs = geo.position.grid.neighbours

    def far(x: int) -> int:
        return min((geo.dist[c] if geo.dist[c] > 0 else 2 for c in nbrs[x]
                    if not geo.static_block[c]), default=0)

    scored = weights(geo)
    walls = {x: far(x) for i in picked for x in geo.candidates[i].boundary}
    top = max(walls.values(), default=0)
    cells = {x for x, d in walls.items() if d == top}
    if top < 2:
        return []
    return sorted(set(picked) | {
        i for i, cand in enumerate(geo.candidates)
        if cells & set(cand.boundary) and len(walls.keys() & set(cand.boundary))
        >= len(walls) - FAR_GROUP_SLACK
        and scored[i]})


def _cap(geo: Geometry, members: list[int], params: SolveParams, hint) -> int | None:
    """CP-SAT's proven bound on the loose model over ``members``
    (:func:`~solver.terra_nova.model.caps.cap_model`), on :data:`CAP_WORKERS` threads
    with the restricted rounds' search (:data:`~solver.terra_nova.settings.DEEP_SEARCH`)
    without the LP (:data:`~solver.terra_nova.settings.CAP_SEARCH`)
    within :data:`CAP_SHARE` of the time left, hinted with the legal line ``hint``
    (None: no bound reached); Interrupted on Ctrl-C."""
    try:
        tm = cap_model(geo, members, check=params.check)
    except NoAnswer:
        return None
    if hint:
        tm.hint_line(hint)
    run = params.with_workers_at_most(CAP_WORKERS).with_settings(**{**_search(tm), **CAP_SEARCH})
    left = _left(params)
    if left is not None:
        run = run.with_time_limit(max(0.001, min(left - EXIT_SECONDS, CAP_SHARE * left)))
    solver, result = solve(tm.model, run)
    if result.interrupted:
        raise Interrupted()
    if result.bound is None:
        return None
    return math.floor(result.bound + 1e-6)


def _first_only(position: Position, first, start: float, bound: int | None,
                build: float | None = None) -> Answer:
    """No CP-SAT line in time: the engine's first legal line, with the relaxed bound (or,
    without one, :func:`~solver.terra_nova.model.geometry.most_points_ever`)."""
    build = time.perf_counter() - start if build is None else build
    answer = time_up(position, "max-points", first, start, build)
    answer.bound = max(most_points_ever(position) if bound is None else bound, answer.value)
    return answer
