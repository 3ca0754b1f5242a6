"""Draw a Rift Valley square board with rich, readable with 16, 256 or no colours.

Each cell is three characters on its area's background (one fixed colour per area
number, :data:`AREAS`); beside the board (below it when the terminal is narrow) a
map of the area numbers shows the areas in characters too. Animals are letters
(k kob, e elephant, l lion), ♣ a tree, ≈ water, ═/║ the rift. The player's stops
are ``●``, another colour's stops its initial (``R``), tents ``▲``, trails the
lines ``─ │ ┌ ┐ └ ┘`` (west–east trails run on through the cell edges). Elements
the answer adds are drawn apart in characters, so they show without colour and in
a pipe: a new stop ``◉``, a new tent ``△``, a new trail in heavy lines
``━ ┃ ┏ ┓ ┗ ┛``. Column letters run along the top and bottom, row numbers down both
sides.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from solver.drawing.entries import Entries
from solver.drawing.grid_text import board_lines
from solver.drawing.terminal import Depth, Ink, Painted, Swatch, chip, swatch
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

AREAS: tuple[Swatch, ...] = (
    swatch(223, "bright_white"), swatch(151, "bright_green"), swatch(153, "bright_cyan"),
    swatch(217, "bright_red"), swatch(183, "bright_magenta"), swatch(229, "bright_yellow"),
    swatch(116, "cyan"), swatch(252, "white"), swatch(180, "bright_blue"),
)
"""The background of areas 1–9 (area 10 and on start again): pale tints, so the dark
inks of elements read on every one."""

INKS: dict[str, Ink] = {
    "red": Ink("color(160)", "red"), "yellow": Ink("color(136)", "black"),
    "blue": Ink("color(19)", "blue"), "green": Ink("color(28)", "green"),
    "purple": Ink("color(90)", "magenta"),
}
"""Trail ink by colour on the pale areas (16 colours: yellow is written black, as its
stops' chips say whose it is)."""
TERRAIN_GLYPH = {KOB: ("k", Ink("color(94)", "black")),
                 ELEPHANT: ("e", Ink("color(238)", "black")),
                 LION: ("l", Ink("color(130)", "black")),
                 TREE: ("♣", Ink("color(22)", "green")), WATER: ("≈", Ink("color(25)", "blue"))}
RIFT_GLYPH = {RIFT_WE: "═", RIFT_NS: "║"}
RIFT_CROSSING = {RIFT_WE: "╪", RIFT_NS: "╫"}
"""A trail crossing the rift: single line across the double rift line."""
NEW_RIFT_CROSSING = {RIFT_WE: "╂", RIFT_NS: "┿"}
"""A new trail crossing the rift: a heavy line across it."""
LINES = {frozenset("EW"): "─", frozenset("NS"): "│", frozenset("ES"): "┌",
         frozenset("SW"): "┐", frozenset("NE"): "└", frozenset("NW"): "┘",
         frozenset("E"): "─", frozenset("W"): "─", frozenset("N"): "│", frozenset("S"): "│"}
HEAVY = str.maketrans("─│┌┐└┘┼", "━┃┏┓┗┛╋")
"""A new trail's lines."""
OPEN_INK = Ink("color(245)", "black")
SIDE_BY_SIDE_GAP = 3


@dataclass(frozen=True)
class NewElements:
    """What the answer drew (cells are indices), marked on the board after it."""

    stops: frozenset[int] = frozenset()
    tents: frozenset[int] = frozenset()
    trail_cells: frozenset[int] = frozenset()


def area_swatch(area: int) -> Swatch:
    """The background of area ``area`` (1-based)."""
    return AREAS[(area - 1) % len(AREAS)]


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


def _cell_text(position: Position, cell: int, links: dict, stops: dict, tents: dict,
               new: NewElements, depth: Depth) -> Text:
    board = position.board
    ground = area_swatch(board.areas[cell])
    terrain = board.terrain[cell]
    link = links.get(cell)
    heavy = cell in new.trail_cells
    text = Text()
    side = ground.style(depth, ink=INKS.get(link[0]) if link else None, bold=heavy)
    left = "─" if link is not None and "W" in link[1] else " "
    right = "─" if link is not None and "E" in link[1] else " "
    if heavy:
        left, right = left.translate(HEAVY), right.translate(HEAVY)
    text.append(left, style=side)
    if cell in stops:
        colour = stops[cell]
        glyph = ("◉" if cell in new.stops else "●") if colour == position.player \
            else colour[0].upper()
        text.append(*chip(colour, glyph, depth))
    elif cell in tents:
        text.append(*chip(tents[cell], "△" if cell in new.tents else "▲", depth))
    elif link is not None:
        if terrain in RIFT_GLYPH:
            glyph = (NEW_RIFT_CROSSING if heavy else RIFT_CROSSING)[terrain]
        else:
            glyph = LINES.get(frozenset(link[1]), "┼")
            glyph = glyph.translate(HEAVY) if heavy else glyph
        text.append(glyph, style=side)
    elif terrain in TERRAIN_GLYPH:
        glyph, ink = TERRAIN_GLYPH[terrain]
        text.append(glyph, style=ground.style(depth, ink=ink, bold=True))
    elif terrain in RIFT_GLYPH:
        text.append(RIFT_GLYPH[terrain],
                    style=ground.style(depth, ink=INKS.get(position.rift_owner), bold=True))
    else:
        text.append("·", style=ground.style(depth, ink=OPEN_INK))
    text.append(right, style=side)
    return text


def board_grid(position: Position, new: NewElements, depth: Depth) -> list[Text]:
    """The board's rows with cell names along the edges."""
    links = _trail_links(position)
    stops = {s: c for c, e in position.elements for s in e.stops}
    tents = {t: c for c, e in position.elements for t in e.tents}
    return board_lines(position.grid, 3, lambda cell: _cell_text(
        position, cell, links, stops, tents, new, depth))


def area_map(position: Position, depth: Depth, width: int = 3) -> list[Text]:
    """The area number of every cell (``width`` characters), on its area's colour: the
    areas without colour."""
    areas = position.board.areas
    return board_lines(position.grid, width, lambda cell: Text(
        f"{areas[cell]:^{width}}", style=area_swatch(areas[cell]).style(depth)))


def legend(position: Position, new: NewElements) -> Entries:
    """What the glyphs mean (wrapped between entries on a narrow terminal)."""
    owner = position.rift_owner
    entries = ["k kob +1", "e elephant +2", "l lion +3", "♣ tree", "≈ water",
               f"{RIFT_GLYPH[RIFT_WE]}{RIFT_GLYPH[RIFT_NS]} rift of {owner}",
               f"● {position.player}'s stop", "R Y B G P another colour's stop", "▲ tent",
               "─│┌┐└┘ trail"]
    if new.stops or new.tents or new.trail_cells:
        entries.append("◉ △ ━┃┏┓┗┛ drawn by the answer")
    return Entries(entries, "  ")


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
        table.add_row(colour, str(s.trails), str(s.animals), str(s.tents), str(s.unconnected),
                      Text(str(s.total), style="bold"))
    return table


def render_board(position: Position, new: NewElements | None = None) -> RenderableType:
    """The board with the area map beside it (below, when too narrow), a legend and
    the per-colour score breakdown; ``new``: the elements an answer drew."""
    new = new or NewElements()

    def build(depth: Depth, width: int) -> list[RenderableType]:
        board = board_grid(position, new, depth)
        for cell_width in (3, 2):
            areas = area_map(position, depth, cell_width)
            if board[0].cell_len + SIDE_BY_SIDE_GAP + areas[0].cell_len <= width:
                rows = [b + Text(" " * SIDE_BY_SIDE_GAP) + a
                        for b, a in zip(board, areas, strict=True)]
                break
        else:
            rows = board + [Text("areas:")] + areas
        return [*rows, legend(position, new), score_table(position)]

    return Painted(build)


def new_elements(before: Position, after: Position) -> NewElements:
    """The elements of the player in ``after`` that are not in ``before``."""
    grid = before.grid
    old, now = before.of(before.player), after.of(before.player)
    trails = {c for t in now.trails if t not in old.trails for c in t.cells(grid)}
    return NewElements(frozenset(now.stops) - frozenset(old.stops),
                       frozenset(now.tents) - frozenset(old.tents), frozenset(trails))

