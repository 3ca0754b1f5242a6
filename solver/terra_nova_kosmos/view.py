"""Draw a Terra Nova (KOSMOS) position with rich: the hex map and a player panel.

Every landscape has one fixed colour (:data:`LANDSCAPES`, for 16 and 256 colours),
the river its own; a built hex reads like its file token (``lBh``: lake, blue,
house) on its owner's brighter colour. The cell's last character marks a hex the
answer changed (``+``), a town tile (``*``) or a bridge end (``=``, ``:`` for a free
spot), so the board reads without colour too. Odd rows are shifted half a cell
right (odd-r).
The panel lists each player's money, power bowls, shipping, buildings and score.
"""

from __future__ import annotations

from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

from solver.drawing.entries import Entries
from solver.drawing.grid_text import board_lines
from solver.drawing.terminal import Depth, Painted, Swatch, swatch
from solver.terra_nova_kosmos.position import Board, Position
from solver.terra_nova_kosmos.rules import (
    COLOUR_LETTER,
    LANDSCAPE_LETTER,
    NEUTRAL,
    NEUTRAL_LETTER,
    RIVER,
    TOWN_TILES_EACH,
)

CELL = 4
LANDSCAPES: dict[str, Swatch] = {
    "l": swatch(68, "blue", "white"), "f": swatch(65, "green", "white"),
    "w": swatch(131, "red", "white"), "d": swatch(186, "yellow"),
    "s": swatch(243, "bright_black", "white"), RIVER: swatch(153, "bright_cyan"),
}
"""One colour per landscape letter (the river's too)."""
OWNERS: dict[str, Swatch] = {
    "yellow": swatch(220, "bright_yellow"), "blue": swatch(27, "bright_blue", "white"),
    "green": swatch(40, "bright_green"), "red": swatch(196, "bright_red", "white"),
    "black": swatch(16, "black", "white"), NEUTRAL: swatch(255, "bright_white"),
}
"""A built hex is drawn in its owner's colour, brighter than the landscapes."""
GLYPH = {"house": "h", "kontor": "k", "palace": "p"}
CHANGED = "+"
"""The mark of a hex the answer changed (a building, a bridge end, a town)."""


def render_board(board: Board, landscape: tuple[str, ...], position: Position | None = None,
                 changed: frozenset[int] = frozenset()) -> RenderableType:
    """The map (and the buildings, bridges and towns of ``position`` if given); hexes in
    ``changed`` are marked ``+``."""
    bridged = {c for p in (position.players if position else ()) for b in p.bridges for c in b}
    spots = {c for s in board.bridge_spots for c in s}
    towns = {c for p in (position.players if position else ()) for c in p.towns}

    def cell_text(i: int, depth: Depth) -> Text:
        building = position.buildings[i] if position else None
        land = landscape[i]
        mark = (CHANGED if i in changed else "*" if i in towns else "=" if i in bridged
                else ":" if i in spots else " ")
        if building is None:
            body = " " + (land if land != RIVER else "~") + " "
            return Text(body + mark, style=LANDSCAPES[land].style(depth))
        owner = NEUTRAL_LETTER if building.owner == NEUTRAL else COLOUR_LETTER[building.owner]
        return Text(f"{land}{owner}{GLYPH[building.kind]}{mark}",
                    style=OWNERS[building.owner].style(depth, bold=True))

    def build(depth: Depth, width: int) -> list[RenderableType]:
        lines: list[RenderableType] = [*board_lines(board.grid, CELL,
                                                    lambda i: cell_text(i, depth),
                                                    shift_odd_rows=True)]
        return [*lines, _legend(depth, bool(changed))]

    return Painted(build)


def _legend(depth: Depth, changed: bool) -> Entries:
    entries: list[Text | str] = []
    for name, letter in LANDSCAPE_LETTER.items():
        entries.append(Text().append(f" {letter} ", style=LANDSCAPES[letter].style(depth))
                       .append(f" {name}"))
    entries.append(Text().append(" ~ ", style=LANDSCAPES[RIVER].style(depth)).append(" river"))
    entries += ["built: landscape + owner (Y B G R K, N neutral) + h house, k Kontor, "
                "p palace", "= bridge", ": bridge spot", "* town"]
    if changed:
        entries.append("+ changed by the answer")
    return Entries(entries, "  ")


def render_panel(position: Position) -> Table:
    """One row per player: faction, VP, money, power bowls, shipping, pieces, tiles."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("player", "left"), ("VP", "right"), ("$", "right"), ("power", "center"),
        ("ship", "right"), ("h/K/P", "center"), ("brg", "right"), ("towns", "right"),
        ("bonus", "left"), ("", "left"))
    for column, justify in columns:
        table.add_column(column, justify=justify)
    for player, faction in zip(position.players, position.factions, strict=True):
        colour = player.colour
        name = Text(f"{colour} {faction.name}")
        pieces = "/".join(str(position.count(colour, k)) for k in ("house", "kontor", "palace"))
        state = "passed" if position.has_passed(colour) else (
            "to move" if colour == position.to_move else "")
        table.add_row(
            name, str(player.vp), str(player.money), "/".join(map(str, player.power)),
            f"{player.shipping}/{faction.max_shipping}", pieces, str(len(player.bridges)),
            f"{TOWN_TILES_EACH - len(player.town_tiles)}", player.bonus or "-", state,
        )
    return table


def round_line(position: Position) -> Group:
    """Round, its tile, used power actions and the bonus display (wrapped between
    entries)."""
    entries: list[Text | str] = [
        Text(f"round {position.round}: round tile {position.round_tiles[position.round - 1]}",
             style="bold"), f"start marker {position.start}"]
    used = list(position.power_actions_used)
    if used:
        entries += [f"used: {used[0]}", *used[1:]]
    lines: list[Entries] = [Entries(entries, "  ")]
    if position.bonus_display:
        shown = [f"{t}+{n}$" for t, n in position.bonus_display]
        lines.append(Entries([f"display: {shown[0]}", *shown[1:]], "  "))
    return Group(*lines)


def render_position(position: Position, changed: frozenset[int] = frozenset()) -> Group:
    """The map, the round line and the player panel; ``changed`` hexes marked ``+``."""
    return Group(render_board(position.board, position.landscape, position, changed),
                 round_line(position), render_panel(position))


def changed_hexes(before: Position, after: Position) -> frozenset[int]:
    """The hexes a line changed: buildings, landscapes, new bridge ends and towns."""
    cells = {c for c in range(before.grid.size)
             if after.buildings[c] != before.buildings[c]
             or after.landscape[c] != before.landscape[c]}
    for p, q in zip(before.players, after.players, strict=True):
        cells |= {c for bridge in set(q.bridges) - set(p.bridges) for c in bridge}
        cells |= set(q.towns) - set(p.towns)
    return frozenset(cells)
