"""The end of the last-round model: once-per-round limits, the pass, final
scoring and the objective."""

from __future__ import annotations

from typing import Any

from solver.cpsat.objectives import Goal, lexicographic
from solver.terra_nova_kosmos.model.geometry import (
    related_bridges,
    river_hops,
)
from solver.terra_nova_kosmos.model.last_round.parts import (
    BRIDGING,
    LastRound,
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


class Ending:
    """The end of :class:`~.builder.Builder`'s model (a part of it: it uses the
    builder's model, geometry and helpers)."""

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
