"""Reading and writing Rift Valley position and board files (TOML, see docs/formats.md).

The reader checks structure: keys and types, the terrain and area grids (same
shape, known letters, area numbers 1–9, exactly 9 areas each 4-connected, one
connected rift), colours, cell names and trail shapes. Element legality (stops
on open cells, trails crossing nothing, tent limit…) belongs to the engine's
``validate``. The writer is canonical: ``read(write(p)) == p`` and the text is
stable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.geometry import SquareGrid, cell_name
from solver.rift_valley.notation import format_trail, parse_trail
from solver.rift_valley.position import (
    AREA_COUNT,
    COLOURS,
    MAX_BOARD_COLS,
    MAX_BOARD_ROWS,
    RIFTS,
    TERRAIN,
    Board,
    Elements,
    Position,
)
from solver.tomlfile import (
    Solution,
    board_text_line,
    check_keys,
    load_toml,
    parse_toml,
    place_of,
    read_solution_table,
    require_count,
    require_type,
)

GAME = "rift-valley"
TOP_KEYS = ("game", "player", "rift_owner", "draws", "first_stop_rule", "terrain", "areas",
            "elements", "solution")
ELEMENT_KEYS = ("stops", "trails", "tents")


def read_position(path: str | Path) -> Position:
    """Read a Rift Valley position (or board) file."""
    data, text = load_toml(path)
    return position_from_toml(data, text, path)


def parse_position(text: str, path: str | Path | None = None) -> Position:
    """Parse Rift Valley position text (``path`` only names the source in errors)."""
    return position_from_toml(parse_toml(text, path), text, path)


def position_from_toml(data: dict[str, Any], text: str, path: str | Path | None) -> Position:
    """Build a Position from parsed TOML ``data``; ``text`` locates errors."""
    def fail(message: str, key: str | None = None) -> InputError:
        return InputError(message, path=path, place=place_of(text, key) if key else None)

    def typed(value: Any, kind: type | tuple[type, ...], key: str) -> Any:
        return require_type(value, kind, key, text=text, path=path)

    if data.get("game") != GAME:
        raise fail(f"'game' must be \"{GAME}\" here, not {data.get('game')!r}", "game")
    check_keys(data, TOP_KEYS, text=text, path=path)
    for key in ("rift_owner", "terrain", "areas"):
        if key not in data:
            raise fail(f"missing key '{key}'")
    rift_owner = _colour(typed(data["rift_owner"], str, "rift_owner"), "rift_owner", text, path)
    player = _colour(typed(data.get("player", rift_owner), str, "player"), "player", text, path)
    draws = data.get("draws")
    if draws is not None:
        draws = require_count(draws, "draws", text=text, path=path,
                              negative="draws cannot be negative")
    first_stop_rule = typed(data.get("first_stop_rule", False), bool, "first_stop_rule")

    board = _read_board(typed(data["terrain"], str, "terrain"), typed(data["areas"], str, "areas"),
                        text, path)

    elements = []
    table = typed(data.get("elements", {}), dict, "elements")
    for colour in table:
        _colour(colour, f"elements.{colour}", text, path)
    for colour in COLOURS:
        if colour in table:
            found = _read_elements(table[colour], colour, board.grid, text, path)
            if found:
                elements.append((colour, found))

    return Position(
        board=board,
        rift_owner=rift_owner,
        player=player,
        draws=draws,
        first_stop_rule=first_stop_rule,
        elements=tuple(elements),
        solution=_read_solution(data.get("solution"), text, path),
    )


def _colour(colour: str, key: str, text: str, path: str | Path | None) -> str:
    if colour not in COLOURS:
        raise InputError(f"unknown colour {colour!r} (colours: {', '.join(COLOURS)})",
                         path=path, place=place_of(text, key))
    return colour


def _grid_rows(value: str, key: str, text: str, path: str | Path | None) -> list[list[str]]:
    rows = [line.split() for line in value.splitlines() if line.strip()]
    if not rows:
        raise InputError(f"'{key}' is empty", path=path, place=place_of(text, key))
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            line = board_text_line(text, key, r)
            where = f"line {line} ({key} row {r + 1})" if line else f"{key} row {r + 1}"
            raise InputError(f"row has {len(row)} cells, the first row has {width}",
                             path=path, place=where)
    return rows


def _read_board(terrain_text: str, areas_text: str, text: str, path: str | Path | None) -> Board:
    terrain_rows = _grid_rows(terrain_text, "terrain", text, path)
    widest = max(len(row) for row in terrain_rows)
    if len(terrain_rows) > MAX_BOARD_ROWS or widest > MAX_BOARD_COLS:
        raise InputError(f"the terrain is {widest} columns × {len(terrain_rows)} rows; boards "
                         f"are at most {MAX_BOARD_COLS} × {MAX_BOARD_ROWS}", path=path,
                         place=place_of(text, "terrain"))
    area_rows = _grid_rows(areas_text, "areas", text, path)
    rows, cols = len(terrain_rows), len(terrain_rows[0])
    if (len(area_rows), len(area_rows[0])) != (rows, cols):
        raise InputError(
            f"areas is {len(area_rows[0])}×{len(area_rows)} but terrain is {cols}×{rows}",
            path=path, place=place_of(text, "areas"))
    grid = SquareGrid(rows, cols)

    def where(key: str, r: int, c: int) -> str:
        line = board_text_line(text, key, r)
        return f"line {line}, cell {cell_name(r, c)}" if line else f"cell {cell_name(r, c)}"

    terrain, areas = [], []
    for r in range(rows):
        for c in range(cols):
            letter = terrain_rows[r][c]
            if letter not in TERRAIN:
                raise InputError(f"bad terrain {letter!r} (use {' '.join(TERRAIN)})",
                                 path=path, place=where("terrain", r, c))
            number = area_rows[r][c]
            if not (number.isdigit() and 1 <= int(number) <= AREA_COUNT):
                raise InputError(f"bad area {number!r} (use 1 to {AREA_COUNT})",
                                 path=path, place=where("areas", r, c))
            terrain.append(letter)
            areas.append(int(number))
    for area in range(1, AREA_COUNT + 1):
        cells = [i for i, a in enumerate(areas) if a == area]
        if not cells:
            raise InputError(f"area {area} is missing: a board has exactly {AREA_COUNT} areas",
                             path=path, place=place_of(text, "areas"))
        if not _connected(grid, cells):
            raise InputError(f"area {area} is not 4-connected", path=path,
                             place=place_of(text, "areas"))
    rift = [i for i, t in enumerate(terrain) if t in RIFTS]
    if rift and not _connected(grid, rift):
        raise InputError("the rift cells must form one connected chain", path=path,
                         place=place_of(text, "terrain"))
    return Board(grid, tuple(terrain), tuple(areas))


def _connected(grid: SquareGrid, cells: list[int]) -> bool:
    wanted = set(cells)
    seen = {cells[0]}
    stack = [cells[0]]
    while stack:
        for nb in grid.neighbours[stack.pop()]:
            if nb in wanted and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) == len(wanted)


def _read_elements(table: Any, colour: str, grid: SquareGrid, text: str,
                   path: str | Path | None) -> Elements:
    prefix = f"elements.{colour}"
    require_type(table, dict, prefix, text=text, path=path)
    check_keys(table, ELEMENT_KEYS, text=text, path=path, prefix=f"{prefix}.")
    lists = {}
    for key in ELEMENT_KEYS:
        items = require_type(table.get(key, []), list, f"{prefix}.{key}", text=text, path=path)
        for item in items:
            require_type(item, str, f"{prefix}.{key}", text=text, path=path)
        lists[key] = items

    def cell(name: str, key: str) -> int:
        try:
            return grid.cell(name)
        except ValueError as exc:
            raise InputError(str(exc), path=path,
                             place=f"{place_of(text, prefix)}, {key} '{name}'") from None

    def trail(spec: str):
        try:
            return parse_trail(spec, grid)
        except InputError as exc:  # the table first, as for a stop or a tent
            where = place_of(text, prefix)
            raise InputError(exc.message, path=path,
                             place=f"{where}, {exc.place}" if exc.place else where) from None

    return Elements(
        stops=tuple(cell(n, "stop") for n in lists["stops"]),
        trails=tuple(trail(s) for s in lists["trails"]),
        tents=tuple(cell(n, "tent") for n in lists["tents"]),
    )


def _read_solution(table: Any, text: str, path: str | Path | None) -> Solution | None:
    return read_solution_table(table, "draws", text=text, path=path)


def _strings(items: list[str]) -> str:
    return "[" + ", ".join(json.dumps(s) for s in items) + "]"


def grid_text(position: Position, layer: str) -> str:
    """The ``terrain`` or ``areas`` grid as text rows."""
    board = position.board
    values = board.terrain if layer == "terrain" else board.areas
    cols = board.grid.cols
    return "\n".join(
        " ".join(str(v) for v in values[r * cols:(r + 1) * cols]) for r in range(board.grid.rows)
    )


def write_position(position: Position) -> str:
    """The canonical TOML text of ``position``."""
    grid = position.grid
    out = [f'game = "{GAME}"', f'player = "{position.player}"',
           f'rift_owner = "{position.rift_owner}"']
    if position.draws is not None:
        out.append(f"draws = {position.draws}")
    if position.first_stop_rule:
        out.append("first_stop_rule = true")
    out += ['terrain = """', grid_text(position, "terrain"), '"""',
            'areas = """', grid_text(position, "areas"), '"""']
    for colour, elements in position.elements:
        out += ["", f"[elements.{colour}]"]
        if elements.stops:
            out.append("stops = " + _strings([grid.name(c) for c in elements.stops]))
        if elements.trails:
            out.append("trails = " + _strings([format_trail(t, grid) for t in elements.trails]))
        if elements.tents:
            out.append("tents = " + _strings([grid.name(c) for c in elements.tents]))
    if position.solution is not None:
        out += ["", "[solution]", f"value = {position.solution.value}",
                "draws = " + _strings(list(position.solution.line))]
    return "\n".join(out) + "\n"
