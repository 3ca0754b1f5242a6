"""Where cells sit on paper: centres and outlines of hex (odd-r) and square cells.

One data unit is the distance between the centres of two cells side by side in
a row. Rows run downwards (row 0 on top, y = 0); hex rows are pointy-topped and
odd rows are shifted half a cell to the right, as in the games' files.
"""

from __future__ import annotations

import math

import numpy as np

from solver.geometry import HexGrid, Lattice

HEX_RADIUS = 1 / math.sqrt(3)
"""Centre-to-corner distance of a hex one unit wide."""
HEX_ROW = 1.5 * HEX_RADIUS
"""Vertical distance between the centres of two hex rows."""


def is_hex(grid: Lattice) -> bool:
    """True for a hex lattice, False for a square one."""
    return isinstance(grid, HexGrid)


def row_shift(grid: Lattice, row: int) -> float:
    """How far right the cells of ``row`` sit (half a cell on odd hex rows)."""
    return 0.5 if is_hex(grid) and row % 2 else 0.0


def row_y(grid: Lattice, row: int) -> float:
    """The y of the centres of ``row``."""
    return -row * (HEX_ROW if is_hex(grid) else 1.0)


def position(grid: Lattice, row: int, col: int) -> tuple[float, float]:
    """The centre of the (possibly absent) cell at ``(row, col)``."""
    return col + row_shift(grid, row), row_y(grid, row)


def centres(grid: Lattice) -> np.ndarray:
    """``(size, 2)`` array: the centre of every cell."""
    return np.array([position(grid, r, c) for r, c in grid.coords], dtype=float).reshape(-1, 2)


def outline(grid: Lattice, cell: int, shrink: float = 1.0) -> np.ndarray:
    """The corners of ``cell`` (6 for a hex, 4 for a square), scaled by ``shrink``."""
    x, y = position(grid, *grid.coords[cell])
    if is_hex(grid):
        angles = np.radians(np.arange(30, 390, 60))
        r = HEX_RADIUS * shrink
        return np.column_stack([x + r * np.cos(angles), y + r * np.sin(angles)])
    h = 0.5 * shrink
    return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]])


def corner(grid: Lattice, cell: int, where: str) -> tuple[float, float]:
    """A point inside ``cell`` towards ``where`` (``nw`` or ``ne``): for letters and badges."""
    x, y = position(grid, *grid.coords[cell])
    dx = 0.29 if where == "ne" else -0.29
    dy = 0.22 if is_hex(grid) else 0.27
    return x + dx, y + dy


def extent(grid: Lattice, margin: float) -> tuple[float, float, float, float]:
    """``(x0, x1, y0, y1)`` around the whole bounding rectangle plus ``margin``."""
    half_h = HEX_RADIUS if is_hex(grid) else 0.5
    shift = 0.5 if is_hex(grid) and grid.rows > 1 else 0.0
    x0, x1 = -0.5 - margin, grid.cols - 0.5 + shift + margin
    y1 = half_h + margin
    y0 = row_y(grid, grid.rows - 1) - half_h - margin
    return x0, x1, y0, y1
