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
from collections.abc import Callable

import numpy as np

from solver.terra_nova.model.geometry import Geometry

MOST_PAIRS = 150_000_000
"""The most candidate pairs (summed over the cells: the square of the scoring candidates
each walls) :func:`wall_cliques` compares; with more (4+ turns: a hundred thousand
candidates and more) it gives none, as comparing them would take longer than the rows
gain (3 turns on a full board: up to about 140 million, a few CPU seconds)."""

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
        walls = np.zeros((len(geo.candidates), geo.n), dtype=np.float32)
        cells = np.zeros_like(walls)
        for i, cand in enumerate(geo.candidates):
            walls[i, list(cand.boundary)] = 1
            cells[i, list(cand.cells)] = 1
        for b in sorted(walled):
            if check is not None:
                check()
            members = sorted(walled[b], key=lambda i: (-weights[i], i))
            found[b] = [[members[row] for row in clique]
                        for clique in _split(walls[members], cells[members],
                                             geo.max_stones)]
    _found[geo] = found
    return found


def _split(walls: np.ndarray, cells: np.ndarray, max_stones: int) -> list[list[int]]:
    """The rows (candidates as boundary and cell indicator rows) split greedily, in
    order, into pairwise clashing sets: each joins the first set it clashes with
    wholly."""
    walls, cells = walls[:, walls.any(axis=0)], cells[:, cells.any(axis=0)]
    size = walls.sum(axis=1)
    union = size[:, None] + size[None, :] - walls @ walls.T
    clash = (union > max_stones + 0.5) | (cells @ cells.T > 0.5)
    # per set, as bits: the rows that clash with each of its members so far
    bits = [int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little")
            for row in clash]
    sets: list[list[int]] = []
    fits: list[int] = []
    for row, clashes in enumerate(bits):
        for k, fit in enumerate(fits):
            if fit >> row & 1:
                sets[k].append(row)
                fits[k] = fit & clashes
                break
        else:
            sets.append([row])
            fits.append(clashes)
    return sets
