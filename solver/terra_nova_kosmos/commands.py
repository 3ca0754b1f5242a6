"""Terra Nova (KOSMOS) commands: read, call, render.

Each takes the CLI's :class:`solver.protocol.Screen` to print on and returns the
exit status.
"""

from __future__ import annotations

from pathlib import Path

from solver.protocol import Screen
from solver.terra_nova_kosmos.fileformat import is_board_file, read_board, read_position
from solver.terra_nova_kosmos.view import render_board, render_position


def show(file: Path, screen: Screen) -> int:
    """Draw the position (or bare board) in ``file``, with its puzzle and solution if any."""
    screen.print(f"[bold]{file}[/]")
    if is_board_file(file):
        board, landscape = read_board(file)
        screen.print(render_board(board, landscape))
        screen.print(f"{board.grid.size} hexes, {len(board.river)} river, "
                     f"{len(board.bridge_spots)} bridge spots, "
                     f"{len(board.neutral_marks)} neutral marks")
        return 0
    position = read_position(file)
    screen.print(render_position(position))
    if position.puzzle is not None:
        screen.print(f"puzzle: {position.puzzle.kind} for {position.to_move}")
    if position.solution is not None:
        screen.print(f"claimed solution: value {position.solution.value}, line "
                     + " / ".join(position.solution.line))
    return 0
