"""Rift Valley notation: stop ``o c4``, tent ``^ d5``, trail ``c4-c7`` or ``c4-c7-f7``.

Parsing checks syntax, that cells are on the board and that a trail's shape is
straight or an L with one 90° bend — nothing about legality.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.errors import InputError
from solver.geometry import SquareGrid
from solver.rift_valley.position import Trail


@dataclass(frozen=True)
class DrawStop:
    """Draw a stop on ``cell``."""

    cell: int


@dataclass(frozen=True)
class DrawTent:
    """Draw a tent on ``cell``."""

    cell: int


@dataclass(frozen=True)
class DrawTrail:
    """Draw ``trail``."""

    trail: Trail


Draw = DrawStop | DrawTent | DrawTrail


def format_trail(trail: Trail, grid: SquareGrid) -> str:
    """``c4-c7`` or ``c4-c7-f7``."""
    return "-".join(grid.name(c) for c in trail.waypoints())


def format_draw(draw: Draw, grid: SquareGrid) -> str:
    """A draw in notation."""
    if isinstance(draw, DrawStop):
        return f"o {grid.name(draw.cell)}"
    if isinstance(draw, DrawTent):
        return f"^ {grid.name(draw.cell)}"
    return format_trail(draw.trail, grid)


def parse_trail(text: str, grid: SquareGrid) -> Trail:
    """Parse ``a1-a5`` or ``a1-a3-c3``; InputError when malformed or not straight / one L."""
    place = f"trail '{text}'"
    parts = text.strip().split("-")
    try:
        cells = [grid.cell(p) for p in parts]
    except ValueError as exc:
        raise InputError(str(exc), place=place) from None
    if len(cells) == 2:
        start, end = cells
        if start == end or grid.segment(start, end) is None:
            raise InputError("a straight trail joins two different cells of one row or column",
                             place=place)
        return Trail(start, end)
    if len(cells) == 3:
        start, corner, end = cells
        first, second = grid.segment(start, corner), grid.segment(corner, end)
        if (start == corner or corner == end or first is None or second is None
                or _same_axis(grid, start, corner, end)):
            raise InputError("an L trail is start-corner-end with one 90° bend at the corner",
                             place=place)
        return Trail(start, end, corner)
    raise InputError("a trail is START-END or START-CORNER-END", place=place)


def _same_axis(grid: SquareGrid, a: int, b: int, c: int) -> bool:
    (ra, ca), (rb, cb), (rc, cc) = grid.coords[a], grid.coords[b], grid.coords[c]
    return (ra == rb == rc) or (ca == cb == cc)


def parse_draw(text: str, grid: SquareGrid) -> Draw:
    """Parse one draw (``o c4``, ``^ d5``, ``c4-c7``, ``c4-c7-f7``)."""
    words = text.split()
    if len(words) == 2 and words[0] in ("o", "^"):
        try:
            cell = grid.cell(words[1])
        except ValueError as exc:
            raise InputError(str(exc), place=f"draw '{text}'") from None
        return DrawStop(cell) if words[0] == "o" else DrawTent(cell)
    if len(words) == 1 and "-" in words[0]:
        return DrawTrail(parse_trail(words[0], grid))
    raise InputError("a draw is 'o CELL' (stop), '^ CELL' (tent) or a trail 'c4-c7[-f7]'",
                     place=f"draw '{text}'")


def draws_of(words: Sequence[str]) -> list[str]:
    """The draws of an answer typed as words (``rate``'s arguments), one after the other:
    ``o`` or ``^`` and a cell make a stop or a tent, any other word is a trail
    (``o a4 a4-a7`` → ``["o a4", "a4-a7"]``; ``,`` and ``/`` between draws are skipped)."""
    tokens = [t for w in words for t in w.replace(",", " ").replace("/", " ").split()]
    out: list[str] = []
    for token in tokens:
        if out and out[-1] in ("o", "^"):
            out[-1] += f" {token}"
        else:
            out.append(token)
    return out
