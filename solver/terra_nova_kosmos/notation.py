"""Turns of Terra Nova (KOSMOS) as text: exchanges, one action, towns, exchanges.

``"$2 terraform d5 build town:t9 $1"`` is one turn: exchange 2 power for 2
money, transform d5 and build a house there, found a town with tile ``t9``,
exchange 1 more power. :func:`parse_turn` and :func:`format_turn` are inverse
on canonical text; bad text raises :class:`~solver.errors.InputError` naming
the token. docs/terra-nova-kosmos.md lists every action.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from solver.errors import InputError
from solver.geometry import HexGrid
from solver.terra_nova_kosmos.rules import BONUS_TILES, TOWN_TILES

CELL_ACTIONS = ("build", "lake-house", "free-kontor", "inv-kontor")
"""Actions on one cell, nothing more."""
DIG_ACTIONS = ("terraform", "pa-spade1", "b-spade", "feen-spade", "desert-dig")
"""Actions on one cell that may be followed by ``build`` (a house on it)."""
BRIDGE_ACTIONS = ("bridge", "pa-bridge3", "pa-bridge4")
PLAIN_ACTIONS = ("ship", "pa-ship", "pa-money7")
ACTIONS: tuple[str, ...] = (CELL_ACTIONS + DIG_ACTIONS + BRIDGE_ACTIONS + PLAIN_ACTIONS
                            + ("upgrade", "pa-spade2", "pass"))
UPGRADE_PIECES = ("k", "pl", "pr")
"""Upgrade to a Kontor, to the left palace, to the right palace."""
SHIP_WORD = "ship"
"""After ``upgrade … pl``: the Seebären left palace's optional free shipping step."""

_EXCHANGE = re.compile(r"^([$*])([1-9][0-9]*)$")
_TOWN = re.compile(r"^town:([a-z0-9]+)(?:@([a-z]+[0-9]+))?$")


@dataclass(frozen=True)
class Exchange:
    """``$n``: n power → n money; ``*n``: Druiden, n × (3 power → 2 VP)."""

    kind: str
    count: int


@dataclass(frozen=True)
class Action:
    """One action. ``cells`` are its target hexes; ``build`` the hex where an optional
    house goes (dig actions, ``pa-spade2``); ``piece`` the upgrade target; ``edge`` the
    Ifrit left palace's edge hex; ``ship`` the Seebären left palace's shipping step."""

    name: str
    cells: tuple[int, ...] = ()
    build: int | None = None
    piece: str | None = None
    edge: int | None = None
    ship: bool = False
    bridge: tuple[int, int] | None = None
    tile: str | None = None


@dataclass(frozen=True)
class Town:
    """A town founded after the action: the tile taken and, when given, a member
    building's hex or (Seebären) the river hex of a link."""

    tile: str
    at: int | None = None


@dataclass(frozen=True)
class Turn:
    """Exchanges, one action, the towns it founds, exchanges."""

    action: Action
    before: tuple[Exchange, ...] = ()
    towns: tuple[Town, ...] = ()
    after: tuple[Exchange, ...] = ()


def _cell(grid: HexGrid, token: str) -> int:
    try:
        return grid.cell(token)
    except ValueError as exc:
        raise InputError(str(exc), place=f"token {token!r}") from None


def _pair(grid: HexGrid, token: str) -> tuple[int, int]:
    parts = token.split("-")
    if len(parts) != 2:
        raise InputError("a bridge is two cells joined by '-' ('c4-e4')", place=f"token {token!r}")
    a, b = (_cell(grid, p) for p in parts)
    return (min(a, b), max(a, b))


def _action(words: list[str], grid: HexGrid) -> Action:
    name, args = words[0], words[1:]
    if name not in ACTIONS:
        raise InputError(f"unknown action (one of: {', '.join(ACTIONS)})", place=f"token {name!r}")

    def arity(low: int, high: int) -> None:
        if not low <= len(args) <= high:
            raise InputError(f"wrong arguments for {name}: {' '.join(args) or 'none'}",
                             place=f"action {' '.join(words)!r}")

    if name in CELL_ACTIONS:
        arity(1, 1)
        return Action(name, cells=(_cell(grid, args[0]),))
    if name in DIG_ACTIONS:
        arity(1, 2)
        cell = _cell(grid, args[0])
        if len(args) == 2 and args[1] != "build":
            raise InputError("after the hex only 'build' may follow", place=f"token {args[1]!r}")
        return Action(name, cells=(cell,), build=cell if len(args) == 2 else None)
    if name in BRIDGE_ACTIONS:
        arity(1, 1)
        return Action(name, bridge=_pair(grid, args[0]))
    if name in PLAIN_ACTIONS:
        arity(0, 0)
        return Action(name)
    if name == "pass":
        arity(0, 1)
        if args and args[0] not in BONUS_TILES:
            raise InputError(f"unknown bonus tile (one of: {', '.join(BONUS_TILES)})",
                             place=f"token {args[0]!r}")
        return Action(name, tile=args[0] if args else None)
    if name == "upgrade":
        arity(2, 4)
        cell = _cell(grid, args[0])
        if args[1] not in UPGRADE_PIECES:
            raise InputError("upgrade to k (Kontor), pl or pr (left or right palace)",
                             place=f"token {args[1]!r}")
        edge, ship = None, False
        for extra in args[2:]:
            if extra == SHIP_WORD and not ship:
                ship = True
            elif extra.startswith("@") and edge is None:
                edge = _cell(grid, extra[1:])
            else:
                raise InputError("after an upgrade only '@cell' (Ifrit) or 'ship' (Seebären)",
                                 place=f"token {extra!r}")
        if (edge is not None or ship) and args[1] != "pl":
            raise InputError("'@cell' and 'ship' belong to a left palace (pl)",
                             place=f"action {' '.join(words)!r}")
        return Action(name, cells=(cell,), piece=args[1], edge=edge, ship=ship)
    # pa-spade2: one hex [build] or two hexes [build <hex>]
    arity(1, 4)
    if len(args) in (1, 2) and (len(args) == 1 or args[1] == "build"):
        cell = _cell(grid, args[0])
        return Action(name, cells=(cell,), build=cell if len(args) == 2 else None)
    if len(args) == 2:
        return Action(name, cells=(_cell(grid, args[0]), _cell(grid, args[1])))
    if len(args) == 4 and args[2] == "build":
        cells = (_cell(grid, args[0]), _cell(grid, args[1]))
        build = _cell(grid, args[3])
        if build not in cells:
            raise InputError("the house goes on one of the two hexes", place=f"token {args[3]!r}")
        return Action(name, cells=cells, build=build)
    raise InputError("pa-spade2 takes 'hex [build]' or 'hex hex [build hex]'",
                     place=f"action {' '.join(words)!r}")


def parse_turn(text: str, grid: HexGrid) -> Turn:
    """Parse one turn; InputError names the bad token."""
    tokens = text.split()
    before: list[Exchange] = []
    after: list[Exchange] = []
    towns: list[Town] = []
    words: list[str] = []
    for token in tokens:
        exchange = _EXCHANGE.match(token)
        town = _TOWN.match(token)
        if exchange:
            (after if words else before).append(Exchange(exchange.group(1),
                                                         int(exchange.group(2))))
        elif town:
            if not words or after:
                raise InputError("a town follows the action, before the closing exchanges",
                                 place=f"token {token!r}")
            if town.group(1) not in TOWN_TILES:
                raise InputError(f"unknown town tile (one of: {', '.join(TOWN_TILES)})",
                                 place=f"token {token!r}")
            at = _cell(grid, town.group(2)) if town.group(2) else None
            towns.append(Town(town.group(1), at))
        elif token.startswith("town:"):
            raise InputError("a town is town:<tile> or town:<tile>@<cell>",
                             place=f"token {token!r}")
        else:
            if after or towns:
                raise InputError("one action per turn; this comes after its towns or exchanges",
                                 place=f"token {token!r}")
            words.append(token)
    if not words:
        raise InputError("a turn needs exactly one action", place=f"turn {text!r}")
    return Turn(_action(words, grid), tuple(before), tuple(towns), tuple(after))


def parse_line(turns: Sequence[str], grid: HexGrid) -> list[Turn]:
    """Parse several turns; errors name the turn (1-based) and the token."""
    out = []
    for number, text in enumerate(turns, start=1):
        try:
            out.append(parse_turn(text, grid))
        except InputError as exc:
            place = f"turn {number}" + (f", {exc.place}" if exc.place else "")
            raise InputError(exc.message, place=place) from None
    return out


def format_action(action: Action, grid: HexGrid) -> str:
    """The canonical text of one action."""
    name = action.name
    cells = [grid.name(c) for c in action.cells]
    if name in BRIDGE_ACTIONS:
        assert action.bridge is not None, "a bridge action names its hexes"
        a, b = action.bridge
        return f"{name} {grid.name(a)}-{grid.name(b)}"
    if name == "pass":
        return "pass" + (f" {action.tile}" if action.tile else "")
    if name == "upgrade":
        assert action.piece is not None, "an upgrade names its piece"
        words = [name, cells[0], action.piece]
        if action.edge is not None:
            words.append("@" + grid.name(action.edge))
        if action.ship:
            words.append(SHIP_WORD)
        return " ".join(words)
    words = [name] + cells
    if action.build is not None:
        words += ["build"] + ([grid.name(action.build)] if len(cells) == 2 else [])
    return " ".join(words)


def _exchange(exchange: Exchange) -> str:
    return f"{exchange.kind}{exchange.count}"


def format_turn(turn: Turn, grid: HexGrid) -> str:
    """The canonical text of one turn (inverse of :func:`parse_turn`)."""
    words = [_exchange(e) for e in turn.before] + [format_action(turn.action, grid)]
    words += ["town:" + t.tile + (f"@{grid.name(t.at)}" if t.at is not None else "")
              for t in turn.towns]
    words += [_exchange(e) for e in turn.after]
    return " ".join(words)

