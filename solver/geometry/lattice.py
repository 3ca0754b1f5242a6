"""The one idea of a board both grids share: cells, names, neighbours, straight rays.

Cells are dense indices ``0…size-1``. :class:`~solver.geometry.hexgrid.HexGrid`
(odd-r hexes) and :class:`~solver.geometry.squaregrid.SquareGrid` both
implement :class:`Lattice`, with the same names for the same ideas, so code
that only needs the shared idea works on either.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Lattice(Protocol):
    """A board of cells with names, side-neighbours and straight lines."""

    @property
    def rows(self) -> int:
        """Rows of the bounding rectangle."""

    @property
    def cols(self) -> int:
        """Columns of the bounding rectangle."""

    @property
    def size(self) -> int:
        """Number of cells."""

    @property
    def coords(self) -> tuple[tuple[int, int], ...]:
        """``coords[cell]``: the 0-based ``(row, col)`` of each cell."""

    @property
    def directions(self) -> tuple[str, ...]:
        """Names of the straight directions (indices for :meth:`step` and :attr:`rays`)."""

    @property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """``neighbours[cell]``: the cells sharing a side with ``cell``."""

    @property
    def rays(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """``rays[cell][d]``: the cells after ``cell`` going straight in direction ``d``
        to the edge."""

    def index(self, row: int, col: int) -> int | None:
        """The cell at ``(row, col)``, or None when there is none."""

    def name(self, cell: int) -> str:
        """The user-facing name of ``cell`` (``d7``)."""

    def cell(self, name: str) -> int:
        """The cell named ``name``; ValueError when malformed or not on the board."""

    def step(self, cell: int, direction: int) -> int | None:
        """The neighbour of ``cell`` in direction ``direction``, or None off the board."""


def cell_at(grid: Lattice, row: int, col: int) -> int:
    """The cell of ``grid`` at ``(row, col)``, which must be one (ValueError if not): for
    coordinates known to lie on the board."""
    found = grid.index(row, col)
    if found is None:
        raise ValueError(f"no cell at row {row}, column {col}")
    return found
