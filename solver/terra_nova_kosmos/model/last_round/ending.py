"""The end of the last-round model: once-per-round limits, the pass, final
scoring and the objective."""

from __future__ import annotations

from dataclasses import dataclass

from solver.cpsat.connectivity import reached
from solver.cpsat.constraints import Lit, gated, live, negate, possible
from solver.cpsat.objectives import Goal, lexicographic
from solver.geometry.graph import components
from solver.terra_nova_kosmos.model.geometry import (
    related_bridges,
    river_hops,
)
from solver.terra_nova_kosmos.model.last_round.core import Bowls, Core
from solver.terra_nova_kosmos.model.last_round.parts import (
    BRIDGING,
    LastRound,
    Num,
    State,
)
from solver.terra_nova_kosmos.model.scope import bowl_three_inflow
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    AREA_POINTS,
    BONUS_TILES,
    BRIDGES,
    DRUID_TRIPLE,
    FELINE_KONTOR_COST_NEIGHBOUR,
    GOLEMS_PASS_VP,
    HOUSE_COST,
    HOUSES,
    INV_KONTOR_POWER,
    KOBOLDE_PALACE_POWER,
    KOBOLDE_POWER_PER_SPADE,
    KONTORE,
    MONEY_PER_VP,
    PALACES,
    POWER_ACTIONS,
    POWER_TOKENS,
    ROUND_TILES,
    SPADE_COST,
    TOWN_MIN_BUILDINGS,
    TOWN_TILES,
)

BUILDINGS = HOUSES + KONTORE + PALACES
"""The most buildings P can have on the map (the supply)."""

FREE_SPADES = 7
"""The most spades one round can bring without money: ``b-spade``, ``pa-spade1`` and
``feen-spade`` one each, ``pa-spade2`` at most four (the model's bound on the spades
it leaves unpaid)."""


@dataclass(frozen=True)
class UnitPrice:
    """What the units of a round tile cost P in one round, at the least (a sound bound
    on how many a round's spending buys: :meth:`Ending.unit_price`)."""

    free: int
    """Units a round can get without spending."""
    cost: int
    """The least money and power a paid unit costs, net of what it brings back."""
    returns: int
    """Money and power the units themselves may bring besides (Kobolde's spades)."""


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
    bridges = related_bridges(position, colour)

    def near(cell: int) -> set[int]:
        out = set(position.grid.neighbours[cell])
        out |= {b if a == cell else a for a, b in bridges if cell in (a, b)}
        return out | {x for x, d in river_hops(position, cell).items() if d <= shipping}

    return max((len(c) for c in components(position.buildings_of(colour), near)),
               default=0)


class Ending(Core):
    """The end of :class:`~.builder.Builder`'s model."""

    def round_limits(self) -> None:
        """Once-per-round actions at most once, bridges from the supply, and the implied
        cut on towns (disjoint sets of ≥ 4 buildings)."""
        m = self.m
        for kind in [*POWER_ACTIONS, *self.specials]:
            uses = live(s.kind.get(kind, False) for s in self.steps)
            if kind == "pa-spade2":
                uses += live(s.kind["pa-spade2x2"] for s in self.steps)
            if uses:
                m.add(sum(uses) <= 1)
        bridging = live(s.kind[b] for s in self.steps for b in BRIDGING)
        if bridging:
            m.add(sum(bridging) <= BRIDGES - len(self.player.bridges))
        end = self.states[-1]
        towns = sum(self.town_count)
        if not isinstance(towns, int):
            # implied: towns are disjoint sets of ≥ 4 buildings
            old = sum(1 for x in self.states[0].town if x)
            m.add(TOWN_MIN_BUILDINGS * towns <= self.lin(end.built) - old)
        self.round_tile_points()

    def round_tile_points(self) -> None:
        """The round tile's VP of the round's steps (:attr:`round_units`) as one term,
        its units bounded by what the round can pay for (:meth:`round_unit_cap`)."""
        units, self.round_units = self.round_units, []
        if self.tile not in ROUND_TILES or not units:
            return
        total = self.m.new_int_var(0, self.round_unit_cap(self.tile), "round_units")
        self.m.add(total == sum(units))
        self.vp_terms.append(ROUND_TILES[self.tile] * total)
        self.round_total = total

    def round_unit_cap(self, tile: str) -> int:
        """A sound bound on the units round tile ``tile`` scores in one round: the paid
        houses, spades and Kontore out of what P can spend in the round
        (:meth:`round_budget`, :meth:`unit_price`); houses and Kontore also by the
        supply (a Kontor upgrade returns a house, a palace a Kontor), palaces, towns
        (one per town tile) and track spaces by what is left of them."""
        palaces = PALACES - self.p.count(self.me, "palace")
        kontore = KONTORE - self.p.count(self.me, "kontor") + palaces
        price = self.unit_price(tile)
        if price is not None:
            paid = price.free + (self.round_budget() + price.returns) // price.cost
            if tile == "r-house2":
                return min(HOUSES - self.p.count(self.me, "house") + kontore, paid)
            if tile == "r-kontor3":
                return min(kontore, paid)
            return paid
        if tile == "r-palace5":
            return palaces
        if tile == "r-town5":
            return len(self.player.town_tiles)
        return max(0, self.max_ship - self.player.shipping)

    def unit_price(self, tile: str) -> UnitPrice | None:
        """What the units of round tile ``tile`` cost P in a round, for the tiles whose
        units are bought (None for the others): every house but the free ones
        (``lake-house``, the Ifrit edge house) costs ``HOUSE_COST``, every spade but the
        free ones (``b-spade``, ``pa-spade1``, ``feen-spade``, ``pa-spade2``'s at most
        four) ``SPADE_COST`` (Kobolde: less the power it brings, and the palace's and
        the free spades' power come back), every Kontor but ``free-kontor`` at least
        ``FELINE_KONTOR_COST_NEIGHBOUR`` (``inv-kontor``: ``INV_KONTOR_POWER``)."""
        if tile == "r-house2":
            return UnitPrice(2, HOUSE_COST, 0)
        if tile == "r-spade2":
            if self.fid == "kobolde":
                return UnitPrice(FREE_SPADES, SPADE_COST - KOBOLDE_POWER_PER_SPADE,
                                 KOBOLDE_PALACE_POWER + KOBOLDE_POWER_PER_SPADE * FREE_SPADES)
            return UnitPrice(FREE_SPADES, SPADE_COST, 0)
        if tile == "r-kontor3":
            return UnitPrice(1, min(FELINE_KONTOR_COST_NEIGHBOUR, INV_KONTOR_POWER), 0)
        return None

    def held_points(self, money: Num) -> Num:
        """The VP of P's money at the end (``money``) as the objective counts them (a
        model of several rounds bounds them together with what its last round's tile
        pays for)."""
        return money

    def round_budget(self) -> int:
        """A bound on the money + power the round being built can spend: what the
        model's steps can (:meth:`~.core.Core.spendable`; a model of several rounds
        overrides it)."""
        return self.spendable()

    def kept_points(self) -> Num:
        """VP scored once over all the steps: the shipping track's spaces between the
        first state and the last, and the town tiles taken (each at most once:
        a player holds one of each)."""
        m = self.m
        lo, top = self.player.shipping, self.max_ship
        cumulative = [0] * (lo + 1)
        for h in range(lo + 1, top + 1):
            cumulative.append(cumulative[-1] + self.faction.shipping_vp[h - 1])
        ship = self.states[-1].ship
        if isinstance(ship, int):
            vp: Num = cumulative[ship]
        else:
            track = m.new_int_var(0, cumulative[-1], "track_vp")
            m.add_element(ship, cumulative, track)
            vp = track
        for tile in TOWN_TILES:
            lits = [s.tiles[tile] for s in self.steps if tile in s.tiles]
            if lits:
                taken = self.bool(f"tile_taken_{tile}")
                m.add(taken == sum(lits))
                vp = vp + TOWN_TILES[tile].vp * taken
        triples = [s.triples for s in self.steps if not isinstance(s.triples, int)]
        if triples:
            total = m.new_int_var(0, self.bowl_three_total() // DRUID_TRIPLE[0],
                                  "step_triples")
            m.add(total == sum(triples))
            vp = vp + DRUID_TRIPLE[1] * total
        return vp

    def bowl_three_total(self) -> int:
        """A bound on the power that can pass through bowl III over the model's steps:
        what is there and what can still move in (:func:`..scope.bowl_three_inflow`;
        a model of several rounds overrides it). Each Druiden triple takes three."""
        return self.player.power[2] + bowl_three_inflow(self.p, self.g.size - self.g.own)

    def passed_bowls(self, end: State) -> Bowls:
        """P's bowls after the pass: the Druiden left palace's 2 power per settlement."""
        if not self.druid_settlements():
            return end.bowls
        settlements = self.lin(self.settlements(self.T + 1, end, end).root)
        power = gated(self.m, end.left, 2 * settlements, 2 * self.g.size, "druid_pass_power")
        return self.gain(end.bowls, power, "druid_pass")

    def finish(self) -> LastRound:
        """The end of the model: limits, final scoring and the lexicographic objective."""
        m = self.m
        self.round_limits()
        end = self.states[-1]
        mine = sum(self.vp_terms) + self.pass_points(end) + self.kept_points()
        bowls = self.passed_bowls(end)
        mine = mine + self.held_points(self.money_points(end.money, bowls[2],
                                                         self.fid == "druiden", "me"))
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
        turns = self.turns()
        # the others' scores lie in [base, base + span]: P's building only adds to
        # their money and bowls; a player's money VP grows by at most
        # (8 tokens + Feline's 2 per upgrade) / 3 + 1, Druiden triples by 2
        base = min(table_them) + sum(self.p.player(c).vp + self.still_money(c)
                                     for c in others)
        span = (max(table_them) - min(table_them)
                + len(others) * ((POWER_TOKENS + 2 * self.T) // MONEY_PER_VP + 4))
        # the others' total as a variable from base up: the objective's bound then
        # never counts their scores below what they have already
        others_total = m.new_int_var(base, base + 10 ** 6, "theirs")
        m.add(others_total == theirs)
        theirs = others_total
        goal = lexicographic([Goal(value, "max"), Goal(theirs - base, "min", span),
                              Goal(turns, "min", self.T)])
        m.maximize(goal.expr)
        answer = [v for s in self.steps for v in (
            live(s.kind.values()) + live(x for d in s.choices() for x in d.values())
            + live([s.pl_ship]) + list(s.tiles.values()))]
        return LastRound(self.p, m, goal, self.g, self.steps, self.states, value, theirs,
                         turns, self.pass_tile, answer)

    def turns(self) -> Num:
        """P's turns: the steps that are not idle (the pass included)."""
        return sum(1 - s.kind["idle"] if possible(s.kind["idle"]) else 1 for s in self.steps)

    def pass_points(self, end: State) -> Num:
        """VP on passing: the held bonus tile, Golems, Feline's right palace."""
        m = self.m
        bonus = BONUS_TILES[self.player.bonus] if self.player.bonus else None
        vp: Num = 0
        per = {**self.pieces(end), "shipping": self.pass_shipping(end)}
        if bonus and bonus.pass_per:
            vp = vp + bonus.pass_vp * per[bonus.pass_per]
        if self.fid == "golems":
            golems = m.new_int_var(0, max(GOLEMS_PASS_VP.values()), "golems_pass")
            m.add_element(per["kontor"], [GOLEMS_PASS_VP[k] for k in range(KONTORE + 1)],
                          golems)
            vp = vp + golems
        if self.fid == "feline" and possible(end.right):
            inland = self.lin([b for i, b in enumerate(end.built)
                               if self.g.nodes[i] not in self.p.board.river_adjacent])
            vp = vp + gated(m, end.right, inland, BUILDINGS, "feline_pass")
        if self.fid == "ifrit" and possible(end.right):
            vp = vp + gated(m, end.right, self.edge_settlements(end), BUILDINGS,
                            "ifrit_pass")
        return vp

    def pieces(self, end: State) -> dict[str, Num]:
        """P's houses, Kontore and palaces in ``end``, each a variable bounded by its
        supply (the objective's bound then counts pieces P can have, not hexes)."""
        out: dict[str, Num] = {}
        for kind, lits, top in (("house", end.house, HOUSES), ("kontor", end.kontor, KONTORE),
                                ("palace", end.palace, PALACES)):
            v = self.m.new_int_var(0, top, f"pieces_{kind}_{len(self.vp_terms)}")
            self.m.add(v == self.lin(lits))
            out[kind] = v
        return out

    def pass_shipping(self, end: State) -> Num:
        """The track value when P passes: a Seebären river town after the pass may still
        move it (``tship``), after the bonus tile has scored."""
        if not self.river_pairs:
            return end.ship
        v = self.m.new_int_var(0, self.max_ship, "pass_ship")
        for step, before in zip(self.steps, self.states, strict=False):
            if possible(step.kind["pass"]):
                self.m.add(v == before.ship).only_enforce_if(step.kind["pass"])
        return v

    def edge_settlements(self, end: State) -> Num:
        """Ifrit right palace: P's settlements ([D28]: components by hex side or bridge)
        with at least one building on an edge hex ([D3])."""
        edge = self.p.board.edge
        on_edge = [self.lin([end.built[i]]) if c in edge else 0
                   for i, c in enumerate(self.g.nodes)]
        comps = self.settlements(self.T + 1, end, end, on_edge)
        extras = comps.sums[3]
        out: list[Lit] = []
        for i, r in enumerate(comps.root):
            if r is not False and self.g.nodes[i] in edge:
                out.append(r)
            elif r is not False:
                out.append(self.both(r, self.reify_ge(extras[i], 1, f"edgeset_{i}"),
                                     f"edgeroot_{i}"))
        return self.lin(out)

    def money_points(self, money: Num, three: Num, druid: bool, name: str) -> Num:
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

    def area_group(self, end: State) -> Num:
        """The size of a group of P's final buildings connected through range (final
        shipping, no ``b-reach``): one root, the smallest node picked, every other
        member reached from it. Maximising the score makes it the largest group."""
        m, g = self.m, self.g
        n = g.size
        pick = [self.both(end.built[i], self.bool(f"g_{i}"), f"gp_{i}")
                if end.built[i] is not True else self.bool(f"g_{i}") for i in range(n)]
        root = [self.bool(f"groot_{i}") for i in range(n)]
        m.add_exactly_one(root)
        for i in range(n):
            m.add_implication(root[i], pick[i])
            for j in range(i):
                m.add_bool_or([negate(root[i]), negate(pick[j])])
        links: dict[int, list[tuple[int, Lit]]] = {i: [] for i in range(n)}
        for i in range(n):
            for j in self.in_range_from[i]:
                if possible(end.built[j]):
                    links[i].append((j, self.link(j, i, end.bridge, end.ship_at_least, 0)))
        reached(m, pick, dict(enumerate(root)), links, "group")
        size = m.new_int_var(1, n, "group")
        m.add(size == sum(pick))
        return size

    def still_money(self, colour: str) -> int:
        """Another player's money VP if P gave them nothing."""
        player = self.p.player(colour)
        three = player.power[2]
        vp = (player.money + three) // MONEY_PER_VP
        return vp + (three // 3 if player.faction == "druiden" else 0)

    def other_after(self, colour: str) -> tuple[Num, Bowls]:
        """Another player's money and power bowls after the power (and Feline money)
        P's building gives them ([D24])."""
        m, p, g = self.m, self.p, self.g
        player = p.player(colour)
        two = len(p.players) == 2
        gain: Num = 0
        for i, lit, bridge in self.events:
            cell = g.nodes[i]
            near = set(p.grid.neighbours[cell])
            near |= {b if a == cell else a for a, b in self.mine_bridges if cell in (a, b)}
            count = sum(1 for x in near if p.owner(x) == colour)
            gain = gain + count * lit
            for s, (a, b) in enumerate(g.spots):
                other = b if a == cell else a if b == cell else None
                if other is not None and p.owner(other) == colour and possible(bridge[s]):
                    gain = gain + self.lin([self.both(lit, bridge[s], f"ob_{colour}_{i}_{s}")])
        if player.faction == "erfinderinnen":
            gain = gain + (2 if two else 1) * sum(lit for _, lit in self.houses_built)
        money: Num = player.money
        if player.faction == "feline":
            money = money + (2 if two else 1) * sum(self.upgrades)
        total = m.new_int_var(0, 10 * POWER_TOKENS + 4 * self.T * 6, f"gain_{colour}")
        m.add(total == gain)
        bowls = self.gain(player.power, total, f"other_{colour}")
        return money, bowls

    def other_score(self, colour: str) -> Num:
        """Another player's final score without area: their VP, money and bowl III
        after what P's building gives them."""
        m, player = self.m, self.p.player(colour)
        money, bowls = self.other_after(colour)
        three = m.new_int_var(0, POWER_TOKENS, f"three_{colour}")
        m.add(three == bowls[2])
        return player.vp + self.money_points(money, three, player.faction == "druiden", colour)
