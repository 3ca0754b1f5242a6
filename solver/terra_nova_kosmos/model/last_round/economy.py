"""Shipping, money, power and the points of a step in the last-round model."""

from __future__ import annotations

from solver.cpsat.constraints import Lit, live, negate
from solver.terra_nova_kosmos.model.last_round.core import Core
from solver.terra_nova_kosmos.model.last_round.parts import (
    DIGS,
    Num,
    State,
    Step,
)
from solver.terra_nova_kosmos.rules import (
    DRUID_TRIPLE,
    FEEN_SPADE_POWER,
    FLASCHENGEISTER_TOWN_VP,
    IFRIT_POWER_REBATE,
    INV_KONTOR_POWER,
    KOBOLDE_PALACE_POWER,
    KOBOLDE_POWER_PER_SPADE,
    PA_MONEY,
    POWER_ACTIONS,
    POWER_TOKENS,
    TOWN_TILES,
)

STEP_UNITS = {"r-house2": 1, "r-kontor3": 1, "r-palace5": 1, "r-spade2": 9}
"""The most units of a round tile one turn scores: one house (the action kinds
exclude each other; an edge house only with the palace), one Kontor, one palace,
and the spades the model lets a turn pay (four), leave unpaid (four) and take free
(one)."""
STEP_SHIPPING = 2
"""The most track spaces one turn moves: an action (or the Seebären palace's) and
``tship``."""


class Economy(Core):
    """Shipping, money, power and step points of :class:`~.builder.Builder`."""

    def at_least(self, state: State, h: int) -> Lit:
        """``shipping ≥ h`` in ``state`` (constant when decided)."""
        if h <= self.player.shipping:
            return True
        return state.ship_at_least.get(h, False)

    def shipping(self, t: int, step: Step, prev: State, nxt: State) -> None:
        """Shipping by action, ``pa-ship``, the Seebären left palace or town tile
        ``tship`` ([D14]: an action not at the track end; ``tship`` there moves
        nothing). The track's VP are scored once, for the spaces between the first
        state and the last (:meth:`~.ending.Ending.kept_points`)."""
        m, k = self.m, step.kind
        top = self.at_least(prev, self.max_ship)
        moves = live([k["ship"], k["pa-ship"], step.pl_ship])
        for x in moves:
            self.clause([negate(top)], [x])
        tship = step.tiles.get("tship", False)
        step.ship_steps = 0
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
        step.ship_steps = ship - prev.ship

    def resources(self, t: int, step: Step, prev: State, nxt: State, cost: Num,
                  spades: Num) -> None:
        """Money and power: exchange the shortfall, pay, gain, collect."""
        m, k = self.m, step.kind
        rebate: Num = 0
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
        nxt.bowls = (out[0], out[1], out[2])
        income = PA_MONEY * self.lin([k["pa-money7"]])
        income += TOWN_TILES["t6g5"].money * self.lin([step.tiles.get("t6g5", False)])
        income += self.pass_income(t, step)
        money = m.new_int_var(0, self.mmax, f"money_{t}")
        m.add(money == prev.money + step.exchange - cost + income)
        nxt.money = money

    def gain_sources(self, step: Step) -> list[Lit]:
        """Literals of the step's possible power gains for P: town tile ``t8p6``, Kobolde
        spades and palace, the Druiden pass (left palace)."""
        k = step.kind
        out = [step.tiles.get("t8p6", False)]
        if self.fid == "kobolde":
            out += [k[d] for d in DIGS] + [k["upgrade-pl"]]
        if self.druid_settlements():
            out.append(k["pass"])
        return live(out)

    def pass_income(self, t: int, step: Step) -> Num:
        """The coins on the tile taken when passing at step ``t`` (a model of another
        round overrides it: there the tile is a choice)."""
        return self.coins * self.lin([step.kind["pass"]])

    def step_points(self, t: int, step: Step, prev: State, spades: Num) -> None:
        """VP during the step: towns, palaces; the round tile's units go to
        :attr:`round_units` (scored per round by
        :meth:`~.ending.Ending.round_tile_points`), the shipping track, the town tiles
        and the Druiden triples once at the end (:meth:`~.ending.Ending.kept_points`)."""
        k = step.kind
        houses = self.lin(list(step.house.values()))
        kontor_up = self.lin([k["upgrade-k"], k["inv-kontor"], k["free-kontor"]])
        palace_up = self.lin([k["upgrade-pl"], k["upgrade-pr"]])
        towns = self.town_count[-1] if self.town_count else 0
        units = {"r-house2": houses, "r-kontor3": kontor_up, "r-palace5": palace_up,
                 "r-town5": towns, "r-ship2": step.ship_steps, "r-spade2": spades}
        vp: Num = 0
        if self.tile in units:
            self.round_units.append(self.step_units(self.tile, units[self.tile], t))
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
        for d in (step.up_k, step.up_p, step.inv):
            for i, up in d.items():
                if up is not False:
                    self.upgrades.append(up)
                    self.events.append((i, up, prev.bridge))

    def step_units(self, tile: str, units: Num, t: int) -> Num:
        """The units of round tile ``tile`` step ``t`` scores, as a variable bounded by
        what one turn can do (:data:`STEP_UNITS`; a town per town tile, the track's
        spaces left): the objective's bound then counts a turn's points, not every hex
        it might touch."""
        if isinstance(units, int):
            return units
        top = {"r-town5": len(self.player.town_tiles),
               "r-ship2": min(STEP_SHIPPING, self.max_ship - self.player.shipping)}.get(
            tile, STEP_UNITS.get(tile, 0))
        v = self.m.new_int_var(0, top, f"units_{t}")
        self.m.add(v == units)
        return v

    def and_sum(self, lits: dict[int, Lit], cond: Lit, name: str) -> Lit:
        """``cond AND (some of lits)`` (the lits are exclusive)."""
        return self.both(self.any_of(list(lits.values()), name + "a"), cond, name)
