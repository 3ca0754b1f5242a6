"""Reading and writing Terra Nova (KOSMOS) files: positions, boards, faction data (TOML).

The reader checks everything structural (keys, types, tokens, colours,
supply, power tokens, town tiles) and raises
:class:`~solver.errors.InputError` naming the file and the place; rule-level
checks (a qualifying town-less component [D27]) belong to the engine's
``validate``. The writer is canonical: ``read(write(p)) == p`` and
``write(read(write(p))) == write(p)``. docs/terra-nova-kosmos.md describes the format.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.geometry import HexGrid, cell_name
from solver.paths import POSITIONS_DIR
from solver.terra_nova_kosmos.position import (
    OBJECTIVES,
    PLANNED_ROUNDS,
    PUZZLE_KINDS,
    Board,
    Building,
    Player,
    Position,
    Puzzle,
    Solution,
)
from solver.terra_nova_kosmos.rules import (
    BONUS_TILES,
    BRIDGE_ADJACENCY,
    BRIDGES,
    BUILDING_LETTER,
    COLOUR_LETTER,
    COLOURS,
    FACTION_IDS,
    HOUSES,
    KONTORE,
    LETTER_BUILDING,
    LETTER_LANDSCAPE,
    NEUTRAL,
    NEUTRAL_LETTER,
    PALACE_SIDES,
    PALACES,
    POWER_ACTIONS,
    POWER_TOKENS,
    RIVER,
    ROUND_TILES,
    ROUNDS,
    SPECIAL_ACTIONS,
    TOWN_TILES,
    TOWN_TILES_EACH,
    TURN_ORDERS,
    VARIANTS,
    Faction,
    Rules,
)
from solver.tomlfile import (
    board_text_line,
    check_keys,
    load_toml,
    parse_toml,
    place_of,
    read_solution_table,
    require_count,
    require_type,
)

GAME = "terra-nova-kosmos"
DATA_DIR = POSITIONS_DIR / GAME
FACTIONS_FILE = DATA_DIR / "factions.toml"
BOARDS_DIR = DATA_DIR / "boards"
NO_CELL = "---"

TOP_KEYS = ("game", "players", "factions", "to_move", "start", "round", "round_tiles",
            "power_actions_used", "bonus_display", "passed", "order", "variant", "neutral",
            "rules",
            "board_name", "board", "bridge_spots", "neutral_marks", "player", "faction_data",
            "puzzle", "solution")
BOARD_KEYS = ("game", "board_name", "for_players", "description", "board", "bridge_spots",
              "neutral_marks")
PLAYER_KEYS = ("vp", "money", "power", "shipping", "bonus", "palaces", "specials_used",
               "town_tiles", "towns", "bridges", "links")
PROJECT_KEYS = ("colour", "start_money", "house_income", "kontor_income", "shipping_vp")
OVERRIDE_KEYS = ("start_money", "house_income", "kontor_income", "palace_income", "shipping_vp")
RULE_KEYS = ("bridge_adjacency", "final_round_swap", "turn_order")
COLOUR_OF_LETTER = {v: k for k, v in COLOUR_LETTER.items()}


class _Reader:
    """Located errors and typed values for one file."""

    def __init__(self, text: str, path: str | Path | None):
        self.text = text
        self.path = path

    def fail(self, message: str, key: str | None = None) -> InputError:
        return InputError(message, path=self.path, place=self.place(key) if key else None)

    def place(self, key: str) -> str:
        """``line N (key 'k')``; a key of a ``[player.x]``-like table is looked up
        below that table's header, so two players' ``power`` lines are told apart."""
        table, _, last = key.rpartition(".")
        if table.count(".") == 1:
            lines = self.text.splitlines()
            header = f"[{table}]"
            starts = [n for n, line in enumerate(lines) if line.strip() == header]
            for n in range(starts[0] + 1 if starts else len(lines), len(lines)):
                stripped = lines[n].strip()
                if stripped.startswith("["):
                    break
                if stripped.split("=")[0].strip() == last:
                    return f"line {n + 1} (key '{key}')"
        return place_of(self.text, key)

    def typed(self, value: Any, kind: type | tuple[type, ...], key: str) -> Any:
        try:
            return require_type(value, kind, key, text=self.text, path=self.path)
        except InputError as exc:
            raise self.fail(exc.message, key) from None

    def nat(self, value: Any, key: str) -> int:
        try:
            return require_count(value, key, text=self.text, path=self.path)
        except InputError as exc:
            raise self.fail(exc.message, key) from None

    def strings(self, value: Any, key: str) -> list[str]:
        for item in self.typed(value, list, key):
            self.typed(item, str, key)
        return list(value)

    def choice(self, value: Any, allowed: Any, key: str, what: str) -> str:
        value = self.typed(value, str, key)
        if value not in allowed:
            raise self.fail(f"unknown {what} {value!r} (one of: {', '.join(allowed)})", key)
        return value

    def cell(self, grid: HexGrid, name: str, key: str) -> int:
        try:
            return grid.cell(name)
        except ValueError as exc:
            raise self.fail(str(exc), key) from None

    def pair(self, grid: HexGrid, text: str, key: str) -> tuple[int, int]:
        parts = text.split("-")
        if len(parts) != 2:
            raise self.fail(f"{text!r} is not a pair of cells ('c4-e4')", key)
        a, b = (self.cell(grid, p, key) for p in parts)
        if a == b:
            raise self.fail(f"{text!r} joins a cell to itself", key)
        return (min(a, b), max(a, b))


# ---- faction data -------------------------------------------------------------------------

def _income(reader: _Reader, value: Any, key: str, length: int) -> tuple[tuple[int, int], ...]:
    rows = reader.typed(value, list, key)
    if len(rows) != length:
        raise reader.fail(f"'{key}' needs {length} [money, power] pairs, not {len(rows)}", key)
    out = []
    for row in rows:
        reader.typed(row, list, key)
        if len(row) != 2:
            raise reader.fail(f"'{key}' entries are [money, power] pairs", key)
        out.append((reader.nat(row[0], key), reader.nat(row[1], key)))
    return tuple(out)


def _faction_values(reader: _Reader, table: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The typed values of the keys of ``table`` that are tableau data."""
    values: dict[str, Any] = {}
    for key, value in table.items():
        where = prefix + key
        if key == "colour":
            values[key] = reader.choice(value, COLOURS, where, "colour")
        elif key == "start_money":
            values[key] = reader.nat(value, where)
        elif key == "house_income":
            values[key] = _income(reader, value, where, HOUSES)
        elif key == "kontor_income":
            values[key] = _income(reader, value, where, KONTORE)
        elif key == "palace_income":
            values[key] = _income(reader, [value], where, 1)[0]
        elif key == "shipping_vp":
            vps = reader.typed(value, list, where)
            if not vps:
                raise reader.fail("the shipping track needs at least one space", where)
            values[key] = tuple(reader.nat(v, where) for v in vps)
    return values


def read_factions(path: str | Path = FACTIONS_FILE) -> dict[str, Faction]:
    """The faction tableaux [D7] from ``factions.toml``: faction id → :class:`Faction`."""
    data, text = load_toml(path)
    reader = _Reader(text, path)
    check_keys(data, ("faction",), text=text, path=path)
    table = reader.typed(data.get("faction", {}), dict, "faction")
    check_keys(table, FACTION_IDS, text=text, path=path, prefix="faction.")
    out = {}
    for faction_id in FACTION_IDS:
        if faction_id not in table:
            raise reader.fail(f"missing [faction.{faction_id}]")
        entry = reader.typed(table[faction_id], dict, f"faction.{faction_id}")
        check_keys(entry, ("name", "side", "palace_income", "project"), text=text, path=path,
                   prefix=f"faction.{faction_id}.")
        project = reader.typed(entry.get("project", {}), dict, f"faction.{faction_id}.project")
        check_keys(project, PROJECT_KEYS, text=text, path=path,
                   prefix=f"faction.{faction_id}.project.")
        values = _faction_values(reader, {"palace_income": entry.get("palace_income")},
                                 f"faction.{faction_id}.")
        values |= _faction_values(reader, project, f"faction.{faction_id}.project.")
        missing = [k for k in PROJECT_KEYS if k not in values]
        if missing:
            raise reader.fail(f"[faction.{faction_id}.project] needs '{missing[0]}'",
                              f"faction.{faction_id}")
        out[faction_id] = Faction(
            id=faction_id,
            name=reader.typed(entry.get("name", faction_id), str, f"faction.{faction_id}.name"),
            side=reader.choice(entry.get("side", ""), ("A", "B"), f"faction.{faction_id}.side",
                               "side"),
            **values,
        )
    return out


@cache
def default_factions() -> dict[str, Faction]:
    """The bundled ``factions.toml`` (read once)."""
    return read_factions(FACTIONS_FILE)


# ---- the map ------------------------------------------------------------------------------

def _read_map(reader: _Reader, board_text: str, colours: tuple[str, ...], neutral_ok: bool
              ) -> tuple[HexGrid, tuple[str, ...], tuple[Building | None, ...]]:
    rows = [line.split() for line in board_text.splitlines() if line.strip()]
    if not rows:
        raise reader.fail("the board is empty", "board")

    def row_place(r: int) -> str:
        line = board_text_line(reader.text, "board", r)
        return f"line {line} (board row {r + 1})" if line else f"board row {r + 1}"

    width = len(rows[0])
    exists, landscape, buildings = [], [], []
    for r, tokens in enumerate(rows):
        if len(tokens) != width:
            raise InputError(f"row has {len(tokens)} tokens, the first row has {width} "
                             f"(use '{NO_CELL}' for no cell)", path=reader.path,
                             place=row_place(r))
        row_exists = []
        for c, token in enumerate(tokens):
            where = f"{row_place(r)}, cell {cell_name(r, c)}"

            def bad(message: str, where: str = where) -> InputError:
                return InputError(message, path=reader.path, place=where)

            if token == NO_CELL:
                row_exists.append(False)
                continue
            if len(token) != 3:
                raise bad(f"bad token {token!r}: three characters (landscape, colour, "
                          "building), e.g. 'lBh' or 'r..'")
            land, owner, kind = token[0], token[1], token[2]
            if land != RIVER and land not in LETTER_LANDSCAPE:
                raise bad(f"bad landscape {land!r} in {token!r}: one of l f w d s r")
            if (owner == ".") != (kind == "."):
                raise bad(f"{token!r}: a building needs both a colour and a kind")
            building = None
            if owner != ".":
                if land == RIVER:
                    raise bad(f"{token!r}: nothing is built on a river hex")
                if kind not in LETTER_BUILDING:
                    raise bad(f"bad building {kind!r} in {token!r}: h, k or p")
                if owner == NEUTRAL_LETTER:
                    if not neutral_ok or kind != "h":
                        raise bad(f"{token!r}: neutral houses only in the 2-player variants")
                    building = Building(NEUTRAL, "house")
                else:
                    colour = COLOUR_OF_LETTER.get(owner)
                    if colour is None:
                        raise bad(f"bad colour {owner!r} in {token!r}: one of Y B G R K N")
                    if colour not in colours:
                        raise bad(f"a {colour} building, but {colour} is not a player")
                    building = Building(colour, LETTER_BUILDING[kind])
            row_exists.append(True)
            landscape.append(land)
            buildings.append(building)
        exists.append(tuple(row_exists))
    if not landscape:
        raise reader.fail("the board has no cells", "board")
    return HexGrid(tuple(exists)), tuple(landscape), tuple(buildings)


def _read_spots(reader: _Reader, data: dict[str, Any], grid: HexGrid,
                landscape: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    spots = []
    for text in reader.strings(data.get("bridge_spots", []), "bridge_spots"):
        a, b = reader.pair(grid, text, "bridge_spots")
        if RIVER in (landscape[a], landscape[b]):
            raise reader.fail(f"bridge spot {text}: both ends must be landscape hexes",
                              "bridge_spots")
        shared = set(grid.neighbours[a]) & set(grid.neighbours[b])
        if b in grid.neighbours[a] or not any(landscape[r] == RIVER for r in shared):
            raise reader.fail(f"bridge spot {text}: its hexes must not touch and must share "
                              "a neighbouring river hex", "bridge_spots")
        if (a, b) in spots:
            raise reader.fail(f"bridge spot {text} is listed twice", "bridge_spots")
        spots.append((a, b))
    return tuple(sorted(spots))


def _read_board(reader: _Reader, data: dict[str, Any], colours: tuple[str, ...],
                neutral_ok: bool) -> tuple[Board, tuple[str, ...], tuple[Building | None, ...]]:
    if "board" not in data:
        raise reader.fail("missing key 'board'")
    grid, landscape, buildings = _read_map(reader, reader.typed(data["board"], str, "board"),
                                           colours, neutral_ok)
    spots = _read_spots(reader, data, grid, landscape)
    marks = []
    for name in reader.strings(data.get("neutral_marks", []), "neutral_marks"):
        cell = reader.cell(grid, name, "neutral_marks")
        if cell in marks:
            raise reader.fail(f"neutral mark {name} is listed twice", "neutral_marks")
        marks.append(cell)
    river = frozenset(i for i, land in enumerate(landscape) if land == RIVER)
    name = reader.typed(data.get("board_name", ""), str, "board_name")
    return Board(grid, river, spots, tuple(sorted(marks)), name), landscape, buildings


def read_board(path: str | Path) -> tuple[Board, tuple[str, ...]]:
    """A board file (``boards/*.toml``): the :class:`Board` and the printed landscapes."""
    data, text = load_toml(path)
    reader = _Reader(text, path)
    if data.get("game") != GAME:
        raise reader.fail(f"'game' must be \"{GAME}\" here, not {data.get('game')!r}", "game")
    check_keys(data, BOARD_KEYS, text=text, path=path)
    board, landscape, buildings = _read_board(reader, data, (), False)
    return board, landscape


def is_board_file(path: str | Path) -> bool:
    """True when the file is a board (it has ``board_name`` and no ``players``)."""
    data, _ = load_toml(path)
    return "players" not in data and "board_name" in data


# ---- positions ----------------------------------------------------------------------------

def read_position(path: str | Path, factions: dict[str, Faction] | None = None) -> Position:
    """Read a position file (``factions``: the tableau defaults, else ``factions.toml``)."""
    data, text = load_toml(path)
    return position_from_toml(data, text, path, factions)


def parse_position(text: str, path: str | Path | None = None,
                   factions: dict[str, Faction] | None = None) -> Position:
    """Parse position text (``path`` only names the source in errors)."""
    return position_from_toml(parse_toml(text, path), text, path, factions)


def position_from_toml(data: dict[str, Any], text: str, path: str | Path | None,
                       factions: dict[str, Faction] | None = None) -> Position:
    """Build a Position from parsed TOML ``data``; ``text`` locates errors."""
    reader = _Reader(text, path)
    if data.get("game") != GAME:
        raise reader.fail(f"'game' must be \"{GAME}\" here, not {data.get('game')!r}", "game")
    check_keys(data, TOP_KEYS, text=text, path=path)
    for key in ("players", "factions", "to_move", "round", "round_tiles", "board"):
        if key not in data:
            raise reader.fail(f"missing key '{key}'")

    colours = tuple(reader.strings(data["players"], "players"))
    if not 2 <= len(colours) <= 4:
        raise reader.fail(f"2 to 4 players, not {len(colours)}", "players")
    for colour in colours:
        reader.choice(colour, COLOURS, "players", "colour")
    if len(set(colours)) != len(colours):
        raise reader.fail("a colour is listed twice", "players")
    to_move = reader.choice(data["to_move"], colours, "to_move", "player")
    start = reader.choice(data.get("start", colours[0]), colours, "start", "player")
    round_ = reader.typed(data["round"], int, "round")
    if not 1 <= round_ <= ROUNDS:
        raise reader.fail(f"round must be 1 to {ROUNDS}", "round")
    tiles = tuple(reader.choice(t, ROUND_TILES, "round_tiles", "round tile")
                  for t in reader.strings(data["round_tiles"], "round_tiles"))
    if len(tiles) != ROUNDS:
        raise reader.fail(f"round_tiles names the tiles of all {ROUNDS} rounds", "round_tiles")
    used = [reader.choice(a, POWER_ACTIONS, "power_actions_used", "power action")
            for a in reader.strings(data.get("power_actions_used", []), "power_actions_used")]
    if len(set(used)) != len(used):
        raise reader.fail("a power action is listed twice", "power_actions_used")
    variant = reader.choice(data.get("variant", "standard"), VARIANTS, "variant", "variant")
    neutral = None
    if "neutral" in data:
        neutral = reader.choice(data["neutral"], COLOURS, "neutral", "colour")
        if variant != "planer" or neutral in colours:
            raise reader.fail("'neutral' names the Planer variant's neutral colour, "
                              "not a player", "neutral")
    rules = _read_rules(reader, data.get("rules", {}))

    board, landscape, buildings = _read_board(reader, data, colours, variant != "standard")
    display = _read_display(reader, data.get("bonus_display", {}))
    passed = tuple(reader.choice(c, colours, "passed", "player")
                   for c in reader.strings(data.get("passed", []), "passed"))
    if len(set(passed)) != len(passed):
        raise reader.fail("a player is listed twice", "passed")
    if to_move in passed:
        raise reader.fail(f"to_move {to_move!r} has passed", "to_move")
    order = tuple(reader.choice(c, colours, "order", "player")
                  for c in reader.strings(data.get("order", []), "order"))
    if order and sorted(order) != sorted(colours):
        raise reader.fail("'order' lists every player once (the acting order this round)",
                          "order")

    faction_of = _read_faction_choice(reader, data["factions"], colours)
    defaults = factions if factions is not None else default_factions()
    overrides = _read_overrides(reader, data.get("faction_data", {}), faction_of)
    effective = []
    for colour in colours:
        base = defaults[faction_of[colour]]
        changes = dict(dict(overrides).get(base.id, ()))
        effective.append(Faction(**(base.__dict__ | changes)))
    for colour, faction in zip(colours, effective, strict=True):
        if faction.colour != colour:
            raise reader.fail(f"{faction.id} plays {faction.colour}, not {colour}", "factions")

    table = reader.typed(data.get("player", {}), dict, "player")
    check_keys(table, colours, text=text, path=path, prefix="player.")
    players = tuple(
        _read_player(reader, colour, faction_of[colour],
                     reader.typed(table.get(colour, {}), dict, f"player.{colour}"),
                     board, landscape, buildings, effective[i])
        for i, colour in enumerate(colours))
    _check_shared(reader, players, board, buildings, display)

    return Position(
        board=board, landscape=landscape, buildings=buildings, players=players,
        factions=tuple(effective), to_move=to_move, start=start, round=round_,
        round_tiles=tiles, power_actions_used=tuple(a for a in POWER_ACTIONS if a in used),
        bonus_display=display, passed=passed, order=order, variant=variant, neutral=neutral,
        rules=rules,
        overrides=overrides, puzzle=_read_puzzle(reader, data.get("puzzle")),
        solution=_read_solution(reader, data.get("solution")),
    )


def _read_rules(reader: _Reader, table: Any) -> Rules:
    reader.typed(table, dict, "rules")
    check_keys(table, RULE_KEYS, text=reader.text, path=reader.path, prefix="rules.")
    return Rules(
        bridge_adjacency=reader.choice(table.get("bridge_adjacency", "all"), BRIDGE_ADJACENCY,
                                       "rules.bridge_adjacency", "option value"),
        final_round_swap=reader.typed(table.get("final_round_swap", True), bool,
                                      "rules.final_round_swap"),
        turn_order=reader.choice(table.get("turn_order", "standard"), TURN_ORDERS,
                                 "rules.turn_order", "option value"),
    )


def _read_display(reader: _Reader, table: Any) -> tuple[tuple[str, int], ...]:
    reader.typed(table, dict, "bonus_display")
    for tile, coins in table.items():
        reader.choice(tile, BONUS_TILES, f"bonus_display.{tile}", "bonus tile")
        reader.nat(coins, f"bonus_display.{tile}")
    return tuple((tile, table[tile]) for tile in BONUS_TILES if tile in table)


def _read_faction_choice(reader: _Reader, table: Any, colours: tuple[str, ...]
                         ) -> dict[str, str]:
    reader.typed(table, dict, "factions")
    check_keys(table, colours, text=reader.text, path=reader.path, prefix="factions.")
    out = {}
    for colour in colours:
        if colour not in table:
            raise reader.fail(f"'factions' needs the faction of {colour}", "factions")
        out[colour] = reader.choice(table[colour], FACTION_IDS, f"factions.{colour}", "faction")
    if len(set(out.values())) != len(out):
        raise reader.fail("a faction is chosen twice", "factions")
    return out


def _read_overrides(reader: _Reader, table: Any, faction_of: dict[str, str]
                    ) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    reader.typed(table, dict, "faction_data")
    check_keys(table, sorted(faction_of.values()), text=reader.text, path=reader.path,
               prefix="faction_data.")
    out = []
    for faction_id in FACTION_IDS:
        if faction_id not in table:
            continue
        entry = reader.typed(table[faction_id], dict, f"faction_data.{faction_id}")
        check_keys(entry, OVERRIDE_KEYS, text=reader.text, path=reader.path,
                   prefix=f"faction_data.{faction_id}.")
        values = _faction_values(reader, entry, f"faction_data.{faction_id}.")
        out.append((faction_id, tuple((k, values[k]) for k in OVERRIDE_KEYS if k in values)))
    return tuple(out)


def _read_player(reader: _Reader, colour: str, faction_id: str, table: dict[str, Any],
                 board: Board, landscape: tuple[str, ...],
                 buildings: tuple[Building | None, ...], faction: Faction) -> Player:
    key = f"player.{colour}."
    check_keys(table, PLAYER_KEYS, text=reader.text, path=reader.path, prefix=key)
    grid = board.grid
    power = reader.typed(table.get("power", [2, 2, 4]), list, key + "power")
    if len(power) != 3:
        raise reader.fail("power lists bowls I, II, III", key + "power")
    power = tuple(reader.nat(v, key + "power") for v in power)
    if sum(power) != POWER_TOKENS:
        raise reader.fail(f"power bowls hold {sum(power)} tokens, not {POWER_TOKENS}",
                          key + "power")
    shipping = reader.nat(table.get("shipping", 0), key + "shipping")
    if shipping > faction.max_shipping:
        raise reader.fail(f"shipping {shipping} is past the track's end "
                          f"({faction.max_shipping})", key + "shipping")
    bonus = table.get("bonus")
    if bonus is not None:
        bonus = reader.choice(bonus, BONUS_TILES, key + "bonus", "bonus tile")

    mine = [i for i, b in enumerate(buildings) if b is not None and b.owner == colour]
    kinds = [b.kind for b in buildings if b is not None and b.owner == colour]
    for kind, supply in (("house", HOUSES), ("kontor", KONTORE), ("palace", PALACES)):
        if kinds.count(kind) > supply:
            raise reader.fail(f"{colour} has {kinds.count(kind)} {kind}s on the board; "
                              f"the supply is {supply}", "board")
    palaces = [reader.choice(s, PALACE_SIDES, key + "palaces", "palace side")
               for s in reader.strings(table.get("palaces", []), key + "palaces")]
    if len(set(palaces)) != len(palaces) or len(palaces) != kinds.count("palace"):
        raise reader.fail(f"{colour} has {kinds.count('palace')} palaces on the board; "
                          "'palaces' names each one's side once", key + "palaces")
    specials = [reader.choice(s, SPECIAL_ACTIONS, key + "specials_used", "special action")
                for s in reader.strings(table.get("specials_used", []), key + "specials_used")]
    if len(set(specials)) != len(specials):
        raise reader.fail("a special action is listed twice", key + "specials_used")
    tiles = [reader.choice(t, TOWN_TILES, key + "town_tiles", "town tile")
             for t in reader.strings(table.get("town_tiles", list(TOWN_TILES)),
                                     key + "town_tiles")]
    if len(set(tiles)) != len(tiles):
        raise reader.fail("a town tile is listed twice", key + "town_tiles")
    towns = []
    for name in reader.strings(table.get("towns", []), key + "towns"):
        cell = reader.cell(grid, name, key + "towns")
        river_ok = faction_id == "seebaeren" and landscape[cell] == RIVER
        if cell in towns or not (cell in mine or river_ok):
            raise reader.fail(f"town {name}: the tile lies under a building of {colour}"
                              + (" or on a river hex" if faction_id == "seebaeren" else ""),
                              key + "towns")
        towns.append(cell)
    if len(towns) + len(tiles) != TOWN_TILES_EACH:
        raise reader.fail(f"{len(towns)} towns and {len(tiles)} unused town tiles: they must "
                          f"add up to {TOWN_TILES_EACH}", key + "towns")
    bridges = []
    for text in reader.strings(table.get("bridges", []), key + "bridges"):
        spot = reader.pair(grid, text, key + "bridges")
        if spot not in board.bridge_spots:
            raise reader.fail(f"bridge {text} is not on a bridge spot", key + "bridges")
        if spot in bridges:
            raise reader.fail(f"bridge {text} is listed twice", key + "bridges")
        bridges.append(spot)
    if len(bridges) > BRIDGES:
        raise reader.fail(f"{colour} has {len(bridges)} bridges; the supply is {BRIDGES}",
                          key + "bridges")
    links = []
    for text in reader.strings(table.get("links", []), key + "links"):
        a, b = reader.pair(grid, text, key + "links")
        shared = set(grid.neighbours[a]) & set(grid.neighbours[b])
        if (faction_id != "seebaeren" or a not in mine or b not in mine
                or not any(landscape[r] == RIVER for r in shared)):
            raise reader.fail(f"link {text}: Seebären link two own buildings across one river "
                              "hex", key + "links")
        if (a, b) in links:
            raise reader.fail(f"link {text} is listed twice", key + "links")
        links.append((a, b))
    return Player(
        colour=colour, faction=faction_id,
        vp=reader.nat(table.get("vp", 0), key + "vp"),
        money=reader.nat(table.get("money", faction.start_money), key + "money"),
        power=power, shipping=shipping, bonus=bonus,
        palaces=tuple(s for s in PALACE_SIDES if s in palaces),
        specials_used=tuple(sorted(specials)),
        town_tiles=tuple(t for t in TOWN_TILES if t in tiles),
        towns=tuple(sorted(towns)), bridges=tuple(sorted(bridges)),
        links=tuple(sorted(links)),
    )


def _check_shared(reader: _Reader, players: tuple[Player, ...], board: Board,
                  buildings: tuple[Building | None, ...],
                  display: tuple[tuple[str, int], ...]) -> None:
    seen: dict[tuple[int, int], str] = {}
    for player in players:
        for bridge in player.bridges:
            if bridge in seen:
                raise reader.fail(f"{seen[bridge]} and {player.colour} both have the bridge "
                                  f"{_pair_name(board.grid, bridge)}",
                                  f"player.{player.colour}.bridges")
            seen[bridge] = player.colour
    held = [p.bonus for p in players if p.bonus is not None]
    shown = [tile for tile, _ in display]
    if len(set(held)) != len(held) or set(held) & set(shown):
        raise reader.fail("a bonus tile is held twice or held and on display", "bonus_display")


def _read_puzzle(reader: _Reader, table: Any) -> Puzzle | None:
    if table is None:
        return None
    reader.typed(table, dict, "puzzle")
    check_keys(table, ("kind", "objective", "rounds"), text=reader.text, path=reader.path,
               prefix="puzzle.")
    kind = reader.choice(table.get("kind", PUZZLE_KINDS[0]), PUZZLE_KINDS, "puzzle.kind",
                         "puzzle kind")
    if kind != "best-round" and "objective" in table:
        raise reader.fail(f"a {kind} puzzle takes no objective", "puzzle.objective")
    if kind != "last-rounds" and "rounds" in table:
        raise reader.fail(f"a {kind} puzzle takes no rounds", "puzzle.rounds")
    if kind == "last-rounds":
        rounds = reader.nat(table.get("rounds", PLANNED_ROUNDS[0]), "puzzle.rounds")
        if rounds not in PLANNED_ROUNDS:
            raise reader.fail("a last-rounds puzzle plans "
                              f"{' or '.join(map(str, PLANNED_ROUNDS))} rounds, "
                              f"not {rounds}", "puzzle.rounds")
        return Puzzle(kind=kind, rounds=rounds)
    if kind != "best-round":
        return Puzzle(kind=kind)
    objective = reader.choice(table.get("objective", OBJECTIVES[0]), OBJECTIVES,
                              "puzzle.objective", "objective")
    return Puzzle(kind=kind, objective=objective)


def _read_solution(reader: _Reader, table: Any) -> Solution | None:
    return read_solution_table(table, "line", text=reader.text, path=reader.path)


# ---- writing ------------------------------------------------------------------------------

def _string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _strings(values: Any) -> str:
    return "[" + ", ".join(_string(v) for v in values) + "]"


def _pair_name(grid: HexGrid, pair: tuple[int, int]) -> str:
    return f"{grid.name(pair[0])}-{grid.name(pair[1])}"


def board_text(position: Position) -> str:
    """The map as token rows (odd rows indented two spaces, as the hexes lie)."""

    def token(i: int) -> str:
        b = position.buildings[i]
        if b is None:
            mark = ".."
        elif b.owner == NEUTRAL:
            mark = NEUTRAL_LETTER + "h"
        else:
            mark = COLOUR_LETTER[b.owner] + BUILDING_LETTER[b.kind]
        return position.landscape[i] + mark

    return position.grid.text_rows(token, NO_CELL)


def _value(value: Any) -> str:
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def write_position(position: Position) -> str:
    """The canonical TOML text of ``position``."""
    grid = position.grid
    out = [
        f'game = "{GAME}"',
        "players = " + _strings(position.colours),
        "factions = { " + ", ".join(f"{p.colour} = {_string(p.faction)}"
                                    for p in position.players) + " }",
        f"to_move = {_string(position.to_move)}",
        f"start = {_string(position.start)}",
        f"round = {position.round}",
        "round_tiles = " + _strings(position.round_tiles),
        "power_actions_used = " + _strings(position.power_actions_used),
        "bonus_display = { " + ", ".join(f"{t} = {n}" for t, n in position.bonus_display) + " }",
        "passed = " + _strings(position.passed),
        f"variant = {_string(position.variant)}",
    ]
    if position.order:
        out.append("order = " + _strings(position.order))
    if position.neutral is not None:
        out.append(f"neutral = {_string(position.neutral)}")
    rules = position.rules
    out.append(f"rules = {{ bridge_adjacency = {_string(rules.bridge_adjacency)}, "
               f"final_round_swap = {str(rules.final_round_swap).lower()}, "
               f"turn_order = {_string(rules.turn_order)} }}")
    if position.board.name:
        out.append(f"board_name = {_string(position.board.name)}")
    out += ['board = """', board_text(position), '"""',
            "bridge_spots = " + _strings(_pair_name(grid, s) for s in position.board.bridge_spots)]
    if position.board.neutral_marks:
        out.append("neutral_marks = " + _strings(grid.name(c)
                                                 for c in position.board.neutral_marks))
    for p in position.players:
        out += ["", f"[player.{p.colour}]", f"vp = {p.vp}", f"money = {p.money}",
                f"power = {_value(p.power)}", f"shipping = {p.shipping}"]
        if p.bonus is not None:
            out.append(f"bonus = {_string(p.bonus)}")
        out += [
            "palaces = " + _strings(p.palaces),
            "specials_used = " + _strings(p.specials_used),
            "town_tiles = " + _strings(p.town_tiles),
            "towns = " + _strings(grid.name(c) for c in p.towns),
            "bridges = " + _strings(_pair_name(grid, b) for b in p.bridges),
        ]
        if p.links:
            out.append("links = " + _strings(_pair_name(grid, b) for b in p.links))
    for faction_id, values in position.overrides:
        out += ["", f"[faction_data.{faction_id}]"]
        out += [f"{key} = {_value(value)}" for key, value in values]
    if position.puzzle is not None:
        out += ["", "[puzzle]", f"kind = {_string(position.puzzle.kind)}"]
        if position.puzzle.objective is not None:
            out.append(f"objective = {_string(position.puzzle.objective)}")
        if position.puzzle.rounds is not None:
            out.append(f"rounds = {position.puzzle.rounds}")
    if position.solution is not None:
        out += ["", "[solution]", f"value = {position.solution.value}",
                "line = " + _strings(position.solution.line)]
    return "\n".join(out) + "\n"
