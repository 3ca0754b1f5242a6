"""What every rule family of the last-round model works on: the position's facts,
the model being built, what the steps built so far have added, and the small
encodings the families share (power gain, range links, the town graph)."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence

from ortools.sat.python import cp_model

from solver.cpsat.connectivity import Adjacency, Components, Weight, components
from solver.cpsat.constraints import Lit, all_of, any_of, as_expr, at_least, clause, count
from solver.terra_nova_kosmos.model.geometry import (
    Geometry,
    build_geometry,
    related_bridges,
)
from solver.terra_nova_kosmos.model.last_round.parts import Num, State, Step, Unsupported
from solver.terra_nova_kosmos.model.scope import (
    affordable_hexes,
    money_bound,
    once_specials,
    paid_budget,
    range_depth,
    unsupported,
)
from solver.terra_nova_kosmos.model.scope import horizon as turn_bound
from solver.terra_nova_kosmos.position import Player, Position
from solver.terra_nova_kosmos.rules import (
    BONUS_TILES,
    FELINE_KONTOR_COST_NEIGHBOUR,
    KONTOR_COST_NEIGHBOUR,
    LETTER_LANDSCAPE,
    PALACE_COST,
    POWER_TOKENS,
    TOWN_VALUE,
    Faction,
)

Bowls = tuple[Num, Num, Num]
"""Power bowls I, II and III."""


def _pass_tile(position: Position) -> tuple[str | None, int]:
    """The tile P takes on passing ([D23]) and its coins: the first with most coins
    (coins are all a tile is worth after round 5's pass)."""
    if not position.rules.final_round_swap or not position.bonus_display:
        return None, 0
    best = max(coins for _, coins in position.bonus_display)
    return next(t for t, c in position.bonus_display if c == best), best


class Core:
    """The position's facts, the model and what the steps add; the rule families
    (:class:`~.towns.TownRules`, :class:`~.economy.Economy`, :class:`~.ending.Ending`)
    and :class:`~.builder.Builder` extend it with one method per rule."""

    def __init__(self, position: Position, check: Callable[[], None] | None = None):
        reason = self.refusal(position)
        if reason:
            raise Unsupported(reason)
        self.check: Callable[[], None] = check or (lambda: None)
        """Called between the building steps (the command's deadline raises there)."""
        self.p: Position = position
        self.me: str = position.to_move
        self.player: Player = position.player(self.me)
        self.faction: Faction = position.faction(self.me)
        self.fid: str = self.player.faction
        self.mine_bridges: set[tuple[int, int]] = related_bridges(position, self.me)
        """The bridges on the map that join hexes in P's relations [D4]."""
        self.reach: int = BONUS_TILES[self.player.bonus].reach if self.player.bonus else 0
        self.max_ship: int = self.faction.max_shipping
        extra: set[int] = set()
        self.edge_possible: bool = (self.fid == "ifrit"
                                    and self.palace_affordable("left"))
        """The Ifrit left palace (and its edge house [D20]) may still be built."""
        if self.fid == "flaschengeister" and "lake-house" in once_specials(position) \
                and ("left" in self.player.palaces or self.palace_affordable("left")):
            extra = {c for c in range(position.grid.size) if position.landscape[c] == "l"}
        if self.edge_possible:
            extra |= set(position.board.edge)
        # the first step a free building can come: the edge house with the palace, the
        # lake house in a turn after it; a Kontor to upgrade first where none stands
        unbuilt = "left" not in self.player.palaces
        extra_level = (1 + int(self.fid == "flaschengeister" and unbuilt)
                       + int(unbuilt and self.kontor_first()))
        self.home_letter: str = {v: k for k, v in LETTER_LANDSCAPE.items()}[self.faction.home]
        ship = max(self.max_ship, self.player.shipping) + self.reach
        self.g: Geometry = build_geometry(position, ship, extra, extra_level=extra_level)
        self.T: int = self.horizon()
        # a bound found on more candidates holds for fewer: narrow, then bound again
        depth = range_depth(position, self.g.size - self.g.own, self.T)
        self.check()
        sources = set(position.buildings_of(self.me)) | extra
        within = affordable_hexes(position, sources, ship, self.spendable()) | extra
        self.g = build_geometry(position, ship, extra, depth, extra_level, self.T - 1, within)
        self.T = self.horizon()
        """The number of steps: a bound on P's turns, the pass included."""
        self.static_links: set[tuple[int, int]] = {self.pair(a, b) for a, b in
                                                   self.player.links}
        """Seebären links on the map (node pairs)."""
        self.river_pairs: dict[int, list[tuple[int, int]]] = self.river_link_pairs()
        self.spot_of: dict[tuple[int, int], int] = {
            (min(a, b), max(a, b)): s for s, (a, b) in enumerate(self.g.spots)}
        """Free bridge spots by their map cells (smaller first)."""
        self.in_range_from: list[list[int]] = self.range_sources()
        """Per node j: the nodes i (ascending) whose building may ever have j in range."""
        self.m: cp_model.CpModel = cp_model.CpModel()
        self.false: cp_model.IntVar = self.m.new_constant(0)
        self.mmax: int = money_bound(position, self.g.size - self.g.own)
        """A bound on P's money in any state."""
        self.tile: str | None = (position.round_tiles[position.round - 1]
                                 if len(position.round_tiles) >= position.round else None)
        """The round's scoring tile."""
        self.pass_tile: str | None
        self.coins: int
        self.pass_tile, self.coins = _pass_tile(position)
        self.specials: tuple[str, ...] = once_specials(position)
        self.steps: list[Step] = []
        self.states: list[State] = []
        self.town_count: list[Num] = []
        """Per step: the number of towns it founds."""
        self.vp_terms: list[Num] = []
        """Per step: the VP it scores (and per round its round tile's)."""
        self.round_units: list[Num] = []
        """Per step of the round being built: the units its round tile scores."""
        self.round_total: Num = 0
        """The units the round tile of the last round built scores (its total)."""
        self.events: list[tuple[int, Lit, list[Lit]]] = []
        """(node, literal, bridges before) of every house built or upgrade: others gain
        power ([D24])."""
        self.houses_built: list[tuple[int, Lit]] = []
        self.upgrades: list[Lit] = []

    def kontor_first(self) -> bool:
        """P has no Kontor on the map: a palace needs an upgrade to a Kontor first."""
        return self.p.count(self.me, "kontor") == 0

    def palace_affordable(self, side: str) -> bool:
        """The ``side`` palace may still be built this round: not built, one on the
        tableau, and what P can spend pays for it (and the cheapest Kontor first when
        P has none: Feline 5, others 7 next to another faction)."""
        p = self.p
        if side in self.player.palaces or p.palaces_left(self.me) == 0:
            return False
        kontor = 0
        if self.kontor_first():
            if p.count(self.me, "house") == 0:
                return False
            kontor = (FELINE_KONTOR_COST_NEIGHBOUR if self.fid == "feline"
                      else KONTOR_COST_NEIGHBOUR)
        return self.spendable() >= PALACE_COST + kontor

    def spendable(self) -> int:
        """A bound on the money + power P can spend over the steps the model plans (the
        palaces P may build and the hexes P can reach follow from it; a model of more
        rounds overrides it)."""
        return paid_budget(self.p)

    def refusal(self, position: Position) -> str | None:
        """Why the model cannot take ``position`` (None: it can)."""
        return unsupported(position)

    def horizon(self) -> int:
        """The bound on P's turns for the current nodes."""
        non_home = sum(1 for c in self.g.nodes[self.g.own:]
                       if self.p.landscape[c] != self.home_letter)
        return turn_bound(self.p, self.g.size - self.g.own, non_home)

    def pair(self, a: int, b: int) -> tuple[int, int]:
        """The node pair (smaller first) of two map cells."""
        i, j = self.g.node(a), self.g.node(b)
        assert i is not None and j is not None
        return (min(i, j), max(i, j))

    def range_sources(self) -> list[list[int]]:
        """Per node j: every other node i with a hex side, a bridge or bridge spot, or a
        river path to j (the only ways :meth:`link` can hold)."""
        g = self.g
        out: list[list[int]] = []
        for j in range(g.size):
            cell = g.nodes[j]
            out.append([i for i in range(g.size) if i != j and (
                j in g.side[i] or (min(i, j), max(i, j)) in g.old_bridges
                or (min(cell, g.nodes[i]), max(cell, g.nodes[i])) in self.spot_of
                or j in g.hops[i])])
        return out

    def river_link_pairs(self) -> dict[int, list[tuple[int, int]]]:
        """Seebären with town tiles: per river hex, the node pairs a town over it would
        link ([D26]: both next to the river hex, not sharing a side, not linked yet)."""
        if self.fid != "seebaeren" or not self.player.town_tiles:
            return {}
        g, grid = self.g, self.p.grid
        out = {}
        for r in sorted(self.p.board.river):
            around = sorted(i for i in (g.node(c) for c in grid.neighbours[r]) if i is not None)
            pairs = [(i, j) for x, i in enumerate(around) for j in around[x + 1:]
                     if j not in g.side[i] and (i, j) not in self.static_links]
            if pairs:
                out[r] = pairs
        return out

    # ---- the floor's constraints on this model
    def bool(self, name: str) -> cp_model.IntVar:
        """A new Boolean variable."""
        return self.m.new_bool_var(name)

    def both(self, a: Lit, b: Lit, name: str) -> Lit:
        """``a AND b`` with constant folding."""
        return all_of(self.m, [a, b], name)

    def any_of(self, lits: Sequence[Lit], name: str) -> Lit:
        """``OR lits`` with constant folding."""
        return any_of(self.m, lits, name)

    def clause(self, lits: Sequence[Lit], when: Sequence[Lit]) -> None:
        """``AND when → OR lits`` (constants folded)."""
        clause(self.m, lits, self.false, when)

    @staticmethod
    def lin(lits: Sequence[Lit]) -> Num:
        """The sum of literals, constants (True/False) counted as 1/0."""
        return count(lits)

    def reify_ge(self, expr: Num, k: int, name: str) -> Lit:
        """A literal equal to ``expr >= k``."""
        return at_least(self.m, expr, k, None, name)

    # ---- encodings the rule families share
    def gain(self, bowls: Bowls, amount: Num, name: str) -> Bowls:
        """Bowls after gaining ``amount`` power (I → II, then II → III)."""
        one, two, three = bowls
        a = self.m.new_int_var(0, POWER_TOKENS, f"{name}_a")
        b = self.m.new_int_var(0, POWER_TOKENS, f"{name}_b")
        self.m.add_min_equality(a, [amount, one])
        rest = self.m.new_int_var(0, 10 * POWER_TOKENS + self.mmax, f"{name}_r")
        self.m.add(rest == amount - a)
        self.m.add_min_equality(b, [rest, two + a])
        return one - a, two + a - b, three + b

    def link(self, i: int, j: int, bridge: Sequence[Lit], ship_at_least: dict[int, Lit],
             reach: int) -> Lit:
        """Hex j is in range of a building on node i in a state: side, bridge or
        shipping over ≤ S + ``reach`` river hexes."""
        g = self.g
        if j in g.side[i] or (min(i, j), max(i, j)) in g.old_bridges:
            return True
        lits = []
        a, b = g.nodes[i], g.nodes[j]
        spot = self.spot_of.get((min(a, b), max(a, b)))
        if spot is not None:
            lits.append(bridge[spot])
        hops = g.hops[i].get(j)
        if hops is not None:
            need = hops - reach
            if need <= 0 or need <= self.player.shipping:
                return True
            lits.append(ship_at_least.get(need, False))
        return self.any_of(lits, f"link_{i}_{j}")

    def town_edges(self, state: State) -> Adjacency:
        """Per node: (neighbour node, edge literal) of the town graph in ``state``
        (sides, bridges, Seebären links)."""
        g, bridge = self.g, state.bridge
        edges: dict[int, list[tuple[int, Lit]]] = {i: [(j, True) for j in g.side[i]]
                                                   for i in range(g.size)}
        for i, j in sorted(g.old_bridges):
            edges[i].append((j, True))
            edges[j].append((i, True))
        for s, (a, b) in enumerate(g.spots):
            na, nb = g.node(a), g.node(b)
            if na is not None and nb is not None and bridge[s] is not False:
                edges[na].append((nb, bridge[s]))
                edges[nb].append((na, bridge[s]))
        for (i, j), lit in sorted(state.links.items()):
            if lit is not False:
                edges[i].append((j, lit))
                edges[j].append((i, lit))
        return edges

    def settlements(self, t: int, nxt: State, prev: State,
                    extra: Sequence[Num] | None = None) -> Components:
        """The components of P's buildings in the town graph of ``nxt`` (settlements,
        [D28]), each summing at its root: its buildings, its town value, its buildings
        that were in a town in ``prev``, and ``extra`` (a 0/1 weight per node) when
        given."""
        n = self.g.size
        weights = [Weight([as_expr(b) for b in nxt.built], n),
                   Weight([TOWN_VALUE["house"] * as_expr(nxt.house[i])
                           + TOWN_VALUE["kontor"] * as_expr(nxt.kontor[i])
                           + TOWN_VALUE["palace"] * as_expr(nxt.palace[i]) for i in range(n)],
                          3 * n),
                   Weight([as_expr(x) for x in prev.town], n)]
        if extra is not None:
            weights.append(Weight(extra, n))
        return components(self.m, nxt.built, self.town_edges(nxt), weights, f"set{t}")

    def druid_settlements(self) -> builtins.bool:  # the class's own bool() makes variables
        """Druiden with a left palace (built or still buildable) count settlements."""
        return self.fid == "druiden" and ("left" in self.player.palaces
                                          or self.p.palaces_left(self.me) > 0)
