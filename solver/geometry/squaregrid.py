"""Rectangular boards of square cells (a :class:`~solver.geometry.lattice.Lattice`).

Cells get dense indices ``row * cols + col``. Side neighbours (4), touching
cells (8: side or corner) and straight rays are precomputed; segments between
two cells of a row or column are built on demand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from solver.geometry.lattice import cell_at
from solver.geometry.names import cell_name, parse_cell

SQUARE_DIRECTIONS: tuple[str, ...] = ("N", "E", "S", "W")
SIDES: tuple[tuple[int, int], ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W
CORNERS: tuple[tuple[int, int], ...] = ((-1, -1), (-1, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class SquareGrid:
    """A ``rows × cols`` square grid."""

    rows: int
    cols: int

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    @property
    def directions(self) -> tuple[str, ...]:
        """``N E S W``: the directions of :meth:`step` and :attr:`rays`."""
        return SQUARE_DIRECTIONS

    def index(self, row: int, col: int) -> int | None:
        """Dense index of ``(row, col)``, or None off the board."""
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return row * self.cols + col
        return None

    @cached_property
    def coords(self) -> tuple[tuple[int, int], ...]:
        """``coords[cell]``: the 0-based ``(row, col)`` of each cell."""
        return tuple(divmod(cell, self.cols) for cell in range(self.size))

    def name(self, cell: int) -> str:
        """User-facing name of ``cell`` (``c4``)."""
        return cell_name(*self.coords[cell])

    def cell(self, name: str) -> int:
        """Cell index of ``name``; ValueError when malformed or off the board."""
        row, col = parse_cell(name)
        found = self.index(row, col)
        if found is None:
            raise ValueError(f"'{name}' is off this {self.cols}×{self.rows} board")
        return found

    def step(self, cell: int, direction: int) -> int | None:
        """The neighbour of ``cell`` in ``SQUARE_DIRECTIONS[direction]``, or None off the board."""
        r, c = self.coords[cell]
        dr, dc = SIDES[direction]
        return self.index(r + dr, c + dc)

    def _around(self, offsets: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
        out = []
        for r, c in self.coords:
            found = (self.index(r + dr, c + dc) for dr, dc in offsets)
            out.append(tuple(nb for nb in found if nb is not None))
        return tuple(out)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """``neighbours[i]``: the up-to-4 cells sharing a side with ``i`` (N E S W order)."""
        return self._around(SIDES)

    @cached_property
    def touching(self) -> tuple[tuple[int, ...], ...]:
        """``touching[i]``: the up-to-8 cells sharing a side or a corner with ``i``."""
        return self._around(SIDES + CORNERS)

    @cached_property
    def rays(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """``rays[i][d]``: cells after ``i`` going straight in direction ``d`` to the edge."""
        out = []
        for cell in range(self.size):
            per_dir = []
            for d in range(len(SIDES)):
                ray = []
                cur = self.step(cell, d)
                while cur is not None:
                    ray.append(cur)
                    cur = self.step(cur, d)
                per_dir.append(tuple(ray))
            out.append(tuple(per_dir))
        return tuple(out)

    def corners(self, a: int, b: int) -> tuple[int, int]:
        """The other two corners of the rectangle ``a`` and ``b`` span: the cell in
        ``a``'s row and ``b``'s column, then the one in ``b``'s row and ``a``'s column."""
        (ra, ca), (rb, cb) = self.coords[a], self.coords[b]
        return cell_at(self, ra, cb), cell_at(self, rb, ca)

    def segment(self, a: int, b: int) -> tuple[int, ...] | None:
        """Cells from ``a`` to ``b`` inclusive when they share a row or column, else None."""
        (ra, ca), (rb, cb) = self.coords[a], self.coords[b]
        if ra == rb:  # a row: consecutive indices
            step = 1 if cb >= ca else -1
        elif ca == cb:  # a column: indices ``cols`` apart
            step = self.cols if rb >= ra else -self.cols
        else:
            return None
        return tuple(range(a, b + step, step))
