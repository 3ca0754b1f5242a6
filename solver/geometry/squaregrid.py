"""Rectangular boards of square cells.

Cells get dense indices ``row * cols + col``. Orthogonal (4) and king (8)
neighbourhoods are precomputed; straight segments are built on demand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from solver.geometry.names import cell_name, parse_cell

ORTHOGONAL: tuple[tuple[int, int], ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W
KING: tuple[tuple[int, int], ...] = ORTHOGONAL + ((-1, -1), (-1, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class SquareGrid:
    """A ``rows × cols`` square grid."""

    rows: int
    cols: int

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    def index(self, row: int, col: int) -> int | None:
        """Dense index of ``(row, col)``, or None off the board."""
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return row * self.cols + col
        return None

    def coords(self, cell: int) -> tuple[int, int]:
        """0-based ``(row, col)`` of cell index ``cell``."""
        return divmod(cell, self.cols)

    def name(self, cell: int) -> str:
        """User-facing name of ``cell`` (``c4``)."""
        return cell_name(*self.coords(cell))

    def cell(self, name: str) -> int:
        """Cell index of ``name``; ValueError when malformed or off the board."""
        row, col = parse_cell(name)
        found = self.index(row, col)
        if found is None:
            raise ValueError(f"'{name}' is off this {self.cols}×{self.rows} board")
        return found

    def _around(self, offsets: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
        out = []
        for cell in range(self.size):
            r, c = self.coords(cell)
            found = (self.index(r + dr, c + dc) for dr, dc in offsets)
            out.append(tuple(nb for nb in found if nb is not None))
        return tuple(out)

    @cached_property
    def orthogonal(self) -> tuple[tuple[int, ...], ...]:
        """``orthogonal[i]``: the up-to-4 cells sharing a side with ``i``."""
        return self._around(ORTHOGONAL)

    @cached_property
    def king(self) -> tuple[tuple[int, ...], ...]:
        """``king[i]``: the up-to-8 cells sharing a side or a corner with ``i``."""
        return self._around(KING)

    def segment(self, a: int, b: int) -> tuple[int, ...] | None:
        """Cells from ``a`` to ``b`` inclusive when they share a row or column, else None."""
        (ra, ca), (rb, cb) = self.coords(a), self.coords(b)
        if ra == rb:
            step = 1 if cb >= ca else -1
            return tuple(self.index(ra, c) for c in range(ca, cb + step, step))
        if ca == cb:
            step = 1 if rb >= ra else -1
            return tuple(self.index(r, ca) for r in range(ra, rb + step, step))
        return None
