"""Draw a Rift Valley square board in colour with rich.

Each cell is three characters on the soft background tint of its area. Animals
are letters (k kob, e elephant, l lion), ♣ a tree, ≈ water, ═/║ the rift (in
the owner's colour, the double line along the rift's direction). Elements are in
their player's colour: ● stop, ▲ tent, trail lines ─ │ ┌ ┐ └ ┘ (west–east
trails run on through the cell edges). Column letters run along the top and
bottom, row numbers down both sides.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text

from solver.drawing.entries import Entries
from solver.drawing.grid_text import board_lines
from solver.rift_valley.engine.draws import score
from solver.rift_valley.position import (
    ELEPHANT,
    KOB,
    LION,
    RIFT_NS,
    RIFT_WE,
    TREE,
    WATER,
    Position,
)

AREA_BGS = (
    "rgb(246,226,190)", "rgb(214,236,196)", "rgb(204,222,244)",
    "rgb(244,208,214)", "rgb(228,214,244)", "rgb(250,244,188)",
    "rgb(196,236,230)", "rgb(230,230,230)", "rgb(244,220,196)",
)
"""Background tint of areas 1–9."""

PLAYER_FG = {"red": "rgb(200,0,0)", "yellow": "rgb(190,130,0)", "blue": "rgb(0,40,200)",
             "green": "rgb(0,130,40)", "purple": "rgb(130,0,160)"}
TERRAIN_GLYPH = {KOB: ("k", "rgb(150,90,20)"), ELEPHANT: ("e", "rgb(80,80,80)"),
                 LION: ("l", "rgb(200,120,0)"), TREE: ("♣", "rgb(0,100,0)"),
                 WATER: ("≈", "rgb(30,90,200)")}
RIFT_GLYPH = {RIFT_WE: "═", RIFT_NS: "║"}
RIFT_CROSSING = {RIFT_WE: "╪", RIFT_NS: "╫"}
"""A trail crossing the rift: single line across the double rift line."""
LINES = {frozenset("EW"): "─", frozenset("NS"): "│", frozenset("ES"): "┌",
         frozenset("SW"): "┐", frozenset("NE"): "└", frozenset("NW"): "┘",
         frozenset("E"): "─", frozenset("W"): "─", frozenset("N"): "│", frozenset("S"): "│"}
LABEL = Style(color="grey62")


def _trail_links(position: Position) -> dict[int, tuple[str, set[str]]]:
    """Per trail cell: owner colour and the directions its trails leave it (N/E/S/W)."""
    grid = position.grid
    links: dict[int, tuple[str, set[str]]] = {}
    for colour, elements in position.elements:
        for trail in elements.trails:
            cells = trail.cells(grid)
            for a, b in zip(cells, cells[1:], strict=False):
                (ra, ca), (rb, cb) = grid.coords[a], grid.coords[b]
                there = "E" if cb > ca else "W" if cb < ca else "S" if rb > ra else "N"
                back = {"E": "W", "W": "E", "S": "N", "N": "S"}[there]
                links.setdefault(a, (colour, set()))[1].add(there)
                links.setdefault(b, (colour, set()))[1].add(back)
    return links


def _cell_text(position: Position, cell: int, links, stops, tents, marked: bool) -> Text:
    board = position.board
    bg = AREA_BGS[(board.areas[cell] - 1) % len(AREA_BGS)]
    base = Style(bgcolor=bg, bold=marked, underline=marked)
    terrain = board.terrain[cell]
    left = right = " "
    fg = "black"
    centre = "·"
    link = links.get(cell)
    if cell in stops:
        fg, centre = PLAYER_FG[stops[cell]], "●"
    elif cell in tents:
        fg, centre = PLAYER_FG[tents[cell]], "▲"
    elif link is not None and terrain in RIFT_GLYPH:
        fg, centre = PLAYER_FG[link[0]], RIFT_CROSSING[terrain]
    elif link is not None:
        fg, centre = PLAYER_FG[link[0]], LINES.get(frozenset(link[1]), "┼")
    elif terrain in TERRAIN_GLYPH:
        centre, fg = TERRAIN_GLYPH[terrain]
    elif terrain in RIFT_GLYPH:
        centre, fg = RIFT_GLYPH[terrain], PLAYER_FG[position.rift_owner]
    else:
        fg = "rgb(170,170,170)"
    if link is not None:
        left = "─" if "W" in link[1] else " "
        right = "─" if "E" in link[1] else " "
        line_style = base + Style(color=PLAYER_FG[link[0]])
    else:
        line_style = base
    text = Text()
    text.append(left, style=line_style)
    text.append(centre, style=base + Style(color=fg, bold=True))
    text.append(right, style=line_style)
    return text


def board_grid(position: Position, highlight: Iterable[int] = frozenset()) -> Group:
    """Just the coloured grid with cell names along the edges."""
    grid = position.grid
    marked = frozenset(highlight)
    links = _trail_links(position)
    stops = {s: c for c, e in position.elements for s in e.stops}
    tents = {t: c for c, e in position.elements for t in e.tents}
    return Group(*board_lines(grid, 3, lambda cell: _cell_text(position, cell, links, stops,
                                                                tents, cell in marked),
                              label_style=LABEL))


def legend(position: Position) -> Entries:
    """One line explaining the glyphs, the rift owner in their colour (wrapped between
    entries on a narrow terminal)."""
    owner = position.rift_owner
    rift = Text(f"{RIFT_GLYPH[RIFT_WE]}{RIFT_GLYPH[RIFT_NS]} rift of ", style="grey50")
    rift.append(owner, style=PLAYER_FG[owner])
    return Entries(["k kob +1", "e elephant +2", "l lion +3", "♣ tree", "≈ water", rift,
                    "● stop", "▲ tent", "─│┌┐└┘ trail"], "  ", style="grey50")


def score_table(position: Position) -> Table:
    """Per-colour score breakdown on this board (the puzzle player always listed)."""
    table = Table(box=None, pad_edge=False, header_style="bold")
    for name in ("colour", "trails", "animals", "tents", "unconnected", "total"):
        table.add_column(name, justify="left" if name == "colour" else "right")
    colours = list(position.colours)
    if position.player not in colours:
        colours.append(position.player)
    for colour in colours:
        s = score(position, colour)
        table.add_row(Text(colour, style=PLAYER_FG[colour]), str(s.trails), str(s.animals),
                      str(s.tents), str(s.unconnected), Text(str(s.total), style="bold"))
    return table


def render_board(position: Position, highlight: Iterable[int] = frozenset()) -> Group:
    """The board in colour with a legend and the per-colour score breakdown.

    ``highlight`` cells (indices) are drawn bold and underlined (e.g. new elements).
    """
    return Group(board_grid(position, highlight), legend(position), score_table(position))
