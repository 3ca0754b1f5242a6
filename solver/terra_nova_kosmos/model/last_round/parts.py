"""The variables of the last-round model: a step's, a state's, and the built model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat.objectives import Lexicographic
from solver.terra_nova_kosmos.model.geometry import (
    Geometry,
)
from solver.terra_nova_kosmos.position import Position

DIGS = ("terraform", "pa-spade1", "b-spade", "feen-spade", "pa-spade2", "pa-spade2x2")
"""Actions that transform with spades (``pa-spade2x2``: ``pa-spade2`` on two hexes)."""
FREE_SPADE = ("pa-spade1", "b-spade", "feen-spade")
KINDS = ("build", *DIGS, "desert-dig", "lake-house", "upgrade-k", "upgrade-pl", "upgrade-pr",
         "inv-kontor", "free-kontor", "ship", "pa-ship", "bridge", "pa-bridge3", "pa-bridge4",
         "pa-money7", "pass", "idle")
BRIDGING = ("bridge", "pa-bridge3", "pa-bridge4")


class Unsupported(ValueError):
    """The position is outside what the model encodes (the message says what)."""


@dataclass
class Step:
    """The variables of one step (action t, 1-based)."""

    kind: dict[str, Any]
    exchange: Any
    triples: Any = 0
    """Druiden: 3 power → 2 VP exchanges before the action (only where a gain follows)."""
    tr: dict[int, Any] = field(default_factory=dict)
    dig: dict[int, Any] = field(default_factory=dict)
    house: dict[int, Any] = field(default_factory=dict)
    up_k: dict[int, Any] = field(default_factory=dict)
    up_p: dict[int, Any] = field(default_factory=dict)
    inv: dict[int, Any] = field(default_factory=dict)
    edge: dict[int, Any] = field(default_factory=dict)
    """Ifrit left palace: the edge hex made home (a free house on it if one is left)."""
    edge_house: Any = False
    pl_ship: Any = False
    """Seebären left palace: its free shipping step."""
    river: dict[int, Any] = field(default_factory=dict)
    """Seebären: river hex → a town founded over it after the action [D26]."""
    bridge: dict[int, Any] = field(default_factory=dict)
    found: dict[int, Any] = field(default_factory=dict)
    tiles: dict[str, Any] = field(default_factory=dict)


@dataclass
class State:
    """The variables of one state (0 = the position)."""

    house: list[Any]
    kontor: list[Any]
    palace: list[Any]
    built: list[Any]
    home: list[Any]
    bridge: list[Any]
    money: Any
    bowls: tuple[Any, Any, Any]
    ship: Any
    ship_at_least: dict[int, Any]
    left: Any
    right: Any
    town: list[Any]
    tiles_left: Any
    passed: Any
    links: dict[tuple[int, int], Any] = field(default_factory=dict)
    """Seebären: node pair → linked over the river (an edge of the town graph)."""


@dataclass
class LastRound:
    """A built last-round model and what its solution is read from."""

    position: Position
    model: cp_model.CpModel
    objective: Lexicographic
    geometry: Geometry
    steps: list[Step]
    states: list[State]
    value: Any
    others: Any
    turns: Any
    pass_tile: str | None
    answer: list[Any]
    """The Booleans that make up a line (for uniqueness checks)."""
