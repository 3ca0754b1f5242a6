"""The end of the last-round model: once-per-round limits, the pass, final
scoring and the objective."""

from __future__ import annotations

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
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    AREA_POINTS,
    BONUS_TILES,
    BRIDGES,
    GOLEMS_PASS_VP,
    KONTORE,
    MONEY_PER_VP,
    POWER_ACTIONS,
    POWER_TOKENS,
    TOWN_MIN_BUILDINGS,
)


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
        turns = self.turns()
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
        per = {"house": self.lin(end.house), "kontor": self.lin(end.kontor),
               "palace": self.lin(end.palace), "shipping": self.pass_shipping(end)}
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
            vp = vp + gated(m, end.right, inland, self.g.size, "feline_pass")
        if self.fid == "ifrit" and possible(end.right):
            vp = vp + gated(m, end.right, self.edge_settlements(end), self.g.size,
                            "ifrit_pass")
        return vp

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
