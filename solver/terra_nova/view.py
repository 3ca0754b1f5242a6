"""Draw a Terra Nova hex board in colour with rich.

Landscapes are background colours (a lake — named so in ``[landscapes]`` or
letter ``w`` — is blue), pieces coloured discs, stones dark blocks. Odd rows
are shifted half a cell to the right (odd-r layout); column letters run along
the top and bottom, row numbers down both sides.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group
from rich.style import Style
from rich.text import Text

from solver.drawing.entries import Entries
from solver.drawing.grid_text import board_lines
from solver.terra_nova.position import EMPTY, STONE, Position

CELL = 4
"""Characters per cell; odd rows are indented by half of it."""

LAKE_WORDS = ("lake", "water", "see", "lago", "meer", "wasser")
LAKE_BG = "rgb(95,150,215)"
LAND_BGS = (
    "rgb(190,170,110)",  # sand
    "rgb(110,160,80)",   # meadow
    "rgb(60,110,60)",    # forest
    "rgb(150,150,150)",  # mountain
    "rgb(150,100,70)",   # clay
    "rgb(170,170,60)",   # field
    "rgb(200,130,60)",   # desert
    "rgb(140,110,160)",  # heath
    "rgb(100,140,140)",
    "rgb(180,120,130)",
)
PIECE_FG = {"red": "rgb(230,20,20)", "yellow": "rgb(255,235,0)", "blue": "rgb(20,30,190)",
            "green": "rgb(0,230,90)"}
STONE_STYLE = Style(color="rgb(40,40,40)", bgcolor="rgb(90,90,90)", bold=True)
LABEL = Style(color="grey62")


def landscape_colours(position: Position) -> dict[str, str]:
    """Background colour per landscape letter (lake blue, others from a fixed palette)."""
    colours = {}
    others = iter(LAND_BGS * 3)
    for letter in position.board.letters:
        name = (position.board.landscape_name(letter) or "").lower()
        is_lake = letter == "w" or any(word in name for word in LAKE_WORDS)
        colours[letter] = LAKE_BG if is_lake else next(others)
    return colours


def render_position(position: Position, highlight: Iterable[int] = frozenset()) -> Group:
    """The board of ``position`` as a rich renderable, with a status line under it.

    ``highlight`` cells (indices) are drawn underlined and bold (e.g. a turn's cells).
    """
    marked = frozenset(highlight)
    colours = landscape_colours(position)
    lines = board_lines(position.grid, CELL,
                        lambda i: Text(*_cell(position, i, colours, i in marked)),
                        label_style=LABEL, shift_odd_rows=True)
    return Group(*lines, _legend(position, colours), status_line(position))


def _cell(position: Position, i: int, colours: dict[str, str], marked: bool) -> tuple[str, Style]:
    letter = position.board.landscape[i]
    occ = position.occupant[i]
    extra = Style(bold=True, underline=True) if marked else Style()
    if occ == STONE:
        return " ## ", STONE_STYLE + extra
    bg = colours[letter]
    if occ == EMPTY:
        return f" {letter}  ", Style(color="rgb(30,30,30)", bgcolor=bg, dim=False) + extra
    return f" ●{occ[0].upper()} ", Style(color=PIECE_FG.get(occ, "white"), bgcolor=bg,
                                         bold=True) + extra


def _legend(position: Position, colours: dict[str, str]) -> Entries:
    entries = [Text("landscapes:", style=LABEL)]
    for letter in position.board.letters:
        name = position.board.landscape_name(letter)
        entry = Text(f" {letter} ", style=Style(color="rgb(30,30,30)", bgcolor=colours[letter]))
        if name:
            entry.append(f" {name}", style=LABEL)
        entries.append(entry)
    return Entries(entries, " ", style=LABEL)


def pieces_said(count: int) -> str:
    """``count`` pieces in words: "1 piece", "13 pieces"."""
    return f"{count} piece" if count == 1 else f"{count} pieces"


def status_line(position: Position) -> Entries:
    """Scores, pieces on the board, stones left and the player to move (wrapped between
    those entries on a narrow terminal)."""
    entries = []
    for colour, points in position.score_map.items():
        entry = Text(f"{colour} ", style=Style(color=PIECE_FG.get(colour), bold=True))
        entry.append(f"{points} pts ({pieces_said(len(position.pieces_of(colour)))})")
        entries.append(entry)
    entries.append(Text(f"stones left {position.stones_left}"))
    entries.append(Text("to move: ").append(
        position.to_move, style=Style(color=PIECE_FG.get(position.to_move), bold=True)))
    return Entries(entries, "   ")
