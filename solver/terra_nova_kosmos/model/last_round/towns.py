"""Towns in the last-round model: components of P's buildings after every step."""

from __future__ import annotations

from solver.cpsat.connectivity import closed, reached, same_across
from solver.cpsat.constraints import Lit, as_expr, implies, live, negate, possible
from solver.geometry.graph import component_of
from solver.terra_nova_kosmos.model.last_round.core import Core
from solver.terra_nova_kosmos.model.last_round.parts import Num, State, Step
from solver.terra_nova_kosmos.rules import (
    SIDE_A,
    TOWN6_MIN_VALUE,
    TOWN_MIN_BUILDINGS,
    TOWN_MIN_VALUE,
    TOWN_TILES,
    TOWN_VALUE,
)


class TownRules(Core):
    """The town rules of :class:`~.builder.Builder`."""

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
            if start not in out:
                seen = component_of(start, lambda i: [j for j in edges[i] if j < g.own])
                if seen & marks:
                    out |= seen
        return out

    def town_edges_static(self) -> dict[int, list[int]]:
        """Per node: its neighbours in the town graph of the position (sides, bridges,
        Seebären links)."""
        g = self.g
        edges: dict[int, list[int]] = {i: list(g.side[i]) for i in range(g.size)}
        for i, j in sorted(g.old_bridges | self.static_links):
            edges[i].append(j)
            edges[j].append(i)
        return edges

    def several_towns_possible(self) -> bool:
        """A step may found several towns at once, so every step labels all components:
        the side-A right palace may still be built (``TOWN6``), or the Ifrit left
        palace (its edge house may found a second town)."""
        town6 = (self.fid in SIDE_A and "right" not in self.player.palaces
                 and self.p.palaces_left(self.me) > 0)
        return town6 or self.edge_possible

    def anchored_towns(self, t: int, step: Step, prev: State, nxt: State) -> None:
        """Towns when only the component of the changed building can newly qualify (no
        ``TOWN6`` palace to come): that component is the set of buildings reached from
        the *anchor* (the hex built on or upgraded, or the bridge's end with P's
        building) and closed under the town graph's edges."""
        m, g = self.m, self.g
        n = g.size
        anchor = self.anchors(t, step, prev)
        if not anchor:
            nxt.town = list(prev.town)
            self.town_count.append(0)
            return
        edges = self.town_edges(nxt)
        member: list[Lit] = [self.bool(f"mem_{t}_{i}") if possible(nxt.built[i]) else False
                             for i in range(n)]
        for i in range(n):
            implies(m, member[i], nxt.built[i])
            implies(m, anchor.get(i, False), member[i])
        closed(m, member, nxt.built, edges)
        reached(m, member, anchor, edges, f"town{t}")
        worth = []
        for i in range(n):
            if member[i] is False:
                continue
            v = m.new_int_var(0, 3, f"mval_{t}_{i}")
            own_value = (TOWN_VALUE["house"] * as_expr(nxt.house[i])
                         + TOWN_VALUE["kontor"] * as_expr(nxt.kontor[i])
                         + TOWN_VALUE["palace"] * as_expr(nxt.palace[i]))
            m.add(v == own_value).only_enforce_if(member[i])
            m.add(v == 0).only_enforce_if(negate(member[i]))
            worth.append(v)
        olds = [self.both(member[i], prev.town[i], f"mold_{t}_{i}") for i in range(n)]
        fresh = self.bool(f"mfresh_{t}")
        for o in live(olds):
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

    def next_town(self, before: Lit, member: Lit, grow: Lit, name: str) -> Lit:
        """In a town after the step: before, or in the grown component of a town."""
        if member is False or before is True:
            return before
        v = self.bool(name)
        joined = self.both(member, grow, name + "j")
        self.m.add_bool_or(live([before, joined])).only_enforce_if(v)
        for x in live([before, joined]):
            self.m.add_implication(x, v)
        return v

    def anchors(self, t: int, step: Step, prev: State) -> dict[int, Lit]:
        """Node → literal: this node's component is the one the step changes."""
        g = self.g
        out: dict[int, list[Lit]] = {}
        for d in (step.house, step.up_k, step.up_p, step.inv):
            for i, x in d.items():
                if possible(x):
                    out.setdefault(i, []).append(x)
        for s, x in step.bridge.items():
            if x is False:
                continue
            a, b = (g.node(c) for c in g.spots[s])
            if a is not None and possible(prev.built[a]):
                out.setdefault(a, []).append(self.both(x, prev.built[a], f"anc_{t}_{s}a"))
            if b is not None and possible(prev.built[b]):
                rest = self.both(x, negate(prev.built[a]) if a is not None else True,
                                 f"anc_{t}_{s}r")
                out.setdefault(b, []).append(self.both(rest, prev.built[b], f"anc_{t}_{s}b"))
        anchor: dict[int, Lit] = {}
        for i, found in sorted(out.items()):
            lits = live(found)
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

    def towns(self, t: int, step: Step, prev: State, nxt: State) -> None:
        """Every tile-less component of ≥ 4 buildings and value ≥ threshold founds a
        town while tiles last ([D25]); town membership spreads over each component."""
        m, g = self.m, self.g
        n = g.size
        tiles = [x for x in TOWN_TILES if x in self.player.town_tiles]
        if not tiles:
            nxt.town = list(prev.town)
            self.town_count.append(0)
            return
        if not self.several_towns_possible():
            self.anchored_towns(t, step, prev, nxt)
            return
        comps = self.settlements(t, nxt, prev)
        root = comps.root
        size, value, old = comps.sums[:3]
        threshold = self.threshold(nxt)
        found: dict[int, Lit] = {}
        qualified = []
        is_town: dict[int, Lit] = {}
        for i in range(n):
            if root[i] is False:
                continue
            fresh = self.bool(f"fresh_{t}_{i}")
            m.add(old[i] == 0).only_enforce_if(fresh)
            m.add(old[i] >= 1).only_enforce_if(~fresh)
            town = self.bool(f"istown_{t}_{i}")
            big = self.reify_ge(size[i], TOWN_MIN_BUILDINGS, f"big_{t}_{i}")
            rich = self.bool(f"rich_{t}_{i}")
            m.add(value[i] >= threshold).only_enforce_if(rich)
            m.add(value[i] <= threshold - 1).only_enforce_if(~rich)
            q = self.all_four(root[i], big, rich, fresh, f"qual_{t}_{i}")
            f = self.bool(f"found_{t}_{i}")
            m.add_implication(f, q)
            found[i] = f
            qualified.append(q)
            m.add_bool_or([~fresh, f]).only_enforce_if(town)
            m.add_implication(f, town)
            m.add_implication(~fresh, town)
            is_town[i] = town
        count: Num = 0
        if found:
            count = m.new_int_var(0, len(tiles), f"towns_{t}")
            m.add(count == sum(found.values()))
            m.add_min_equality(count, [sum(qualified), prev.tiles_left])
            self.town_cut(step, count, len(tiles))
        step.found = found
        town_lits: list[Lit] = []
        for i in range(n):
            if nxt.built[i] is False:
                town_lits.append(False)
                continue
            v = self.bool(f"town_{t}_{i}")
            town_lits.append(v)
            implies(m, v, nxt.built[i])
            if i in is_town:
                m.add(v == is_town[i]).only_enforce_if(root[i])
        same_across(m, town_lits, nxt.built, self.town_edges(nxt))
        nxt.town = town_lits
        self.town_count.append(count)

    def all_four(self, root: Lit, big: Lit, rich: Lit, fresh: Lit, name: str) -> Lit:
        """``root AND big AND rich AND fresh`` as a new Boolean (reified both ways)."""
        q = self.bool(name)
        self.m.add_bool_and([root, big, rich, fresh]).only_enforce_if(q)
        self.m.add_bool_or([negate(root), negate(big), negate(rich), negate(fresh), q])
        return q

    def town_cut(self, step: Step, count: Num, tiles: int) -> None:
        """Implied: a town is founded only by a step that adds a building, upgrades or
        bridges; more than one only by the ``TOWN6`` palace (the threshold drops)."""
        k = step.kind
        change = live(x for d in (step.house, step.up_k, step.up_p, step.inv, step.bridge)
                      for x in d.values())
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

    def river_towns(self, t: int, step: Step, prev: State, nxt: State) -> None:
        """Seebären towns over the river ([D26]), after the action and its towns, the
        pass included: a town over river hex r links every pair of P's buildings next to
        r that share no side (at least one new link); the component this joins must hold
        no town, at most one river town of the step, ≥ 4 buildings and the value."""
        if not self.river_pairs:
            return
        m, g = self.m, self.g
        idle = step.kind["idle"]
        lits = []
        reps: list[list[Lit]] = [[] for _ in range(g.size)]
        new_links: dict[tuple[int, int], list[Lit]] = {}
        for r, pairs in self.river_pairs.items():
            y = self.bool(f"river_{t}_{r}")
            step.river[r] = y
            lits.append(y)
            implies(m, y, negate(idle))
            linked = [self.both(nxt.built[i], nxt.built[j], f"rl_{t}_{r}_{i}_{j}")
                      for i, j in pairs]
            self.clause(linked, [y])
            for (i, j), both in zip(pairs, linked, strict=True):
                new_links.setdefault((i, j), []).append(self.both(y, both, f"nl_{t}_{r}_{i}"
                                                                           f"_{j}"))
            around = sorted({x for pr in pairs for x in pr})
            z = [self.both(y, nxt.built[i], f"rz_{t}_{r}_{i}") for i in around]
            pick = [self.bool(f"rp_{t}_{r}_{i}") if possible(x) else False
                    for i, x in zip(around, z, strict=True)]
            for x, p in zip(z, pick, strict=True):
                implies(m, p, x)
            m.add(self.lin(pick) == y)
            for i, p in zip(around, pick, strict=True):
                if p is not False:
                    reps[i].append(p)
        for key, news in sorted(new_links.items()):
            nxt.links[key] = self.any_of([nxt.links[key], *news], f"link_{t}_{key[0]}_{key[1]}")
        count = m.new_int_var(0, len(lits), f"rivertowns_{t}")
        m.add(count == sum(lits))
        m.add(count + self.town_count[-1] <= prev.tiles_left)
        comps = self.settlements(t, nxt, nxt, [self.lin(x) for x in reps])
        root = comps.root
        size, value, old, hosted = comps.sums
        joined: list[Lit] = []
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
        inside: list[Lit] = [self.bool(f"rin_{t}_{i}") if possible(nxt.built[i]) else False
                             for i in range(g.size)]
        for i in range(g.size):
            if inside[i] is not False and root[i] is not False:
                m.add(inside[i] == joined[i]).only_enforce_if(root[i])
        same_across(m, inside, nxt.built, self.town_edges(nxt))
        nxt.town = [self.any_of([a, b], f"rtownin_{t}_{i}")
                    for i, (a, b) in enumerate(zip(nxt.town, inside, strict=True))]
        self.town_count[-1] = self.town_count[-1] + count

    def threshold(self, nxt: State) -> Num:
        """Town value needed: 7, or 6 with the side-A right palace (``TOWN6``)."""
        if self.fid not in SIDE_A:
            return TOWN_MIN_VALUE
        return TOWN_MIN_VALUE - (TOWN_MIN_VALUE - TOWN6_MIN_VALUE) * self.lin([nxt.right])
