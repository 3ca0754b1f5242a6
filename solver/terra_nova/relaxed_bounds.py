"""Bounds on a closing's own points from the relaxation, tightened by caps.

:class:`RelaxedBounds` solves the :class:`~solver.terra_nova.model.relaxation.Relaxation`
of one geometry for the deep path (:mod:`solver.terra_nova.deep`): over every line, or
over the lines that close one of a set of candidates (the rest of a round). Its proven
bound bounds those lines' own points (the relaxation's module doc proves it; with the
pair cuts of :mod:`~solver.terra_nova.model.paircuts`, which prove it still does).

*Caps.* The relaxation counts a closed candidate at the most it could give alone, and its
optimum may close candidates no line scores together (or at all). The loose turn model over
the candidates an optimum closes (:mod:`~solver.terra_nova.model.caps`) bounds what any
line gains from them; a cap below what the relaxation counted becomes a row of every later
relaxation of the closing (:class:`CapBook`, :meth:`Relaxation.add_cap`). When the cap
takes much of the bound the optimum was far from any line, and the relaxation is solved
again at once; so it is when the cap is at most the line already found (those closings
alone cannot beat it). A cap of 0 comes from a stone no piece reaches in time: the
variants walled by that stone are capped with it (:func:`far_group`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.cpsat import Interrupted, SolveParams, solve
from solver.errors import NoAnswer
from solver.terra_nova.answers import Progress, note
from solver.terra_nova.model.caps import cap_model
from solver.terra_nova.model.geometry import Geometry
from solver.terra_nova.model.paircuts import PairCuts
from solver.terra_nova.model.relaxation import Relaxation, weights
from solver.terra_nova.model.turn_model import TurnModel
from solver.terra_nova.notation import Turn
from solver.terra_nova.settings import (
    CAP_LP_SEARCH,
    CAP_SEARCH,
    DEEP_SEARCH,
    RELAXATION_SETTINGS,
    add_strategy,
    settings,
)

EXIT_SECONDS = 1.5
"""Kept free after a solve under the deadline: freeing its model and printing the answer
take a moment on a busy machine."""

ROUND_SECONDS = 3.0
"""No new round, cap or solve again with less time than this left."""

UNPROVEN_PICK_PART = 0.5
"""An unproven relaxation gives its best solution's closings (where asked) only when that
solution reaches this part of its bound: one far below it gives the first round a poor
line."""

CAP_SHARE = 0.5
"""A cap's solve may use this part of the time left (the rounds after it need the rest)."""

CAP_WORKERS = 2
"""A cap solves on up to two threads (:data:`~solver.terra_nova.settings.CAP_LP_SEARCH`):
with and without the LP, the first proof ends both."""

CAP_RESOLVE_PART = 0.5
"""A cap that removes at least this part of the points the relaxation counted for its
candidates sends the relaxation to be solved again (its optimum was far from any line); a
smaller one is kept as a row for later relaxations, and a round settles those closings."""

FAR_GROUP_SLACK = 2
"""A far group (:func:`far_group`) keeps the candidates whose boundary holds all but at
most this many of the capped ones' boundary cells: their variants, not every region next
to the far cell."""


def seconds_left(params: SolveParams) -> float | None:
    """Seconds left before the command's deadline (None: no time limit)."""
    return params.deadline.remaining() if params.deadline is not None else None


def deep_search(tm: TurnModel) -> dict[str, Any]:
    """The CP-SAT settings of the deep path's turn models (the restricted rounds and the
    caps): the max-points search with :data:`~solver.terra_nova.settings.DEEP_SEARCH`, its
    decision strategy added to ``tm``."""
    chosen = {**settings("max-points", cells=tm.position.grid.size), **DEEP_SEARCH}
    add_strategy(tm, chosen)
    return chosen


@dataclass(frozen=True)
class Relaxed:
    """What relaxation solves prove about a class of lines (every line, or those closing
    one of some candidates)."""

    bound: int | None
    """A proven bound on the own points of every line of the class (None: none was
    reached in time, or the class has no line: :attr:`empty`)."""
    closings: list[int] = field(default_factory=list)
    """The candidates the last solve's optimum closes (what a round may keep), or an
    unproven solution's where asked; empty when nothing can be read off."""
    proven: bool = False
    """The last solve was proven optimal, its optimum closing only listed candidates."""
    empty: bool = False
    """No line of the class exists (no line closes one of the required candidates)."""

    def below(self, points: int) -> bool:
        """Whether no line of the class reaches ``points`` own points."""
        return self.empty or (self.bound is not None and self.bound < points)


@dataclass
class CapBook:
    """The caps found so far and the sets of candidates tried, shared by every relaxation
    of one closing."""

    rows: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    """(candidates, cap): at most cap own points from those candidates together."""
    tried: set[frozenset[int]] = field(default_factory=set)

    def add_to(self, relax: Relaxation) -> None:
        """Give ``relax`` every cap row (after any pair cuts)."""
        for members, cap in self.rows:
            relax.add_cap(members, cap)


class RelaxedBounds:
    """The relaxation solves and caps of one closing (module doc): ``cuts`` (pair cuts)
    and ``caps`` are added to every relaxation when given; without ``caps`` no cap is
    sought."""

    def __init__(self, geo: Geometry, params: SolveParams, cuts: PairCuts | None = None,
                 caps: CapBook | None = None, progress: Progress | None = None) -> None:
        self.geo = geo
        self.params = params
        self.cuts = cuts
        self.caps = caps
        self.progress = progress

    def relax(self, seconds: float | None, require_one_of: Sequence[int] | None = None, *,
              unproven: bool = False, hint: list[Turn] | None = None,
              floor: int | None = None, keep: float = 0.0) -> Relaxed:
        """The smallest bound the relaxation proves (each solve within ``seconds``) on
        the lines that close one of ``require_one_of`` (None: every line), and the
        closings of its last solve; Interrupted on Ctrl-C.

        The closings are the optimum's when proven and closing only listed candidates
        (the first round keeps them: when that optimum is a line it reaches the bound),
        an unproven best solution's when ``unproven`` and it reaches
        :data:`UNPROVEN_PICK_PART` of its bound, else none; with ``require_one_of`` also
        the required candidates whose boundary its stones cover (they may close in that
        line too; the relaxation leaves out the ones that score nothing unless required).

        With :attr:`caps`: a proven optimum whose closings were not tried yet gets a cap
        (:meth:`cap`, hinted with the legal line ``hint``), kept when below the optimum,
        and the relaxation is solved again when the cap removes at least
        :data:`CAP_RESOLVE_PART` of it or is at most ``floor`` (a line's points); not
        once the bound is at most ``floor`` (below it proves what is asked; at it the
        next lazy round settles the tie-breaks, which a cap would only delay), nor with
        less than ``keep`` seconds (or :data:`ROUND_SECONDS`) left. A solve again that
        the time forbids after a cap that took that part leaves no closings: they are no
        line, and a round over them would only cost time."""
        def out_of_time() -> bool:
            left = seconds_left(self.params)
            return left is not None and left < max(keep, ROUND_SECONDS)

        caps = self.caps
        best: int | None = None
        while True:
            found = self.solve_once(seconds, require_one_of, unproven)
            if found.empty:
                return found
            if found.bound is not None:
                best = found.bound if best is None else min(best, found.bound)
            closings = found.closings
            if (caps is None or not found.proven or not closings or found.bound is None
                    or found.bound <= 0 or (floor is not None and found.bound <= floor)
                    or frozenset(closings) in caps.tried or out_of_time()):
                return Relaxed(best, closings, found.proven)
            caps.tried.add(frozenset(closings))
            note(self.progress, f"relaxed bound {found.bound}: capping the {len(closings)} "
                                f"candidate regions it closes")
            cap = self.cap(closings, hint)
            if cap is None or cap >= found.bound:
                return Relaxed(best, closings, found.proven)
            caps.rows.append((tuple(closings), cap))
            group = far_group(self.geo, closings) if cap == 0 else []
            if len(group) > len(closings) and frozenset(group) not in caps.tried:
                caps.tried.add(frozenset(group))
                most = self.cap(group, hint)
                if most is not None:
                    caps.rows.append((tuple(group), most))
            if (found.bound - cap < CAP_RESOLVE_PART * found.bound
                    and (floor is None or cap > floor)):
                return Relaxed(best, closings, found.proven)
            if out_of_time():
                return Relaxed(best, [], found.proven)

    def solve_once(self, seconds: float | None, require_one_of: Sequence[int] | None,
                   unproven: bool = False) -> Relaxed:
        """One solve of :meth:`relax` (with the pair cuts and cap rows): its bound,
        closings and whether it was proven; Interrupted on Ctrl-C."""
        geo = self.geo
        try:
            relax = Relaxation(geo, require_one_of=require_one_of, check=self.params.check)
        except NoAnswer:
            return Relaxed(None)
        if relax.impossible:
            return Relaxed(None, empty=True)
        if self.cuts is not None:
            self.cuts.add_to(relax)
        if self.caps is not None:
            self.caps.add_to(relax)
        run = self.params.with_workers_at_most(1).with_settings(**RELAXATION_SETTINGS)
        if seconds is not None:
            run = run.with_time_limit(min(seconds, run.time_limit or seconds))
        solver, result = solve(relax.model, run)
        if result.interrupted:
            raise Interrupted()
        if result.status == "infeasible":
            return Relaxed(None, empty=True)
        # a proven optimum's closings, an unproven solution's only where asked, and none
        # of a solution that closes unlisted candidates (its listed closings are not what
        # a line closes), nor of a solve that found no solution
        alone = result.feasible and (relax.large is None or not solver.value(relax.large))
        readable = alone and (result.optimal or (
            unproven and result.feasible and result.objective is not None
            and result.bound is not None
            and result.objective >= UNPROVEN_PICK_PART * result.bound))
        closings = ([i for i, var in sorted(relax.closed.items()) if solver.value(var)]
                    if readable else [])
        if closings and require_one_of:
            stones = {x for x, var in relax.stone.items() if solver.value(var)}
            closings = sorted(set(closings) | {
                i for i in require_one_of
                if stones.issuperset(geo.candidates[i].boundary)})
        if result.bound is None:
            return Relaxed(None, closings)
        return Relaxed(math.floor(result.bound + 1e-6), closings, result.optimal and alone)

    def cap(self, members: Sequence[int], hint: list[Turn] | None) -> int | None:
        """CP-SAT's proven bound on the loose model over ``members``
        (:func:`~solver.terra_nova.model.caps.cap_model`): the rounds' search without the
        LP (:data:`~solver.terra_nova.settings.CAP_SEARCH`), and with two workers the same
        with the LP beside it (:data:`~solver.terra_nova.settings.CAP_LP_SEARCH`), within
        :data:`CAP_SHARE` of the time left, hinted with the legal line ``hint`` (None: no
        bound reached); Interrupted on Ctrl-C."""
        params = self.params
        try:
            tm = cap_model(self.geo, members, check=params.check)
        except NoAnswer:
            return None
        if hint:
            tm.hint_line(hint)
        run = params.with_workers_at_most(CAP_WORKERS)
        chosen = {**deep_search(tm), **CAP_SEARCH}
        if run.workers > 1:
            chosen.update(CAP_LP_SEARCH)
        run = run.with_settings(**chosen)
        left = seconds_left(params)
        if left is not None:
            run = run.with_time_limit(max(0.001, min(left - EXIT_SECONDS, CAP_SHARE * left)))
        solver, result = solve(tm.model, run)
        if result.interrupted:
            raise Interrupted()
        if result.bound is None:
            return None
        return math.floor(result.bound + 1e-6)


def far_group(geo: Geometry, members: Sequence[int]) -> list[int]:
    """``members`` and every candidate that can score whose boundary holds one of their
    farthest boundary cells and all but :data:`FAR_GROUP_SLACK` of their boundary cells,
    when that cell is 2 or more own moves away (fewest moves, at least one, that put a
    piece next to it: a start cell counts 2); else none. Where a cap of 0 comes from a
    stone no piece reaches in time, its variants walled by that stone may share the
    reason."""
    nbrs = geo.position.grid.neighbours

    def far(x: int) -> int:
        return min((geo.dist[c] if geo.dist[c] > 0 else 2 for c in nbrs[x]
                    if not geo.static_block[c]), default=0)

    scored = weights(geo)
    walls = {x: far(x) for i in members for x in geo.candidates[i].boundary}
    top = max(walls.values(), default=0)
    cells = {x for x, d in walls.items() if d == top}
    if top < 2:
        return []
    return sorted(set(members) | {
        i for i, cand in enumerate(geo.candidates)
        if cells & set(cand.boundary) and len(walls.keys() & set(cand.boundary))
        >= len(walls) - FAR_GROUP_SLACK
        and scored[i]})
