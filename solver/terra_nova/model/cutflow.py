"""Vertex cuts on the board for the candidate-region search, by OR-tools max flow.

:class:`VertexCut` answers "how many cuttable cells must become stones to separate a
set of cells from some other cells?" — a vertex-capacitated maximum flow. The
flow network is built once per board (each free cell split into an *in* and an
*out* node joined by an arc of capacity 1 when the cell is cuttable, unbounded
otherwise); a query only changes the capacities of the cell, source and sink arcs
(numpy, one call) and runs OR-tools' C++ ``SimpleMaxFlow``.
"""

from __future__ import annotations

from collections.abc import Sequence

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
        self.caps = np.zeros(3 * n, dtype=np.int64)
        self.side = np.zeros(2 * n + 2, dtype=bool)
        self.width = (n + 7) // 8

    def cut_within(self, s: int, around: int, x: int, sinks: int,
                   room: int) -> tuple[int, int] | None:
        """A cut of at most ``room`` cuttable cells between ``s`` and ``sinks``, or None.

        Cell sets are bitboards; ``around`` holds the free neighbours of ``s``. Paths
        run through free cells outside ``s | x``; they start at the free neighbours of
        ``s`` and end on a sink (sinks in ``s`` or ``x`` do not count). The answer is
        ``(reach, cut)``: every such path passes through a cell of ``cut``, and
        ``reach`` holds the cells a path from ``s`` reaches without passing one (the
        source side of the minimum cut; every cell when no sink is left).
        """
        blocked = s | x
        starts = around & ~blocked
        ends = sinks & ~blocked
        if not starts or not ends:
            return -1, 0
        n = self.n
        caps = self.caps
        caps[:n] = self.cell_caps * ~self._cells(blocked)
        caps[n:2 * n] = self._cells(starts) * UNBOUNDED
        caps[2 * n:] = self._cells(ends) * UNBOUNDED
        self.flow.set_arcs_capacity(self.arcs, caps)
        status = self.flow.solve(self.source, self.sink)
        if status != self.flow.OPTIMAL:
            raise RuntimeError(f"max flow failed: status {status}")
        if self.flow.optimal_flow() > room:
            return None
        side = self.side
        side[:] = False
        side[self.flow.get_source_side_min_cut()] = True
        entered = self._mask(side[0:2 * n:2])
        reach = self._mask(side[1:2 * n:2])
        return reach, entered & ~reach

    def _mask(self, cells: np.ndarray) -> int:
        """The Boolean array ``cells`` over the cells as a bitboard."""
        return int.from_bytes(np.packbits(cells, bitorder="little").tobytes(), "little")

    def _cells(self, mask: int) -> np.ndarray:
        """The bitboard ``mask`` as a Boolean array over the cells."""
        raw = np.frombuffer(mask.to_bytes(self.width, "little"), dtype=np.uint8)
        return np.unpackbits(raw, count=self.n, bitorder="little").view(bool)
