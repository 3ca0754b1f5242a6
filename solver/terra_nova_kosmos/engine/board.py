"""Map relations of the engine: adjacency with bridges, range, components, towns, areas.

Pure functions of a :class:`~solver.terra_nova_kosmos.position.Position`;
cells are the grid's dense indices.
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    SIDE_A,
    TOWN6_MIN_VALUE,
    TOWN_MIN_BUILDINGS,
    TOWN_MIN_VALUE,
    TOWN_VALUE,
)


def bridges_for(position: Position, colour: str | None) -> list[tuple[int, int]]:
    """[D4] The bridges that join hexes in relations of ``colour``: every bridge
    (``all``) or only ``colour``'s own (``owner``)."""
    if position.rules.bridge_adjacency == "all":
        return [b for p in position.players for b in p.bridges]
    return [] if colour is None else list(position.player(colour).bridges)


def adjacent(position: Position, cell: int, colour: str | None) -> set[int]:
    """Hexes adjacent to ``cell``: sharing a side, or joined by a bridge [D4]."""
    out = set(position.grid.neighbours[cell])
    for a, b in bridges_for(position, colour):
        if a == cell:
            out.add(b)
        elif b == cell:
            out.add(a)
    return out


def river_reach(position: Position, cell: int, shipping: int) -> set[int]:
    """[D11] Landscape hexes reached from ``cell`` through 1..``shipping`` river hexes."""
    if shipping <= 0:
        return set()
    grid = position.grid
    frontier = [r for r in grid.neighbours[cell] if position.is_river(r)]
    seen = set(frontier)
    found: set[int] = set()
    for depth in range(1, shipping + 1):
        nxt = []
        for r in frontier:
            for nb in grid.neighbours[r]:
                if position.is_river(nb):
                    if depth < shipping and nb not in seen:
                        seen.add(nb)
                        nxt.append(nb)
                elif nb != cell:
                    found.add(nb)
        frontier = nxt
    return found


def shipping_value(position: Position, colour: str, final: bool = False) -> int:
    """The shipping value S: the track, +1 with ``b-reach`` during phase 2 (not at the end)."""
    player = position.player(colour)
    bonus = 1 if (not final and player.bonus == "b-reach") else 0
    return player.shipping + bonus


def in_range(position: Position, colour: str, cells: Iterable[int] | None = None) -> set[int]:
    """Landscape hexes in range of ``colour``: adjacent to one of its buildings
    (``cells`` if given, else all of them), or reached over the river."""
    shipping = shipping_value(position, colour)
    sources = position.buildings_of(colour) if cells is None else cells
    out: set[int] = set()
    for b in sources:
        out |= adjacent(position, b, colour)
        out |= river_reach(position, b, shipping)
    return {c for c in out if not position.is_river(c)}


def _components(cells: list[int], edges: dict[int, set[int]]) -> list[frozenset[int]]:
    todo = set(cells)
    out = []
    for start in cells:
        if start not in todo:
            continue
        todo.discard(start)
        group, stack = {start}, [start]
        while stack:
            for nb in edges[stack.pop()]:
                if nb in todo:
                    todo.discard(nb)
                    group.add(nb)
                    stack.append(nb)
        out.append(frozenset(group))
    return out


def components(position: Position, colour: str) -> list[frozenset[int]]:
    """[D25]/[D28] Components of ``colour``'s buildings (hex side, bridge, Seebären links)."""
    mine = list(position.buildings_of(colour))
    own = set(mine)
    edges = {c: adjacent(position, c, colour) & own for c in mine}
    for a, b in position.player(colour).links:
        edges[a].add(b)
        edges[b].add(a)
    return _components(mine, edges)


def town_cells(position: Position, colour: str) -> set[int]:
    """Building cells that carry a town tile (a river tile: the buildings of its links)."""
    player = position.player(colour)
    grid = position.grid
    out = set()
    for cell in player.towns:
        if not position.is_river(cell):
            out.add(cell)
            continue
        for a, b in player.links:
            if cell in grid.neighbours[a] and cell in grid.neighbours[b]:
                out |= {a, b}
    return out


def town_value(position: Position, cells: Iterable[int]) -> int:
    """Sum of the town values of the buildings on ``cells``."""
    return sum(TOWN_VALUE[position.building(c).kind] for c in cells)


def town_threshold(position: Position, colour: str) -> int:
    """7, or 6 with the side-A right palace (``TOWN6``)."""
    player = position.player(colour)
    town6 = player.faction in SIDE_A and "right" in player.palaces
    return TOWN6_MIN_VALUE if town6 else TOWN_MIN_VALUE


def qualifies(position: Position, colour: str, group: frozenset[int]) -> bool:
    """A group of buildings big and valuable enough for a town."""
    return (len(group) >= TOWN_MIN_BUILDINGS
            and town_value(position, group) >= town_threshold(position, colour))


def pending_towns(position: Position, colour: str) -> list[frozenset[int]]:
    """Tile-less components that qualify for a town, ordered by their smallest cell."""
    marked = town_cells(position, colour)
    found = [g for g in components(position, colour)
             if not (g & marked) and qualifies(position, colour, g)]
    return sorted(found, key=min)


def area_group(position: Position, colour: str) -> int:
    """Final scoring: the size of ``colour``'s largest group connected through range
    (adjacency, bridges, shipping on the track value; [D34] neutral houses do not count)."""
    mine = list(position.buildings_of(colour))
    own = set(mine)
    shipping = shipping_value(position, colour, final=True)
    edges = {c: (adjacent(position, c, colour) | river_reach(position, c, shipping)) & own
             for c in mine}
    return max((len(g) for g in _components(mine, edges)), default=0)


def others_adjacent(position: Position, cell: int, colour: str) -> dict[str, int]:
    """Per other player, how many of their buildings are adjacent to ``cell``."""
    out: dict[str, int] = {}
    for nb in adjacent(position, cell, colour):
        building = position.buildings[nb]
        if building is not None and building.owner in position.colours \
                and building.owner != colour:
            out[building.owner] = out.get(building.owner, 0) + 1
    return out


def foreign_neighbour(position: Position, cell: int, colour: str) -> bool:
    """True when a building of another faction (neutral included) is adjacent to ``cell``."""
    return any(position.owner(nb) not in (None, colour) for nb in adjacent(position, cell, colour))
