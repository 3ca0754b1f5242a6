"""Draw a Terra Nova hex board with rich, readable with 16, 256 or no colours.

Each cell is four characters: `` m  `` a free cell of landscape ``m``, `` ●R `` a
red piece (a dark chip, its landscape showing on either side), `` ## `` a stone.
Every landscape name has one fixed colour (:data:`LANDSCAPES`; a name the table
does not know takes the next of :data:`OTHER_LANDSCAPES`), none of them the grey
of stones or the dark of pieces. What an answer changes is marked in characters,
so it survives ``NO_COLOR`` and pipes: ``[##]`` a new stone, ``[●R]`` a piece that
moves (before) or has moved (after), a digit beside the letter the region it
scored in. Odd rows are shifted half a cell to the right (odd-r layout); column
letters run along the top and bottom, row numbers down both sides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.console import RenderableType
from rich.text import Text

from solver.drawing.entries import Entries
from solver.drawing.grid_text import board_lines
from solver.drawing.terminal import Depth, Painted, Swatch, chip, swatch
from solver.terra_nova.notation import Move, Stone, Turn
from solver.terra_nova.position import EMPTY, PIECE_LETTER, STONE, Position

CELL = 4
"""Characters per cell; odd rows are indented by half of it."""

LAKE_WORDS = ("lake", "water", "see", "lago", "meer", "wasser")
LANDSCAPES: dict[str, Swatch] = {
    "lake": swatch(32, "blue", "white"), "meadow": swatch(113, "bright_green"),
    "forest": swatch(28, "green", "white"), "hills": swatch(137, "red", "black", "white"),
    "tundra": swatch(152, "bright_cyan"), "desert": swatch(223, "white"),
    "swamp": swatch(96, "magenta", "white"), "cornfield": swatch(220, "bright_yellow"),
    "mountain": swatch(181, "bright_white"),
}
"""The colour of each landscape a file may name in ``[landscapes]`` (a name containing a
word of :data:`LAKE_WORDS`, or the letter ``w`` unnamed, is a lake)."""
OTHER_LANDSCAPES = (swatch(174, "bright_red"), swatch(109, "cyan"),
                    swatch(186, "yellow"), swatch(146, "bright_blue"),
                    swatch(216, "bright_magenta"), swatch(117, "bright_cyan"),
                    swatch(194, "bright_green"), swatch(225, "bright_white"))
"""Colours of landscapes without a known name, in the order of their letters."""
STONE_SWATCH = swatch(241, "bright_black", "white")


@dataclass(frozen=True)
class Marks:
    """What an answer changes, marked on a board (cells are indices)."""

    changed: frozenset[int] = frozenset()
    """Cells drawn ``[..]``: pieces that move (before), new stones and pieces that have
    moved (after)."""
    regions: Mapping[int, int] = field(default_factory=dict)
    """Cell → the number of the region it scored in (after)."""
    note: str = ""
    """The legend entry saying what ``[..]`` means on this board."""


def landscape_swatches(position: Position) -> dict[str, Swatch]:
    """The swatch of each landscape letter on the board (fixed per name)."""
    out = {}
    others = iter(OTHER_LANDSCAPES * 3)
    for letter in position.board.letters:
        name = (position.board.landscape_name(letter) or "").lower()
        lake = any(word in name for word in LAKE_WORDS) or (letter == "w" and not name)
        known = LANDSCAPES["lake"] if lake else LANDSCAPES.get(name)
        out[letter] = known or next(others)
    return out


def render_position(position: Position, marks: Marks | None = None) -> RenderableType:
    """The board of ``position`` with a legend and the scores under it; ``marks`` the
    changes an answer makes."""
    marks = marks or Marks()
    swatches = landscape_swatches(position)

    def build(depth: Depth, width: int) -> list[RenderableType]:
        lines: list[RenderableType] = [*board_lines(
            position.grid, CELL, lambda i: _cell(position, i, swatches, marks, depth),
            shift_odd_rows=True)]
        lines.append(_legend(position, swatches, marks, depth))
        lines.append(status_line(position, depth))
        return lines

    return Painted(build)


def _cell(position: Position, i: int, swatches: dict[str, Swatch], marks: Marks,
          depth: Depth) -> Text:
    letter = position.board.landscape[i]
    occupant = position.occupant[i]
    left, right = ("[", "]") if i in marks.changed else (" ", " ")
    if occupant == STONE:
        return Text(f"{left}##{right}", style=STONE_SWATCH.style(depth, bold=True))
    ground = swatches[letter].style(depth)
    if occupant == EMPTY:
        number = marks.regions.get(i)
        return Text(f"{left}{letter}{' ' if number is None else number % 10}{right}",
                    style=ground)
    text = Text(left, style=ground)
    text.append(*chip(occupant, f"●{PIECE_LETTER.get(occupant, '?')}", depth))
    text.append(right, style=ground)
    return text


def _legend(position: Position, swatches: dict[str, Swatch], marks: Marks,
            depth: Depth) -> Entries:
    entries: list[Text | str] = ["landscapes:"]
    for letter in position.board.letters:
        entry = Text().append(f" {letter} ", style=swatches[letter].style(depth))
        name = position.board.landscape_name(letter)
        if name:
            entry.append(f" {name}")
        entries.append(entry)
    entries.append(Text().append("##", style=STONE_SWATCH.style(depth, bold=True))
                   .append(" stone"))
    if marks.note:
        entries.append(marks.note)
    if marks.regions:
        entries.append("1 2 …: the regions scored")
    return Entries(entries, " ")


def pieces_said(count: int) -> str:
    """``count`` pieces in words: "1 piece", "13 pieces"."""
    return f"{count} piece" if count == 1 else f"{count} pieces"


def status_line(position: Position, depth: Depth = Depth.NONE) -> Entries:
    """Scores, pieces on the board, stones left and the player to move (wrapped between
    those entries on a narrow terminal)."""
    entries: list[Text | str] = []
    for colour, points in position.score_map.items():
        entry = Text().append(*chip(colour, f"●{PIECE_LETTER.get(colour, '?')}", depth))
        entry.append(f" {colour} {points} pts ({pieces_said(len(position.pieces_of(colour)))})")
        entries.append(entry)
    entries.append(f"stones left {position.stones_left}")
    entries.append(f"to move: {position.to_move}")
    return Entries(entries, "   ")


def answer_marks(position: Position, line: Sequence[Turn], final: Position,
                 regions: Sequence[Sequence[int]]) -> tuple[Marks, Marks]:
    """The marks of a line on the board before it (the pieces that move, where they
    start) and after it (new stones, moved pieces where they end, ``regions`` — the
    cells of each region scored, in order — numbered from 1)."""
    start: dict[int, int] = {}  # where a moved piece stands now -> where it started
    stones: set[int] = set()
    for turn in line:
        for action in turn:
            if isinstance(action, Move):
                start[action.dst] = start.pop(action.src, action.src)
            elif isinstance(action, Stone):
                stones.add(action.cell)
    moved = {cell for cell in start if final.occupant[cell] not in (EMPTY, STONE)}
    numbers = {cell: n for n, cells in enumerate(regions, start=1) for cell in cells}
    before = Marks(frozenset(start.values()), note="[●R] moves in the answer")
    after = Marks(frozenset(stones | moved), numbers,
                  note="[##] new stone  [●R] moved piece")
    return before, after
