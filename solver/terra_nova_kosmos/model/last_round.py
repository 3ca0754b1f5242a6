"""The CP-SAT model of the ``last-round`` puzzle: P's turns to the pass, then scoring.

State ``0…T`` (before step 1, after step t) and an action per step ``1…T``:

* state: per node (a hex that may carry P's building) house/Kontor/palace
  Booleans and "habitable" (P's home landscape), per free bridge spot a bridge
  Boolean, money, the three power bowls, the shipping track, palace sides
  built, town membership of each building and the town tiles left;
* action: one Boolean per action kind (one-hot, ``idle`` after the pass),
  per node the effect Booleans (transformed, house placed, upgraded, Kontor
  placed), per spot "bridged now", the exchange ``$k`` before it (k = the
  money shortfall, the canonical turn);
* transitions: linear equalities per Boolean, power gains in closed form
  with ``add_min_equality``; range from any P building over hex sides,
  bridges or at most S river hexes ([D11]);
* towns: after every step the graph of P's buildings is labelled by
  components (a root per component, parent pointers with decreasing rank,
  equal labels across every edge), subtree sums give each component's size,
  town value and old-town count; every tile-less component of ≥ 4 buildings
  and value ≥ threshold founds a town while tiles last ([D25]);
* end: pass bonuses, money ``(money + bowl III) // 3`` (Druiden triples),
  the largest group connected through range (root, rank, supporting
  neighbour) and the area places of every player;
* objective: P's final score, then the others' final scores (minimised),
  then the number of turns — one :func:`solver.cpsat.objectives.lexicographic`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat.constraints import negate
from solver.cpsat.objectives import Goal, Lexicographic, lexicographic
from solver.terra_nova_kosmos.model.geometry import (
    Geometry,
    build_geometry,
    related_bridges,
    river_hops,
)
from solver.terra_nova_kosmos.model.scope import horizon as turn_bound
from solver.terra_nova_kosmos.model.scope import (
    money_bound,
    once_specials,
    range_depth,
    unsupported,
)
from solver.terra_nova_kosmos.notation import Action, Exchange, Town, Turn
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    AREA_POINTS,
    BONUS_TILES,
    BRIDGE_COST,
    BRIDGES,
    DRUID_TRIPLE,
    FEEN_SPADE_POWER,
    FELINE_KONTOR_COST,
    FELINE_KONTOR_COST_NEIGHBOUR,
    FLASCHENGEISTER_TOWN_VP,
    GOLEMS_PASS_VP,
    HOUSE_COST,
    HOUSES,
    IFRIT_POWER_REBATE,
    INV_KONTOR_POWER,
    KOBOLDE_PALACE_POWER,
    KOBOLDE_POWER_PER_SPADE,
    KONTOR_COST,
    KONTOR_COST_NEIGHBOUR,
    KONTORE,
    LETTER_LANDSCAPE,
    MONEY_PER_VP,
    PA_MONEY,
    PALACE_COST,
    PALACES,
    POWER_ACTIONS,
    POWER_TOKENS,
    ROUND_TILES,
    SHIP_COST,
    SIDE_A,
    SPADE_COST,
    SPADES,
    TOWN6_MIN_VALUE,
    TOWN_MIN_BUILDINGS,
    TOWN_MIN_VALUE,
    TOWN_TILES,
    TOWN_VALUE,
)

DIGS = ("terraform", "pa-spade1", "b-spade", "feen-spade", "pa-spade2", "pa-spade2x2")
"""Actions that transform with spades (``pa-spade2x2``: ``pa-spade2`` on two hexes)."""
FREE_SPADE = ("pa-spade1", "b-spade", "feen-spade")
KINDS = ("build", *DIGS, "desert-dig", "lake-house", "upgrade-k", "upgrade-pl", "upgrade-pr",
         "inv-kontor", "free-kontor", "ship", "pa-ship", "bridge", "pa-bridge3", "pa-bridge4",
         "pa-money7", "pass", "idle")
BRIDGING = ("bridge", "pa-bridge3", "pa-bridge4")
RANK_FREE = 0


class Unsupported(ValueError):
    """The position is outside what the model encodes (the message says what)."""


def _pass_tile(position: Position) -> tuple[str | None, int]:
    """The tile P takes on passing ([D23]) and its coins: the first with most coins
    (coins are all a tile is worth after round 5's pass)."""
    if not position.rules.final_round_swap or not position.bonus_display:
        return None, 0
    best = max(coins for _, coins in position.bonus_display)
    return next(t for t, c in position.bonus_display if c == best), best


def _area_table(sizes: list[int], top: int, players: int) -> tuple[list[int], list[int]]:
    """For each group size ``a`` of P: P's area points and the others' sum, the
    others' largest groups being ``sizes`` (places shared by tied players)."""
    points = AREA_POINTS[:players]
    mine, theirs = [], []
    for a in range(top + 1):
        everyone = [a, *sizes]
        shares = []
        for s in everyone:
            above = sum(1 for x in everyone if x > s)
            tied = sum(1 for x in everyone if x == s)
            covered = sum(points[above:above + tied])
            shares.append(covered // tied)
        mine.append(shares[0])
        theirs.append(sum(shares[1:]))
    return mine, theirs


def _largest_group(position: Position, colour: str, shipping: int) -> int:
    """The size of ``colour``'s largest group of buildings connected through range."""
    cells = set(position.buildings_of(colour))
    bridges = related_bridges(position, colour)
    seen: set[int] = set()
    best = 0
    for start in sorted(cells):
        if start in seen:
            continue
        stack, size = [start], 0
        seen.add(start)
        while stack:
            cell = stack.pop()
            size += 1
            near = set(position.grid.neighbours[cell])
            near |= {b if a == cell else a for a, b in bridges if cell in (a, b)}
            near |= {x for x, d in river_hops(position, cell).items() if d <= shipping}
            for nb in near & cells - seen:
                seen.add(nb)
                stack.append(nb)
        best = max(best, size)
    return best


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


class _Builder:
    """Builds the model in a fixed order; one method per rule."""

    def __init__(self, position: Position, check: Callable[[], None] | None = None):
        reason = self.refusal(position)
        if reason:
            raise Unsupported(reason)
        self.check = check or (lambda: None)
        """Called between the building steps (the command's deadline raises there)."""
        self.p = position
        self.me = position.to_move
        self.player = position.player(self.me)
        self.faction = position.faction(self.me)
        self.fid = self.player.faction
        self.mine_bridges = related_bridges(position, self.me)
        """The bridges on the map that join hexes in P's relations [D4]."""
        self.reach = BONUS_TILES[self.player.bonus].reach if self.player.bonus else 0
        self.max_ship = self.faction.max_shipping
        extra = set()
        if self.fid == "flaschengeister":
            extra = {c for c in range(position.grid.size) if position.landscape[c] == "l"}
        self.edge_possible = (self.fid == "ifrit" and "left" not in self.player.palaces
                              and position.palaces_left(self.me) > 0)
        """The Ifrit left palace (and its edge house [D20]) may still be built."""
        if self.edge_possible:
            extra |= set(position.board.edge)
        self.home_letter = {v: k for k, v in LETTER_LANDSCAPE.items()}[self.faction.home]
        ship = max(self.max_ship, self.player.shipping) + self.reach
        self.g = build_geometry(position, ship, extra)
        self.T = self.horizon()
        # a bound found on more candidates holds for fewer: narrow, then bound again
        depth = range_depth(position, self.g.size - self.g.own, self.T)
        self.check()
        self.g = build_geometry(position, ship, extra, depth)
        self.T = self.horizon()
        self.static_links = {self.pair(a, b) for a, b in self.player.links}
        """Seebären links on the map (node pairs)."""
        self.river_pairs = self.river_link_pairs()
        self.m = cp_model.CpModel()
        self.false = self.m.new_constant(0)
        self.mmax = money_bound(position, self.g.size - self.g.own)
        self.tile = (position.round_tiles[position.round - 1]
                     if len(position.round_tiles) >= position.round else None)
        self.pass_tile, self.coins = _pass_tile(position)
        self.town_count: list[Any] = []
        self.specials = once_specials(position)
        self.steps: list[Step] = []
        self.states: list[State] = []
        self.vp_terms: list[Any] = []
        self.events: list[tuple[int, Any, list[Any]]] = []
        """(node, literal, bridges before) of every house built or upgrade: others gain
        power ([D24])."""
        self.houses_built: list[tuple[int, Any]] = []
        self.upgrades: list[Any] = []

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
        return (min(i, j), max(i, j))

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

    # ---- small helpers
    def bool(self, name: str) -> cp_model.IntVar:
        return self.m.new_bool_var(name)

    def both(self, a: Any, b: Any, name: str) -> Any:
        """``a AND b`` with constant folding."""
        if a is False or b is False:
            return False
        if a is True:
            return b
        if b is True:
            return a
        v = self.bool(name)
        self.m.add_bool_and([a, b]).only_enforce_if(v)
        self.m.add_bool_or([~a, ~b, v])
        return v

    def any_of(self, lits: list[Any], name: str) -> Any:
        """``OR lits`` with constant folding."""
        lits = [x for x in lits if x is not False]
        if any(x is True for x in lits):
            return True
        if not lits:
            return False
        if len(lits) == 1:
            return lits[0]
        v = self.bool(name)
        self.m.add_bool_or(lits).only_enforce_if(v)
        for x in lits:
            self.m.add_implication(x, v)
        return v

    def clause(self, lits: list[Any], when: list[Any]) -> None:
        """``AND when → OR lits`` (constants folded)."""
        if any(w is False for w in when) or any(x is True for x in lits):
            return
        cond = [w for w in when if w is not True]
        lits = [x for x in lits if x is not False]
        self.m.add_bool_or(lits or [self.false]).only_enforce_if(cond)

    @staticmethod
    def lin(lits: list[Any]) -> Any:
        return sum((1 if x is True else 0) if isinstance(x, bool) else x for x in lits)

    def reify_ge(self, expr: Any, k: int, name: str) -> Any:
        v = self.bool(name)
        self.m.add(expr >= k).only_enforce_if(v)
        self.m.add(expr <= k - 1).only_enforce_if(~v)
        return v

    def gain(self, bowls: tuple[Any, Any, Any], amount: Any, name: str
             ) -> tuple[Any, Any, Any]:
        """Bowls after gaining ``amount`` power (I → II, then II → III)."""
        one, two, three = bowls
        a = self.m.new_int_var(0, POWER_TOKENS, f"{name}_a")
        b = self.m.new_int_var(0, POWER_TOKENS, f"{name}_b")
        self.m.add_min_equality(a, [amount, one])
        rest = self.m.new_int_var(0, 10 * POWER_TOKENS + self.mmax, f"{name}_r")
        self.m.add(rest == amount - a)
        self.m.add_min_equality(b, [rest, two + a])
        return one - a, two + a - b, three + b

    # ---- the position as state 0
    def initial_state(self) -> State:
        p, g = self.p, self.g
        kinds = [p.buildings[c].kind if p.buildings[c] else None for c in g.nodes]
        house = [k == "house" for k in kinds]
        kontor = [k == "kontor" for k in kinds]
        palace = [k == "palace" for k in kinds]
        built = [k is not None for k in kinds]
        home = [p.landscape[c] == self.home_letter for c in g.nodes]
        town_cells = self.initial_towns()
        ship = self.player.shipping
        return State(house, kontor, palace, built, home, [False] * len(g.spots),
                     self.player.money, tuple(self.player.power), ship,
                     {},
                     "left" in self.player.palaces, "right" in self.player.palaces,
                     [i in town_cells for i in range(g.size)], len(self.player.town_tiles),
                     False, {**{x: True for x in self.static_links},
                             **{x: False for ps in self.river_pairs.values() for x in ps}})

    def initial_towns(self) -> set[int]:
        """Node numbers of P's buildings in a component holding a town."""
        g = self.g
        grid = self.p.grid
        marks = {g.node(c) for c in self.player.towns if c not in self.p.board.river}
        for r in self.player.towns:
            if r in self.p.board.river:
                marks |= {g.node(c) for link in self.player.links for c in link
                          if all(r in grid.neighbours[x] for x in link)}
        edges = self.town_edges_static()
        out: set[int] = set()
        for start in range(g.own):
            seen, stack = {start}, [start]
            while stack:
                i = stack.pop()
                for j in edges.get(i, ()):
                    if j < g.own and j not in seen:
                        seen.add(j)
                        stack.append(j)
            if seen & marks:
                out |= seen
        return out

    def town_edges_static(self) -> dict[int, list[int]]:
        g = self.g
        edges: dict[int, list[int]] = {i: list(g.side[i]) for i in range(g.size)}
        for i, j in sorted(g.old_bridges | self.static_links):
            edges[i].append(j)
            edges[j].append(i)
        return edges

    # ---- the steps
    def build(self) -> LastRound:
        s = self.initial_state()
        self.states.append(s)
        for t in range(1, self.T + 1):
            self.check()
            step, s = self.step(t, s)
            self.steps.append(step)
            self.states.append(s)
        self.m.add(s.passed == 1)
        self.check()
        return self.finish()

    def available(self, kind: str, prev: State) -> bool:
        p, fid = self.p, self.fid
        if kind in POWER_ACTIONS:
            return kind not in p.power_actions_used
        if kind == "pa-spade2x2":
            return "pa-spade2" not in p.power_actions_used
        if kind in ("b-spade", "feen-spade", "lake-house", "desert-dig", "free-kontor"):
            return kind in self.specials
        if kind == "inv-kontor":
            return fid == "erfinderinnen" and (prev.left is not False)
        if kind == "upgrade-pl":
            return "left" not in self.player.palaces
        if kind == "upgrade-pr":
            return "right" not in self.player.palaces
        if kind == "ship":
            return self.player.shipping < self.max_ship
        if kind == "bridge":
            return bool(self.g.spots) and len(self.player.bridges) < BRIDGES
        return True

    def step(self, t: int, prev: State) -> tuple[Step, State]:
        m = self.m
        kind = {k: (self.bool(f"{k}_{t}") if self.available(k, prev) else False) for k in KINDS}
        m.add_exactly_one([v for v in kind.values() if v is not False])
        passed = self.bool(f"passed_{t}")
        if prev.passed is False:
            m.add(kind["idle"] == 0)
        else:
            m.add(kind["idle"] == prev.passed)
        m.add(passed == self.lin([prev.passed]) + kind["pass"])
        exchange = m.new_int_var(0, POWER_TOKENS, f"exch_{t}")
        step = Step(kind, exchange)
        self.personal(kind, prev)
        nxt = self.cells(t, step, prev)
        self.bridges(t, step, prev, nxt)
        self.range_rules(t, step, prev)
        self.supply(step, prev, nxt)
        spades = self.spades(t, step, prev)
        cost = self.cost(t, step, prev, spades)
        self.palaces(t, step, prev, nxt)
        nxt.links = dict(prev.links)
        self.towns(t, step, nxt)
        self.river_towns(t, step, nxt)
        self.take_tiles(t, step, prev, nxt)
        self.shipping(t, step, prev, nxt)
        self.resources(t, step, prev, nxt, cost, spades)
        self.step_points(t, step, prev, spades)
        nxt.passed = passed
        return step, nxt

    def personal(self, kind: dict[str, Any], prev: State) -> None:
        """Personal left-palace actions need the palace before the turn ("usable from
        P's next turn"); once per round is summed over the steps in :meth:`finish`."""
        for k in ("feen-spade", "lake-house", "desert-dig", "inv-kontor"):
            self.clause([prev.left], [kind[k]])
        self.clause([prev.right], [kind["free-kontor"]])

    def cells(self, t: int, step: Step, prev: State) -> State:
        """Per-node effects and the new building state."""
        m, g, kind = self.m, self.g, step.kind
        house, kontor, palace, built, home = [], [], [], [], []
        own = g.own
        for i in range(g.size):
            up_k = (self.bool(f"upk_{t}_{i}") if kind["upgrade-k"] is not False
                    or kind["free-kontor"] is not False else False)
            up_p = self.bool(f"upp_{t}_{i}") if (kind["upgrade-pl"] is not False
                                                  or kind["upgrade-pr"] is not False) else False
            if prev.house[i] is False:
                up_k = False
            if prev.kontor[i] is False:
                up_p = False
            step.up_k[i], step.up_p[i] = up_k, up_p
            if up_k is not False:
                m.add_implication(up_k, prev.house[i]) if prev.house[i] is not True else None
            if up_p is not False:
                m.add_implication(up_p, prev.kontor[i]) if prev.kontor[i] is not True else None
            if i < own:
                h = self.next_bool(prev.house[i], [], [up_k], f"h_{t}_{i}")
                k = self.next_bool(prev.kontor[i], [up_k], [up_p], f"k_{t}_{i}")
                pl = self.next_bool(prev.palace[i], [up_p], [], f"p_{t}_{i}")
                house.append(h)
                kontor.append(k)
                palace.append(pl)
                built.append(True)
                home.append(prev.home[i])
                continue
            digs = any(kind[k] is not False for k in DIGS)
            tr = self.bool(f"tr_{t}_{i}") if digs and prev.home[i] is not True else False
            dig = (self.bool(f"dg_{t}_{i}")
                   if kind["desert-dig"] is not False and prev.home[i] is not True else False)
            hs = self.bool(f"hs_{t}_{i}")
            inv = self.bool(f"inv_{t}_{i}") if kind["inv-kontor"] is not False else False
            eg = (self.bool(f"edge_{t}_{i}") if self.edge_possible and kind["upgrade-pl"]
                  is not False and g.nodes[i] in self.p.board.edge else False)
            unbuilt = [x for x in (tr, dig, hs, inv, eg) if x is not False]
            if prev.built[i] is not False:
                for x in unbuilt:
                    m.add_implication(x, ~prev.built[i])
            for x in (tr, dig):
                if x is not False and prev.home[i] is not False:
                    m.add_implication(x, ~prev.home[i])
            self.clause([prev.home[i], tr, dig, eg], [hs])
            step.tr[i], step.dig[i], step.house[i], step.inv[i] = tr, dig, hs, inv
            step.edge[i] = eg
            h = self.next_bool(prev.house[i], [hs], [up_k], f"h_{t}_{i}")
            k = self.next_bool(prev.kontor[i], [up_k, inv], [up_p], f"k_{t}_{i}")
            pl = self.next_bool(prev.palace[i], [up_p], [], f"p_{t}_{i}")
            b = self.next_bool(prev.built[i], [hs, inv], [], f"b_{t}_{i}")
            hm = self.next_bool(prev.home[i], [tr, dig], [], f"home_{t}_{i}")
            if eg is not False:
                hm = self.any_of([hm, eg], f"home_{t}_{i}e")
            house.append(h)
            kontor.append(k)
            palace.append(pl)
            built.append(b)
            home.append(hm)
        self.counts(step)
        self.edge_house(t, step, prev)
        return State(house, kontor, palace, built, home, [], None, (None, None, None), None,
                     {}, None, None, [], None, None)

    def next_bool(self, before: Any, plus: list[Any], minus: list[Any], name: str) -> Any:
        """A state Boolean after adding ``plus`` and removing ``minus`` (linear)."""
        plus = [x for x in plus if x is not False]
        minus = [x for x in minus if x is not False]
        if not plus and not minus:
            return before
        v = self.bool(name)
        self.m.add(v == self.lin([before]) + sum(plus) - sum(minus))
        return v

    def counts(self, step: Step) -> None:
        """Tie the per-node effects to the action kind."""
        m, k = self.m, step.kind
        digs = [k[d] for d in DIGS if d != "pa-spade2x2"]
        m.add(self.lin(list(step.tr.values())) == self.lin(digs) + 2 * self.lin(
            [k["pa-spade2x2"]]))
        m.add(self.lin(list(step.dig.values())) == self.lin([k["desert-dig"]]))
        build_opt = self.bool("build_opt")
        family = [k[d] for d in DIGS] + [k["desert-dig"]]
        m.add(build_opt <= self.lin(family))
        edges = [x for x in step.edge.values() if x is not False]
        if edges:
            step.edge_house = self.bool("edge_house")
        m.add(self.lin(list(step.house.values()))
              == self.lin([k["build"], k["lake-house"], step.edge_house]) + build_opt)
        m.add(self.lin(list(step.inv.values())) == self.lin([k["inv-kontor"]]))
        m.add(self.lin(list(step.up_k.values())) == self.lin([k["upgrade-k"],
                                                               k["free-kontor"]]))
        m.add(self.lin(list(step.up_p.values()))
              == self.lin([k["upgrade-pl"], k["upgrade-pr"]]))
        any_family = self.any_of([x for x in family if x is not False], "family")
        for i, hs in step.house.items():
            # a house after a transformation goes on the transformed hex
            self.clause([step.tr[i], step.dig[i]], [hs, any_family])

    def edge_house(self, t: int, step: Step, prev: State) -> None:
        """The Ifrit left palace may make one unbuilt edge hex home, no range needed, and
        puts a free house on it when a house is left ([D20])."""
        edges = [x for x in step.edge.values() if x is not False]
        if not edges:
            return
        m = self.m
        m.add(sum(edges) <= step.kind["upgrade-pl"])
        m.add(step.edge_house <= sum(edges))
        for i, eg in step.edge.items():
            if eg is not False:
                self.clause([step.house[i]], [eg, step.edge_house])
        full = self.reify_ge(self.lin(prev.house), HOUSES, f"full_{t}")
        self.clause([full, step.edge_house], edges[:1] if len(edges) == 1
                    else [self.any_of(edges, f"anyedge_{t}")])

    def bridges(self, t: int, step: Step, prev: State, nxt: State) -> None:
        m, g = self.m, self.g
        kinds = [step.kind[b] for b in BRIDGING]
        if all(x is False for x in kinds):
            nxt.bridge = list(prev.bridge)
            return
        for s, (a, b) in enumerate(g.spots):
            ia, ib = g.node(a), g.node(b)
            ends = [prev.built[x] for x in (ia, ib) if x is not None]
            if prev.bridge[s] is True or all(e is False for e in ends):
                step.bridge[s] = False
                continue
            v = self.bool(f"br_{t}_{s}")
            if prev.bridge[s] is not False:
                m.add_implication(v, ~prev.bridge[s])
            self.clause(ends, [v])
            step.bridge[s] = v
        m.add(self.lin([x for x in step.bridge.values()]) == self.lin(kinds))
        nxt.bridge = [self.next_bool(prev.bridge[s], [step.bridge.get(s, False)], [],
                                     f"bridge_{t}_{s}") for s in range(len(g.spots))]

    def link(self, i: int, j: int, bridge: list[Any], ship_at_least: dict[int, Any],
             reach: int) -> Any:
        """Hex j is in range of a building on node i in a state: side, bridge or
        shipping over ≤ S + ``reach`` river hexes."""
        g = self.g
        if j in g.side[i] or (min(i, j), max(i, j)) in g.old_bridges:
            return True
        lits = []
        a, b = g.nodes[i], g.nodes[j]
        for s, spot in enumerate(g.spots):
            if spot == (min(a, b), max(a, b)):
                lits.append(bridge[s])
        hops = g.hops[i].get(j)
        if hops is not None:
            need = hops - reach
            if need <= 0:
                return True
            if need <= self.player.shipping:
                return True
            lits.append(ship_at_least.get(need, False))
        return self.any_of(lits, f"link_{i}_{j}")

    def range_rules(self, t: int, step: Step, prev: State) -> None:
        """Targets of building and transforming are in range before the action;
        ``desert-dig`` shares a hex side with a P building ([D18])."""
        g, kind = self.g, step.kind
        lake = kind["lake-house"]
        for j in range(g.own, g.size):
            needs = [x for x in (step.tr[j], step.inv[j]) if x is not False]
            house_need = step.house[j]
            edge = step.edge.get(j, False)
            if not needs and house_need is False:
                continue
            support = []
            for i in range(g.size):
                if i == j or prev.built[i] is False:
                    continue
                lk = self.link(i, j, prev.bridge, prev.ship_at_least, self.reach)
                support.append(self.both(prev.built[i], lk, f"z_{t}_{i}_{j}"))
                if support[-1] is True:
                    break
            for x in needs:
                self.clause(support, [x])
            self.clause(support + [edge], [house_need, negate(lake)])
            if step.dig[j] is not False:
                self.clause([prev.built[i] for i in g.side[j]], [step.dig[j]])

    def supply(self, step: Step, prev: State, nxt: State) -> None:
        """Pieces come from the tableau; one palace per side."""
        m = self.m
        m.add(self.lin(nxt.house) <= HOUSES)
        m.add(self.lin(nxt.kontor) <= KONTORE)
        m.add(self.lin(nxt.palace) <= PALACES)

    def spades(self, t: int, step: Step, prev: State) -> Any:
        """Spades used by the step (transformations with spades only, [D13])."""
        terms = []
        for i, tr in step.tr.items():
            if tr is False:
                continue
            base = SPADES[self.faction.home][LETTER_LANDSCAPE[self.p.landscape[self.g.nodes[i]]]]
            terms.append(base * tr)
            if base == 2 and self.fid == "golems":
                terms.append(-1 * self.lin([self.both(tr, prev.left, f"gol_{t}_{i}")]))
                if step.kind["pa-spade2x2"] is not False:
                    self.clause([prev.left], [tr, step.kind["pa-spade2x2"]])
            elif base == 2 and step.kind["pa-spade2x2"] is not False:
                self.clause([], [tr, step.kind["pa-spade2x2"]])
        return sum(terms)

    def cost(self, t: int, step: Step, prev: State, spades: Any) -> Any:
        """Money the action costs (paid before it, with the exchange)."""
        m, k = self.m, step.kind
        free = self.lin([k[x] for x in FREE_SPADE])
        pa2 = [x for x in (k["pa-spade2"], k["pa-spade2x2"]) if x is not False]
        unpaid = m.new_int_var(0, 4, f"unpaid_{t}")
        if pa2:
            any_pa2 = self.any_of(pa2, f"pa2_{t}")
            m.add(unpaid == spades).only_enforce_if(any_pa2)
            m.add(unpaid == 0).only_enforce_if(negate(any_pa2))
        else:
            m.add(unpaid == 0)
        paid_spades = m.new_int_var(0, 4, f"paid_spades_{t}")
        m.add(paid_spades == spades - free - unpaid)
        houses = self.lin(list(step.house.values())) - self.lin([k["lake-house"],
                                                                  step.edge_house])
        kontor = self.kontor_cost(t, step, prev)
        return (HOUSE_COST * houses + SPADE_COST * paid_spades + kontor
                + PALACE_COST * self.lin([k["upgrade-pl"], k["upgrade-pr"]])
                + SHIP_COST * self.lin([k["ship"]]) + BRIDGE_COST * self.lin([k["bridge"]]))

    def foreign(self, i: int, bridge: list[Any]) -> Any:
        """Node i's hex is adjacent to a building of another faction (neutral too)."""
        p, g = self.p, self.g
        cell = g.nodes[i]
        lits: list[Any] = []
        near = set(p.grid.neighbours[cell])
        near |= {b if a == cell else a for a, b in self.mine_bridges if cell in (a, b)}
        if any(p.buildings[x] is not None and p.buildings[x].owner != self.me for x in near):
            return True
        for s, (a, b) in enumerate(g.spots):
            if cell in (a, b):
                other = b if a == cell else a
                if p.buildings[other] is not None and p.buildings[other].owner != self.me:
                    lits.append(bridge[s])
        return self.any_of(lits, f"foreign_{i}")

    def kontor_cost(self, t: int, step: Step, prev: State) -> Any:
        m = self.m
        if step.kind["upgrade-k"] is False:
            return 0
        cost = m.new_int_var(0, KONTOR_COST, f"kcost_{t}")
        m.add(cost == 0).only_enforce_if(~step.kind["upgrade-k"])
        feline = self.fid == "feline"
        for i, up in step.up_k.items():
            if up is False:
                continue
            nb = self.foreign(i, prev.bridge)
            pal = prev.left if feline else False
            for nbv in (False, True):
                for pv in (False, True):
                    if (nb is True and not nbv) or (nb is False and nbv):
                        continue
                    if (pal is True and not pv) or (pal is False and pv):
                        continue
                    price = ((FELINE_KONTOR_COST_NEIGHBOUR if nbv else FELINE_KONTOR_COST)
                             if pv else (KONTOR_COST_NEIGHBOUR if nbv else KONTOR_COST))
                    cond = [up] + ([step.kind["upgrade-k"]]
                                   if step.kind["free-kontor"] is not False else [])
                    for lit, val in ((nb, nbv), (pal, pv)):
                        if not isinstance(lit, bool):
                            cond.append(lit if val else ~lit)
                    m.add(cost == price).only_enforce_if(cond)
        return cost

    def palaces(self, t: int, step: Step, prev: State, nxt: State) -> None:
        """One palace per side; the left and right flags follow the upgrades."""
        k = step.kind
        for side, kind in (("left", "upgrade-pl"), ("right", "upgrade-pr")):
            before = getattr(prev, side)
            if k[kind] is not False and before is not False:
                self.m.add_implication(k[kind], ~before) if before is not True \
                    else self.m.add(k[kind] == 0)
            setattr(nxt, side, self.next_bool(before, [k[kind]], [], f"{side}_{t}"))
        if self.fid == "seebaeren" and k["upgrade-pl"] is not False:
            step.pl_ship = self.bool(f"plship_{t}")
            self.m.add_implication(step.pl_ship, k["upgrade-pl"])

    # ---- towns: components of P's buildings after every step
    def druid_settlements(self) -> bool:
        """Druiden with a left palace (built or still buildable) count settlements."""
        return self.fid == "druiden" and ("left" in self.player.palaces
                                          or self.p.palaces_left(self.me) > 0)

    def several_towns_possible(self) -> bool:
        """A step may found several towns at once, so every step labels all components:
        the side-A right palace may still be built (``TOWN6``), or the Ifrit left
        palace (its edge house may found a second town)."""
        town6 = (self.fid in SIDE_A and "right" not in self.player.palaces
                 and self.p.palaces_left(self.me) > 0)
        return town6 or self.edge_possible

    def anchored_towns(self, t: int, step: Step, nxt: State, tiles: list[str]) -> None:
        """Towns when only the component of the changed building can newly qualify (no
        ``TOWN6`` palace to come): that component is the set of buildings reached from
        the *anchor* (the hex built on or upgraded, or the bridge's end with P's
        building) — closed under edges, every member but the anchor next to a member
        of smaller rank."""
        m, g = self.m, self.g
        prev = self.states[-1]
        n = g.size
        anchor = self.anchors(t, step, prev)
        if not anchor:
            nxt.town = list(prev.town)
            self.town_count.append(0)
            return
        edges = self.town_edges(nxt)
        member = [self.bool(f"mem_{t}_{i}") if nxt.built[i] is not False else False
                  for i in range(n)]
        rank = [m.new_int_var(0, n - 1, f"mrank_{t}_{i}") for i in range(n)]
        for i in range(n):
            if member[i] is False:
                continue
            if nxt.built[i] is not True:
                m.add_implication(member[i], nxt.built[i])
            a = anchor.get(i, False)
            if a is not False:
                m.add_implication(a, member[i])
            support = []
            for j, e in edges[i]:
                if member[j] is False:
                    continue
                self.clause([member[j]], [member[i], nxt.built[j], e])
                sup = self.bool(f"msup_{t}_{i}_{j}")
                for x in (member[j], e):
                    if x is not True:
                        m.add_implication(sup, x)
                m.add(rank[j] + 1 <= rank[i]).only_enforce_if(sup)
                support.append(sup)
            self.clause(support + ([a] if a is not False else []), [member[i]])
        worth = []
        for i in range(n):
            if member[i] is False:
                continue
            v = m.new_int_var(0, 3, f"mval_{t}_{i}")
            own_value = (TOWN_VALUE["house"] * self.lin([nxt.house[i]])
                         + TOWN_VALUE["kontor"] * self.lin([nxt.kontor[i]])
                         + TOWN_VALUE["palace"] * self.lin([nxt.palace[i]]))
            m.add(v == own_value).only_enforce_if(member[i])
            m.add(v == 0).only_enforce_if(~member[i])
            worth.append(v)
        olds = [self.both(member[i], prev.town[i], f"mold_{t}_{i}") for i in range(n)]
        fresh = self.bool(f"mfresh_{t}")
        for o in olds:
            if o is not False:
                self.clause([negate(o)], [fresh])
        self.clause(olds, [negate(fresh)])
        big = self.reify_ge(self.lin(member), TOWN_MIN_BUILDINGS, f"mbig_{t}")
        rich = self.reify_ge(sum(worth), self.threshold_const(), f"mrich_{t}")
        have = (prev.tiles_left >= 1 if isinstance(prev.tiles_left, int)
                else self.reify_ge(prev.tiles_left, 1, f"mhave_{t}"))
        found = self.bool(f"mfound_{t}")
        lits = [x for x in (big, rich, fresh, have) if x is not True]
        if any(x is False for x in lits):
            m.add(found == 0)
        else:
            m.add_bool_and(lits).only_enforce_if(found)
            m.add_bool_or([negate(x) for x in lits] + [found])
        self.clause(list(anchor.values()), [found])
        step.found = {min(anchor): found}
        grow = self.any_of([found, negate(fresh)], f"mgrow_{t}")
        nxt.town = [self.next_town(prev.town[i], member[i], grow, f"town_{t}_{i}")
                    for i in range(n)]
        self.town_count.append(found)

    def next_town(self, before: Any, member: Any, grow: Any, name: str) -> Any:
        """In a town after the step: before, or in the grown component of a town."""
        if member is False or before is True:
            return before
        v = self.bool(name)
        joined = self.both(member, grow, name + "j")
        self.m.add_bool_or([x for x in (before, joined) if x is not False]).only_enforce_if(v)
        for x in (before, joined):
            if x is not False:
                self.m.add_implication(x, v)
        return v

    def anchors(self, t: int, step: Step, prev: State) -> dict[int, Any]:
        """Node → literal: this node's component is the one the step changes."""
        g = self.g
        out: dict[int, list[Any]] = {}
        for d in (step.house, step.up_k, step.up_p, step.inv):
            for i, x in d.items():
                if x is not False:
                    out.setdefault(i, []).append(x)
        for s, x in step.bridge.items():
            if x is False:
                continue
            a, b = (g.node(c) for c in g.spots[s])
            if a is not None and prev.built[a] is not False:
                out.setdefault(a, []).append(self.both(x, prev.built[a], f"anc_{t}_{s}a"))
            if b is not None and prev.built[b] is not False:
                rest = self.both(x, negate(prev.built[a]) if a is not None else True,
                                 f"anc_{t}_{s}r")
                out.setdefault(b, []).append(self.both(rest, prev.built[b], f"anc_{t}_{s}b"))
        anchor = {}
        for i, lits in sorted(out.items()):
            lits = [x for x in lits if x is not False]
            if not lits:
                continue
            if len(lits) == 1:
                anchor[i] = lits[0]
            else:
                v = self.bool(f"anc_{t}_{i}")
                self.m.add(v == sum(lits))
                anchor[i] = v
        return anchor

    def threshold_const(self) -> int:
        """The town value needed when no ``TOWN6`` palace can come."""
        if self.fid in SIDE_A and "right" in self.player.palaces:
            return TOWN6_MIN_VALUE
        return TOWN_MIN_VALUE

    def components(self, t: int, nxt: State, prev: State, extra: list[Any] | None = None
                   ) -> tuple[list[Any], list[Any], list[Any], list[Any], dict, list[Any]]:
        """Label the town graph of state ``nxt``: a root per component, a parent for
        every other building (rank decreasing), equal labels across every edge;
        subtree sums give each root its component's size, town value, number of
        buildings that were in a town before the step and the sum of ``extra`` (a
        0/1 weight per node, e.g. "on an edge hex")."""
        m, g = self.m, self.g
        n = g.size
        edges = self.town_edges(nxt)
        lab = [m.new_int_var(0, n - 1, f"lab_{t}_{i}") for i in range(n)]
        rank = [m.new_int_var(0, n - 1, f"rank_{t}_{i}") for i in range(n)]
        root = [self.bool(f"root_{t}_{i}") if nxt.built[i] is not False else False
                for i in range(n)]
        children: dict[int, list[tuple[int, Any]]] = {i: [] for i in range(n)}
        for i in range(n):
            if nxt.built[i] is False:
                continue
            parents = []
            for j, e in edges[i]:
                if nxt.built[j] is False:
                    continue
                par = self.bool(f"par_{t}_{i}_{j}")
                for x in (nxt.built[j], e):
                    if x is not True:
                        m.add_implication(par, x)
                m.add(rank[j] + 1 <= rank[i]).only_enforce_if(par)
                parents.append(par)
                children[j].append((i, par))
                if i < j:
                    together = [x for x in (nxt.built[i], nxt.built[j], e) if x is not True]
                    m.add(lab[i] == lab[j]).only_enforce_if(together)
            m.add(sum(parents) + root[i] == self.lin([nxt.built[i]]))
            m.add(lab[i] == i).only_enforce_if(root[i])
        weights = [[self.lin([nxt.built[i]]) for i in range(n)],
                   [TOWN_VALUE["house"] * self.lin([nxt.house[i]])
                    + TOWN_VALUE["kontor"] * self.lin([nxt.kontor[i]])
                    + TOWN_VALUE["palace"] * self.lin([nxt.palace[i]]) for i in range(n)],
                   [self.lin([prev.town[i]]) for i in range(n)],
                   extra if extra is not None else [0] * n]
        tops = (n, 3 * n, n, n)
        sums: list[list[Any]] = [[0] * n for _ in weights]
        for which, top in enumerate(tops):
            if which == 3 and extra is None:
                continue
            for i in range(n):
                if nxt.built[i] is not False:
                    sums[which][i] = m.new_int_var(0, top, f"sum{which}_{t}_{i}")
        for i in range(n):
            if nxt.built[i] is False:
                continue
            for which, top in enumerate(tops):
                if which == 3 and extra is None:
                    continue
                parts = []
                for c, par in children[i]:
                    v = m.new_int_var(0, top, f"sub{which}_{t}_{c}_{i}")
                    m.add(v == sums[which][c]).only_enforce_if(par)
                    m.add(v == 0).only_enforce_if(~par)
                    parts.append(v)
                m.add(sums[which][i] == weights[which][i] + sum(parts))
        size, value, old, extras = sums
        return root, size, value, old, edges, extras

    def towns(self, t: int, step: Step, nxt: State) -> None:
        """Every tile-less component of ≥ 4 buildings and value ≥ threshold founds a
        town while tiles last ([D25]); town membership spreads over each component."""
        m, g = self.m, self.g
        prev = self.states[-1]
        n = g.size
        tiles = [x for x in TOWN_TILES if x in self.player.town_tiles]
        if not tiles:
            nxt.town = list(prev.town)
            self.town_count.append(0)
            return
        if not self.several_towns_possible():
            self.anchored_towns(t, step, nxt, tiles)
            return
        root, size, value, old, edges, _ = self.components(t, nxt, prev)
        threshold = self.threshold(nxt)
        found: dict[int, Any] = {}
        qualified = []
        is_town: dict[int, Any] = {}
        for i in range(n):
            if root[i] is False:
                continue
            fresh = self.bool(f"fresh_{t}_{i}")
            m.add(old[i] == 0).only_enforce_if(fresh)
            m.add(old[i] >= 1).only_enforce_if(~fresh)
            town = self.bool(f"istown_{t}_{i}")
            if tiles:
                big = self.reify_ge(size[i], TOWN_MIN_BUILDINGS, f"big_{t}_{i}")
                rich = self.bool(f"rich_{t}_{i}")
                m.add(value[i] >= threshold).only_enforce_if(rich)
                m.add(value[i] <= threshold - 1).only_enforce_if(~rich)
                q = self.bool(f"qual_{t}_{i}")
                m.add_bool_and([root[i], big, rich, fresh]).only_enforce_if(q)
                m.add_bool_or([~root[i], ~big, ~rich, ~fresh, q])
                f = self.bool(f"found_{t}_{i}")
                m.add_implication(f, q)
                found[i] = f
                qualified.append(q)
                m.add_bool_or([~fresh, f]).only_enforce_if(town)
                m.add_implication(f, town)
            else:
                m.add(town == ~fresh)
            m.add_implication(~fresh, town)
            is_town[i] = town
        count: Any = 0
        if found:
            count = m.new_int_var(0, len(tiles), f"towns_{t}")
            m.add(count == sum(found.values()))
            m.add_min_equality(count, [sum(qualified), prev.tiles_left])
            self.town_cut(step, count, len(tiles))
        step.found = found
        town_lits: list[Any] = []
        for i in range(n):
            if nxt.built[i] is False:
                town_lits.append(False)
                continue
            v = self.bool(f"town_{t}_{i}")
            town_lits.append(v)
            if nxt.built[i] is not True:
                m.add_implication(v, nxt.built[i])
            if i in is_town:
                m.add(v == is_town[i]).only_enforce_if(root[i])
        for i in range(n):
            for j, e in edges[i]:
                if i < j and town_lits[i] is not False and town_lits[j] is not False:
                    together = [x for x in (nxt.built[i], nxt.built[j], e) if x is not True]
                    m.add(town_lits[i] == town_lits[j]).only_enforce_if(together)
        nxt.town = town_lits
        self.town_count.append(count)

    def town_cut(self, step: Step, count: Any, tiles: int) -> None:
        """Implied: a town is founded only by a step that adds a building, upgrades or
        bridges; more than one only by the ``TOWN6`` palace (the threshold drops)."""
        k = step.kind
        change = [x for d in (step.house, step.up_k, step.up_p, step.inv, step.bridge)
                  for x in d.values() if x is not False]
        if not change:
            self.m.add(count == 0)
            return
        many = k["upgrade-pr"] if self.fid in SIDE_A else False
        self.m.add(count <= sum(change) + (tiles - 1) * self.lin([many]))

    def take_tiles(self, t: int, step: Step, prev: State, nxt: State) -> None:
        """One town tile per town the step founds, while tiles last."""
        tiles = [x for x in TOWN_TILES if x in self.player.town_tiles]
        count = self.town_count[-1]
        if not tiles or (isinstance(count, int) and count == 0):
            nxt.tiles_left = prev.tiles_left
            return
        step.tiles = {x: self.bool(f"tile_{t}_{x}") for x in tiles}
        self.m.add(sum(step.tiles.values()) == count)
        nxt.tiles_left = self.m.new_int_var(0, len(tiles), f"tiles_left_{t}")
        self.m.add(nxt.tiles_left == prev.tiles_left - count)

    def river_towns(self, t: int, step: Step, nxt: State) -> None:
        """Seebären towns over the river ([D26]), after the action and its towns, the
        pass included: a town over river hex r links every pair of P's buildings next to
        r that share no side (at least one new link); the component this joins must hold
        no town, at most one river town of the step, ≥ 4 buildings and the value."""
        if not self.river_pairs:
            return
        m, g = self.m, self.g
        idle = step.kind["idle"]
        lits = []
        reps: list[list[Any]] = [[] for _ in range(g.size)]
        new_links: dict[tuple[int, int], list[Any]] = {}
        for r, pairs in self.river_pairs.items():
            y = self.bool(f"river_{t}_{r}")
            step.river[r] = y
            lits.append(y)
            if idle is not False:
                m.add_implication(y, ~idle)
            linked = [self.both(nxt.built[i], nxt.built[j], f"rl_{t}_{r}_{i}_{j}")
                      for i, j in pairs]
            self.clause(linked, [y])
            for (i, j), both in zip(pairs, linked, strict=True):
                new_links.setdefault((i, j), []).append(self.both(y, both, f"nl_{t}_{r}_{i}"
                                                                           f"_{j}"))
            around = sorted({x for pr in pairs for x in pr})
            z = [self.both(y, nxt.built[i], f"rz_{t}_{r}_{i}") for i in around]
            pick = [self.bool(f"rp_{t}_{r}_{i}") if x is not False else False
                    for i, x in zip(around, z, strict=True)]
            for x, p in zip(z, pick, strict=True):
                if p is not False:
                    m.add_implication(p, x)
            m.add(self.lin(pick) == y)
            for i, p in zip(around, pick, strict=True):
                if p is not False:
                    reps[i].append(p)
        for key, news in sorted(new_links.items()):
            nxt.links[key] = self.any_of([nxt.links[key], *news], f"link_{t}_{key[0]}_{key[1]}")
        count = m.new_int_var(0, len(lits), f"rivertowns_{t}")
        m.add(count == sum(lits))
        m.add(count + self.town_count[-1] <= self.states[-1].tiles_left)
        root, size, value, old, edges, hosted = self.components(
            t, nxt, nxt, [self.lin(x) for x in reps])
        joined = []
        for i in range(g.size):
            if root[i] is False:
                joined.append(False)
                continue
            m.add(hosted[i] <= 1)
            town = self.both(root[i], self.reify_ge(hosted[i], 1, f"rh_{t}_{i}"),
                             f"rtown_{t}_{i}")
            m.add(old[i] == 0).only_enforce_if(town)
            m.add(size[i] >= TOWN_MIN_BUILDINGS).only_enforce_if(town)
            m.add(value[i] >= TOWN_MIN_VALUE).only_enforce_if(town)
            joined.append(town)
        inside = [self.bool(f"rin_{t}_{i}") if nxt.built[i] is not False else False
                  for i in range(g.size)]
        for i in range(g.size):
            if inside[i] is False:
                continue
            if root[i] is not False:
                m.add(inside[i] == joined[i]).only_enforce_if(root[i])
            for j, e in edges[i]:
                if i < j and inside[j] is not False:
                    together = [x for x in (nxt.built[i], nxt.built[j], e) if x is not True]
                    m.add(inside[i] == inside[j]).only_enforce_if(together)
        nxt.town = [self.any_of([a, b], f"rtownin_{t}_{i}")
                    for i, (a, b) in enumerate(zip(nxt.town, inside, strict=True))]
        self.town_count[-1] = self.town_count[-1] + count

    def town_edges(self, state: State) -> dict[int, list[tuple[int, Any]]]:
        """Per node: (neighbour node, edge literal) of the town graph in ``state``
        (sides, bridges, Seebären links)."""
        g, bridge = self.g, state.bridge
        edges: dict[int, list[tuple[int, Any]]] = {i: [(j, True) for j in g.side[i]]
                                                   for i in range(g.size)}
        for i, j in sorted(g.old_bridges):
            edges[i].append((j, True))
            edges[j].append((i, True))
        for s, (a, b) in enumerate(g.spots):
            i, j = g.node(a), g.node(b)
            if i is not None and j is not None and bridge[s] is not False:
                edges[i].append((j, bridge[s]))
                edges[j].append((i, bridge[s]))
        for (i, j), lit in sorted(state.links.items()):
            if lit is not False:
                edges[i].append((j, lit))
                edges[j].append((i, lit))
        return edges

    def threshold(self, nxt: State) -> Any:
        """Town value needed: 7, or 6 with the side-A right palace (``TOWN6``)."""
        if self.fid not in SIDE_A:
            return TOWN_MIN_VALUE
        return TOWN_MIN_VALUE - (TOWN_MIN_VALUE - TOWN6_MIN_VALUE) * self.lin([nxt.right])

    # ---- shipping, money, power, points
    def at_least(self, state: State, h: int) -> Any:
        """``shipping ≥ h`` in ``state`` (constant when decided)."""
        if h <= self.player.shipping:
            return True
        return state.ship_at_least.get(h, False)

    def shipping(self, t: int, step: Step, prev: State, nxt: State) -> None:
        """Shipping by action, ``pa-ship``, the Seebären left palace or town tile
        ``tship`` ([D14]: an action not at the track end; ``tship`` there moves
        nothing); the track's VP for every space reached."""
        m, k = self.m, step.kind
        top = self.at_least(prev, self.max_ship)
        moves = [x for x in (k["ship"], k["pa-ship"], step.pl_ship) if x is not False]
        for x in moves:
            self.clause([negate(top)], [x])
        tship = step.tiles.get("tship", False)
        step.ship_vp, step.ship_steps = 0, 0
        if not moves and tship is False:
            nxt.ship, nxt.ship_at_least = prev.ship, dict(prev.ship_at_least)
            return
        lo = self.player.shipping
        ship = m.new_int_var(lo, max(lo, self.max_ship), f"ship_{t}")
        m.add_min_equality(ship, [prev.ship + self.lin(moves) + self.lin([tship]),
                                  self.max_ship])
        nxt.ship = ship
        nxt.ship_at_least = {h: self.reify_ge(ship, h, f"shipge_{t}_{h}")
                             for h in range(lo + 1, self.max_ship + 1)}
        cumulative = [0] * (lo + 1)
        for h in range(lo + 1, self.max_ship + 1):
            cumulative.append(cumulative[-1] + self.faction.shipping_vp[h - 1])
        now = m.new_int_var(0, cumulative[-1], f"shipcum_{t}")
        m.add_element(ship, cumulative, now)
        if isinstance(prev.ship, int):
            before: Any = cumulative[prev.ship]
        else:
            before = m.new_int_var(0, cumulative[-1], f"shipcum0_{t}")
            m.add_element(prev.ship, cumulative, before)
        step.ship_vp, step.ship_steps = now - before, ship - prev.ship

    def resources(self, t: int, step: Step, prev: State, nxt: State, cost: Any,
                  spades: Any) -> None:
        """Money and power: exchange the shortfall, pay, gain, collect."""
        m, k = self.m, step.kind
        rebate: Any = 0
        if self.fid == "ifrit":
            rebate = IFRIT_POWER_REBATE * self.lin(
                [k[a] for a in (*POWER_ACTIONS, "pa-spade2x2")])
        power = sum(POWER_ACTIONS[a] * self.lin([k[a]]) for a in POWER_ACTIONS
                    if a != "pa-spade2") + POWER_ACTIONS["pa-spade2"] * self.lin(
            [k["pa-spade2"], k["pa-spade2x2"]])
        power += FEEN_SPADE_POWER * self.lin([k["feen-spade"]])
        power += INV_KONTOR_POWER * self.lin([k["inv-kontor"]]) - rebate
        short = m.new_int_var(-self.mmax - 100, 100, f"short_{t}")
        m.add(short == cost - prev.money)
        spend = step.exchange + power
        sources = self.gain_sources(step)
        if sources:
            # before a gain, more than the shortfall may pay: tokens moved to bowl I
            # early are refilled by a gain that full bowls would lose
            least = m.new_int_var(0, POWER_TOKENS, f"least_{t}")
            m.add_max_equality(least, [short, 0])
            more = self.bool(f"more_{t}")
            m.add(step.exchange >= least)
            m.add(step.exchange == least).only_enforce_if(~more)
            self.clause(sources, [more])
            if self.fid == "druiden":
                step.triples = m.new_int_var(0, POWER_TOKENS // 3, f"triples_{t}")
                spend = spend + DRUID_TRIPLE[0] * step.triples
                m.add(step.triples == 0).only_enforce_if(~more)
        else:
            m.add_max_equality(step.exchange, [short, 0])
        m.add(prev.money + step.exchange - cost >= 0)
        m.add(prev.bowls[2] - spend >= 0)
        after_spend = (prev.bowls[0] + spend, prev.bowls[1], prev.bowls[2] - spend)
        gain = 8 * self.lin([step.tiles.get("t8p6", False)])
        if self.fid == "kobolde":
            gain = gain + KOBOLDE_POWER_PER_SPADE * spades
            gain = gain + KOBOLDE_PALACE_POWER * self.lin([k["upgrade-pl"]])
        bowls = self.gain(after_spend, gain, f"gain_{t}")
        out = []
        for b, name in zip(bowls, ("one", "two", "three"), strict=True):
            v = m.new_int_var(0, POWER_TOKENS, f"{name}_{t}")
            m.add(v == b)
            out.append(v)
        nxt.bowls = tuple(out)
        income = PA_MONEY * self.lin([k["pa-money7"]])
        income += TOWN_TILES["t6g5"].money * self.lin([step.tiles.get("t6g5", False)])
        income += self.pass_income(t, step)
        money = m.new_int_var(0, self.mmax, f"money_{t}")
        m.add(money == prev.money + step.exchange - cost + income)
        nxt.money = money

    def gain_sources(self, step: Step) -> list[Any]:
        """Literals of the step's possible power gains for P: town tile ``t8p6``, Kobolde
        spades and palace, the Druiden pass (left palace)."""
        k = step.kind
        out = [step.tiles.get("t8p6", False)]
        if self.fid == "kobolde":
            out += [k[d] for d in DIGS] + [k["upgrade-pl"]]
        if self.druid_settlements():
            out.append(k["pass"])
        return [x for x in out if x is not False]

    def pass_income(self, t: int, step: Step) -> Any:
        """The coins on the tile taken when passing at step ``t``."""
        return self.coins * self.lin([step.kind["pass"]])

    def step_points(self, t: int, step: Step, prev: State, spades: Any) -> None:
        """VP during the step: round tile, shipping track, towns, palaces."""
        k = step.kind
        houses = self.lin(list(step.house.values()))
        kontor_up = self.lin([k["upgrade-k"], k["inv-kontor"], k["free-kontor"]])
        palace_up = self.lin([k["upgrade-pl"], k["upgrade-pr"]])
        towns = self.town_count[-1] if self.town_count else 0
        units = {"r-house2": houses, "r-kontor3": kontor_up, "r-palace5": palace_up,
                 "r-town5": towns, "r-ship2": step.ship_steps, "r-spade2": spades}
        vp = step.ship_vp + DRUID_TRIPLE[1] * step.triples
        if self.tile in units:
            vp = vp + ROUND_TILES[self.tile] * units[self.tile]
        vp = vp + sum(TOWN_TILES[x].vp * v for x, v in step.tiles.items())
        if self.fid == "flaschengeister":
            vp = vp + FLASCHENGEISTER_TOWN_VP * towns
        if self.fid == "erfinderinnen":
            vp = vp + 2 * self.lin([self.and_sum(step.house, prev.right, f"erf_{t}")])
        if self.fid == "druiden":
            vp = vp + 3 * self.lin([self.and_sum(step.up_k, prev.right, f"dru_{t}")])
        self.vp_terms.append(vp)
        for i, hs in step.house.items():
            if hs is not False:
                self.houses_built.append((i, hs))
                self.events.append((i, hs, prev.bridge))
        for i, up in list(step.up_k.items()) + list(step.up_p.items()) + list(
                step.inv.items()):
            if up is not False:
                self.upgrades.append(up)
                self.events.append((i, up, prev.bridge))

    def and_sum(self, lits: dict[int, Any], cond: Any, name: str) -> Any:
        """``cond AND (some of lits)`` (the lits are exclusive)."""
        return self.both(self.any_of([x for x in lits.values() if x is not False], name + "a"),
                         cond, name)

    # ---- the end: once-per-round limits, pass, final scoring, objective
    def round_limits(self) -> None:
        """Once-per-round actions at most once, bridges from the supply, and the implied
        cut on towns (disjoint sets of ≥ 4 buildings)."""
        m = self.m
        for kind in [*POWER_ACTIONS, *self.specials]:
            uses = [s.kind[kind] for s in self.steps if s.kind.get(kind, False) is not False]
            if kind == "pa-spade2":
                uses += [s.kind["pa-spade2x2"] for s in self.steps
                         if s.kind["pa-spade2x2"] is not False]
            if uses:
                m.add(sum(uses) <= 1)
        bridging = [s.kind[b] for s in self.steps for b in BRIDGING if s.kind[b] is not False]
        if bridging:
            m.add(sum(bridging) <= BRIDGES - len(self.player.bridges))
        end = self.states[-1]
        towns = sum(self.town_count)
        if not isinstance(towns, int):
            # implied: towns are disjoint sets of ≥ 4 buildings
            old = sum(1 for x in self.states[0].town if x)
            m.add(TOWN_MIN_BUILDINGS * towns <= self.lin(end.built) - old)

    def passed_bowls(self, end: State) -> tuple[Any, Any, Any]:
        """P's bowls after the pass: the Druiden left palace's 2 power per settlement."""
        if not self.druid_settlements():
            return end.bowls
        root = self.components(self.T + 1, end, end)[0]
        settlements = self.lin([r for r in root if r is not False])
        power = self.when(end.left, 2 * settlements, 2 * self.g.size, "druid_pass_power")
        return self.gain(end.bowls, power, "druid_pass")

    def finish(self) -> LastRound:
        m = self.m
        self.round_limits()
        end = self.states[-1]
        mine = sum(self.vp_terms) + self.pass_points(end)
        bowls = self.passed_bowls(end)
        mine = mine + self.money_points(end.money, bowls[2], self.fid == "druiden", "me")
        size = self.area_group(end)
        others = [c for c in self.p.colours if c != self.me]
        sizes = [_largest_group(self.p, c, self.p.player(c).shipping) for c in others]
        table_me, table_them = _area_table(sizes, self.g.size, len(self.p.players))
        area_me = m.new_int_var(min(table_me), max(table_me), "area_me")
        area_them = m.new_int_var(min(table_them), max(table_them), "area_them")
        m.add_element(size, table_me, area_me)
        m.add_element(size, table_them, area_them)
        value = m.new_int_var(-10 ** 6, 10 ** 6, "value")
        m.add(value == mine + area_me)
        theirs = area_them + sum(self.other_score(c) for c in others)
        turns = sum(1 - s.kind["idle"] if s.kind["idle"] is not False else 1
                    for s in self.steps)
        # the others' scores lie in [base, base + span]: P's building only adds to
        # their money and bowls; a player's money VP grows by at most
        # (8 tokens + Feline's 2 per upgrade) / 3 + 1, Druiden triples by 2
        base = min(table_them) + sum(self.p.player(c).vp + self.still_money(c)
                                     for c in others)
        span = (max(table_them) - min(table_them)
                + len(others) * ((POWER_TOKENS + 2 * self.T) // MONEY_PER_VP + 4))
        goal = lexicographic([Goal(value, "max"), Goal(theirs - base, "min", span),
                              Goal(turns, "min", self.T)])
        m.maximize(goal.expr)
        answer = [v for s in self.steps for v in (
            [x for x in s.kind.values() if x is not False]
            + [x for d in (s.tr, s.dig, s.house, s.up_k, s.up_p, s.inv, s.edge, s.bridge,
                           s.river) for x in d.values() if x is not False]
            + ([s.pl_ship] if s.pl_ship is not False else [])
            + list(s.tiles.values()))]
        return LastRound(self.p, m, goal, self.g, self.steps, self.states, value, theirs,
                         turns, self.pass_tile, answer)

    def pass_points(self, end: State) -> Any:
        """VP on passing: the held bonus tile, Golems, Feline's right palace."""
        m = self.m
        bonus = BONUS_TILES[self.player.bonus] if self.player.bonus else None
        vp: Any = 0
        per = {"house": self.lin(end.house), "kontor": self.lin(end.kontor),
               "palace": self.lin(end.palace), "shipping": self.pass_shipping(end)}
        if bonus and bonus.pass_per:
            vp = vp + bonus.pass_vp * per[bonus.pass_per]
        if self.fid == "golems":
            golems = m.new_int_var(0, max(GOLEMS_PASS_VP.values()), "golems_pass")
            m.add_element(per["kontor"], [GOLEMS_PASS_VP[k] for k in range(KONTORE + 1)],
                          golems)
            vp = vp + golems
        if self.fid == "feline" and end.right is not False:
            inland = self.lin([b for i, b in enumerate(end.built)
                               if self.g.nodes[i] not in self.p.board.river_adjacent])
            vp = vp + self.when(end.right, inland, self.g.size, "feline_pass")
        if self.fid == "ifrit" and end.right is not False:
            vp = vp + self.when(end.right, self.edge_settlements(end), self.g.size,
                                "ifrit_pass")
        return vp

    def pass_shipping(self, end: State) -> Any:
        """The track value when P passes: a Seebären river town after the pass may still
        move it (``tship``), after the bonus tile has scored."""
        if not self.river_pairs:
            return end.ship
        v = self.m.new_int_var(0, self.max_ship, "pass_ship")
        for step, before in zip(self.steps, self.states, strict=False):
            if step.kind["pass"] is not False:
                self.m.add(v == before.ship).only_enforce_if(step.kind["pass"])
        return v

    def when(self, flag: Any, expr: Any, top: int, name: str) -> Any:
        """A variable equal to ``expr`` when ``flag`` holds, else 0."""
        if flag is False:
            return 0
        v = self.m.new_int_var(0, top, name)
        if flag is True:
            self.m.add(v == expr)
        else:
            self.m.add(v == expr).only_enforce_if(flag)
            self.m.add(v == 0).only_enforce_if(~flag)
        return v

    def edge_settlements(self, end: State) -> Any:
        """Ifrit right palace: P's settlements ([D28]: components by hex side or bridge)
        with at least one building on an edge hex ([D3])."""
        edge = self.p.board.edge
        on_edge = [self.lin([end.built[i]]) if c in edge else 0
                   for i, c in enumerate(self.g.nodes)]
        root, *_, extras = self.components(self.T + 1, end, end, on_edge)
        out = []
        for i, r in enumerate(root):
            if r is not False and self.g.nodes[i] in edge:
                out.append(r)
            elif r is not False:
                out.append(self.both(r, self.reify_ge(extras[i], 1, f"edgeset_{i}"),
                                     f"edgeroot_{i}"))
        return self.lin(out)

    def money_points(self, money: Any, three: Any, druid: bool, name: str) -> Any:
        """``(money + bowl III) // 3``; Druiden first turn triples into 2 VP each
        ([D32]), which comes to ``III // 3`` more."""
        m = self.m
        total = m.new_int_var(0, self.mmax + 100, f"cash_{name}")
        m.add(total == money + three)
        vp = m.new_int_var(0, (self.mmax + 100) // MONEY_PER_VP, f"money_vp_{name}")
        m.add_division_equality(vp, total, MONEY_PER_VP)
        if not druid:
            return vp
        triples = m.new_int_var(0, POWER_TOKENS // 3, f"triples_{name}")
        m.add_division_equality(triples, three, 3)
        return vp + triples

    def area_group(self, end: State) -> Any:
        """The size of a group of P's final buildings connected through range (final
        shipping, no ``b-reach``): one root, every other member next to a member of
        smaller rank. Maximising the score makes it the largest group."""
        m, g = self.m, self.g
        n = g.size
        pick = [self.both(end.built[i], self.bool(f"g_{i}"), f"gp_{i}")
                if end.built[i] is not True else self.bool(f"g_{i}") for i in range(n)]
        root = [self.bool(f"groot_{i}") for i in range(n)]
        rank = [m.new_int_var(0, n - 1, f"grank_{i}") for i in range(n)]
        m.add_exactly_one(root)
        for i in range(n):
            m.add_implication(root[i], pick[i])
            m.add(rank[i] == 0).only_enforce_if(root[i])
            for j in range(i):
                m.add_bool_or([~root[i], ~pick[j]])
            support = []
            for j in range(n):
                if j == i or end.built[j] is False:
                    continue
                lk = self.link(j, i, end.bridge, end.ship_at_least, 0)
                if lk is False:
                    continue
                sup = self.bool(f"gsup_{i}_{j}")
                m.add_implication(sup, pick[j])
                if lk is not True:
                    m.add_implication(sup, lk)
                m.add(rank[j] + 1 <= rank[i]).only_enforce_if(sup)
                support.append(sup)
            m.add_bool_or([~pick[i], root[i], *support])
        size = m.new_int_var(1, n, "group")
        m.add(size == sum(pick))
        return size

    def still_money(self, colour: str) -> int:
        """Another player's money VP if P gave them nothing."""
        player = self.p.player(colour)
        three = player.power[2]
        vp = (player.money + three) // MONEY_PER_VP
        return vp + (three // 3 if player.faction == "druiden" else 0)

    def other_after(self, colour: str) -> tuple[Any, tuple[Any, Any, Any]]:
        """Another player's money and power bowls after the power (and Feline money)
        P's building gives them ([D24])."""
        m, p, g = self.m, self.p, self.g
        player = p.player(colour)
        two = len(p.players) == 2
        gain: Any = 0
        for i, lit, bridge in self.events:
            cell = g.nodes[i]
            near = set(p.grid.neighbours[cell])
            near |= {b if a == cell else a for a, b in self.mine_bridges if cell in (a, b)}
            count = sum(1 for x in near if p.buildings[x] is not None
                        and p.buildings[x].owner == colour)
            gain = gain + count * lit
            for s, (a, b) in enumerate(g.spots):
                other = b if a == cell else a if b == cell else None
                if other is not None and p.buildings[other] is not None \
                        and p.buildings[other].owner == colour and bridge[s] is not False:
                    gain = gain + self.lin([self.both(lit, bridge[s], f"ob_{colour}_{i}_{s}")])
        if player.faction == "erfinderinnen":
            gain = gain + (2 if two else 1) * sum(lit for _, lit in self.houses_built)
        money: Any = player.money
        if player.faction == "feline":
            money = money + (2 if two else 1) * sum(self.upgrades)
        total = m.new_int_var(0, 10 * POWER_TOKENS + 4 * self.T * 6, f"gain_{colour}")
        m.add(total == gain)
        bowls = self.gain(tuple(player.power), total, f"other_{colour}")
        return money, bowls

    def other_score(self, colour: str) -> Any:
        """Another player's final score without area: their VP, money and bowl III
        after what P's building gives them."""
        m, player = self.m, self.p.player(colour)
        money, bowls = self.other_after(colour)
        three = m.new_int_var(0, POWER_TOKENS, f"three_{colour}")
        m.add(three == bowls[2])
        return player.vp + self.money_points(money, three, player.faction == "druiden", colour)



def build_last_round(position: Position, check: Callable[[], None] | None = None
                     ) -> LastRound:
    """The last-round model of ``position`` (:class:`Unsupported` when outside the model).

    ``check`` is called between building steps; whatever it raises (the command's
    deadline) ends the build."""
    return _Builder(position, check).build()


def _on(solver: cp_model.CpSolver, lit: Any) -> bool:
    if isinstance(lit, bool):
        return lit
    return bool(solver.boolean_value(lit))


def _action(lr: LastRound, solver: cp_model.CpSolver, step: Step, kind: str) -> Action:
    g = lr.geometry
    cells = lambda d: [g.nodes[i] for i, x in sorted(d.items()) if _on(solver, x)]  # noqa: E731
    house = cells(step.house)
    build = house[0] if house else None
    if kind == "pass":
        return Action("pass", tile=lr.pass_tile)
    if kind in ("ship", "pa-ship", "pa-money7"):
        return Action(kind)
    if kind in BRIDGING:
        spot = next(g.spots[s] for s, x in sorted(step.bridge.items()) if _on(solver, x))
        return Action(kind, bridge=spot)
    if kind == "free-kontor":
        return Action(kind, cells=tuple(cells(step.up_k)))
    if kind.startswith("upgrade"):
        cell = (cells(step.up_k) + cells(step.up_p))[0]
        edge = cells(step.edge)
        return Action("upgrade", cells=(cell,), piece=kind.split("-")[1],
                      edge=edge[0] if edge else None, ship=_on(solver, step.pl_ship))
    if kind == "inv-kontor":
        return Action(kind, cells=tuple(cells(step.inv)))
    if kind in ("build", "lake-house"):
        return Action(kind, cells=(build,))
    if kind == "desert-dig":
        return Action(kind, cells=tuple(cells(step.dig)), build=build)
    name = "pa-spade2" if kind == "pa-spade2x2" else kind
    return Action(name, cells=tuple(cells(step.tr)), build=build)


def read_line(lr: LastRound, solver: cp_model.CpSolver) -> list[Turn]:
    """The solution as turns in notation: ``$k`` before the action, the action, towns."""
    turns = []
    g = lr.geometry
    for step in lr.steps:
        kind = next(k for k, v in step.kind.items() if v is not False and _on(solver, v))
        if kind == "idle":
            break
        triples = 0 if isinstance(step.triples, int) else solver.value(step.triples)
        exchange = solver.value(step.exchange)
        before = (((Exchange("*", triples),) if triples else ())
                  + ((Exchange("$", exchange),) if exchange else ()))
        tiles = [x for x, v in step.tiles.items() if _on(solver, v)]
        roots = [i for i, v in sorted(step.found.items()) if _on(solver, v)]
        rivers = [r for r, v in sorted(step.river.items()) if _on(solver, v)]
        land, over = tiles[:len(roots)], tiles[len(roots):]
        if len(roots) == 1:
            towns: tuple[Town, ...] = (Town(land[0]),)
        else:
            towns = tuple(Town(x, g.nodes[i]) for x, i in zip(land, roots, strict=True))
        towns += tuple(Town(x, r) for x, r in zip(over, rivers, strict=True))
        turns.append(Turn(_action(lr, solver, step, kind), before, towns))
    return turns


@dataclass(frozen=True)
class Predicted:
    """What the model says the line is worth."""

    value: int
    others: int
    turns: int


def predicted(lr: LastRound, solver: cp_model.CpSolver) -> Predicted:
    """The model's value, others' total and turn count of its solution."""
    return Predicted(solver.value(lr.value), solver.value(lr.others), solver.value(lr.turns))


def hint_passing_at_once(lr: LastRound, seconds: float) -> None:
    """Hint every variable with the line that passes at once (a complete, feasible
    start, so a time-limited solve always has a line to improve on), found by CP-SAT
    within ``seconds`` (no hint when it is not)."""
    start = lr.model.clone()
    for t, step in enumerate(lr.steps):
        for k, v in step.kind.items():
            if v is not False:
                start.add(v == int(k == ("pass" if t == 0 else "idle")))
    start.clear_objective()
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(0.001, seconds)
    if solver.solve(start) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return
    for index in range(len(lr.model.proto.variables)):
        var = lr.model.get_int_var_from_proto_index(index)
        lr.model.add_hint(var, solver.value(var))


def plan(lr: LastRound) -> list[Any]:
    """The answer of a line up to the order of its turns: how often each action kind is
    taken, the final buildings, habitable hexes, bridges and palace sides, and the town
    tiles taken (for uniqueness checks)."""
    m = lr.model
    end = lr.states[-1]
    out: list[Any] = []
    for kind in KINDS:
        uses = [s.kind[kind] for s in lr.steps if s.kind[kind] is not False]
        if uses:
            count = m.new_int_var(0, len(uses), f"uses_{kind}")
            m.add(count == sum(uses))
            out.append(count)
    for lits in (end.house, end.kontor, end.palace, end.home, end.bridge, [end.left, end.right]):
        out += [x for x in lits if not isinstance(x, bool)]
    tiles: dict[str, list[Any]] = {}
    for s in lr.steps:
        for name, v in s.tiles.items():
            tiles.setdefault(name, []).append(v)
    for name, lits in sorted(tiles.items()):
        taken = m.new_bool_var(f"taken_{name}")
        m.add(taken == sum(lits))
        out.append(taken)
    return out
