"""A closing's lines split in two by their final stones, one model per half.

Let ``k`` be the most stones the horizon can place (``Geometry.max_stones``). A *full
boundary* is the boundary of a candidate region with exactly ``k`` cells: walling it
takes every stone of the horizon. Every line ends with a stone set that either

* (a) covers no full boundary (:func:`no_full_boundary`): then no candidate with a
  full boundary closes, so the model is the turn model over the other candidates,
  with one clause per full boundary ("not all of it stoned"); or
* (b) is exactly one full boundary ``B`` (:func:`one_full_boundary`): ``k`` stones,
  all on ``B``. Only candidates whose boundary lies within ``B`` can close; the model
  keeps those, chooses ``B`` (one literal per full boundary, exactly one true) and
  forbids stones elsewhere; with ``k`` the horizon's stone steps, every turn is move,
  stone, stone.

The two classes hold every line, so the better of the two optima is the closing's.
Class (b) is narrowed further: it keeps only the full boundaries around a candidate
the player can score in (:func:`can_score`) and asks for at least one own point. The
lines left out score nothing for the player, so the better optimum is the closing's
whenever it is worth at least one point (a caller solves the whole model otherwise).
On full boards the full boundaries are most of the 2-turn candidates, and (b) is small
(benchmarks/EXPERIMENTS.md, Terra Nova, "Two halves: lines split by their final
stones").

Half (a) also has a relaxation (:func:`no_full_boundary_relaxation`): the closing's
:class:`~solver.terra_nova.model.relaxation.Relaxation` over (a)'s candidates, whose
stones cover no full boundary. When it has no solution worth a floor (the own points of
(b)'s line), no line of (a) reaches the floor, and (a) needs no search; otherwise the
candidates its solutions worth the floor close bound which candidates a line of (a)
worth the floor can close, and (a) is solved over those (``only``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ortools.sat.python import cp_model

from solver.terra_nova.model.geometry import ACTIONS_PER_TURN, Candidate, Geometry
from solver.terra_nova.model.relaxation import Relaxation
from solver.terra_nova.model.restricted import model_over, restricted_model
from solver.terra_nova.model.turn_model import TurnModel


def full_boundaries(geo: Geometry) -> list[tuple[int, ...]]:
    """The distinct boundaries of ``geo.max_stones`` cells (sorted cell tuples), sorted."""
    k = geo.max_stones
    return sorted({tuple(sorted(c.boundary)) for c in geo.candidates
                   if k and len(c.boundary) == k})


def can_score(geo: Geometry, cand: Candidate) -> bool:
    """Whether the player to move may gain points when ``cand`` closes: at some stone
    step it can close at, the own pieces it can hold (cells an own piece can reach,
    and ``Geometry.most_own_closing``) reach the others' largest count (a tie scores
    a share) and at least one."""
    me = geo.position.players.index(geo.position.to_move)
    top = max((n for j, n in enumerate(cand.others) if j != me), default=0)
    for s in range(cand.first_step, geo.steps):
        if not geo.is_stone_step(s):
            continue
        room = sum(1 for c in cand.cells if geo.own_possible(c, s))
        if min(room, geo.most_own_closing(cand, s)) >= max(top, 1):
            return True
    return False


def no_full_boundary_candidates(geo: Geometry) -> list[int]:
    """The candidates that can close in a line of half (a): those whose boundary is not
    a full one (indices into ``geo.candidates``)."""
    full = set(full_boundaries(geo))
    return [i for i, c in enumerate(geo.candidates) if tuple(sorted(c.boundary)) not in full]


def no_full_boundary(geo: Geometry, check: Callable[[], None] | None = None,
                     only: Iterable[int] | None = None) -> TurnModel:
    """Half (a): the lines whose final stones cover no full boundary (module doc). With
    ``only`` (indices into ``geo.candidates``), the lines of (a) in which no other
    candidate closes: the others are forbidden to close
    (:func:`~solver.terra_nova.model.restricted.restricted_model`), and the model is
    exact on the lines it keeps."""
    full = set(full_boundaries(geo))
    tm = (model_over(geo, no_full_boundary_candidates(geo), check) if only is None
          else restricted_model(geo, sorted(set(only)), check))
    end = tm.stone[tm.steps]
    for boundary in sorted(full):
        stones = [end.get(b, False) for b in boundary]
        if all(lit is not False for lit in stones):
            tm.model.add_bool_or([~lit for lit in stones])
    return tm


def no_full_boundary_relaxation(geo: Geometry, floor: int,
                                check: Callable[[], None] | None = None) -> Relaxation:
    """The relaxation of half (a) with own points at least ``floor``: infeasible only when
    no line of (a) scores ``floor`` or more for the player.

    It is :class:`~solver.terra_nova.model.relaxation.Relaxation` over the candidates of
    (a) (:func:`no_full_boundary_candidates`), with one clause per full boundary ("not
    all of it stoned") on its ``stone`` literals and its objective at least ``floor``.
    Why: map a line of (a) to the relaxation as its module doc does (``stone[x]`` = the
    line puts a stone on ``x``, ``closed[i]`` = candidate ``i`` closes). That map gives a
    feasible assignment of the plain relaxation whose objective is at least the line's own
    points. The line's stones cover no full boundary, so every clause holds. A candidate
    with a full boundary never closes in the line (its whole boundary would be stones),
    so leaving those candidates out loses none of the line's closings. So a line of (a)
    with ``floor`` or more own points is a solution of this model."""
    relax = Relaxation(geo, candidates=no_full_boundary_candidates(geo), check=check)
    for boundary in full_boundaries(geo):
        if all(b in relax.stone for b in boundary):
            relax.model.add_bool_or([~relax.stone[b] for b in boundary])
    relax.model.add(relax.objective >= floor)
    return relax


def one_full_boundary(geo: Geometry, check: Callable[[], None] | None = None) -> TurnModel:
    """Half (b): the lines whose final stones are exactly one full boundary around a
    candidate the player can score in, with at least one own point (module doc).
    Infeasible when there is no such boundary."""
    scoring = [set(c.boundary) for c in geo.candidates if can_score(geo, c)]
    walls = [frozenset(b) for b in full_boundaries(geo)
             if any(s <= set(b) for s in scoring)]
    keep = [i for i, c in enumerate(geo.candidates)
            if any(set(c.boundary) <= wall for wall in walls)]
    tm = restricted_model(geo, keep, check)
    m = tm.model
    end = tm.stone[tm.steps]
    chosen: list[cp_model.IntVar] = []
    for wall in walls:
        stones = [end.get(b, False) for b in sorted(wall)]
        if any(lit is False for lit in stones):
            continue
        this = m.new_bool_var(f"wall_{len(chosen)}")
        for lit in stones:
            m.add_implication(this, lit)
        chosen.append(this)
    if not chosen:
        m.add_bool_or([])
        return tm
    m.add_exactly_one(chosen)
    inside = frozenset().union(*walls)
    for x, lit in end.items():
        if x not in inside and lit is not False:
            m.add(lit == 0)
    if geo.max_stones == sum(1 for s in range(tm.steps) if geo.is_stone_step(s)):
        for s in range(tm.steps):
            lit = tm.is_move[s] if s % ACTIONS_PER_TURN == 0 else tm.is_stone[s]
            if lit is False:
                m.add_bool_or([])
            elif lit is not True:
                m.add(lit == 1)
    m.add(tm.own_points() >= 1)
    return tm
