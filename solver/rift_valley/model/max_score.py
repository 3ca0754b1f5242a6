"""CP-SAT model of the Rift Valley max-score puzzle: which stops, trails and tents to draw.

The rules are written here again as constraints, independently of the
reference engine (which only checks the answer afterwards); only the rule
numbers of :mod:`solver.rift_valley.rules` are shared:

* ``stop[c]`` for every cell a new own stop may take, ``trail[k]`` for every
  candidate trail shape (:mod:`solver.rift_valley.model.candidates`; with an
  unlimited budget only those no split improves, ``unsplit_trails``),
  ``tent[c]`` for every cell a new tent may take;
* one element per cell: on each cell at most one of a new stop, a new tent and
  the trails passing through it (a trail's end stops are not "passed");
* a trail needs both end stops; two own stops are never orthogonal neighbours;
* the tent limit counts every colour's tents; the budget counts new elements;
* the first-stop rule: if anything is drawn, some new stop is away from animals
  (it is drawn first);
* redundant: the tent–stop pairs never exceed what the connected stops and
  own tents the budget pays for can form (:mod:`solver.rift_valley.model.pairs`);
* the score as variables: ``conn[s]`` (a trail ends at stop ``s``), ``adj[a]``
  (a trail cell is next to animal ``a``), ``near[t, s]`` (tent ``t`` has
  connected stop ``s`` beside it). Being a maximisation, these auxiliaries are
  only bounded from above by what makes them true; at the optimum they are
  exact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from solver.cpsat.constraints import Expr, not_adjacent
from solver.rift_valley.model.candidates import (
    Candidates,
    area_score,
    candidates,
    unsplit_trails,
)
from solver.rift_valley.model.pairs import most_pairs
from solver.rift_valley.notation import Draw, DrawStop, DrawTent, DrawTrail
from solver.rift_valley.position import Position
from solver.rift_valley.rules import (
    ANIMAL_POINTS,
    MAX_TENTS_PER_BOARD,
    TENT_POINTS_PER_STOP,
    UNCONNECTED_STOP_PENALTY,
)


@dataclass
class MaxScoreModel:
    """The built model and the variables needed to read an answer back."""

    model: cp_model.CpModel
    candidates: Candidates
    stop: dict[int, cp_model.IntVar]
    trail: list[cp_model.IntVar]
    tent: dict[int, cp_model.IntVar]
    safe_stops: tuple[int, ...]
    first_stop_rule: bool
    objective: Expr

    def draws(self, solver: cp_model.CpSolver) -> list[Draw]:
        """The chosen elements in a legal drawing order.

        Stops first (under the first-stop rule a stop away from animals leads),
        then trails (their end stops are all drawn by then), then tents.
        """
        stops = [c for c, var in self.stop.items() if solver.boolean_value(var)]
        if self.first_stop_rule and stops:
            safe = [c for c in stops if c in self.safe_stops]
            stops.remove(safe[0])
            stops.insert(0, safe[0])
        trails = [cand.trail for cand, var in zip(self.candidates.trails, self.trail, strict=True)
                  if solver.boolean_value(var)]
        tents = [c for c, var in self.tent.items() if solver.boolean_value(var)]
        return ([DrawStop(c) for c in stops] + [DrawTrail(t) for t in trails]
                + [DrawTent(c) for c in tents])


def animal_free_cells(position: Position) -> frozenset[int]:
    """Cells with no animal among their 8 neighbours (where a first stop may go)."""
    board, grid = position.board, position.grid
    animals = set(board.animal_cells)
    return frozenset(c for c in range(grid.size)
                     if not any(nb in animals for nb in grid.touching[c]))


def _never() -> None:
    """The default ``check``: no deadline."""


def build_model(position: Position, draws: int | None, stops_block_all_colours: bool = False,
                check: Callable[[], None] = _never, every_trail: bool = False
                ) -> MaxScoreModel:
    """The max-score model for ``position.player`` with ``draws`` new elements (None: any).

    ``check`` is called in the long loops: a command's deadline
    (:meth:`solver.cpsat.SolveParams.check`) raises there, so ``--time-limit``
    covers building the model too. ``every_trail``: keep the trails a split improves
    even with an unlimited budget (they are never optimal, but may be the second best
    answer, or one worth more than a given one).
    """
    grid = position.grid
    cand = candidates(position, stops_block_all_colours, check)
    if draws is None and not every_trail:
        cand = replace(cand, trails=unsplit_trails(position, cand))
    model = cp_model.CpModel()
    true = model.new_constant(1)

    stop = {c: model.new_bool_var(f"stop_{grid.name(c)}") for c in cand.stop_cells}
    tent = {c: model.new_bool_var(f"tent_{grid.name(c)}") for c in cand.tent_cells}
    trail = [model.new_bool_var(f"trail_{k}") for k in range(len(cand.trails))]
    endpoints = cand.endpoints
    stop_lit = {s: stop.get(s, true) for s in endpoints}

    ending: dict[int, list[cp_model.IntVar]] = {s: [] for s in endpoints}
    passing: dict[int, list[cp_model.IntVar]] = {}
    for cand_trail, var in zip(cand.trails, trail, strict=True):
        check()
        for s in cand_trail.ends:
            ending[s].append(var)
            model.add_implication(var, stop_lit[s])
        for c in cand_trail.interior:
            passing.setdefault(c, []).append(var)

    check()
    _one_element_per_cell(model, grid.size, stop, tent, passing)
    _one_trail_per_side(model, grid, cand, trail, stop_lit)
    check()
    # two new own stops are never orthogonal neighbours (existing ones are pruned already)
    not_adjacent(model, stop, grid.neighbours)

    own = position.of(position.player)
    own_trail_cells = {c for t in own.trails for c in t.cells(grid)}
    own_trail_ends = {s for t in own.trails for s in t.ends}
    conn = {s: true if s in own_trail_ends else model.new_bool_var(f"conn_{grid.name(s)}")
            for s in endpoints}
    for s in endpoints:
        if s not in own_trail_ends:
            model.add_bool_or(ending[s]).only_enforce_if(conn[s])
            model.add_implication(conn[s], stop_lit[s])

    safe = animal_free_cells(position)
    safe_stops = tuple(c for c in cand.stop_cells if c in safe)
    _new_stops_connected(model, stop, conn, safe_stops, position.first_stop_rule)

    score: list[Expr] = []
    score.append(sum(area_score(position, t.cells(grid)) for t in own.trails))
    score.append(cp_model.LinearExpr.weighted_sum(trail, [t.areas for t in cand.trails]))
    score.append(_animals(model, position, own_trail_cells, cand, trail))
    check()
    tents_drawn = sum(len(e.tents) for _, e in position.elements)
    tent_room = max(0, MAX_TENTS_PER_BOARD - tents_drawn)
    max_new_tents = min(tent_room, len(tent), *(() if draws is None else (draws,)))
    tent_points, pairs = _tents(model, position, tent, conn, max_new_tents)
    score.append(tent_points)
    if draws is not None:
        _pairs_within_budget(model, position, conn, own_trail_ends, tent, pairs, draws,
                             max_new_tents)
    check()
    for s in endpoints:
        score.append(UNCONNECTED_STOP_PENALTY * (stop_lit[s] - conn[s]))

    new_elements = list(stop.values()) + trail + list(tent.values())
    model.add(sum(tent.values()) <= tent_room)
    if draws is not None:
        model.add(sum(new_elements) <= draws)
    if position.first_stop_rule:
        _first_stop(model, new_elements, [stop[c] for c in safe_stops])

    objective = sum(score)
    model.maximize(objective)
    return MaxScoreModel(model, cand, stop, trail, tent, safe_stops,
                         position.first_stop_rule, objective)


def _one_element_per_cell(model: cp_model.CpModel, size: int, stop: dict, tent: dict,
                          passing: dict) -> None:
    """At most one of: a new stop, a new tent, a trail passing through — per cell."""
    for c in range(size):
        lits = ([stop[c]] if c in stop else []) + ([tent[c]] if c in tent else [])
        lits += passing.get(c, [])
        if len(lits) >= 2:
            model.add_at_most_one(lits)


def _one_trail_per_side(model: cp_model.CpModel, grid, cand: Candidates, trail: list,
                        stop_lit: dict) -> None:
    """Redundant: at most one trail leaves a stop through each of its four sides, and only
    if the stop is drawn.

    Every trail leaving stop ``s`` towards a side passes the neighbour cell
    there (the other end is never that neighbour: own stops are not
    orthogonal neighbours), so the one-element-per-cell rule already implies
    it; stated per stop it ties the trails' sum to ``stop[s]`` and tightens the
    LP bound, which otherwise lets one fractional stop carry many trails.
    """
    leaving: dict[tuple[int, int], list] = {}
    for cand_trail, var in zip(cand.trails, trail, strict=True):
        interior = set(cand_trail.interior)
        for s in cand_trail.ends:
            side = next(nb for nb in grid.neighbours[s] if nb in interior)
            leaving.setdefault((s, side), []).append(var)
    for (s, _), vars_ in sorted(leaving.items()):
        if len(vars_) >= 2:
            model.add(sum(vars_) <= stop_lit[s])


def _new_stops_connected(model: cp_model.CpModel, stop: dict, conn: dict,
                         safe_stops: tuple[int, ...], first_stop_rule: bool) -> None:
    """Sound reduction: new stops are connected, except one animal-free first stop.

    Removing an unconnected new stop from any answer gains 2 points, frees one
    draw and can make nothing illegal (stops only forbid). The one exception
    is the first-stop rule, which may need an animal-free stop even when no
    trail uses it; one such stop is enough. So some optimal answer has every
    new stop connected, except at most one animal-free one under the rule.
    """
    loose = []
    for c, var in stop.items():
        if first_stop_rule and c in safe_stops:
            loose.append(var - conn[c])
        else:
            model.add_implication(var, conn[c])
    if loose:
        model.add(sum(loose) <= 1)


def _animals(model: cp_model.CpModel, position: Position, own_trail_cells: set[int],
             cand: Candidates, trail: list) -> Expr:
    """Animal points: ``adj[a]`` may be 1 only if some drawn trail has a cell beside ``a``.

    The bound counts each trail once, however many of its cells (end stops
    included) touch the animal: ``adj[a] <= sum(trail[k] for k touching a)``.
    Summing cells instead would be just as correct for integers, but would let
    the LP relaxation buy a whole animal with a third of a trail that passes
    three of its neighbours.
    """
    grid, board = position.grid, position.board
    touching: dict[int, list] = {a: [] for a in board.animal_cells}
    for cand_trail, var in zip(cand.trails, trail, strict=True):
        near: set[int] = set()
        for c in cand_trail.cells():
            near.update(grid.touching[c])
        for a in sorted(near):
            if a in touching:
                touching[a].append(var)
    terms: list[Expr] = []
    for a in board.animal_cells:
        points = ANIMAL_POINTS[board.terrain[a]]
        if any(nb in own_trail_cells for nb in grid.touching[a]):
            terms.append(points)
            continue
        if not touching[a]:
            continue
        adj = model.new_bool_var(f"animal_{grid.name(a)}")
        model.add(adj <= sum(touching[a]))
        terms.append(points * adj)
    return sum(terms)


def _tents(model: cp_model.CpModel, position: Position, tent: dict, conn: dict,
           max_new_tents: int) -> tuple[Expr, list[cp_model.IntVar]]:
    """Tent points: ``near[t, s]`` may be 1 only if tent ``t`` is drawn and stop ``s`` connected.

    Redundant cut: two orthogonally adjacent cells around a tent never both hold
    own stops, so ``near[t, s] + near[t, s'] <= tent[t]`` for such pairs. It is
    implied for integers, but without it the LP relaxation lets half a tent
    collect half points from all 8 neighbours (twice the real value per tent).

    Redundant cut: a stop is beside at most as many own tents as the player can
    have (``max_new_tents`` plus existing ones), so ``sum(near[t, s] over t)
    <= that * conn[s]``. Without it, the LP lets a tiny fraction of one stop
    serve small fractions of all 8 tents around it.

    Sound reduction: a new tent with no connected stop beside it scores 0, so
    some optimal answer never draws one; it is required to have one.

    Returns the tent points and every ``near`` variable.
    """
    grid = position.grid
    own_tents = len(position.of(position.player).tents) + max_new_tents
    around: dict[int, list] = {}
    true = model.new_constant(1)
    tents = [(t, true) for t in sorted(position.of(position.player).tents)] + list(tent.items())
    terms: list[Expr] = []
    pairs: list[cp_model.IntVar] = []
    for t, lit in tents:
        near = {}
        for s in grid.touching[t]:
            if s in conn:
                var = model.new_bool_var(f"near_{grid.name(t)}_{grid.name(s)}")
                model.add_implication(var, lit)
                model.add_implication(var, conn[s])
                near[s] = var
                around.setdefault(s, []).append(var)
        for s in sorted(near):
            for nb in grid.neighbours[s]:
                if nb > s and nb in near:
                    model.add(near[s] + near[nb] <= lit)
        if t in tent:
            model.add_bool_or(list(near.values())).only_enforce_if(tent[t])
        terms.append(TENT_POINTS_PER_STOP * sum(near.values()))
        pairs.extend(near.values())
    for s, vars_ in sorted(around.items()):
        if len(vars_) > own_tents:
            model.add(sum(vars_) <= own_tents * conn[s])
    return sum(terms), pairs


def _pairs_within_budget(model: cp_model.CpModel, position: Position, conn: dict,
                         connected: set[int], tent: dict, pairs: list, draws: int,
                         max_new_tents: int) -> None:
    """Redundant cut: ``sum(near) <= most_pairs(C, K)`` for the C connected stops and K
    own tents the budget can pay for, over a one-hot of those (C, K); ``connected``
    holds the player's stops a drawn trail ends at already.

    ``most_pairs`` (:mod:`solver.rift_valley.model.pairs`) is the proven most
    tent–stop pairs of C stops and K tents anywhere, so the cut holds for every
    answer. A (C, K) is left out when its draws alone exceed the budget: the
    new tents, one trail per two newly connected stops (a trail ending at each)
    and a new stop for each newly connected one beyond the player's
    unconnected stops. The LP otherwise pays for each tent's 4 pairs with
    fractions of stops shared by many tents (crater, 8 draws: LP bound 39.7 →
    37.5). Measured in benchmarks/EXPERIMENTS.md, Rift Valley, "Bounds on tent
    pairs".
    """
    own = position.of(position.player)
    fixed = len(connected & conn.keys())
    unconnected = len([s for s in own.stops if s not in connected])
    k_own = len(own.tents)
    choice = {}
    for c in range(fixed, len(conn) + 1):
        new = c - fixed
        for k in range(k_own, k_own + max_new_tents + 1):
            if (k - k_own) + max(0, new - unconnected) + (new + 1) // 2 <= draws:
                choice[c, k] = model.new_bool_var(f"pairs_{c}_{k}")
    model.add_exactly_one(choice.values())
    model.add(sum(c * v for (c, _), v in choice.items()) == sum(conn.values()))
    model.add(sum(k * v for (_, k), v in choice.items()) == k_own + sum(tent.values()))
    model.add(sum(pairs) <= sum(most_pairs(c, k) * v for (c, k), v in choice.items()))


def _first_stop(model: cp_model.CpModel, new_elements: list, safe_stop_vars: list) -> None:
    """First-stop rule: if the player draws anything, some new stop is away from animals.

    The first draw must be such a stop, so without one nothing can be drawn
    (not even a trail between existing stops or a tent).
    """
    drawn = model.new_bool_var("drawn")
    for var in new_elements:
        model.add_implication(var, drawn)
    model.add_bool_or(safe_stop_vars).only_enforce_if(drawn)
