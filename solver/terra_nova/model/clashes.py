"""Candidates that no relaxed solution closes together, grouped by the stones they share.

Two candidates *clash* when their cells overlap or their boundaries together hold more
than ``max_stones`` cells: the relaxation (:mod:`~solver.terra_nova.model.relaxation`)
allows one cell in one closed candidate at most and ``max_stones`` stones, and a closed
candidate has a stone on each boundary cell, so none of its solutions closes both.
:func:`wall_cliques` splits the candidates walled by each cell into sets of pairwise
clashing ones: at most one of a set closes, and only with a stone on that cell, the
relaxation's row ``sum closed <= stone`` (its LP, not its optimum, is what changes).
Only candidates that can score are split: the others get a ``closed`` literal only when a
rest relaxation requires one of them, and rows left out only weaken the LP.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence

from solver.terra_nova.model.geometry import Geometry

MOST_PAIRS = 150_000_000
"""The most candidate pairs (summed over the cells: the square of the scoring candidates
each walls) :func:`wall_cliques` compares; with more (4+ turns: a hundred thousand
candidates and more) it gives none, as comparing them would take longer than the rows
gain (3 turns on a full board: up to about 140 million, under a CPU second)."""

_found: weakref.WeakKeyDictionary[Geometry, dict[int, list[list[int]]]] = (
    weakref.WeakKeyDictionary())


def wall_cliques(geo: Geometry, weight: Callable[[int], int],
                 check: Callable[[], None] | None = None) -> dict[int, list[list[int]]]:
    """For each cell, the candidates of positive ``weight`` whose boundary holds it
    (indices into ``geo.candidates``), split greedily into pairwise clashing sets (module
    doc), those of largest ``weight`` (of a candidate's index; the same on every call on
    ``geo``) first; empty when they are more than :data:`MOST_PAIRS` pairs. Computed once
    per geometry; ``check`` is called per cell."""
    if geo in _found:
        return _found[geo]
    weights = [weight(i) for i in range(len(geo.candidates))]
    walled: dict[int, list[int]] = {}
    for i, cand in enumerate(geo.candidates):
        if weights[i] > 0:
            for b in cand.boundary:
                walled.setdefault(b, []).append(i)
    found: dict[int, list[list[int]]] = {}
    if sum(len(members) ** 2 for members in walled.values()) <= MOST_PAIRS:
        for b in sorted(walled):
            if check is not None:
                check()
            members = sorted(walled[b], key=lambda i: (-weights[i], i))
            found[b] = [[members[row] for row in clique]
                        for clique in _split([geo.candidates[i].boundary for i in members],
                                             [geo.candidates[i].cells for i in members],
                                             geo.max_stones)]
    _found[geo] = found
    return found


def _split(walls: Sequence[Sequence[int]], cells: Sequence[Sequence[int]],
           max_stones: int) -> list[list[int]]:
    """The rows (candidates as their boundary and cells) split greedily, in order, into
    pairwise clashing sets: each joins the first set it clashes with wholly.

    Sets of rows are bitsets (Python ints, bit ``r`` for row ``r``): per cell, the rows
    holding it inside and on their boundary. Row ``r`` clashes with the rows holding one
    of its cells, and with the rows ``j`` of each boundary size ``s`` sharing fewer than
    ``|B_r| + s - max_stones`` of its boundary cells (so their union is larger), counted
    for all rows at once, bit by bit, from the rows holding each of its boundary cells."""
    inside: dict[int, int] = {}
    around: dict[int, int] = {}
    sized: dict[int, int] = {}
    for row, (wall, room) in enumerate(zip(walls, cells, strict=True)):
        bit = 1 << row
        for c in room:
            inside[c] = inside.get(c, 0) | bit
        for c in wall:
            around[c] = around.get(c, 0) | bit
        sized[len(wall)] = sized.get(len(wall), 0) | bit
    sets: list[list[int]] = []
    fits: list[int] = []
    for row, (wall, room) in enumerate(zip(walls, cells, strict=True)):
        for k, fit in enumerate(fits):
            if fit >> row & 1:
                sets[k].append(row)
                fits[k] = fit & _clashes(wall, room, inside, around, sized, max_stones)
                break
        else:
            sets.append([row])
            fits.append(_clashes(wall, room, inside, around, sized, max_stones))
    return sets


def _clashes(wall: Sequence[int], room: Sequence[int], inside: dict[int, int],
             around: dict[int, int], sized: dict[int, int], max_stones: int) -> int:
    """The rows (bitset) that clash with the row of boundary ``wall`` and cells ``room``
    (:func:`_split`'s bitsets)."""
    out = 0
    for c in room:
        out |= inside[c]
    # at_least[t]: the rows sharing at least t of ``wall``'s cells on their boundary
    at_least = [-1] + [0] * len(wall)
    for c in wall:
        holding = around[c]
        for t in range(len(wall), 0, -1):
            at_least[t] |= at_least[t - 1] & holding
    for size, rows in sized.items():
        need = len(wall) + size - max_stones  # sharing fewer: the union is too large
        if need > len(wall):
            out |= rows
        elif need > 0:
            out |= rows & ~at_least[need]
    return out
