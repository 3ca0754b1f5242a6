"""Pair cuts for the relaxation: two candidates that no line can both score as counted.

:class:`~solver.terra_nova.model.relaxation.Relaxation` scores each closed candidate at
its :func:`~solver.terra_nova.model.relaxation.weight`, the most the player can score
from it alone: with a majority when enough own pieces can be inside within the actions
its boundary leaves, else the tie share. Two candidates may each be scorable alone but
not together: their boundaries' stones and the moves that bring the pieces in do not fit
in the horizon's actions (say, a region that needs two entering pieces of 2 moves each
and one that needs a piece of one move, walled by 6 stones: 11 actions of the 9 of three
turns).

A candidate's *levels* (:func:`levels`): with a majority possible, ``top + 1`` own pieces
inside for its value; with others' pieces inside, ``top`` for the tie share (``top``:
the most pieces of another player in it); each with the fewest moves that bring that
many own pieces in (:func:`entry_moves`). :meth:`PairCuts.add_to` gives the relaxation,
per candidate in a cut, the literals ``scores`` ("closes with at least its lowest
level's pieces", worth that level's points) and, with two levels, ``wins`` ("closes with
a majority", worth the rest of its value), and per pair of candidates and levels that
cannot both hold, one clause (:func:`find_pair_cuts` once per geometry,
:meth:`PairCuts.add_to` for each relaxation).

Why the cuts keep the relaxation a bound (the map of the relaxation's module doc, with
``scores[i]`` = "candidate ``i`` closes with at least its lowest level's own pieces
inside" and ``wins[i]`` = "... with a majority"):

* the player's points from a closing candidate are the value with a majority, the tie
  share with a tie at ``top`` pieces, else 0; so they are at most
  ``low * scores + (value - low) * wins``;
* a line in which ``i`` closes with ``k_i`` own pieces inside and ``j`` with ``k_j``
  places a stone on every cell of ``B_i | B_j`` (boundary cells are free now and must be
  stones when their candidate closes), one action each; and it moves, for each of the
  two, the pieces inside at its closing that stood outside it at the start, each at
  least its :meth:`~solver.terra_nova.model.geometry.Geometry.entry_costs` moves of its
  own. The two sets of pieces are disjoint (a piece inside a candidate when it closes is
  removed then, so it is inside no later one), so the moves are at least the sum of the
  two minima, :func:`entry_moves` of each; a line has at most ``3 * turns`` actions. A
  pair of levels with ``|B_i | B_j| + moves_i + moves_j > 3 * turns`` therefore never
  holds together, which is the clause.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from ortools.sat.python import cp_model

from solver.terra_nova.model.geometry import Candidate, Geometry
from solver.terra_nova.model.relaxation import Relaxation, others_in

BLOCK = 256
"""Candidates compared with all others at once in :func:`pair_cuts` (memory: a block
times the candidates, a few floats each)."""


@dataclass(frozen=True)
class Level:
    """One way a candidate scores for the player: ``need`` own pieces inside at its
    closing give ``points``; ``moves`` is the fewest moves that bring them in."""

    need: int
    points: int
    moves: int


def entry_moves(geo: Geometry, cand: Candidate, need: int) -> int | None:
    """Fewest moves that put ``need`` own pieces inside ``cand``: the pieces inside at the
    start are free, each other one costs its entry cost (None: too few can get in or
    stand there within the horizon)."""
    reachable = sum(1 for c in cand.cells if geo.own_possible(c, geo.steps))
    if need > reachable:
        return None
    inside = sum(1 for c in cand.cells if geo.own0[c])
    costs = geo.entry_costs(cand)
    missing = max(0, need - inside)
    if missing > len(costs):
        return None
    return sum(costs[:missing])


def levels(geo: Geometry, cand: Candidate) -> list[Level]:
    """The ways ``cand`` can score for the player alone, lowest first: the tie share at
    ``top`` pieces (when others have pieces in it) and the value at ``top + 1``, each only
    when its pieces fit in the moves its boundary leaves (as
    :func:`~solver.terra_nova.model.relaxation.weight`, whose value is the last level's
    points)."""
    others = others_in(geo, cand)
    top = max(others, default=0)
    budget = geo.steps - len(cand.boundary)
    out = []
    if top > 0:
        tied = sum(1 for k in others if k == top)
        moves = entry_moves(geo, cand, top)
        if moves is not None and moves <= budget and cand.value // (tied + 1) > 0:
            out.append(Level(top, cand.value // (tied + 1), moves))
    moves = entry_moves(geo, cand, top + 1)
    if moves is not None and moves <= budget:
        out.append(Level(top + 1, cand.value, moves))
    return out


class Cut(NamedTuple):
    """Candidate ``first`` at its level ``first_level`` (an index into its levels) and
    ``second`` at ``second_level`` cannot both hold (module doc)."""

    first: int
    first_level: int
    second: int
    second_level: int


def pair_cuts(geo: Geometry, ways: dict[int, list[Level]], most: int | None = None,
              check: Callable[[], None] = lambda: None) -> PairCuts:
    """The floor and the cuts over the candidates' levels ``ways``: for each pair, the
    lowest failing levels (a cut on lower levels implies the ones above). Only pairs whose best
    levels together are worth at least the floor are cut: the most one candidate, or two
    disjoint ones at levels that can hold together, are worth (below it two candidates
    reach the floor anyway; at it too, but the relaxation's optimum then tends to close a
    pair that fits, which the first round keeps and whose line is better: benchmarks/
    EXPERIMENTS.md, Terra Nova, "A tighter relaxation"); ``most``: a lower floor to use
    instead when given. ``check`` is called often (Ctrl-C, the time limit)."""
    ids = sorted(ways, key=lambda i: -ways[i][-1].points)
    if len(ids) < 2:
        return PairCuts(ways, 0, [])
    never = 1 << 20  # moves of a missing level: it never fits
    low_points = np.array([ways[i][0].points for i in ids])
    low_moves = np.array([ways[i][0].moves for i in ids])
    top_points = np.array([ways[i][-1].points for i in ids])
    top_moves = np.array([ways[i][-1].moves if len(ways[i]) > 1 else never for i in ids])
    cells = np.zeros((len(ids), geo.n), dtype=np.float32)
    walls = np.zeros((len(ids), geo.n), dtype=np.float32)
    for row, i in enumerate(ids):
        cand = geo.candidates[i]
        cells[row, list(cand.cells)] = 1
        walls[row, list(cand.boundary)] = 1
    sizes = walls.sum(axis=1).astype(np.int64)
    index = np.arange(len(ids))
    floor = int(top_points[0])
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for start in range(0, len(ids), BLOCK):
        check()
        # pairs worth less than the floor found so far are neither cut nor raise it; the
        # candidates are in descending order, so the partners that can be worth as much
        # are a prefix
        limit = floor if most is None else min(floor, most)
        width = int(np.count_nonzero(top_points >= limit - top_points[start]))
        if width <= start:
            break
        rows = slice(start, min(start + BLOCK, width))
        common = np.rint(walls[rows] @ walls[:width].T).astype(np.int64)
        spare = geo.steps - (sizes[rows, None] + sizes[None, :width] - common)
        pairs = ((np.rint(cells[rows] @ cells[:width].T) == 0)
                 & (spare >= geo.steps - geo.max_stones)
                 & (index[None, :width] > index[rows, None]))
        # the most the two are worth at levels that fit together (0: none fits)
        both = np.zeros(spare.shape, dtype=np.int64)
        for points_a, moves_a in ((low_points, low_moves), (top_points, top_moves)):
            for points_b, moves_b in ((low_points, low_moves), (top_points, top_moves)):
                fits = moves_a[rows, None] + moves_b[None, :width] <= spare
                both = np.maximum(both, np.where(
                    fits, points_a[rows, None] + points_b[None, :width], 0))
        if pairs.any():
            floor = max(floor, int(both[pairs].max()))
        r, c = np.nonzero(pairs & (both < top_points[rows, None] + top_points[None, :width]))
        found.append((r + start, c, spare[r, c]))
    if most is not None:
        floor = min(floor, most)
    out: list[Cut] = []
    for r_all, c_all, spare_all in found:
        check()
        for r, c, spare in zip(r_all.tolist(), c_all.tolist(), spare_all.tolist(), strict=True):
            if int(top_points[r] + top_points[c]) < floor:
                continue
            i, j = ids[r], ids[c]
            fails = [(a, b) for a, x in enumerate(ways[i]) for b, y in enumerate(ways[j])
                     if x.moves + y.moves > spare]
            out.extend(Cut(i, a, j, b) for a, b in fails
                       if not any((a2, b2) != (a, b) and a2 <= a and b2 <= b
                                  for a2, b2 in fails))
    return PairCuts(ways, floor, out)


@dataclass(frozen=True)
class PairCuts:
    """The levels of every candidate that can score (by index into ``geo.candidates``),
    the floor and the cuts of :func:`pair_cuts`: computed once per geometry, added to
    each relaxation over it by :meth:`add_to`."""

    ways: dict[int, list[Level]]
    floor: int
    cuts: list[Cut]

    def add_to(self, relax: Relaxation) -> int:
        """Add the cuts to ``relax`` (its objective then counts each candidate in a cut by
        its levels: ``scores`` and ``wins``, module doc, and so do its
        :attr:`~Relaxation.points`; before any :meth:`~Relaxation.add_cap`); returns how
        many it holds."""
        m = relax.model
        cuts = [cut for cut in self.cuts
                if cut.first in relax.closed and cut.second in relax.closed]
        lits: dict[tuple[int, int], cp_model.IntVar] = {}

        def lit(i: int, a: int) -> cp_model.IntVar:
            if (i, 0) not in lits:
                scores = m.new_bool_var(f"scores_{i}")
                m.add_implication(scores, relax.closed[i])
                lits[(i, 0)] = scores
                if len(self.ways[i]) > 1:
                    wins = m.new_bool_var(f"wins_{i}")
                    m.add_implication(wins, scores)
                    lits[(i, 1)] = wins
            return lits[(i, a)]

        for i, a, j, b in cuts:
            m.add_bool_or([lit(i, a).Not(), lit(j, b).Not()])
        if not lits:
            return 0
        objective = relax.objective
        for (i, a), var in lits.items():
            # each level's points, at most the relaxation's weight (both bound the points)
            low, top = (min(level.points, relax.weights[i]) for level in
                        (self.ways[i][0], self.ways[i][-1]))
            if a == 0:
                objective += low * var - relax.points.get(i, 0)
                relax.points[i] = low * var
            else:
                objective += (top - low) * var
                relax.points[i] = relax.points[i] + (top - low) * var
        relax.objective = objective
        m.maximize(objective)
        if m.proto.solution_hint.vars:  # a relaxation without a requirement: all-zero hint
            for var in lits.values():
                m.add_hint(var, False)
        return len(cuts)


def find_pair_cuts(geo: Geometry, most: int | None = None,
                   check: Callable[[], None] = lambda: None) -> PairCuts:
    """The pair cuts of ``geo``'s candidates (:func:`pair_cuts`; ``most``: a floor to use
    when the one found is higher, so more pairs are cut); ``check`` is called for each
    candidate (thousands on a full board: Ctrl-C and the time limit are heard)."""
    ways: dict[int, list[Level]] = {}
    for i, cand in enumerate(geo.candidates):
        check()
        found = levels(geo, cand)
        if found:
            ways[i] = found
    return pair_cuts(geo, ways, most, check)
