"""Vertex cuts on the board for the candidate-region search, by OR-tools max flow.

:class:`VertexCut` answers "how many cuttable cells must become stones to separate a
set of cells from some other cells?" — a vertex-capacitated maximum flow. The
flow network is built once per board (each free cell split into an *in* and an
*out* node joined by an arc of capacity 1 when the cell is cuttable, unbounded
otherwise); a query only changes the capacities of the cell, source and sink arcs
(numpy, one call) and runs OR-tools' C++ ``SimpleMaxFlow``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from ortools.graph.python import max_flow

UNBOUNDED = 1 << 20
"""Capacity standing for "cannot be cut" (far above any stone budget)."""


class VertexCut:
    """Min vertex cuts between cell sets over the free cells of one board."""

    def __init__(self, nbrs: Sequence[Sequence[int]], free: Sequence[bool],
                 cuttable: Sequence[bool]) -> None:
        n = len(free)
        self.n = n
        self.source, self.sink = 2 * n, 2 * n + 1
        cells = np.arange(n)
        adj_tail = [a for a in range(n) if free[a] for b in nbrs[a] if free[b]]
        adj_head = [b for a in range(n) if free[a] for b in nbrs[a] if free[b]]
        tails = np.concatenate([2 * cells, np.full(n, self.source), 2 * cells + 1,
                                2 * np.asarray(adj_tail, dtype=np.int64) + 1])
        heads = np.concatenate([2 * cells + 1, 2 * cells, np.full(n, self.sink),
                                2 * np.asarray(adj_head, dtype=np.int64)])
        self.flow = max_flow.SimpleMaxFlow()
        caps = np.zeros(len(tails), dtype=np.int64)
        caps[3 * n:] = UNBOUNDED
        self.flow.add_arcs_with_capacity(tails, heads, caps)
        self.arcs = np.arange(3 * n)  # cell arcs, source arcs, sink arcs
        self.cell_caps = np.where(np.asarray(cuttable, dtype=bool), 1, UNBOUNDED)
        self.cell_caps[~np.asarray(free, dtype=bool)] = 0
        self.nbrs = nbrs
        self.free = free

    def exceeds(self, s: set[int], x: set[int], sinks: Iterable[int], room: int) -> bool:
        """Whether more than ``room`` cuttable cells are needed to cut ``s`` from ``sinks``.

        Paths run through free cells outside ``s | x``; they start at the free
        neighbours of ``s`` and end on a sink (sinks in ``s`` or ``x`` do not count).
        """
        n = self.n
        blocked = s | x
        caps = np.zeros(3 * n, dtype=np.int64)
        caps[:n] = self.cell_caps
        out = np.fromiter(blocked, dtype=np.int64, count=len(blocked))
        caps[out] = 0
        starts = [b for c in s for b in self.nbrs[c] if self.free[b] and b not in blocked]
        if not starts:
            return False
        caps[n + np.asarray(starts, dtype=np.int64)] = UNBOUNDED
        ends = np.fromiter(sinks, dtype=np.int64)
        if ends.size == 0:
            return False
        caps[2 * n + ends] = UNBOUNDED
        caps[2 * n + out] = 0
        if not caps[2 * n:].any():
            return False
        self.flow.set_arcs_capacity(self.arcs, caps)
        status = self.flow.solve(self.source, self.sink)
        if status != self.flow.OPTIMAL:
            raise RuntimeError(f"max flow failed: status {status}")
        return self.flow.optimal_flow() > room
