"""The terminal board floor (:mod:`solver.drawing.grid_text`): labels, hex shift, gaps."""

from __future__ import annotations

from rich.text import Text

from solver.drawing.grid_text import board_lines
from solver.geometry import HexGrid, SquareGrid


def test_square_board_has_letters_above_and_below_and_numbers_on_both_sides():
    lines = [line.plain for line in board_lines(SquareGrid(2, 3), 3, lambda c: Text(f"{c:^3}"))]
    assert lines == ["   a  b  c ",
                     "1  0  1  2  1",
                     "2  3  4  5  2",
                     "   a  b  c "]


def test_hex_board_shifts_odd_rows_and_leaves_missing_cells_blank():
    grid = HexGrid.from_mask([[True, False], [True, True]])
    lines = [line.plain for line in board_lines(grid, 4, lambda c: Text(f"[{c:>2}]"),
                                                shift_odd_rows=True)]
    assert lines == ["   a   b  ",
                     "1 [ 0]       1",
                     "2   [ 1][ 2] 2",
                     "   a   b  "]
    assert len({len(line) for line in lines[1:3]}) == 1
