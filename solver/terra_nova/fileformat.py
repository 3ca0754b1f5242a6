"""Reading and writing Terra Nova position files (TOML, see docs/formats.md).

The reader checks everything structural (keys, types, board tokens, colours,
stone counts) and raises :class:`~solver.errors.InputError` naming the file and
the place. Rule-level checks (a piece inside a region, too many pieces) belong
to the engine's ``validate``. The writer is canonical: ``write(read(write(p)))``
equals ``write(p)``, and ``read(write(p)) == p``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solver.errors import InputError
from solver.geometry import HexGrid, cell_name
from solver.terra_nova.position import (
    COLOURS,
    EMPTY,
    LETTER_COLOUR,
    MAX_BOARD_COLS,
    MAX_BOARD_ROWS,
    MAX_PUZZLE_TURNS,
    OBJECTIVES,
    PIECE_LETTER,
    PUZZLE_KINDS,
    STONE,
    TOTAL_STONES,
    Board,
    Position,
    Puzzle,
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

GAME = "terra-nova"
TOP_KEYS = ("game", "players", "to_move", "scores", "stones_left", "board",
            "landscapes", "puzzle", "solution")
PUZZLE_KEYS = ("kind", "turns", "objective", "target")
NO_CELL = "--"


def read_position(path: str | Path) -> Position:
    """Read a Terra Nova position file."""
    data, text = load_toml(path)
    return position_from_toml(data, text, path)


def parse_position(text: str, path: str | Path | None = None) -> Position:
    """Parse Terra Nova position text (``path`` only names the source in errors)."""
    return position_from_toml(parse_toml(text, path), text, path)


def position_from_toml(data: dict[str, Any], text: str, path: str | Path | None) -> Position:
    """Build a Position from parsed TOML ``data``; ``text`` locates errors."""
    def fail(message: str, key: str | None = None, place: str | None = None) -> InputError:
        return InputError(message, path=path, place=place or (place_of(text, key) if key else None))

    def typed(value: Any, kind: type | tuple[type, ...], key: str) -> Any:
        return require_type(value, kind, key, text=text, path=path)

    if data.get("game") != GAME:
        raise fail(f"'game' must be \"{GAME}\" here, not {data.get('game')!r}", "game")
    check_keys(data, TOP_KEYS, text=text, path=path)
    for key in ("players", "to_move", "board"):
        if key not in data:
            raise fail(f"missing key '{key}'")

    players = tuple(typed(data["players"], list, "players"))
    if not 2 <= len(players) <= 4:
        raise fail(f"2 to 4 players, not {len(players)}", "players")
    for colour in players:
        if colour not in COLOURS:
            raise fail(f"unknown colour {colour!r} (colours: {', '.join(COLOURS)})", "players")
    if len(set(players)) != len(players):
        raise fail("a colour is listed twice", "players")
    to_move = typed(data["to_move"], str, "to_move")
    if to_move not in players:
        raise fail(f"to_move {to_move!r} is not one of the players {list(players)}", "to_move")

    board, occupant = _read_board(typed(data["board"], str, "board"), players, text, path)

    scores = [0] * len(players)
    for colour, points in typed(data.get("scores", {}), dict, "scores").items():
        if colour not in players:
            raise fail(f"score for {colour!r}, who is not a player", f"scores.{colour}",
                       place=place_of(text, "scores"))
        scores[players.index(colour)] = require_count(
            points, f"scores.{colour}", text=text, path=path,
            negative="scores cannot be negative")

    on_board = sum(1 for o in occupant if o == STONE)
    if on_board > TOTAL_STONES:
        raise fail(f"{on_board} stones on the board; there are only {TOTAL_STONES}", "board")
    stones_left = typed(data.get("stones_left", TOTAL_STONES - on_board), int, "stones_left")
    if stones_left < 0 or stones_left + on_board > TOTAL_STONES:
        raise fail(
            f"stones_left = {stones_left} with {on_board} on the board: the supply must be "
            f"0 to {TOTAL_STONES - on_board}",
            "stones_left",
        )

    names = []
    for letter, name in typed(data.get("landscapes", {}), dict, "landscapes").items():
        if len(letter) != 1 or not letter.islower():
            raise fail(f"landscape key {letter!r} must be one lowercase letter", "landscapes")
        if letter not in board.landscape:
            raise fail(f"landscape {letter!r} does not occur on the board", f"landscapes.{letter}",
                       place=place_of(text, "landscapes"))
        names.append((letter, typed(name, str, f"landscapes.{letter}")))
    board = Board(board.grid, board.landscape, tuple(sorted(names)))

    return Position(
        board=board,
        players=players,
        to_move=to_move,
        occupant=occupant,
        scores=tuple(scores),
        stones_left=stones_left,
        puzzle=_read_puzzle(data.get("puzzle"), text, path),
        solution=_read_solution(data.get("solution"), text, path),
    )


def _read_board(
    board_text: str, players: tuple[str, ...], text: str, path: str | Path | None
) -> tuple[Board, tuple[str, ...]]:
    rows = [line.split() for line in board_text.splitlines() if line.strip()]
    if not rows:
        raise InputError("the board is empty", path=path, place=place_of(text, "board"))

    def row_place(r: int) -> str:
        line = board_text_line(text, "board", r)
        return f"line {line} (board row {r + 1})" if line else f"board row {r + 1}"

    width = len(rows[0])
    if len(rows) > MAX_BOARD_ROWS or max(len(t) for t in rows) > MAX_BOARD_COLS:
        raise InputError(
            f"the board is {len(rows)} rows × {max(len(t) for t in rows)} columns; boards are "
            f"at most {MAX_BOARD_ROWS} × {MAX_BOARD_COLS}", path=path,
            place=place_of(text, "board"))
    exists, landscape, occupant = [], [], []
    for r, tokens in enumerate(rows):
        if len(tokens) != width:
            raise InputError(
                f"row has {len(tokens)} tokens, the first row has {width} (use '--' for no cell)",
                path=path, place=row_place(r),
            )
        row_exists = []
        for c, token in enumerate(tokens):
            where = f"{row_place(r)}, cell {cell_name(r, c)}"
            if token == NO_CELL:
                row_exists.append(False)
                continue
            if len(token) != 2:
                raise InputError(f"bad token {token!r}: two characters, landscape then content",
                                 path=path, place=where)
            letter, content = token[0], token[1]
            if not ("a" <= letter <= "z"):
                raise InputError(f"bad landscape {letter!r} in {token!r}: use a lowercase letter",
                                 path=path, place=where)
            if content == ".":
                occ = EMPTY
            elif content == STONE:
                occ = STONE
            elif content in LETTER_COLOUR:
                occ = LETTER_COLOUR[content]
                if occ not in players:
                    raise InputError(f"a {occ} piece, but {occ} is not a player",
                                     path=path, place=where)
            else:
                raise InputError(
                    f"bad content {content!r} in {token!r}: use . # R Y B G", path=path, place=where
                )
            row_exists.append(True)
            landscape.append(letter)
            occupant.append(occ)
        exists.append(tuple(row_exists))
    if not landscape:
        raise InputError("the board has no cells", path=path, place=place_of(text, "board"))
    return Board(HexGrid(tuple(exists)), tuple(landscape)), tuple(occupant)


def _read_puzzle(table: Any, text: str, path: str | Path | None) -> Puzzle | None:
    if table is None:
        return None
    def fail(message: str, key: str) -> InputError:
        return InputError(message, path=path, place=place_of(text, key))

    require_type(table, dict, "puzzle", text=text, path=path)
    check_keys(table, PUZZLE_KEYS, text=text, path=path, prefix="puzzle.")
    kind = require_type(table.get("kind", "best-turn"), str, "puzzle.kind", text=text, path=path)
    if kind not in PUZZLE_KINDS:
        raise fail(f"puzzle kind {kind!r} is not one of {', '.join(PUZZLE_KINDS)}", "kind")
    turns = table.get("turns")
    target = table.get("target")
    if kind == "best-turn":
        for key in ("turns", "objective", "target"):
            if key in table:
                raise fail(f"'{key}' belongs to closing puzzles, not best-turn", key)
        return Puzzle(kind="best-turn")
    objective = require_type(table.get("objective", "max-points"), str, "puzzle.objective",
                             text=text, path=path)
    if objective not in OBJECTIVES:
        raise fail(f"objective {objective!r} is not one of {', '.join(OBJECTIVES)}", "objective")
    if turns is not None:
        turns = require_type(turns, int, "puzzle.turns", text=text, path=path)
        if turns < 1:
            raise fail("turns must be at least 1", "turns")
        if turns > MAX_PUZZLE_TURNS:
            raise fail(f"turns = {turns}: puzzles span at most {MAX_PUZZLE_TURNS} turns", "turns")
    if objective == "max-points":
        if turns is None:
            raise fail("a max-points closing puzzle needs 'turns'", "puzzle")
        if target is not None:
            raise fail("'target' belongs to min-turns puzzles", "target")
    else:
        if target is None:
            raise fail("a min-turns puzzle needs 'target'", "puzzle")
        target = require_type(target, int, "puzzle.target", text=text, path=path)
        if target < 1:
            raise fail("target must be at least 1 point", "target")
    return Puzzle(kind="closing", turns=turns, objective=objective, target=target)


def _read_solution(table: Any, text: str, path: str | Path | None) -> Solution | None:
    return read_solution_table(table, "line", text=text, path=path)


def _string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def board_text(position: Position) -> str:
    """The board as token rows (odd rows indented two spaces for looks)."""

    def token(i: int) -> str:
        occ = position.occupant[i]
        mark = "." if occ == EMPTY else STONE if occ == STONE else PIECE_LETTER[occ]
        return position.board.landscape[i] + mark

    return position.grid.text_rows(token, NO_CELL)


def write_position(position: Position) -> str:
    """The canonical TOML text of ``position``."""
    out = [
        f'game = "{GAME}"',
        "players = [" + ", ".join(_string(p) for p in position.players) + "]",
        f"to_move = {_string(position.to_move)}",
        "scores = { " + ", ".join(f"{p} = {s}" for p, s in zip(position.players, position.scores,
                                                              strict=True)) + " }",
        f"stones_left = {position.stones_left}",
        'board = """',
        board_text(position),
        '"""',
    ]
    if position.board.names:
        out += ["", "[landscapes]"] + [f"{k} = {_string(v)}" for k, v in position.board.names]
    puzzle = position.puzzle
    if puzzle is not None:
        out += ["", "[puzzle]", f"kind = {_string(puzzle.kind)}"]
        if puzzle.turns is not None:
            out.append(f"turns = {puzzle.turns}")
        if puzzle.objective is not None:
            out.append(f"objective = {_string(puzzle.objective)}")
        if puzzle.target is not None:
            out.append(f"target = {puzzle.target}")
    if position.solution is not None:
        out += ["", "[solution]", f"value = {position.solution.value}",
                "line = [" + ", ".join(_string(t) for t in position.solution.line) + "]"]
    return "\n".join(out) + "\n"
