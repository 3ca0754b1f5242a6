"""Board tables and region detection for the Terra Nova reference engine.

A *component* is a maximal set of non-stone cells connected by adjacency; it is a
*region* when it holds at most :data:`MAX_REGION_LANDSCAPES` distinct landscapes.
Cells are the dense indices of the board's HexGrid; sets of cells are Python-int
bitboards (bit ``i`` = cell ``i``) so they hash and compare cheaply.

This module is the engine's own: the CP-SAT model must not import it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from solver.geometry.bitboard import bits
from solver.terra_nova.position import Board

MAX_REGION_LANDSCAPES = 3
"""A component with at most this many distinct landscapes is a region."""

MULTIPLIER: dict[int, int] = {1: 3, 2: 2, 3: 1}
"""Points per cell of a region, by its number of distinct landscapes."""


@dataclass(frozen=True)
class Region:
    """A component that is a region: its cells (bitboard and ascending list)."""

    mask: int
    cells: tuple[int, ...]
    landscapes: int

    @property
    def value(self) -> int:
        """Cells × (3, 2, 1 for 1, 2, 3 landscapes)."""
        return len(self.cells) * MULTIPLIER[self.landscapes]


class BoardTables:
    """Precomputed per-board lookup tables used by the engine's inner loops."""

    def __init__(self, board: Board) -> None:
        grid = board.grid
        self.board = board
        self.size = grid.size
        self.neighbours: tuple[tuple[int, ...], ...] = grid.neighbours
        # Rays with at least one cell, in HEX_DIRECTIONS order: a move walks one of them.
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(ray for ray in per_dir if ray) for per_dir in grid.rays
        )
        self.bit: tuple[int, ...] = tuple(1 << i for i in range(self.size))
        self.land_bit: tuple[int, ...] = tuple(1 << k for k in board.landscape_id)
        self.full = (1 << self.size) - 1


@lru_cache(maxsize=32)
def tables_for(board: Board) -> BoardTables:
    """The (cached) tables of ``board``."""
    return BoardTables(board)


def flood(
    tables: BoardTables, start: int, is_stone: Callable[[int], bool], limit: int | None
) -> tuple[int, int, int]:
    """Flood-fill the component of ``start`` (a non-stone cell).

    Returns ``(mask, cell_count, landscape_bits)``. With ``limit`` set, stops as
    soon as more than ``limit`` distinct landscapes are found (then ``mask`` is a
    partial fill and ``landscape_bits`` has more than ``limit`` bits).
    """
    bit, nbrs, land_bit = tables.bit, tables.neighbours, tables.land_bit
    mask = bit[start]
    lands = land_bit[start]
    count = 1
    stack = [start]
    while stack:
        j = stack.pop()
        for k in nbrs[j]:
            b = bit[k]
            if mask & b or is_stone(k):
                continue
            mask |= b
            count += 1
            lb = land_bit[k]
            if not lands & lb:
                lands |= lb
                if limit is not None and lands.bit_count() > limit:
                    return mask, count, lands
            stack.append(k)
    return mask, count, lands


def new_regions(tables: BoardTables, stone: int, is_stone: Callable[[int], bool]) -> list[Region]:
    """The regions formed by a stone just placed on ``stone``.

    Only the components touching ``stone`` can have changed; each is flood-filled
    from a non-stone neighbour, stopping at the 4th distinct landscape. The
    caller guarantees that the stone's old component was not a region (it held a
    piece), so every region found here has *just* become one. Deterministic order:
    by the neighbour the fill started from.
    """
    found: list[Region] = []
    seen = 0
    for nb in tables.neighbours[stone]:
        if is_stone(nb) or seen & tables.bit[nb]:
            continue
        mask, _count, lands = flood(tables, nb, is_stone, MAX_REGION_LANDSCAPES)
        seen |= mask
        n_lands = lands.bit_count()
        if n_lands <= MAX_REGION_LANDSCAPES:
            found.append(Region(mask, tuple(bits(mask)), n_lands))
    return found


def components(tables: BoardTables, stones: int) -> list[Region | tuple[int, int]]:
    """All components of the board given the ``stones`` bitboard, in order of first cell.

    Regions come back as :class:`Region`; other components as ``(mask, landscapes)``.
    """
    def is_stone(k: int) -> bool:
        return bool(stones >> k & 1)

    out: list[Region | tuple[int, int]] = []
    seen = stones
    for i in range(tables.size):
        if seen >> i & 1:
            continue
        mask, _count, lands = flood(tables, i, is_stone, None)
        seen |= mask
        n_lands = lands.bit_count()
        if n_lands <= MAX_REGION_LANDSCAPES:
            out.append(Region(mask, tuple(bits(mask)), n_lands))
        else:
            out.append((mask, n_lands))
    return out
