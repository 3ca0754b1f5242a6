"""Towns in the last-round model: components of P's buildings after every step."""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.cpsat.connectivity import (
    Adjacency,
    Components,
    Weight,
    closed,
    components,
    reached,
    same_across,
)
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


@dataclass(frozen=True)
class Founded:
    """The towns a step founds: per root node, "founds a town here" (the node is only
    the town's place when several are founded); how many; membership after it."""

    found: dict[int, Lit]
    count: Num
    town: list[Lit]


@dataclass(frozen=True)
class PalaceCopy:
    """The copy of the state after the step that builds the side-A right palace, and
    the towns founded in it."""

    built: list[Lit]
    value: list[cp_model.IntVar]
    before: list[Lit]
    """In a town before that step."""
    bridge: list[Lit]
    tiles_left: cp_model.IntVar
    """Town tiles left before that step."""
    founded: Founded


class TownRules(Core):
    """The town rules of :class:`~.builder.Builder`."""

    palace_copy: PalaceCopy | None = None
    """Made by :meth:`palace_towns` on first use."""

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

    def town6_possible(self) -> bool:
        """The side-A right palace (``TOWN6``) may still be built: the step that builds
        it lowers the town value for every component at once."""
        return self.fid in SIDE_A and self.palace_affordable("right")

    def anchored_towns(self, t: int, step: Step, prev: State, nxt: State) -> Founded:
        """Towns when only the component of the changed building can newly qualify: that
        component is the set of buildings reached from the *anchor* (the hex built on or
        upgraded, or the bridge's end with P's building) and closed under the town
        graph's edges."""
        m, g = self.m, self.g
        n = g.size
        anchor = self.anchors(t, step, prev)
        if not anchor:
            return Founded({}, 0, list(prev.town))
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
            m.add(v == self.town_value(nxt, i)).only_enforce_if(member[i])
            m.add(v == 0).only_enforce_if(negate(member[i]))
            worth.append(v)
        olds = [self.both(member[i], prev.town[i], f"mold_{t}_{i}") for i in range(n)]
        fresh = self.bool(f"mfresh_{t}")
        for o in live(olds):
            self.clause([negate(o)], [fresh])
        self.clause(olds, [negate(fresh)])
        big = self.reify_ge(self.lin(member), TOWN_MIN_BUILDINGS, f"mbig_{t}")
        rich = self.worth_at_least(sum(worth), self.threshold(nxt), f"mrich_{t}")
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
        grow = self.any_of([found, negate(fresh)], f"mgrow_{t}")
        town = [self.next_town(prev.town[i], member[i], grow, f"town_{t}_{i}")
                for i in range(n)]
        return Founded({min(anchor): found}, found, town)

    def town_value(self, state: State, i: int) -> Num:
        """The town value of node i's building in ``state`` (0 when unbuilt)."""
        return (TOWN_VALUE["house"] * as_expr(state.house[i])
                + TOWN_VALUE["kontor"] * as_expr(state.kontor[i])
                + TOWN_VALUE["palace"] * as_expr(state.palace[i]))

    def worth_at_least(self, value: Num, threshold: Num, name: str) -> Lit:
        """A literal for ``value >= threshold`` (the threshold may be a variable)."""
        if isinstance(threshold, int):
            return self.reify_ge(value, threshold, name)
        rich = self.bool(name)
        self.m.add(value >= threshold).only_enforce_if(rich)
        self.m.add(value <= threshold - 1).only_enforce_if(~rich)
        return rich

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

    def towns(self, t: int, step: Step, prev: State, nxt: State) -> None:
        """Every tile-less component of ≥ 4 buildings and value ≥ threshold founds a
        town while tiles last ([D25]); town membership spreads over each component.

        A step changes one component (its anchor's), so only that one can newly
        qualify, with two exceptions: the Ifrit left palace with its edge house changes
        two (every component is labelled at every step then), and the step that builds
        the side-A right palace lowers the value for all (:meth:`palace_towns`: one
        labelling of a copy of the state after that step)."""
        tiles = [x for x in TOWN_TILES if x in self.player.town_tiles]
        if not tiles:
            done = Founded({}, 0, list(prev.town))
        elif self.edge_possible:
            comps = self.settlements(t, nxt, prev)
            done = self.found_towns(f"{t}", comps, nxt.built, self.town_edges(nxt),
                                    self.threshold(nxt), prev.tiles_left, len(tiles))
            if not isinstance(done.count, int):
                self.town_cut(step, done.count, len(tiles))
        else:
            done = self.anchored_towns(t, step, prev, nxt)
            palace = step.kind["upgrade-pr"]
            if self.town6_possible() and possible(palace):
                done = self.with_palace_towns(t, palace, done, prev, nxt)
        step.found = done.found
        nxt.town = done.town
        self.town_count.append(done.count)

    def found_towns(self, name: str, comps: Components, built: list[Lit], edges: Adjacency,
                    threshold: Num, tiles_left: Num, tiles: int) -> Founded:
        """The towns founded in a labelled state: each root whose component has no town,
        ≥ 4 buildings and the value may found one; as many found as qualify while the
        ``tiles_left`` last; town membership is the same across each component."""
        m, n = self.m, self.g.size
        root = comps.root
        size, value, old = comps.sums[:3]
        found: dict[int, Lit] = {}
        qualified = []
        is_town: dict[int, Lit] = {}
        for i in range(n):
            if root[i] is False:
                continue
            fresh = self.bool(f"fresh_{name}_{i}")
            m.add(old[i] == 0).only_enforce_if(fresh)
            m.add(old[i] >= 1).only_enforce_if(~fresh)
            town = self.bool(f"istown_{name}_{i}")
            big = self.reify_ge(size[i], TOWN_MIN_BUILDINGS, f"big_{name}_{i}")
            rich = self.worth_at_least(value[i], threshold, f"rich_{name}_{i}")
            q = self.all_four(root[i], big, rich, fresh, f"qual_{name}_{i}")
            f = self.bool(f"found_{name}_{i}")
            m.add_implication(f, q)
            found[i] = f
            qualified.append(q)
            m.add_bool_or([~fresh, f]).only_enforce_if(town)
            m.add_implication(f, town)
            m.add_implication(~fresh, town)
            is_town[i] = town
        count: Num = 0
        if found:
            count = m.new_int_var(0, tiles, f"towns_{name}")
            m.add(count == sum(found.values()))
            m.add_min_equality(count, [sum(qualified), tiles_left])
        town_lits: list[Lit] = []
        for i in range(n):
            if built[i] is False:
                town_lits.append(False)
                continue
            v = self.bool(f"town_{name}_{i}")
            town_lits.append(v)
            implies(m, v, built[i])
            if i in is_town:
                m.add(v == is_town[i]).only_enforce_if(root[i])
        same_across(m, town_lits, built, edges)
        return Founded(found, count, town_lits)

    def palace_towns(self) -> Founded:
        """The towns the step that builds the side-A right palace founds, whichever step
        that is: a copy of the state after it (buildings, their town value, bridges,
        town membership and tiles before it; tied to that step's by
        :meth:`with_palace_towns`) is labelled once, with the ``TOWN6`` value."""
        if self.palace_copy is not None:
            return self.palace_copy.founded
        m, g = self.m, self.g
        n = g.size
        built: list[Lit] = [True if i < g.own else self.bool(f"pal_built_{i}")
                            for i in range(n)]
        value = [m.new_int_var(0, TOWN_VALUE["palace"], f"pal_value_{i}") for i in range(n)]
        before: list[Lit] = [self.bool(f"pal_town_{i}") for i in range(n)]
        bridge: list[Lit] = [self.bool(f"pal_bridge_{s}") for s in range(len(g.spots))]
        tiles = len([x for x in TOWN_TILES if x in self.player.town_tiles])
        tiles_left = m.new_int_var(0, tiles, "pal_tiles")
        copy = State([], [], [], built, [], bridge=bridge,
                     links={x: True for x in self.static_links})
        edges = self.town_edges(copy)
        weights = [Weight([as_expr(b) for b in built], n), Weight(value, 3 * n),
                   Weight([as_expr(b) for b in before], n)]
        comps = components(m, built, edges, weights, "pal")
        founded = self.found_towns("pal", comps, built, edges, TOWN6_MIN_VALUE, tiles_left,
                                   tiles)
        self.palace_copy = PalaceCopy(built, value, before, bridge, tiles_left, founded)
        return founded

    def with_palace_towns(self, t: int, palace: Lit, anchored: Founded, prev: State,
                          nxt: State) -> Founded:
        """Step ``t``'s towns: the anchored ones, or the palace copy's when the step
        builds the right palace (``palace``)."""
        m, n = self.m, self.g.size
        founded = self.palace_towns()
        copy = self.palace_copy
        assert copy is not None
        for i in range(n):
            if not isinstance(copy.built[i], bool):
                m.add(copy.built[i] == as_expr(nxt.built[i])).only_enforce_if(palace)
            m.add(copy.value[i] == self.town_value(nxt, i)).only_enforce_if(palace)
            m.add(copy.before[i] == as_expr(prev.town[i])).only_enforce_if(palace)
        for s, lit in enumerate(copy.bridge):
            m.add(lit == as_expr(nxt.bridge[s])).only_enforce_if(palace)
        m.add(copy.tiles_left == prev.tiles_left).only_enforce_if(palace)
        tiles = len([x for x in TOWN_TILES if x in self.player.town_tiles])
        count = m.new_int_var(0, tiles, f"towns_{t}")
        m.add(count == anchored.count).only_enforce_if(negate(palace))
        m.add(count == founded.count).only_enforce_if(palace)
        town: list[Lit] = []
        for i in range(n):
            a, b = anchored.town[i], founded.town[i]
            if a is b:
                town.append(a)
                continue
            v = self.bool(f"town_{t}_{i}p")
            m.add(v == as_expr(a)).only_enforce_if(negate(palace))
            m.add(v == as_expr(b)).only_enforce_if(palace)
            town.append(v)
        found: dict[int, list[Lit]] = {}
        for i, lit in anchored.found.items():
            found.setdefault(i, []).append(self.both(lit, negate(palace), f"afound_{t}_{i}"))
        for i, lit in founded.found.items():
            found.setdefault(i, []).append(self.both(lit, palace, f"pfound_{t}_{i}"))
        return Founded({i: self.any_of(lits, f"found_{t}_{i}") for i, lits in found.items()},
                       count, town)

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
