"""Builds the last-rounds model: the last-round model's steps for round 4, the
transition, its steps for round 5, the end (:class:`RoundsBuilder`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from solver.cpsat.constraints import Lit, gated
from solver.terra_nova_kosmos.model.geometry import build_geometry
from solver.terra_nova_kosmos.model.last_round import Builder, LastRound, State, Step
from solver.terra_nova_kosmos.model.last_round.parts import BRIDGING
from solver.terra_nova_kosmos.model.last_rounds.scope import (
    Reserves,
    depth,
    joint_turns,
    reserves,
    round_horizon,
)
from solver.terra_nova_kosmos.model.scope import (
    MIN_SPEND,
    once_specials,
    power_gain_bound,
    spend_units,
    unsupported,
)
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    BONUS_TILES,
    BRIDGES,
    DRUID_TRIPLE,
    FEEN_INCOME_POWER,
    HOUSES,
    IFRIT_POWER_REBATE,
    KONTORE,
    MONEY_PER_VP,
    PA_MONEY,
    PALACES,
    POWER_ACTIONS,
    POWER_TOKENS,
    ROUND_TILES,
    ROUNDS,
    TOWN_TILES,
)


def refusal(position: Position) -> str | None:
    """Why the last-rounds model cannot take ``position``, or None when it can."""
    first = ROUNDS - 1
    if position.round != first:
        return f"a last-rounds puzzle over 2 rounds starts in round {first}, " \
               f"not {position.round}"
    if not position.bonus_display:
        return "a last-rounds puzzle needs a bonus tile on display to pass with"
    if position.variant == "glueckgraeber":
        return "the Glücksgräber variant draws neutral houses between rounds"
    return unsupported(position.replace(round=ROUNDS))


def second_display(position: Position, taken: str) -> dict[str, int]:
    """The display of round 5 when P takes ``taken`` on passing in round 4: the rest,
    and P's returned tile, one coin more each (phase 3; the others keep theirs, [D38])."""
    shown = {t: c + 1 for t, c in position.bonus_display if t != taken}
    held = position.player(position.to_move).bonus
    if held is not None:
        shown[held] = 1
    return shown


def best_coins(shown: dict[str, int]) -> tuple[str, int]:
    """The tile P takes on its last pass and its coins: the first (display order) with
    the most coins; they are all it is worth then."""
    most = max(shown.values())
    return next(t for t in BONUS_TILES if shown.get(t) == most), most


@dataclass
class Round:
    """One planned round of the model: its steps, states (the first is the round's
    start) and the tile taken on passing (a Boolean per display tile; round 5: none,
    the tile follows from round 4's)."""

    number: int
    steps: list[Step]
    states: list[State]
    taken: dict[str, Any]


@dataclass
class LastRounds:
    """A built last-rounds model and what its solution is read from."""

    position: Position
    lr: LastRound
    """The model as the last-round reading sees it (both rounds' steps in order)."""
    rounds: list[Round]
    exchange: Any
    """Power exchanged for money after the first pass (before the income)."""
    triples: Any
    """Druiden: power triples exchanged for VP there."""

    @property
    def model(self) -> Any:
        return self.lr.model


class RoundsBuilder(Builder):
    """The last-round builder over rounds 4 and 5 (see the package docstring)."""

    def __init__(self, position: Position, check: Callable[[], None] | None = None):
        super().__init__(position, check)
        self.shown = dict(position.bonus_display)
        self.number = ROUNDS - 1
        self.specials4 = self.specials
        self.specials5 = once_specials(position.with_player(replace(
            self.player, specials_used=(),
            bonus="b-spade" if "b-spade" in self.shown else None)))
        self.tile5 = position.round_tiles[ROUNDS - 1]
        # widen the last-round scope to both rounds: shipping with b-reach taken in
        # round 4, candidates as far as both rounds' money reaches, both horizons
        reach = max(self.reach, int("b-reach" in self.shown))
        ship = max(self.max_ship, self.player.shipping) + reach
        extra = set(self.edge_hexes())
        self.reserve: Reserves = reserves(position, self.g.size - self.g.own, self.T)
        self.T4, self.T5 = self.T, self.horizon5()
        self.g = build_geometry(position, ship, extra,
                                depth(self.reserve, position, self.T4 + self.T5))
        self.T = self.T4 = self.horizon()
        self.reserve = reserves(position, self.g.size - self.g.own, self.T4)
        self.T5 = self.horizon5()
        self.static_links = {self.pair(a, b) for a, b in self.player.links}
        self.river_pairs = self.river_link_pairs()
        self.spot_of = {(min(a, b), max(a, b)): s for s, (a, b) in enumerate(self.g.spots)}
        self.in_range_from = self.range_sources()
        self.mmax = self.reserve.money(position)
        self.takes: dict[str, list[Any]] = {}
        """Per display tile: its "taken" Boolean at each step of round 4 that may pass."""
        self.taken: dict[str, Any] = {}
        """Per display tile: taken on passing in round 4 (a Boolean)."""
        self.closing = False
        """Building the end: round limits and pass points are done already."""
        self.last_pass: Any = 0

    def refusal(self, position: Position) -> str | None:
        return refusal(position)

    def spendable(self) -> int:
        """What both rounds can spend (:meth:`.scope.Reserves.units`, every hex a
        candidate): a palace P cannot pay for in round 4 may come in round 5 with
        round 4's income, and with it the free buildings it allows."""
        size = self.p.grid.size
        return reserves(self.p, size, size + 1).units(self.p)

    def round_budget(self) -> int:
        """Round 4 spends what it has and gains in it (:func:`..scope.spend_units`, as
        its horizon counts it), round 5 at most what both rounds can."""
        if self.number < ROUNDS:
            return spend_units(self.p, self.g.size - self.g.own)
        return self.reserve.units(self.p)

    def bowl_three_total(self) -> int:
        """Bowl III's power now and all that can reach it over both rounds
        (:meth:`.scope.Reserves.inflow`: the gains, the incomes, the Druiden first
        pass)."""
        return self.player.power[2] + self.reserve.inflow(self.p)

    def held_points(self, money: Any) -> Any:
        """Round 5's round-tile VP and the money VP as one total bounded by what both
        rounds can spend (:meth:`.scope.Reserves.units`): what is held at the end and
        what round 5's paid units cost come out of it (a building of round 4 brings
        less income than it cost, :func:`.scope.reserves`), so the total is at most
        the free units' VP plus that spending at the better rate of the two, the tile's
        VP per unit over its cost or a VP per ``MONEY_PER_VP`` (:meth:`unit_price`,
        with what the units bring back). Druiden triples and the tiles not bought with
        money are left as they are."""
        price = self.unit_price(self.tile5) if self.tile5 else None
        if price is None or self.fid == "druiden" or isinstance(self.round_total, int):
            return money
        rate = ROUND_TILES[self.tile5]
        spend = self.reserve.units(self.p) + price.returns
        top = rate * price.free + (spend * max(MONEY_PER_VP * rate, price.cost)
                                   // (MONEY_PER_VP * price.cost))
        both = self.m.new_int_var(0, top, "funded_vp")
        self.m.add(both == rate * self.round_total + money)
        return both - rate * self.round_total

    def edge_hexes(self) -> list[int]:
        """Hexes P may build on without range (as the last-round builder finds them)."""
        p = self.p
        out = []
        if self.fid == "flaschengeister":
            out += [c for c in range(p.grid.size) if p.landscape[c] == "l"]
        if self.edge_possible:
            out += sorted(p.board.edge)
        return out

    def horizon(self) -> int:
        """Round 4's bound: what can be spent in it (:func:`..scope.spend_units`), the
        cheapest turns first (:func:`.scope.round_horizon`)."""
        candidates = self.g.size - self.g.own
        return round_horizon(self.p, spend_units(self.p, candidates),
                             len(once_specials(self.p)), candidates, self.non_home(),
                             self.p.power_actions_used)

    def horizon5(self) -> int:
        """Round 5's bound: what both rounds can spend (:class:`.scope.Reserves`)."""
        return round_horizon(self.p, self.reserve.units(self.p), len(self.specials5),
                             self.g.size - self.g.own, self.non_home())

    def non_home(self) -> int:
        """Candidate hexes that are not P's home landscape."""
        return sum(1 for c in self.g.nodes[self.g.own:]
                   if self.p.landscape[c] != self.home_letter)

    # ---- what differs in round 5
    def available(self, kind: str, prev: State) -> bool:
        if self.number == ROUNDS and (kind in POWER_ACTIONS or kind == "pa-spade2x2"):
            return True
        return super().available(kind, prev)

    def link(self, i: int, j: int, bridge: Sequence[Lit], ship_at_least: dict[int, Lit],
             reach: int | Lit) -> Lit:
        """Range as the last-round model has it; in round 5 ``reach`` is the literal
        "b-reach taken in round 4"."""
        if isinstance(reach, int):
            return super().link(i, j, bridge, ship_at_least, reach)
        plain = super().link(i, j, bridge, ship_at_least, 0)
        if plain is True:
            return True
        further = self.both(reach, super().link(i, j, bridge, ship_at_least, 1),
                            f"reach_{i}_{j}")
        return self.any_of([plain, further], f"rlink_{i}_{j}")

    def step(self, t: int, prev: State) -> tuple[Step, State]:
        step, nxt = super().step(t, prev)
        b_spade = step.kind.get("b-spade", False)
        if self.number == ROUNDS and b_spade is not False:
            self.m.add_implication(b_spade, self.taken["b-spade"])
        return step, nxt

    def pass_income(self, t: int, step: Step) -> Any:
        """Round 4: one "taken" Boolean per display tile, the coins of the one taken;
        round 5: the coins of the richest tile left (by round 4's choice)."""
        passing = step.kind["pass"]
        if passing is False:
            return 0
        if self.number < ROUNDS:
            takes = {tile: self.bool(f"take_{t}_{tile}") for tile in self.shown}
            self.m.add(sum(takes.values()) == passing)
            for tile, lit in takes.items():
                self.takes.setdefault(tile, []).append(lit)
            return sum(self.shown[tile] * lit for tile, lit in takes.items())
        if not self.p.rules.final_round_swap:
            return 0
        coins = {tile: best_coins(second_display(self.p, tile))[1] for tile in self.shown}
        return gated(self.m, passing, sum(c * self.taken[tile] for tile, c in coins.items()),
                     max(coins.values()), f"coins_{t}")

    def pass_points(self, end: State) -> Any:
        if self.closing:
            return self.last_pass
        return super().pass_points(end)

    def round_limits(self) -> None:
        if not self.closing:
            super().round_limits()

    def still_money(self, colour: str) -> int:
        """Another player's money VP if P gave them nothing: their income counted."""
        player = self.p.player(colour)
        money, power = self.other_income(colour)
        one, two, three = player.power
        a = min(power, one)
        b = min(power - a, two + a)
        three += b
        vp = (player.money + money + three) // MONEY_PER_VP
        return vp + (three // 3 if player.faction == "druiden" else 0)

    def other_after(self, colour: str) -> tuple[Any, tuple[Any, Any, Any]]:
        """Another player's money and bowls at the end: what P's building gives them in
        both rounds and their income between (gains compose, and they spend nothing)."""
        money, bowls = super().other_after(colour)
        extra_money, extra_power = self.other_income(colour)
        return money + extra_money, self.gain(bowls, extra_power, f"inc_{colour}")

    def other_income(self, colour: str) -> tuple[int, int]:
        """``(money, power)`` another player's tableau, left palace and bonus tile bring
        in phase 1 (their buildings do not change)."""
        p = self.p
        faction, player = p.faction(colour), p.player(colour)
        slots = (faction.house_income[:p.count(colour, "house")]
                 + faction.kontor_income[:p.count(colour, "kontor")])
        money, power = sum(x for x, _ in slots), sum(y for _, y in slots)
        if "left" in player.palaces:
            money += faction.palace_income[0]
            power += faction.palace_income[1]
        if player.bonus is not None:
            money += BONUS_TILES[player.bonus].money
            power += BONUS_TILES[player.bonus].power
        if player.faction == "feen":
            power += FEEN_INCOME_POWER
        return money, power

    # ---- the whole model
    def build(self) -> LastRounds:  # type: ignore[override]
        """Round 4's steps, the transition, round 5's steps, the end."""
        self.states.append(self.initial_state())
        self.play_round(1, self.T4)
        self.round_limits()
        end4 = self.states[-1]
        self.vp_terms.append(super().pass_points(end4))
        for tile, lits in self.takes.items():
            self.taken[tile] = self.bool(f"taken_{tile}")
            self.m.add(self.taken[tile] == sum(lits))
        first = Round(ROUNDS - 1, self.steps, self.states, dict(self.taken))
        start5, exchange, triples = self.between(end4)
        self.number, self.tile, self.specials = ROUNDS, self.tile5, self.specials5
        self.reach = self.taken.get("b-reach", 0)
        self.steps, self.states = [], [start5]
        self.play_round(self.T4 + 1, self.T5)
        end5 = self.states[-1]
        second = Round(ROUNDS, self.steps, self.states, {})
        self.last_pass = self.second_pass_points(end5)
        self.states = [first.states[0]] + second.states[1:]
        self.round_limits()                # round 5's, with the town cut over both rounds
        self.joint_limits(first, second)
        self.steps = first.steps + second.steps
        self.states = first.states + second.states
        self.T = self.T4 + self.T5
        self.closing = True
        lr = self.finish()
        return LastRounds(self.p, lr, [first, second], exchange, triples)

    def play_round(self, first: int, count: int) -> None:
        """Steps ``first … first + count − 1``, the last state passed."""
        s = self.states[-1]
        for t in range(first, first + count):
            self.check()
            step, s = self.step(t, s)
            self.steps.append(step)
            self.states.append(s)
        self.m.add(s.passed == 1)

    def between(self, end: State) -> tuple[State, Any, Any]:
        """The state at the start of round 5: the Druiden pass power of round 4, an
        exchange of bowl-III power for money (and Druiden triples for VP) before the
        income — the canonical pass before an income — then the income: the uncovered
        house and Kontor slots (by the buildings on the map), the left palace, the tile
        taken, the Feen's 2 power."""
        m = self.m
        one, two, three = self.passed_bowls(end)
        exchange = m.new_int_var(0, POWER_TOKENS, "phase3_money")
        triples: Any = 0
        if self.fid == "druiden":
            triples = m.new_int_var(0, POWER_TOKENS // DRUID_TRIPLE[0], "phase3_triples")
            self.vp_terms.append(DRUID_TRIPLE[1] * triples)
        spent = exchange + DRUID_TRIPLE[0] * triples
        m.add(spent <= three)
        money_in, power_in = self.income(end)
        bowls = self.gain((one + spent, two, three - spent), power_in, "income")
        out = []
        for b, name in zip(bowls, ("one", "two", "three"), strict=True):
            v = m.new_int_var(0, POWER_TOKENS, f"{name}_r5")
            m.add(v == b)
            out.append(v)
        money = m.new_int_var(0, self.mmax, "money_r5")
        m.add(money == end.money + exchange + money_in)
        start = replace(end, money=money, bowls=(out[0], out[1], out[2]), passed=False,
                        links=dict(end.links))
        return start, exchange, triples

    def income(self, end: State) -> tuple[Any, Any]:
        """P's ``(money, power)`` of phase 1 after round 4 ends in state ``end``."""
        m, f = self.m, self.faction
        terms_m: list[Any] = []
        terms_p: list[Any] = []
        for slots, count, name in ((f.house_income, self.lin(end.house), "house"),
                                   (f.kontor_income, self.lin(end.kontor), "kontor")):
            for which, terms in ((0, terms_m), (1, terms_p)):
                table = [sum(s[which] for s in slots[:k]) for k in range(len(slots) + 1)]
                v = m.new_int_var(0, table[-1], f"inc_{name}_{which}")
                count_var = m.new_int_var(0, len(slots), f"count_{name}_{which}")
                m.add(count_var == count)
                m.add_element(count_var, table, v)
                terms.append(v)
        money = sum(terms_m) + f.palace_income[0] * self.lin([end.left])
        power = sum(terms_p) + f.palace_income[1] * self.lin([end.left])
        money += sum(BONUS_TILES[t].money * lit for t, lit in self.taken.items())
        power += sum(BONUS_TILES[t].power * lit for t, lit in self.taken.items())
        if self.fid == "feen":
            power += FEEN_INCOME_POWER
        top = 10 * POWER_TOKENS
        amount = m.new_int_var(0, top, "income_power")
        m.add(amount == power)
        return money, amount

    def second_pass_points(self, end: State) -> Any:
        """Round 5's pass points: the faction's and palaces' as in the last round, the
        bonus tile's by the tile taken in round 4."""
        held = self.player
        self.player = replace(held, bonus=None)
        vp = super().pass_points(end)
        self.player = held
        per = {**self.pieces(end), "shipping": self.pass_shipping(end)}
        tops = {"house": HOUSES, "kontor": KONTORE, "palace": PALACES,
                "shipping": self.max_ship}
        for tile, lit in sorted(self.taken.items()):
            bonus = BONUS_TILES[tile]
            if bonus.pass_per is not None:
                vp = vp + bonus.pass_vp * gated(self.m, lit, per[bonus.pass_per],
                                                tops[bonus.pass_per], f"tilevp_{tile}")
        return vp

    def joint_limits(self, first: Round, second: Round) -> None:
        """Bridges come from one supply over both rounds; the turns before the passes
        are what both rounds can pay for (:func:`.scope.joint_turns`), round 5's what it
        starts with and can still gain (every power gain, one token into bowl III a
        unit at most; ``pa-money7``'s net; ``t6g5``), at least ``MIN_SPEND`` a paid
        turn."""
        steps = first.steps + second.steps
        bridging = [s.kind[b] for s in steps for b in BRIDGING if s.kind[b] is not False]
        if bridging:
            self.m.add(sum(bridging) <= BRIDGES - len(self.player.bridges))
        specials = len(self.specials4) + len(self.specials5)
        self.m.add(self.acting(steps) <= joint_turns(self.p, self.reserve, specials))
        # each paid turn of round 5 spends what round 5 starts with or gains in it
        rebate = IFRIT_POWER_REBATE if self.fid == "ifrit" else 0
        start = second.states[0]
        more = (power_gain_bound(self.p, self.g.size - self.g.own)
                + PA_MONEY - POWER_ACTIONS["pa-money7"] + rebate
                + (TOWN_TILES["t6g5"].money if "t6g5" in self.player.town_tiles else 0))
        free = 1 + len(self.specials5)
        self.m.add((MIN_SPEND - rebate) * (self.acting(second.steps) - free)
                   <= start.money + start.bowls[2] + more)

    @staticmethod
    def acting(steps: list[Step]) -> Any:
        """The steps that neither pass nor idle."""
        return sum(1 - s.kind["idle"] - s.kind["pass"] if s.kind["idle"] is not False
                   else 1 - s.kind["pass"] for s in steps)


def build_last_rounds(position: Position, check: Callable[[], None] | None = None
                      ) -> LastRounds:
    """The last-rounds model of ``position`` (:class:`Unsupported` when outside the
    model); ``check`` as in :func:`..last_round.build_last_round`."""
    return RoundsBuilder(position, check).build()
