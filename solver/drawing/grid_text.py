"""A board as lines of rich text: its cells in rows, column letters and row numbers round it.

Knows no game: a game's terminal view gives the text of each cell. On a hex
lattice (odd-r) the odd rows are shifted half a cell to the right. Rich only,
no matplotlib.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text

from solver.geometry import column_name
from solver.geometry.lattice import Lattice


def board_lines(grid: Lattice, cell_width: int, cell_text: Callable[[int], Text],
                label_style: Style | str = "", shift_odd_rows: bool = False) -> list[Text]:
    """The rows of ``grid`` as text, each cell ``cell_text(cell)`` (``cell_width`` wide),
    with column letters above and below and row numbers on both sides.

    ``shift_odd_rows`` indents odd rows by half a cell and pads even rows as much on the
    right (hexes); a place of the bounding rectangle without a cell stays blank.
    """
    label_w = len(str(grid.rows)) + 1
    columns = Text(" " * label_w + "".join(f"{column_name(c):^{cell_width}}"
                                           for c in range(grid.cols)), style=label_style)
    half = cell_width // 2 if shift_odd_rows else 0
    lines = [columns]
    for r in range(grid.rows):
        line = Text(f"{r + 1:>{label_w - 1}} ", style=label_style)
        line.append(" " * (half if r % 2 else 0))
        for c in range(grid.cols):
            cell = grid.index(r, c)
            line.append_text(Text(" " * cell_width) if cell is None else cell_text(cell))
        line.append(" " * (0 if r % 2 else half))
        line.append(f" {r + 1}", style=label_style)
        lines.append(line)
    lines.append(columns.copy())
    return lines
