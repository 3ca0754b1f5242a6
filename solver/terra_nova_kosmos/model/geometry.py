"""What the last-round model precomputes from the map: cells, links, river hops.

Geometry only, no rules of play: which cells may ever carry a building of the
player P to move (``nodes``: P's buildings, then the unbuilt landscape hexes P
could reach), side adjacency and bridge spots between them, and the number of
river hexes a shipping link needs ([D11]). The model turns these into
literals; nothing here decides what is legal.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from solver.terra_nova_kosmos.position import Position

FAR = 10 ** 6
"""River hops between two hexes that no river path joins."""


def related_bridges(position: Position, colour: str) -> set[tuple[int, int]]:
    """The bridges on the map that join hexes in ``colour``'s relations [D4]: every
    bridge (``bridge_adjacency = "all"``) or ``colour``'s own (``"owner"``)."""
    if position.rules.bridge_adjacency == "all":
        return {b for p in position.players for b in p.bridges}
    return set(position.player(colour).bridges)


def river_hops(position: Position, source: int) -> dict[int, int]:
    """For each landscape hex X: the fewest river hexes on a path source, r1…rk, X
    (k ≥ 1, every ri a river hex, each hex sharing a side with the next) [D11]."""
    grid, river = position.grid, position.board.river
    depth: dict[int, int] = {}
    queue: deque[int] = deque()
    for nb in grid.neighbours[source]:
        if nb in river:
            depth[nb] = 1
            queue.append(nb)
    while queue:
        cell = queue.popleft()
        for nb in grid.neighbours[cell]:
            if nb in river and nb not in depth:
                depth[nb] = depth[cell] + 1
                queue.append(nb)
    hops: dict[int, int] = {}
    for r, d in depth.items():
        for nb in grid.neighbours[r]:
            if nb not in river and nb != source and d < hops.get(nb, FAR):
                hops[nb] = d
    return hops


@dataclass(frozen=True)
class Geometry:
    """The cells of the model and the links between them.

    ``nodes`` are map cells: first P's buildings (ascending), then the candidate
    hexes (ascending). Indices into ``nodes`` are the model's *node numbers*.
    """

    nodes: tuple[int, ...]
    own: int
    """The first ``own`` nodes carry P's buildings at the start."""
    side: tuple[tuple[int, ...], ...]
    """Per node: the node numbers sharing a hex side."""
    hops: tuple[dict[int, int], ...]
    """Per node: node number → river hexes of the shortest shipping link (absent: none)."""
    old_bridges: frozenset[tuple[int, int]]
    """Bridges on the map that join hexes for P ([D4]) as node-number pairs (i < j)."""
    spots: tuple[tuple[int, int], ...]
    """Free bridge spots as map-cell pairs (a < b)."""
    level: tuple[int, ...] = ()
    """Per node: the first step that may build on or transform it (0 for P's buildings):
    a hex is in range only of buildings made in earlier steps."""

    @property
    def size(self) -> int:
        """Number of nodes."""
        return len(self.nodes)

    def node(self, cell: int) -> int | None:
        """The node number of a map cell, or None."""
        try:
            return self.nodes.index(cell)
        except ValueError:
            return None


def _distances(position: Position, sources: set[int], max_ship: int, depth: int
               ) -> dict[int, int]:
    """The range steps (side, any bridge spot, shipping up to ``max_ship``) from
    ``sources`` to each unbuilt landscape hex at most ``depth`` steps away, every hex on
    the way unbuilt; the sources themselves at 0."""
    free = free_land(position)
    near = range_neighbours(position, max_ship)
    dist = dict.fromkeys(sources, 0)
    queue = deque(sorted(sources))
    while queue:
        cell = queue.popleft()
        if dist[cell] >= depth:
            continue
        for nb in near(cell):
            if nb in free and nb not in dist:
                dist[nb] = dist[cell] + 1
                queue.append(nb)
    return dist


def free_land(position: Position) -> set[int]:
    """The unbuilt landscape hexes (not river)."""
    river = position.board.river
    return {c for c in range(position.grid.size)
            if c not in river and position.buildings[c] is None}


def range_neighbours(position: Position, max_ship: int) -> Callable[[int], list[int]]:
    """The hexes one range step from a hex (side, any bridge spot, shipping up to
    ``max_ship``), ascending."""
    grid = position.grid
    spot_nb: dict[int, set[int]] = {}
    for a, b in position.board.bridge_spots:
        spot_nb.setdefault(a, set()).add(b)
        spot_nb.setdefault(b, set()).add(a)

    def near(cell: int) -> list[int]:
        out = set(grid.neighbours[cell]) | spot_nb.get(cell, set())
        out |= {x for x, d in river_hops(position, cell).items() if d <= max_ship}
        return sorted(out)

    return near


def _reachable(position: Position, start: set[int], max_ship: int, extra: set[int],
               depth: int, extra_level: int = 1) -> dict[int, int]:
    """Unbuilt landscape hexes reachable from ``start`` and ``extra`` by chains of at most
    ``depth`` range steps, plus ``extra``, each with its *level*: the first step that
    may build on or transform it (1 for the hexes in range of ``start``,
    ``extra_level`` for ``extra``, which needs no range; one more per building on the
    way)."""
    free_extra = {c for c in extra
                  if position.buildings[c] is None and c not in position.board.river}
    mine = _distances(position, start, depth=depth, max_ship=max_ship)
    other = _distances(position, free_extra, depth=depth, max_ship=max_ship)
    out = {c: d for c, d in mine.items() if c not in start}
    for c, d in other.items():
        if c not in start:
            out[c] = min(out.get(c, d + extra_level), d + extra_level)
    return out


def build_geometry(position: Position, max_ship: int, extra: set[int],
                   depth: int = FAR, extra_level: int = 1, last: int = FAR,
                   within: set[int] | None = None) -> Geometry:
    """The model's nodes and links for P = ``position.to_move``; ``max_ship`` bounds P's
    shipping value during play, ``extra`` are hexes P may build on without range from
    step ``extra_level`` on, ``depth`` bounds the range steps from P's buildings (or
    ``extra``) to a node, ``last`` the step of P's last action (later levels are no
    nodes); ``within`` (when given) holds the only hexes that may be candidates."""
    me = position.to_move
    own = [c for c in position.buildings_of(me)]
    levels = _reachable(position, set(own), max_ship, extra, depth, extra_level)
    candidates = sorted(c for c, level in levels.items()
                        if level <= last and (within is None or c in within))
    nodes = tuple(own + candidates)
    index = {cell: i for i, cell in enumerate(nodes)}
    side = tuple(tuple(index[nb] for nb in position.grid.neighbours[c] if nb in index)
                 for c in nodes)
    hops = []
    for c in nodes:
        hops.append({index[x]: d for x, d in river_hops(position, c).items() if x in index})
    built = {br for p in position.players for br in p.bridges}
    old = frozenset((min(index[a], index[b]), max(index[a], index[b]))
                    for a, b in related_bridges(position, me) if a in index and b in index)
    spots = tuple(s for s in position.board.bridge_spots if s not in built)
    level = tuple(levels.get(c, 0) for c in nodes)
    return Geometry(nodes, len(own), side, tuple(hops), old, spots, level)
