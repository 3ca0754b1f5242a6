"""Board geometry shared by every game: one lattice idea for hex and square grids,
cell names, bitboards of cells."""

from solver.geometry.bitboard import bits, mask_of
from solver.geometry.hexgrid import HEX_DIRECTIONS, HexGrid
from solver.geometry.lattice import Lattice, cell_at
from solver.geometry.names import cell_name, column_index, column_name, parse_cell
from solver.geometry.squaregrid import SQUARE_DIRECTIONS, SquareGrid

__all__ = [
    "HEX_DIRECTIONS",
    "SQUARE_DIRECTIONS",
    "HexGrid",
    "Lattice",
    "SquareGrid",
    "bits",
    "cell_at",
    "cell_name",
    "column_index",
    "column_name",
    "mask_of",
    "parse_cell",
]
