"""Hex boards in odd-r offset layout (a :class:`~solver.geometry.lattice.Lattice`).

Every odd 0-based row is shifted half a hex right. A :class:`HexGrid` is a
rectangle of ``rows × cols`` slots of which some exist. Existing cells get
dense indices ``0…n-1`` in row-major order; every table here is indexed by
those. Neighbour and ray tables are precomputed numpy arrays so engines and
models can use them without recomputing geometry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from solver.geometry.names import cell_name, parse_cell

# The six straight directions, named by compass. Each maps row parity → (dr, dc).
HEX_DIRECTIONS: tuple[str, ...] = ("E", "W", "NE", "NW", "SE", "SW")
_STEPS: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    #       even row   odd row
    "E": ((0, 1), (0, 1)),
    "W": ((0, -1), (0, -1)),
    "NE": ((-1, 0), (-1, 1)),
    "NW": ((-1, -1), (-1, 0)),
    "SE": ((1, 0), (1, 1)),
    "SW": ((1, -1), (1, 0)),
}


@dataclass(frozen=True, eq=False)
class HexGrid:
    """The cells of an odd-r hex board: ``exists[r][c]`` says which slots are cells."""

    exists: tuple[tuple[bool, ...], ...]
    _index: dict[tuple[int, int], int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        widths = {len(row) for row in self.exists}
        if len(widths) > 1:
            raise ValueError("all rows of a hex grid must have the same number of slots")
        index: dict[tuple[int, int], int] = {}
        for r, row in enumerate(self.exists):
            for c, present in enumerate(row):
                if present:
                    index[(r, c)] = len(index)
        object.__setattr__(self, "_index", index)

    @classmethod
    def full(cls, rows: int, cols: int) -> HexGrid:
        """A rectangular grid where every slot is a cell."""
        return cls(tuple(tuple(True for _ in range(cols)) for _ in range(rows)))

    @classmethod
    def from_mask(cls, mask: Sequence[Sequence[bool]]) -> HexGrid:
        """A grid from any nested sequence of booleans (numpy arrays included)."""
        return cls(tuple(tuple(bool(v) for v in row) for row in mask))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HexGrid) and self.exists == other.exists

    def __hash__(self) -> int:
        return hash(self.exists)

    @property
    def rows(self) -> int:
        return len(self.exists)

    @property
    def cols(self) -> int:
        return len(self.exists[0]) if self.exists else 0

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self._index)

    @property
    def directions(self) -> tuple[str, ...]:
        """``E W NE NW SE SW``: the directions of :meth:`step` and :attr:`rays`."""
        return HEX_DIRECTIONS

    @cached_property
    def coords(self) -> tuple[tuple[int, int], ...]:
        """``coords[i]`` is the 0-based ``(row, col)`` of cell ``i``."""
        return tuple(self._index)

    def index(self, row: int, col: int) -> int | None:
        """Dense index of slot ``(row, col)``, or None when it is not a cell."""
        return self._index.get((row, col))

    def text_rows(self, token: Callable[[int], str], hole: str) -> str:
        """The board as rows of space-separated tokens, odd rows indented two spaces (as
        the hexes lie): ``token(cell)`` for each cell, ``hole`` where a slot is no cell."""
        lines = []
        for r in range(self.rows):
            cells = (self.index(r, c) for c in range(self.cols))
            tokens = " ".join(hole if i is None else token(i) for i in cells)
            lines.append(("  " if r % 2 else "") + tokens)
        return "\n".join(lines)

    def name(self, cell: int) -> str:
        """The user-facing name of cell index ``cell`` (``d7``)."""
        return cell_name(*self.coords[cell])

    def cell(self, name: str) -> int:
        """Cell index of ``name``; ValueError when malformed or not a cell of this board."""
        row, col = parse_cell(name)
        found = self._index.get((row, col))
        if found is None:
            raise ValueError(f"'{name}' is not a cell of this board")
        return found

    def step(self, cell: int, direction: int) -> int | None:
        """The neighbour of ``cell`` in ``HEX_DIRECTIONS[direction]``, or None off the board."""
        nb = int(self.neighbour_table[cell, direction])
        return nb if nb >= 0 else None

    @cached_property
    def neighbour_table(self) -> np.ndarray:
        """``(n, 6)`` int array: neighbour per direction, ``-1`` where there is none."""
        table = np.full((self.size, 6), -1, dtype=np.int32)
        for i, (r, c) in enumerate(self.coords):
            for d, name in enumerate(HEX_DIRECTIONS):
                dr, dc = _STEPS[name][r & 1]
                nb = self._index.get((r + dr, c + dc))
                if nb is not None:
                    table[i, d] = nb
        return table

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """``neighbours[i]``: the adjacent cells of ``i`` in direction order."""
        return tuple(tuple(int(v) for v in row if v >= 0) for row in self.neighbour_table)

    @cached_property
    def rays(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """``rays[i][d]``: cells after ``i`` going straight in direction ``d`` to the edge."""
        table = self.neighbour_table
        out = []
        for i in range(self.size):
            per_dir = []
            for d in range(6):
                ray = []
                cur = int(table[i, d])
                while cur >= 0:
                    ray.append(cur)
                    cur = int(table[cur, d])
                per_dir.append(tuple(ray))
            out.append(tuple(per_dir))
        return tuple(out)

    @cached_property
    def adjacency(self) -> np.ndarray:
        """``(n, n)`` boolean adjacency matrix."""
        adj = np.zeros((self.size, self.size), dtype=bool)
        for i, nbs in enumerate(self.neighbours):
            adj[i, list(nbs)] = True
        return adj
