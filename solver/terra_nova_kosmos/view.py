"""Draw a Terra Nova (KOSMOS) position with rich: the hex map and a player panel.

Landscapes are background colours, the river blue; a built hex reads like its
file token (``lBh``: lake, blue, house) in its owner's colour. The cell's last
character marks a bridge end (``=``, ``:`` for a free spot) or a town tile
(``*``). Odd rows are shifted half a cell right (odd-r).
The panel lists each player's money, power bowls, shipping, buildings and score.
"""

from __future__ import annotations

from rich.console import Group, JustifyMethod
from rich.style import Style
from rich.table import Table
from rich.text import Text

from solver.drawing.grid_text import board_lines
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
LABEL = Style(color="grey62")
LAND_BG = {"l": "rgb(70,120,200)", "f": "rgb(40,110,50)", "w": "rgb(170,60,50)",
           "d": "rgb(215,190,90)", "s": "rgb(80,70,60)", RIVER: "rgb(150,200,235)"}
OWNER_FG = {"yellow": "rgb(255,240,40)", "blue": "rgb(30,60,255)", "green": "rgb(60,230,90)",
            "red": "rgb(255,40,40)", "black": "rgb(0,0,0)", NEUTRAL: "rgb(240,240,240)"}
GLYPH = {"house": "h", "kontor": "k", "palace": "p"}


def render_board(board: Board, landscape: tuple[str, ...], position: Position | None = None
                 ) -> Group:
    """The map (and the buildings, bridges and towns of ``position`` if given)."""
    bridged = {c for p in (position.players if position else ()) for b in p.bridges for c in b}
    spots = {c for s in board.bridge_spots for c in s}
    towns = {c for p in (position.players if position else ()) for c in p.towns}

    def cell_text(i: int) -> Text:
        building = position.buildings[i] if position else None
        land = landscape[i]
        mark = "*" if i in towns else "=" if i in bridged else ":" if i in spots else " "
        if building is None:
            body = " " + (land if land != RIVER else "~") + " "
            style = Style(color="rgb(20,20,20)" if land in "dr" else "rgb(225,225,225)",
                          bgcolor=LAND_BG[land])
        else:
            owner = NEUTRAL_LETTER if building.owner == NEUTRAL \
                else COLOUR_LETTER[building.owner]
            body = f"{land}{owner}{GLYPH[building.kind]}"
            style = Style(color=OWNER_FG[building.owner], bgcolor=LAND_BG[land], bold=True)
        return Text(body + mark, style=style)

    lines = board_lines(board.grid, CELL, cell_text, label_style=LABEL, shift_odd_rows=True)
    lines.append(_legend())
    return Group(*lines)


def _legend() -> Text:
    text = Text()
    for name, letter in LANDSCAPE_LETTER.items():
        text.append(f" {letter} ", style=Style(color="rgb(225,225,225)", bgcolor=LAND_BG[letter]))
        text.append(f" {name} ", style=LABEL)
    text.append(" ~ ", style=Style(color="rgb(20,20,20)", bgcolor=LAND_BG[RIVER]))
    text.append(" river", style=LABEL)
    text.append("\nbuilt: landscape + owner (Y B G R K, N neutral) + h house, k Kontor, "
                "p palace\n= bridge  : bridge spot  * town", style=LABEL)
    return text


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
        name = Text(f"{colour} ", style=Style(color=OWNER_FG[colour], bold=True))
        name.append(faction.name)
        pieces = "/".join(str(position.count(colour, k)) for k in ("house", "kontor", "palace"))
        state = "passed" if position.has_passed(colour) else (
            "to move" if colour == position.to_move else "")
        table.add_row(
            name, str(player.vp), str(player.money), "/".join(map(str, player.power)),
            f"{player.shipping}/{faction.max_shipping}", pieces, str(len(player.bridges)),
            f"{TOWN_TILES_EACH - len(player.town_tiles)}", player.bonus or "-", state,
        )
    return table


def round_line(position: Position) -> Text:
    """Round, its tile, used power actions and the bonus display."""
    text = Text(f"round {position.round}: {position.round_tiles[position.round - 1]}",
                style="bold")
    text.append(f"   start marker {position.start}")
    if position.power_actions_used:
        text.append("   used: " + " ".join(position.power_actions_used))
    if position.bonus_display:
        text.append("\ndisplay: " + "  ".join(f"{t}+{n}$" for t, n in position.bonus_display))
    return text


def render_position(position: Position) -> Group:
    """The map, the round line and the player panel."""
    return Group(render_board(position.board, position.landscape, position),
                 round_line(position), render_panel(position))
