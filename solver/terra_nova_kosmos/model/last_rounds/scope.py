"""What the last-rounds model may need over both rounds: sound bounds on what P can
spend, hold and gain, and the turn horizon of the second round.

The first round's horizon is the last-round model's (:func:`..scope.horizon`: what
is spent before its pass is spent in that round). The second round's is bounded by
everything P can spend over both rounds: what the first round leaves cannot exceed
it. The arguments are the last-round model's, with the income, the second round's
power actions and the pass tiles' coins added.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.terra_nova_kosmos.model.scope import (
    once_specials,
    power_gain_bound,
)
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    BONUS_TILES,
    BRIDGES,
    FEEN_INCOME_POWER,
    FELINE_KONTOR_COST_NEIGHBOUR,
    HOUSE,
    HOUSE_COST,
    HOUSES,
    IFRIT_POWER_REBATE,
    KONTOR,
    KONTORE,
    PA_MONEY,
    PALACE_COST,
    PALACES,
    POWER_ACTIONS,
    TOWN_TILES,
)

DRUID_PASS_POWER = 2
"""Power the Druiden left palace gives per settlement on passing."""


@dataclass(frozen=True)
class Reserves:
    """Upper bounds on what P can spend and hold over the rounds a puzzle plans."""

    gain: int
    """Power P can gain before P's last turn: town tile ``t8p6``, Kobolde spades and
    palace, the Druiden first pass, the income of the buildings on the map."""
    income_money: int
    """Money the income of the buildings on the map can bring (the richest tile's
    included)."""
    built_income: int
    """Money + power the buildings placed in the first round can add to the income
    beyond what they cost (free ones: all of it)."""
    coins: int
    """Coins on the tiles P can take in both passes."""

    def inflow(self, position: Position) -> int:
        """Power that can reach bowl III: a token from bowl II needs one unit of gain,
        any other (bowl I, or spent and back in bowl I) two."""
        direct = min(self.gain, position.player(position.to_move).power[1])
        return direct + (self.gain - direct) // 2

    def units(self, position: Position) -> int:
        """A bound on the money + power P can spend over both rounds (``pa-money7``
        counted by its net gain, as :func:`..scope.spend_units` does): a building's
        income is spent only after its own price."""
        player = position.player(position.to_move)
        rebate = IFRIT_POWER_REBATE if player.faction == "ifrit" else 0
        units = player.money + player.power[2] + self.inflow(position)
        units += 2 * (PA_MONEY - POWER_ACTIONS["pa-money7"] + rebate)
        if "t6g5" in player.town_tiles:
            units += TOWN_TILES["t6g5"].money
        return units + self.income_money + self.built_income + self.coins

    def money(self, position: Position) -> int:
        """A bound on P's money in any state: what can be spent, with both
        ``pa-money7`` at their full 7."""
        return self.units(position) + 2 * POWER_ACTIONS["pa-money7"]


def _income(slots: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    return sum(m for m, _ in slots), sum(p for _, p in slots)


def _beyond(slots: tuple[tuple[int, int], ...], cost: int, free: int) -> int:
    """What the next ``slots`` a building uncovers add beyond ``cost`` each, the
    ``free`` richest at their full worth (their building cost nothing)."""
    worth = sorted((m + p for m, p in slots), reverse=True)
    return sum(worth[:free]) + sum(max(0, w - cost) for w in worth[free:])


def reserves(position: Position, candidates: int, turns: int) -> Reserves:
    """The bounds of :class:`Reserves` for P with ``candidates`` hexes to build on and
    at most ``turns`` turns in the first round (its pass included).

    A house uncovers a slot worth less than ``HOUSE_COST``, a Kontor one worth at most
    one more than ``FELINE_KONTOR_COST_NEIGHBOUR``, the left palace less than
    ``PALACE_COST`` (the factions' data say so, and :func:`_beyond` counts any excess):
    what the first round builds pays back less than it cost, but for ``lake-house``,
    the Ifrit edge house and ``free-kontor``, counted at full worth."""
    me = position.to_move
    player, faction = position.player(me), position.faction(me)
    display = dict(position.bonus_display)
    tiles = [BONUS_TILES[t] for t in display]
    specials = once_specials(position)
    houses, kontore = position.count(me, HOUSE), position.count(me, KONTOR)
    money, power = _income(faction.house_income[:houses] + faction.kontor_income[:kontore])
    if "left" in player.palaces:
        money, power = money + faction.palace_income[0], power + faction.palace_income[1]
    money += max((t.money for t in tiles), default=0)
    power += max((t.power for t in tiles), default=0)
    if player.faction == "feen":
        power += FEEN_INCOME_POWER
    more = min(turns - 1, candidates)
    built = _beyond(faction.house_income[houses:houses + more], HOUSE_COST,
                    int("lake-house" in specials) + int(player.faction == "ifrit"))
    built += _beyond(faction.kontor_income[kontore:kontore + turns - 1],
                     FELINE_KONTOR_COST_NEIGHBOUR, int("free-kontor" in specials))
    if "left" not in player.palaces and position.palaces_left(me):
        built += max(0, sum(faction.palace_income) - PALACE_COST)
    gain = power_gain_bound(position, candidates) + power
    if player.faction == "druiden" and ("left" in player.palaces
                                        or position.palaces_left(me) > 0):
        # only the first pass's power can still be spent (round 5's comes after P's
        # last turn), on the settlements P has then: at most one more a turn
        settlements = len(position.buildings_of(me)) + min(candidates, turns - 1)
        gain += DRUID_PASS_POWER * settlements
    most = max(display.values(), default=0)
    return Reserves(gain, money, built, most + most + 1)


def paid_turns(units: int, rebate: int, used: tuple[str, ...] = (), rounds: int = 1) -> int:
    """The most turns ``units`` of money + power pay for over ``rounds`` rounds: the
    cheapest first — the power actions once each per round (``pa-bridge3`` 3,
    ``pa-bridge4``, ``pa-ship`` and ``pa-spade1`` 4, less ``rebate``; the first round
    without those ``used``), then ``HOUSE_COST`` a turn: every other action but
    ``pa-money7`` and the free specials costs at least that (a house 4, a spade 6, a
    Kontor 5, ``inv-kontor`` 6 power, ``pa-spade2`` 6 power)."""
    once = sorted([POWER_ACTIONS[a] - rebate for a in ONCE_CHEAP if a not in used]
                  + [POWER_ACTIONS[a] - rebate for a in ONCE_CHEAP] * (rounds - 1))
    turns = 0
    for cost in once:
        if cost > HOUSE_COST or units < cost:
            break
        units -= cost
        turns += 1
    return turns + units // HOUSE_COST


ONCE_CHEAP = ("pa-bridge3", "pa-bridge4", "pa-ship", "pa-spade1")
"""The power actions that may cost less than a house."""


def round_horizon(position: Position, units: int, specials: int, candidates: int,
                  non_home: int, used: tuple[str, ...] = ()) -> int:
    """A sound bound on P's turns in one round, its pass included, when at most
    ``units`` of money + power can be spent in it: 1 + the smaller of the pieces left
    to place (as :func:`..scope.horizon` counts them, new houses only on the
    ``candidates``) and the turns :func:`paid_turns` buys, ``pa-money7`` (unless
    ``used``) and the ``specials`` free of it."""
    me = position.to_move
    player, faction = position.player(me), position.faction(me)
    palaces = PALACES - position.count(me, "palace")
    kontore = KONTORE - position.count(me, "kontor") + palaces
    houses = min(HOUSES - position.count(me, "house") + kontore, candidates)
    ships = max(0, faction.max_shipping - player.shipping)
    spots = len([s for s in position.board.bridge_spots
                 if s not in {b for p in position.players for b in p.bridges}])
    bridges = min(BRIDGES - len(player.bridges), spots)
    money7 = int("pa-money7" not in used)
    pieces = houses + kontore + palaces + non_home + ships + bridges + money7
    rebate = IFRIT_POWER_REBATE if player.faction == "ifrit" else 0
    return 1 + min(pieces, money7 + specials + paid_turns(units, rebate, used))


def joint_turns(position: Position, reserve: Reserves, specials: int) -> int:
    """A bound on P's turns before the passes in both rounds together: what both rounds
    can spend buys :func:`paid_turns` over two rounds; both rounds' ``pa-money7`` and
    the ``specials`` (both rounds' count) are free of it."""
    rebate = IFRIT_POWER_REBATE if position.player(position.to_move).faction == "ifrit" \
        else 0
    used = position.power_actions_used
    money7 = int("pa-money7" not in used) + 1
    return money7 + specials + paid_turns(reserve.units(position), rebate, used, rounds=2)


def depth(reserve: Reserves, position: Position, turns: int) -> int:
    """How many range steps from P's buildings a hex P touches can lie over both
    rounds (:func:`..scope.range_depth`'s argument with both rounds' money)."""
    return min(turns - 2, reserve.units(position) // HOUSE_COST + 1)
