"""Builds the last-round model in a fixed order: the position as state 0,
then one step per action, then the end (:meth:`Ending.finish`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ortools.sat.python import cp_model

from solver.cpsat.constraints import negate
from solver.terra_nova_kosmos.model.geometry import (
    build_geometry,
    related_bridges,
)
from solver.terra_nova_kosmos.model.last_round.economy import Economy
from solver.terra_nova_kosmos.model.last_round.ending import Ending
from solver.terra_nova_kosmos.model.last_round.parts import (
    BRIDGING,
    DIGS,
    FREE_SPADE,
    KINDS,
    LastRound,
    State,
    Step,
    Unsupported,
)
from solver.terra_nova_kosmos.model.last_round.towns import TownRules
from solver.terra_nova_kosmos.model.scope import horizon as turn_bound
from solver.terra_nova_kosmos.model.scope import (
    money_bound,
    once_specials,
    range_depth,
    unsupported,
)
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    BONUS_TILES,
    BRIDGE_COST,
    BRIDGES,
    FELINE_KONTOR_COST,
    FELINE_KONTOR_COST_NEIGHBOUR,
    HOUSE_COST,
    HOUSES,
    KONTOR_COST,
    KONTOR_COST_NEIGHBOUR,
    KONTORE,
    LETTER_LANDSCAPE,
    PALACE_COST,
    PALACES,
    POWER_ACTIONS,
    POWER_TOKENS,
    SHIP_COST,
    SPADE_COST,
    SPADES,
)


def _pass_tile(position: Position) -> tuple[str | None, int]:
    """The tile P takes on passing ([D23]) and its coins: the first with most coins
    (coins are all a tile is worth after round 5's pass)."""
    if not position.rules.final_round_swap or not position.bonus_display:
        return None, 0
    best = max(coins for _, coins in position.bonus_display)
    return next(t for t, c in position.bonus_display if c == best), best


class Builder(TownRules, Economy, Ending):
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
        """A new Boolean variable."""
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
        """The sum of literals, constants (True/False) counted as 1/0."""
        return sum((1 if x is True else 0) if isinstance(x, bool) else x for x in lits)

    def reify_ge(self, expr: Any, k: int, name: str) -> Any:
        """A Boolean equal to ``expr >= k``."""
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
        """The position as state 0 (constants)."""
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


    # ---- the steps
    def build(self) -> LastRound:
        """The whole model: state 0, the steps to the pass, the end."""
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
        """Whether an action kind can be taken at all in this position (else no variable)."""
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
        """The variables and rules of step ``t`` and the state after it."""
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
        """Bridges placed by the step: on free spots next to a P building."""
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
        """Money an upgrade to a Kontor costs (cheaper next to another faction; Feline's
        prices once its left palace stands)."""
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


def build_last_round(position: Position, check: Callable[[], None] | None = None
                     ) -> LastRound:
    """The last-round model of ``position`` (:class:`Unsupported` when outside the model).

    ``check`` is called between building steps; whatever it raises (the command's
    deadline) ends the build."""
    return Builder(position, check).build()
