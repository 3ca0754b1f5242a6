"""Builds the last-round model in a fixed order: the position as state 0,
then one step per action, then the end (:meth:`Ending.finish`)."""

from __future__ import annotations

from collections.abc import Callable

from solver.cpsat.constraints import Lit, as_expr, implies, live, negate, possible
from solver.terra_nova_kosmos.model.last_round.economy import Economy
from solver.terra_nova_kosmos.model.last_round.ending import Ending
from solver.terra_nova_kosmos.model.last_round.parts import (
    BRIDGING,
    DIGS,
    FREE_SPADE,
    KINDS,
    LastRound,
    Num,
    State,
    Step,
)
from solver.terra_nova_kosmos.model.last_round.towns import TownRules
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
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


class Builder(TownRules, Economy, Ending):
    """Builds the last-round model in a fixed order, one method per rule.

    The public build API, for models that extend this one (the best round, several
    rounds): :meth:`initial_state` (the position as state 0), :meth:`step` (the
    variables and rules of step ``t`` from state ``prev``, and the state after it),
    :meth:`~.ending.Ending.finish` (the round's limits over ``steps``, the final
    scoring of ``states[-1]`` and the objective), and :meth:`build`, which runs them
    in order, appending to ``steps`` and ``states``. Per step, ``town_count`` and
    ``vp_terms`` get one entry and ``events`` the buildings others gain power from.
    A subclass may override :meth:`~.core.Core.refusal`,
    :meth:`~.core.Core.spendable` (which palaces, hence free buildings, may come, and
    which hexes P can reach),
    :meth:`~.economy.Economy.pass_income` and :meth:`~.ending.Ending.finish`; a node
    is touched no earlier than its ``Geometry.level``, counted in ``t``.
    """

    # ---- the position as state 0
    def initial_state(self) -> State:
        """The position as state 0 (constants)."""
        p, g = self.p, self.g
        kinds = [b.kind if (b := p.buildings[c]) else None for c in g.nodes]
        house: list[Lit] = [k == "house" for k in kinds]
        kontor: list[Lit] = [k == "kontor" for k in kinds]
        palace: list[Lit] = [k == "palace" for k in kinds]
        built: list[Lit] = [k is not None for k in kinds]
        home: list[Lit] = [p.landscape[c] == self.home_letter for c in g.nodes]
        town_cells = self.initial_towns()
        ship = self.player.shipping
        one, two, three = self.player.power
        return State(house, kontor, palace, built, home, bridge=[False] * len(g.spots),
                     money=self.player.money, bowls=(one, two, three), ship=ship,
                     left="left" in self.player.palaces, right="right" in self.player.palaces,
                     town=[i in town_cells for i in range(g.size)],
                     tiles_left=len(self.player.town_tiles), passed=False,
                     links={**{x: True for x in self.static_links},
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
            return fid == "erfinderinnen" and possible(prev.left)
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
        kind: dict[str, Lit] = {k: (self.bool(f"{k}_{t}") if self.available(k, prev) else False)
                                for k in KINDS}
        m.add_exactly_one(live(kind.values()))
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
        self.towns(t, step, prev, nxt)
        self.river_towns(t, step, prev, nxt)
        self.take_tiles(t, step, prev, nxt)
        self.shipping(t, step, prev, nxt)
        self.resources(t, step, prev, nxt, cost, spades)
        self.step_points(t, step, prev, spades)
        nxt.passed = passed
        return step, nxt

    def personal(self, kind: dict[str, Lit], prev: State) -> None:
        """Personal left-palace actions need the palace before the turn ("usable from
        P's next turn"); once per round is summed over the steps in :meth:`finish`."""
        for k in ("feen-spade", "lake-house", "desert-dig", "inv-kontor"):
            self.clause([prev.left], [kind[k]])
        self.clause([prev.right], [kind["free-kontor"]])

    def cells(self, t: int, step: Step, prev: State) -> State:
        """Per-node effects and the new building state."""
        g, kind, m = self.g, step.kind, self.m
        house: list[Lit] = []
        kontor: list[Lit] = []
        palace: list[Lit] = []
        built: list[Lit] = []
        home: list[Lit] = []
        upgrades_k = possible(kind["upgrade-k"], kind["free-kontor"])
        upgrades_p = possible(kind["upgrade-pl"], kind["upgrade-pr"])
        digs = possible(*(kind[k] for k in DIGS))
        for i in range(g.size):
            up_k = (self.bool(f"upk_{t}_{i}") if upgrades_k and possible(prev.house[i])
                    else False)
            up_p = (self.bool(f"upp_{t}_{i}") if upgrades_p and possible(prev.kontor[i])
                    else False)
            step.up_k[i], step.up_p[i] = up_k, up_p
            implies(m, up_k, prev.house[i])
            implies(m, up_p, prev.kontor[i])
            if i < g.own:
                house.append(self.next_bool(prev.house[i], [], [up_k], f"h_{t}_{i}"))
                kontor.append(self.next_bool(prev.kontor[i], [up_k], [up_p], f"k_{t}_{i}"))
                palace.append(self.next_bool(prev.palace[i], [up_p], [], f"p_{t}_{i}"))
                built.append(True)
                home.append(prev.home[i])
                continue
            if g.level[i] > t:
                # not yet in range of any building P can have made
                for d in (step.tr, step.dig, step.house, step.inv, step.edge):
                    d[i] = False
                house.append(prev.house[i])
                kontor.append(prev.kontor[i])
                palace.append(prev.palace[i])
                built.append(prev.built[i])
                home.append(prev.home[i])
                continue
            may_dig = prev.home[i] is not True
            tr = self.bool(f"tr_{t}_{i}") if digs and may_dig else False
            dig = self.bool(f"dg_{t}_{i}") if possible(kind["desert-dig"]) and may_dig else False
            hs = self.bool(f"hs_{t}_{i}")
            inv = self.bool(f"inv_{t}_{i}") if possible(kind["inv-kontor"]) else False
            eg = (self.bool(f"edge_{t}_{i}") if self.edge_possible and possible(
                kind["upgrade-pl"]) and g.nodes[i] in self.p.board.edge else False)
            for x in (tr, dig, hs, inv, eg):
                implies(m, x, negate(prev.built[i]))
            for x in (tr, dig):
                implies(m, x, negate(prev.home[i]))
            self.clause([prev.home[i], tr, dig, eg], [hs])
            step.tr[i], step.dig[i], step.house[i], step.inv[i] = tr, dig, hs, inv
            step.edge[i] = eg
            house.append(self.next_bool(prev.house[i], [hs], [up_k], f"h_{t}_{i}"))
            kontor.append(self.next_bool(prev.kontor[i], [up_k, inv], [up_p], f"k_{t}_{i}"))
            palace.append(self.next_bool(prev.palace[i], [up_p], [], f"p_{t}_{i}"))
            built.append(self.next_bool(prev.built[i], [hs, inv], [], f"b_{t}_{i}"))
            hm = self.next_bool(prev.home[i], [tr, dig], [], f"home_{t}_{i}")
            home.append(self.any_of([hm, eg], f"home_{t}_{i}e"))
        self.counts(step)
        self.edge_house(t, step, prev)
        return State(house, kontor, palace, built, home)

    def next_bool(self, before: Lit, plus: list[Lit], minus: list[Lit], name: str) -> Lit:
        """A state Boolean after adding ``plus`` and removing ``minus`` (linear)."""
        plus, minus = live(plus), live(minus)
        if not plus and not minus:
            return before
        v = self.bool(name)
        self.m.add(v == as_expr(before) + self.lin(plus) - self.lin(minus))
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
        if live(step.edge.values()):
            step.edge_house = self.bool("edge_house")
        m.add(self.lin(list(step.house.values()))
              == self.lin([k["build"], k["lake-house"], step.edge_house]) + build_opt)
        m.add(self.lin(list(step.inv.values())) == self.lin([k["inv-kontor"]]))
        m.add(self.lin(list(step.up_k.values())) == self.lin([k["upgrade-k"],
                                                               k["free-kontor"]]))
        m.add(self.lin(list(step.up_p.values()))
              == self.lin([k["upgrade-pl"], k["upgrade-pr"]]))
        any_family = self.any_of(family, "family")
        for i, hs in step.house.items():
            # a house after a transformation goes on the transformed hex
            self.clause([step.tr[i], step.dig[i]], [hs, any_family])

    def edge_house(self, t: int, step: Step, prev: State) -> None:
        """The Ifrit left palace may make one unbuilt edge hex home, no range needed, and
        puts a free house on it when a house is left ([D20])."""
        edges = live(step.edge.values())
        if not edges:
            return
        m = self.m
        m.add(sum(edges) <= step.kind["upgrade-pl"])
        m.add(step.edge_house <= sum(edges))
        for i, eg in step.edge.items():
            self.clause([step.house[i]], [eg, step.edge_house])
        full = self.reify_ge(self.lin(prev.house), HOUSES, f"full_{t}")
        self.clause([full, step.edge_house], edges[:1] if len(edges) == 1
                    else [self.any_of(edges, f"anyedge_{t}")])

    def bridges(self, t: int, step: Step, prev: State, nxt: State) -> None:
        """Bridges placed by the step: on free spots next to a P building."""
        m, g = self.m, self.g
        kinds = [step.kind[b] for b in BRIDGING]
        if not possible(*kinds):
            nxt.bridge = list(prev.bridge)
            return
        for s, (a, b) in enumerate(g.spots):
            ia, ib = g.node(a), g.node(b)
            ends = [prev.built[x] for x in (ia, ib) if x is not None]
            if prev.bridge[s] is True or not possible(*ends):
                step.bridge[s] = False
                continue
            v = self.bool(f"br_{t}_{s}")
            implies(m, v, negate(prev.bridge[s]))
            self.clause(ends, [v])
            step.bridge[s] = v
        m.add(self.lin(list(step.bridge.values())) == self.lin(kinds))
        nxt.bridge = [self.next_bool(prev.bridge[s], [step.bridge.get(s, False)], [],
                                     f"bridge_{t}_{s}") for s in range(len(g.spots))]

    def range_rules(self, t: int, step: Step, prev: State) -> None:
        """Targets of building and transforming are in range before the action;
        ``desert-dig`` shares a hex side with a P building ([D18])."""
        g, kind = self.g, step.kind
        lake = kind["lake-house"]
        for j in range(g.own, g.size):
            needs = live([step.tr[j], step.inv[j]])
            house_need = step.house[j]
            edge = step.edge.get(j, False)
            if not needs and house_need is False:
                continue
            support = []
            for i in self.in_range_from[j]:
                if prev.built[i] is False:
                    continue
                lk = self.link(i, j, prev.bridge, prev.ship_at_least, self.reach)
                support.append(self.both(prev.built[i], lk, f"z_{t}_{i}_{j}"))
                if support[-1] is True:
                    break
            for x in needs:
                self.clause(support, [x])
            self.clause(support + [edge], [house_need, negate(lake)])
            self.clause([prev.built[i] for i in g.side[j]], [step.dig[j]])

    def supply(self, step: Step, prev: State, nxt: State) -> None:
        """Pieces come from the tableau; one palace per side."""
        m = self.m
        m.add(self.lin(nxt.house) <= HOUSES)
        m.add(self.lin(nxt.kontor) <= KONTORE)
        m.add(self.lin(nxt.palace) <= PALACES)

    def spades(self, t: int, step: Step, prev: State) -> Num:
        """Spades used by the step (transformations with spades only, [D13])."""
        terms = []
        for i, tr in step.tr.items():
            if tr is False:
                continue
            base = SPADES[self.faction.home][LETTER_LANDSCAPE[self.p.landscape[self.g.nodes[i]]]]
            terms.append(base * tr)
            if base == 2 and self.fid == "golems":
                terms.append(-1 * self.lin([self.both(tr, prev.left, f"gol_{t}_{i}")]))
                self.clause([prev.left], [tr, step.kind["pa-spade2x2"]])
            elif base == 2:
                self.clause([], [tr, step.kind["pa-spade2x2"]])
        return sum(terms)

    def cost(self, t: int, step: Step, prev: State, spades: Num) -> Num:
        """Money the action costs (paid before it, with the exchange)."""
        m, k = self.m, step.kind
        free = self.lin([k[x] for x in FREE_SPADE])
        pa2 = live([k["pa-spade2"], k["pa-spade2x2"]])
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

    def foreign(self, i: int, bridge: list[Lit]) -> Lit:
        """Node i's hex is adjacent to a building of another faction (neutral too)."""
        p, g = self.p, self.g
        cell = g.nodes[i]
        lits: list[Lit] = []
        near = set(p.grid.neighbours[cell])
        near |= {b if a == cell else a for a, b in self.mine_bridges if cell in (a, b)}
        if any(p.owner(x) not in (None, self.me) for x in near):
            return True
        for s, (a, b) in enumerate(g.spots):
            if cell in (a, b):
                other = b if a == cell else a
                if p.owner(other) not in (None, self.me):
                    lits.append(bridge[s])
        return self.any_of(lits, f"foreign_{i}")

    def kontor_cost(self, t: int, step: Step, prev: State) -> Num:
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
                                   if possible(step.kind["free-kontor"]) else [])
                    for lit, val in ((nb, nbv), (pal, pv)):
                        if not isinstance(lit, bool):
                            cond.append(lit if val else ~lit)
                    m.add(cost == price).only_enforce_if(cond)
        return cost

    def palaces(self, t: int, step: Step, prev: State, nxt: State) -> None:
        """One palace per side; the left and right flags follow the upgrades."""
        k = step.kind
        implies(self.m, k["upgrade-pl"], negate(prev.left))
        implies(self.m, k["upgrade-pr"], negate(prev.right))
        nxt.left = self.next_bool(prev.left, [k["upgrade-pl"]], [], f"left_{t}")
        nxt.right = self.next_bool(prev.right, [k["upgrade-pr"]], [], f"right_{t}")
        if self.fid == "seebaeren" and possible(k["upgrade-pl"]):
            step.pl_ship = self.bool(f"plship_{t}")
            self.m.add_implication(step.pl_ship, k["upgrade-pl"])


def build_last_round(position: Position, check: Callable[[], None] | None = None
                     ) -> LastRound:
    """The last-round model of ``position`` (:class:`Unsupported` when outside the model).

    ``check`` is called between building steps; whatever it raises (the command's
    deadline) ends the build."""
    return Builder(position, check).build()
