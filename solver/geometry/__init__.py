"""Board geometry shared by every game: cell names, hex (odd-r) and square grids."""

from solver.geometry.hexgrid import HEX_DIRECTIONS, HexGrid
from solver.geometry.names import cell_name, column_index, column_name, parse_cell
from solver.geometry.squaregrid import SquareGrid

__all__ = [
    "HEX_DIRECTIONS",
    "HexGrid",
    "SquareGrid",
    "cell_name",
    "column_index",
    "column_name",
    "parse_cell",
]
