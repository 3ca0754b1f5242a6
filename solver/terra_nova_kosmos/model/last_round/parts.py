"""The variables of the last-round model: a step's, a state's, and the built model."""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.cpsat.constraints import Expr, Lit
from solver.cpsat.objectives import Lexicographic
from solver.terra_nova_kosmos.model.geometry import Geometry
from solver.terra_nova_kosmos.position import Position

Num = Expr
"""A number of the model: a constant, a variable or a linear expression."""

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
    """The variables of one step (action t, 1-based). The per-node maps are keyed by
    node number, ``bridge`` by free bridge spot, ``river`` by river hex, ``found`` by
    the node whose component founds a town, ``tiles`` by town tile."""

    kind: dict[str, Lit]
    """Action kind → chosen (one-hot over the kinds that can occur; ``False``: cannot)."""
    exchange: Num
    """Power exchanged 1:1 for money before the action."""
    triples: Num = 0
    """Druiden: 3 power → 2 VP exchanges before the action (only where a gain follows)."""
    tr: dict[int, Lit] = field(default_factory=dict)
    """Transformed with spades."""
    dig: dict[int, Lit] = field(default_factory=dict)
    """Made home by ``desert-dig``."""
    house: dict[int, Lit] = field(default_factory=dict)
    up_k: dict[int, Lit] = field(default_factory=dict)
    up_p: dict[int, Lit] = field(default_factory=dict)
    inv: dict[int, Lit] = field(default_factory=dict)
    edge: dict[int, Lit] = field(default_factory=dict)
    """Ifrit left palace: the edge hex made home (a free house on it if one is left)."""
    edge_house: Lit = False
    pl_ship: Lit = False
    """Seebären left palace: its free shipping step."""
    river: dict[int, Lit] = field(default_factory=dict)
    """Seebären: river hex → a town founded over it after the action [D26]."""
    bridge: dict[int, Lit] = field(default_factory=dict)
    found: dict[int, Lit] = field(default_factory=dict)
    tiles: dict[str, Lit] = field(default_factory=dict)
    ship_steps: Num = 0
    """Shipping track spaces the step moves."""

    def choices(self) -> list[dict[int, Lit]]:
        """The per-node, per-spot and per-river-hex choices of the step."""
        return [self.tr, self.dig, self.house, self.up_k, self.up_p, self.inv, self.edge,
                self.bridge, self.river]


@dataclass
class State:
    """The variables of one state (0 = the position); per node (lists) or per free
    bridge spot (``bridge``). A step's state is made by :meth:`.builder.Builder.cells`
    with the buildings, then completed by the rules that follow."""

    house: list[Lit]
    kontor: list[Lit]
    palace: list[Lit]
    built: list[Lit]
    home: list[Lit]
    """P's home landscape (a house may go there)."""
    bridge: list[Lit] = field(default_factory=list)
    money: Num = 0
    bowls: tuple[Num, Num, Num] = (0, 0, 0)
    ship: Num = 0
    ship_at_least: dict[int, Lit] = field(default_factory=dict)
    """Shipping value h → shipping ≥ h (only the values above the position's)."""
    left: Lit = False
    right: Lit = False
    town: list[Lit] = field(default_factory=list)
    """In a town."""
    tiles_left: Num = 0
    """Town tiles left to take."""
    passed: Lit = False
    links: dict[tuple[int, int], Lit] = field(default_factory=dict)
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
    value: Num
    others: Num
    turns: Num
    pass_tile: str | None
    answer: list[Lit]
    """The Booleans that make up a line (for uniqueness checks)."""
