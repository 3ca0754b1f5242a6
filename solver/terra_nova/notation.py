"""Terra Nova move notation: ``c4-f4`` (move), ``#d5`` (stone), ``pass``.

A turn is its actions separated by spaces (``c4-f4 #d5 #e5``); a line is one
turn string per turn. Parsing checks syntax and that cells exist on the board,
nothing about legality.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.errors import InputError
from solver.geometry import HexGrid


@dataclass(frozen=True, order=True)
class Move:
    """A piece moves from ``src`` to ``dst`` (cell indices)."""

    src: int
    dst: int


@dataclass(frozen=True, order=True)
class Stone:
    """A stone is placed on ``cell``."""

    cell: int


Action = Move | Stone
Turn = tuple[Action, ...]
"""A turn: its actions in order; the empty tuple is a pass."""

PASS = "pass"


def format_action(action: Action, grid: HexGrid) -> str:
    """``Move`` → ``c4-f4``; ``Stone`` → ``#d5``."""
    if isinstance(action, Move):
        return f"{grid.name(action.src)}-{grid.name(action.dst)}"
    return f"#{grid.name(action.cell)}"


def format_turn(turn: Turn, grid: HexGrid) -> str:
    """A turn in notation; the empty turn is ``pass``."""
    return " ".join(format_action(a, grid) for a in turn) if turn else PASS


def parse_action(text: str, grid: HexGrid) -> Action:
    """Parse one action; InputError (place: the action) when malformed or off the board."""
    place = f"action '{text}'"
    try:
        if text.startswith("#"):
            return Stone(grid.cell(text[1:]))
        parts = text.split("-")
        if len(parts) != 2:
            raise ValueError("an action is FROM-TO (a move) or #CELL (a stone)")
        src, dst = grid.cell(parts[0]), grid.cell(parts[1])
    except ValueError as exc:
        raise InputError(str(exc), place=place) from None
    if src == dst:
        raise InputError("a move must leave its cell", place=place)
    return Move(src, dst)


def parse_turn(text: str, grid: HexGrid) -> Turn:
    """Parse a turn string; ``pass`` (or nothing) is the empty turn."""
    words = text.split()
    if words == [PASS] or not words:
        return ()
    if PASS in words:
        raise InputError("'pass' stands alone in a turn", place=f"turn '{text}'")
    if len(words) > 3:
        raise InputError(f"a turn has at most 3 actions, not {len(words)}", place=f"turn '{text}'")
    return tuple(parse_action(w, grid) for w in words)


def parse_line(turns: Sequence[str], grid: HexGrid) -> list[Turn]:
    """Parse one turn string per turn; errors name the turn number (1-based)."""
    out = []
    for number, text in enumerate(turns, start=1):
        if not isinstance(text, str):
            raise InputError(f"turn {number} must be a string, not {type(text).__name__}")
        try:
            out.append(parse_turn(text, grid))
        except InputError as exc:
            where = f"turn {number}, {exc.place}" if exc.place else f"turn {number}"
            raise InputError(exc.message, place=where) from None
    return out
