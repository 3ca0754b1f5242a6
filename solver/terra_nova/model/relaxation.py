"""An upper bound on a closing's own points that CP-SAT proves cheaply (3+ turns).

The full model (:mod:`~solver.terra_nova.model.turn_model`) has a closing literal and
scoring literals per candidate region and closing moment, and at 4 turns is too large
for CP-SAT to even presolve within two minutes. :class:`Relaxation` keeps every
candidate but drops time, moves and piece counts: a stone set placed over the horizon
and the candidate regions it walls.

Variables: ``stone[x]`` (a stone lies on ``x`` at the end, put there within the
horizon), ``pair[x, y]`` (the stones on ``x`` and ``y`` went down in one turn),
``closed[i]`` (candidate ``i`` closed within the horizon). Constraints: at most
``max_stones`` stones; a stone in one pair at most, pairs only of cells whose stones
can share a turn (:attr:`~solver.terra_nova.model.geometry.Geometry.stone_pairs`), and
``stones - pairs <= turns``; a closed candidate has a stone on each boundary cell; a
cell lies in one closed candidate at most; a stone walls at most ``MAX_NEW_REGIONS``
closed candidates; and per cell, for each set of pairwise *clashing* candidates it walls
(:func:`~solver.terra_nova.model.clashes.wall_cliques`), ``sum closed <= stone``.
Objective: ``sum weight[i] * closed[i]``, with :func:`weight` the most the player can
score from candidate ``i``.

The clash rows hold in every solution of the other rows (no solution closes two
clashing candidates), so they change the LP, not the optimum: a much tighter LP, and
proofs several times faster (benchmarks/EXPERIMENTS.md, Terra Nova, "A tighter
relaxation").

Why every legal line of ``turns`` turns gains at most the optimum of this model (so
CP-SAT's proven bound on it bounds the closing): map the line to ``stone[x]`` = "the
line puts a stone on ``x``", ``pair`` = the turns that put two, and ``closed[i]`` =
"candidate ``i`` closes during the line".

* A turn places at most two stones, two only in the shape move, stone, stone, both
  next to the one moved piece, so on cells whose stones can share a turn (the same
  relation that prunes the candidates); so the stones split into at most ``turns``
  groups, each one stone or one pair: ``stones - pairs <= turns``.
* Stones are never removed and need a free cell, so a cell takes one stone at most;
  the supply limits their number.
* A region that closes is a component of non-stone cells walled by stones, and stays
  one to the end: its boundary cells all hold stones then, and none of its cells
  can take a stone later (a piece next to one of them would stand inside, and the
  pieces inside were removed, nothing can enter). Regions closed at any two moments
  are components of the same board, so they are equal or disjoint: a cell lies in at
  most one closed candidate. The closed candidates a stone walls each hold one of its
  neighbours, and no two of those neighbours are adjacent (adjacent non-stone cells
  share a component): at most ``MAX_NEW_REGIONS`` of its six. Every region that
  closes is a candidate (:func:`~solver.terra_nova.model.geometry.candidate_regions`
  is complete, up to regions that score nothing for anyone and remove nothing).
* The player's points from candidate ``i`` are at most :func:`weight`.

So the line's points are the objective of a feasible assignment, at most the
optimum. A line of fewer turns maps the same way (each row only limits from above,
and the candidates, stone cells and weights of a horizon include those of a shorter
one), so the bound covers it too: the min-turns solve relies on that.

``require_one_of`` adds "one of these candidates closes" (with large
candidates not listed, below: "or ``over``", i.e. or the line places more than
``largest`` stones): then the bound covers only the lines that close one of them, or
place that many stones (the lazy scheme of :mod:`~solver.terra_nova.deep`, whose
restricted model then places at most ``largest``); the same map shows it.

**Large candidates not listed** (:attr:`~solver.terra_nova.model.geometry.Geometry.largest`
below ``max_stones``: at 4 turns the list can run to a hundred thousand regions and
more). Then only the candidates of at most ``largest`` boundary cells have a
``closed`` literal; the others, *large*, are counted together by ``large`` (0 to
``MAX_NEW_REGIONS * max_stones // (largest + 1)``, and with ``largest >= 2`` at most
``(2 * max_stones - 4) // (largest - 1)``), each worth
:attr:`~solver.terra_nova.model.geometry.Geometry.most_region_value`, with a literal
``over`` ("more than ``largest`` stones"): ``large >= 1`` implies ``over``, ``over``
implies ``stones >= largest + 1``, and the walls are counted over all closed regions,
per stone: ``sum |boundary| * closed + (largest + 1) * large <= MAX_NEW_REGIONS * stones``,
and by planarity: ``sum (|boundary| - 2) * closed + (largest - 1) * large <= 2 * stones -
4 * over`` (``- 0 * over`` when ``largest < 2``). The same map, with ``large`` = the
large candidates that close and ``over`` = "the line places more than ``largest``
stones", shows it: a large candidate's boundary holds more than ``largest`` stones of
the line, each stone walls at most ``MAX_NEW_REGIONS`` closed regions, and a large
candidate is worth at most ``most_region_value`` (the bound on every region's value).

*The planar count.* The cells of the board, joined when they share a side, form a
planar graph. Take any of the regions the line closes (here those with a literal and
the large ones; regions left out change nothing below), contract each (connected, and
disjoint from the others) to one vertex, and keep only the edges between a region and
the line's stones on its boundary (each region's boundary cells all hold stones of the
line, so it has ``|boundary|`` such edges): a minor of a planar graph, so planar, and
bipartite and simple, with ``R + N`` vertices (``R`` regions taken, ``N`` stones of the
line, stones next to none of them included) and ``E = sum |boundary|`` edges. Every face of a
simple bipartite planar graph has at least 4 sides, so Euler's formula gives
``E <= 2 (R + N) - 4`` when ``R + N >= 3``, i.e. ``sum (|boundary| - 2) <= 2 N - 4``;
when ``R + N <= 2`` the left side is at most 0 (no region, or one with a single wall),
so ``sum (|boundary| - 2) <= 2 N`` holds for every line. ``over`` with ``largest >= 2``
means ``N >= 3``, hence the ``- 4``; a large region has ``|boundary| - 2 >= largest -
1``. So is the count's range: each of ``large`` regions takes ``largest + 1`` of at most
``MAX_NEW_REGIONS * max_stones`` per-stone walls and ``largest - 1`` of at most
``2 * max_stones - 4`` planar ones. (At 4 turns, 8 stones and ``largest`` 6 this leaves
at most 2 large regions where the per-stone count left 3: three disjoint connected
regions have at most two common neighbours, since three would make ``K(3,3)``. Two
regions of 7+ walls within 8 stones share at least 6 of them, which a channel between
old stones allows, so 2 is not lowered this way.) Listed candidates keep the rows
above; the large ones take no part in the per-cell and per-stone rows.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable

from ortools.sat.python import cp_model

from solver.cpsat.constraints import Expr
from solver.terra_nova.model.clashes import wall_cliques
from solver.terra_nova.model.geometry import Candidate, Geometry
from solver.terra_nova.model.turn_model import MAX_NEW_REGIONS


def most_own_pieces(geo: Geometry, cand: Candidate) -> int:
    """Most own pieces ``cand`` can hold when it closes within the horizon.

    Only on cells an own piece can reach; and besides the own pieces inside at the
    start, only pieces that moved in: a line closing ``cand`` puts a stone on each of
    its ``|boundary|`` cells, so it makes at most ``steps - |boundary|`` moves, and a
    piece outside stands inside only after at least its
    :meth:`~solver.terra_nova.model.geometry.Geometry.entry_costs` moves of its own
    (distinct pieces, distinct moves): at most as many pieces as the cheapest entry
    costs fit in that budget. (Each move bringing one piece in gives the weaker
    :meth:`~solver.terra_nova.model.geometry.Geometry.most_own_closing`.)"""
    reachable = sum(1 for c in cand.cells if geo.own_possible(c, geo.steps))
    start = sum(1 for c in cand.cells if geo.own0[c])
    budget = geo.steps - len(cand.boundary)
    entering = 0
    for cost in geo.entry_costs(cand):
        if cost > budget:
            break
        budget -= cost
        entering += 1
    return min(reachable, start + entering)


def others_in(geo: Geometry, cand: Candidate) -> list[int]:
    """The other players' piece counts in ``cand`` (all but the player to move's)."""
    me = geo.position.players.index(geo.position.to_move)
    return [k for j, k in enumerate(cand.others) if j != me]


def weight(geo: Geometry, cand: Candidate) -> int:
    """Most points the player to move can score from ``cand`` closing: its value with a
    possible majority, the tie share when at best a tie, else 0."""
    others = others_in(geo, cand)
    top = max(others, default=0)
    most = most_own_pieces(geo, cand)
    if most > top:
        return cand.value
    if most == top and top > 0:
        tied = sum(1 for k in others if k == top)
        return cand.value // (tied + 1)
    return 0


_weights: weakref.WeakKeyDictionary[Geometry, tuple[int, ...]] = weakref.WeakKeyDictionary()


def weights(geo: Geometry) -> tuple[int, ...]:
    """:func:`weight` of each of ``geo``'s candidates, in their order: computed once per
    geometry (every relaxation, the clash sets and the restricted rounds' order ask)."""
    found = _weights.get(geo)
    if found is None:
        found = tuple(weight(geo, cand) for cand in geo.candidates)
        _weights[geo] = found
    return found


class Relaxation:
    """The relaxed closing of ``geo``'s horizon (see the module doc).

    ``candidates``: the indices into ``geo.candidates`` it scores (default all);
    ``require_one_of``: indices of which at least one must close (None: no such row; with
    large candidates not listed a given list, even empty, also admits ``over``).
    """

    def __init__(self, geo: Geometry, candidates: Iterable[int] | None = None,
                 require_one_of: Iterable[int] | None = None,
                 check: Callable[[], None] | None = None) -> None:
        self.geo = geo
        self.check = check or (lambda: None)
        self.model = cp_model.CpModel()
        chosen = range(len(geo.candidates)) if candidates is None else candidates
        required = None if require_one_of is None else set(require_one_of)
        self.weights: dict[int, int] = {}
        self.large: cp_model.IntVar | None = None
        """The count of closed candidates not listed (None when all are listed)."""
        scored = weights(geo)
        for i in sorted(set(chosen) | (required or set())):
            w = scored[i]
            if w > 0 or i in (required or ()):
                self.weights[i] = w
        self._build(None if required is None else sorted(required))

    def _build(self, required: list[int] | None) -> None:
        geo, m = self.geo, self.model
        self.stone = {x: m.new_bool_var(f"stone_{x}") for x in geo.stone_cells}
        pairs: list[cp_model.IntVar] = []
        paired: dict[int, list[cp_model.IntVar]] = {}
        for a, partners in sorted(geo.stone_pairs.items()):
            for b in sorted(partners):
                if b > a:
                    var = m.new_bool_var(f"pair_{a}_{b}")
                    m.add_implication(var, self.stone[a])
                    m.add_implication(var, self.stone[b])
                    pairs.append(var)
                    paired.setdefault(a, []).append(var)
                    paired.setdefault(b, []).append(var)
        for x in sorted(paired):
            m.add(sum(paired[x]) <= self.stone[x])
        m.add(sum(self.stone.values()) - sum(pairs) <= geo.turns)
        m.add(sum(self.stone.values()) <= geo.max_stones)
        self.closed: dict[int, cp_model.IntVar] = {}
        holders: dict[int, list[cp_model.IntVar]] = {}
        walls: dict[int, list[int]] = {}
        for i in self.weights:
            self.check()
            cand = geo.candidates[i]
            if any(b not in self.stone for b in cand.boundary):
                continue
            var = m.new_bool_var(f"closed_{i}")
            for b in cand.boundary:
                m.add_implication(var, self.stone[b])
                walls.setdefault(b, []).append(i)
            for c in cand.cells:
                holders.setdefault(c, []).append(var)
            self.closed[i] = var
        for c in sorted(holders):
            if len(holders[c]) > 1:
                m.add_at_most_one(holders[c])
        cliques = wall_cliques(geo, weights(geo).__getitem__, self.check)
        for b in sorted(walls):
            sets = [[i for i in clique if i in self.closed] for clique in cliques.get(b, ())]
            split = {i for clique in sets for i in clique}
            sets += [[i] for i in walls[b] if i not in split]  # not split: no score
            for clique in sets:
                if len(clique) > 1:
                    m.add(sum(self.closed[i] for i in clique) <= self.stone[b])
            if sum(1 for clique in sets if clique) > MAX_NEW_REGIONS:  # else implied
                m.add(sum(self.closed[i] for i in walls[b]) <= MAX_NEW_REGIONS * self.stone[b])
        needed = [self.closed[i] for i in required or () if i in self.closed]
        self.points: dict[int, Expr] = {
            i: w * self.closed[i] for i, w in self.weights.items() if i in self.closed and w}
        """Each scoring candidate's term of the objective: at least the player's points
        from it in the line a solution stands for (the module doc's map)."""
        self.objective = sum(self.points.values())
        if geo.largest < geo.max_stones:
            over = self._large()
            if required is not None:
                needed.append(over)
        self.impossible = required is not None and not needed
        """True when ``require_one_of`` was given and none of them can be walled."""
        if needed:
            m.add_bool_or(needed)
        m.maximize(self.objective)
        if required is None:
            # no stone, nothing closed: a solution from the start, so a solve stopped
            # by the time limit still reports its proven bound
            for index in range(len(m.proto.variables)):
                m.proto.solution_hint.vars.append(index)
                m.proto.solution_hint.values.append(0)

    def _large(self) -> cp_model.IntVar:
        """The count of closed candidates not listed, and their points (module doc):
        returns ``over``, the literal "more than ``largest`` stones"."""
        geo, m = self.geo, self.model
        need = geo.largest + 1
        most = MAX_NEW_REGIONS * geo.max_stones // need
        if need >= 3:  # the planar count below, with every stone placed
            most = min(most, (2 * geo.max_stones - 4) // (need - 2))
        self.large = large = m.new_int_var(0, most, "large")
        over = m.new_bool_var("over")
        stones = sum(self.stone.values())
        m.add(stones >= need).only_enforce_if(over)
        m.add(large == 0).only_enforce_if(~over)
        closed_walls = sum(len(geo.candidates[i].boundary) * self.closed[i]
                           for i in self.closed)
        m.add(closed_walls + need * large <= MAX_NEW_REGIONS * stones)
        self._planar(stones, over, large)
        self.objective += geo.most_region_value * large
        return over

    def _planar(self, stones: Expr, over: cp_model.IntVar, large: cp_model.IntVar) -> None:
        """The walls of all closed regions counted by planarity (module doc):
        ``sum (|boundary| - 2) * closed + (largest - 1) * large <= 2 * stones - 4 * over``
        (``over``: 3+ stones when ``largest >= 2``)."""
        need = self.geo.largest + 1
        planar = sum((len(self.geo.candidates[i].boundary) - 2) * self.closed[i]
                     for i in self.closed)
        slack = 4 if need >= 3 else 0
        self.model.add(planar + (need - 2) * large <= 2 * stones - slack * over)

    def add_cap(self, members: Iterable[int], cap: int) -> None:
        """At most ``cap`` points from the candidates ``members`` together, for a ``cap``
        that bounds the player's points from them over every line
        (:mod:`~solver.terra_nova.model.caps`).

        Their terms of the objective (:attr:`points`, which only bound a line's points
        from them) become integers ``p_i`` with ``0 <= p_i <= term_i`` and ``sum p_i <=
        cap``: the map of the module doc with ``p_i`` = the line's points from ``i`` is
        still a solution, worth the line's points or more, so the bound stands."""
        m = self.model
        capped = []
        for i in sorted(set(members)):
            term = self.points.get(i)
            if term is None:
                continue  # never scores here
            var = m.new_int_var(0, self.weights[i], f"points_{i}")
            m.add(var <= term)
            self.objective += var - term
            self.points[i] = var
            capped.append(var)
            if m.proto.solution_hint.vars:  # a relaxation without a requirement
                m.add_hint(var, 0)
        if capped:
            m.add(sum(capped) <= cap)
            m.maximize(self.objective)
