"""Terra Nova (KOSMOS 2022) positions: the map, the players' tableaux, the round.

Pure data, no rules: the reference engine and the CP-SAT model both read these
frozen types but share no legality or scoring code. Cells are dense indices of
the board's :class:`~solver.geometry.HexGrid` (odd-r); a bridge or bridge spot
is an ordered pair of cells ``(a, b)`` with ``a < b``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any

from solver.geometry import HexGrid
from solver.terra_nova_kosmos.rules import (
    DEFAULT_RULES,
    EDGE_NEIGHBOURS,
    HOUSES,
    KONTORE,
    PALACES,
    RIVER,
    Faction,
    Rules,
)
from solver.tomlfile import Solution

PUZZLE_KINDS: tuple[str, ...] = ("last-round", "best-round", "last-rounds")
"""Puzzle kinds this project poses on the game (``min-turns`` to come)."""
PLANNED_ROUNDS: tuple[int, ...] = (2,)
"""The ``rounds`` a ``last-rounds`` puzzle may plan (the last ones, to the game's end);
the first is the default."""
OBJECTIVES: tuple[str, ...] = ("max-points", "max-value")
"""Objectives of a ``best-round`` puzzle (the first is the default)."""


@dataclass(frozen=True)
class Board:
    """The static map: cells, river hexes, bridge spots and neutral-house marks [D2]."""

    grid: HexGrid
    river: frozenset[int]
    bridge_spots: tuple[tuple[int, int], ...] = ()
    neutral_marks: tuple[int, ...] = ()
    name: str = ""

    @cached_property
    def edge(self) -> frozenset[int]:
        """[D3] Landscape hexes with fewer than 6 neighbouring cells."""
        return frozenset(i for i in range(self.grid.size) if i not in self.river
                         and len(self.grid.neighbours[i]) < EDGE_NEIGHBOURS)

    @cached_property
    def river_adjacent(self) -> frozenset[int]:
        """[D29] Landscape hexes with a river hex sharing a side."""
        return frozenset(i for i in range(self.grid.size) if i not in self.river
                         and any(nb in self.river for nb in self.grid.neighbours[i]))


@dataclass(frozen=True)
class Building:
    """A building on the map: its owner (a colour or ``neutral``) and kind."""

    owner: str
    kind: str


@dataclass(frozen=True)
class Player:
    """One player's tableau and tracks. Houses, Kontore and palaces on the tableau
    follow from the map (supply minus buildings on the board)."""

    colour: str
    faction: str
    vp: int = 0
    money: int = 0
    power: tuple[int, int, int] = (2, 2, 4)
    """Bowls I, II, III."""
    shipping: int = 0
    """The shipping track value (without ``b-reach``)."""
    bonus: str | None = None
    palaces: tuple[str, ...] = ()
    """Palace sides built (``left``, ``right``), in that order."""
    specials_used: tuple[str, ...] = ()
    """Personal special actions X-marked this round (sorted)."""
    town_tiles: tuple[str, ...] = ()
    """Unused town tiles (in the order of ``rules.TOWN_TILES``)."""
    towns: tuple[int, ...] = ()
    """Per founded town the cell under its tile: a member building (Seebären: a river hex)."""
    bridges: tuple[tuple[int, int], ...] = ()
    links: tuple[tuple[int, int], ...] = ()
    """[D26] Seebären river links used for towns: pairs of own building cells (permanent)."""


@dataclass(frozen=True)
class Puzzle:
    """The ``[puzzle]`` table: what to solve (P = ``to_move``)."""

    kind: str = "last-round"
    objective: str | None = None
    """``best-round`` only: one of :data:`OBJECTIVES`."""
    rounds: int | None = None
    """``last-rounds`` only: how many rounds it plans (one of :data:`PLANNED_ROUNDS`)."""


@dataclass(frozen=True)
class Position:
    """A Terra Nova (KOSMOS) position in phase 2 (actions) of ``round``.

    ``landscape[i]`` is a letter of ``rules.LANDSCAPE_LETTER`` or ``r`` (river);
    ``buildings[i]`` the building on cell ``i`` or None. ``players`` are in
    seating order (clockwise); ``passed`` lists who passed this round, in order.
    ``factions`` holds the effective tableau data per player (defaults with the
    file's overrides); ``overrides`` keeps the file's ``[faction_data]`` tables.
    """

    board: Board
    landscape: tuple[str, ...]
    buildings: tuple[Building | None, ...]
    players: tuple[Player, ...]
    factions: tuple[Faction, ...]
    to_move: str
    start: str
    """Holder of the start marker."""
    round: int = 1
    round_tiles: tuple[str, ...] = ()
    power_actions_used: tuple[str, ...] = ()
    bonus_display: tuple[tuple[str, int], ...] = ()
    """Bonus tiles on display and the coins on each."""
    passed: tuple[str, ...] = ()
    order: tuple[str, ...] = ()
    """The order players act in this round when it is not the seating order
    (``turn_order = "pass"``: last round's pass order); empty: clockwise seating."""
    variant: str = "standard"
    neutral: str | None = None
    """Planer: the colour drawn as neutral (its houses are ``N`` on the map)."""
    rules: Rules = DEFAULT_RULES
    overrides: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    puzzle: Puzzle | None = None
    solution: Solution | None = None

    @property
    def grid(self) -> HexGrid:
        return self.board.grid

    @property
    def colours(self) -> tuple[str, ...]:
        """The players' colours in seating order."""
        return tuple(p.colour for p in self.players)

    @cached_property
    def _seats(self) -> dict[str, int]:
        return {p.colour: i for i, p in enumerate(self.players)}

    @cached_property
    def _owned(self) -> dict[str, tuple[int, ...]]:
        owned: dict[str, list[int]] = {}
        for i, b in enumerate(self.buildings):
            if b is not None:
                owned.setdefault(b.owner, []).append(i)
        return {owner: tuple(cells) for owner, cells in owned.items()}

    def index(self, colour: str) -> int:
        """Seat of ``colour``."""
        return self._seats[colour]

    def player(self, colour: str) -> Player:
        """The tableau of ``colour``."""
        return self.players[self.index(colour)]

    def faction(self, colour: str) -> Faction:
        """The effective faction data of ``colour``."""
        return self.factions[self.index(colour)]

    def is_river(self, cell: int) -> bool:
        """True for a river hex."""
        return self.landscape[cell] == RIVER

    def buildings_of(self, owner: str) -> tuple[int, ...]:
        """Cells of ``owner``'s buildings (a colour or ``neutral``), ascending."""
        return self._owned.get(owner, ())

    def building(self, cell: int) -> Building:
        """The building on ``cell``, where one stands (ValueError where none does)."""
        found = self.buildings[cell]
        if found is None:
            raise ValueError(f"no building on cell {cell}")
        return found

    def owner(self, cell: int) -> str | None:
        """Whose building stands on ``cell`` (a colour or ``neutral``); None: no building."""
        found = self.buildings[cell]
        return None if found is None else found.owner

    def count(self, owner: str, kind: str) -> int:
        """Buildings of ``kind`` that ``owner`` has on the map."""
        return sum(1 for i in self.buildings_of(owner) if self.building(i).kind == kind)

    def houses_left(self, colour: str) -> int:
        """Houses still on the tableau."""
        return HOUSES - self.count(colour, "house")

    def kontore_left(self, colour: str) -> int:
        """Kontore still on the tableau."""
        return KONTORE - self.count(colour, "kontor")

    def palaces_left(self, colour: str) -> int:
        """Palaces still on the tableau."""
        return PALACES - self.count(colour, "palace")

    def has_passed(self, colour: str) -> bool:
        """True when ``colour`` passed this round."""
        return colour in self.passed

    def replace(self, **changes: object) -> Position:
        """A copy with some fields changed (like ``dataclasses.replace``, but without
        re-running ``__init__``: the engine copies positions very often)."""
        unknown = set(changes) - _FIELDS
        if unknown:
            raise TypeError(f"Position has no field {sorted(unknown)[0]!r}")
        copy = object.__new__(Position)
        state = dict(self.__dict__)
        for name in _CACHED:
            state.pop(name, None)
        state.update(changes)
        copy.__dict__.update(state)
        return copy

    def with_player(self, player: Player) -> Position:
        """A copy with ``player``'s tableau replaced (matched by colour)."""
        seat = self.index(player.colour)
        return self.replace(players=self.players[:seat] + (player,) + self.players[seat + 1:])


_FIELDS = frozenset(f.name for f in fields(Position))
_CACHED = ("_seats", "_owned")
"""Cached properties of :class:`Position`, dropped from copies."""
