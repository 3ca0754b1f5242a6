"""Which last-round positions the CP-SAT model covers, and its horizon.

The model refuses (with a one-line reason) what it does not encode rather than
answer wrongly. :func:`horizon` bounds P's remaining turns; the argument is in
its docstring.
"""

from __future__ import annotations

from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    BRIDGES,
    HOUSE_COST,
    HOUSES,
    IFRIT_POWER_REBATE,
    KOBOLDE_PALACE_POWER,
    KOBOLDE_POWER_PER_SPADE,
    KONTORE,
    PA_MONEY,
    PALACES,
    POWER_ACTIONS,
    ROUNDS,
    TOWN_TILES,
)

MIN_SPEND = 3
"""The least money + power a turn spends (``pa-bridge3``; a house costs 4), apart from
``pa-money7``, the power-free specials and ``feen-spade`` (2, once: the free count)."""


def unsupported(position: Position) -> str | None:
    """Why the last-round model cannot take ``position``, or None when it can."""
    me = position.to_move
    if position.round != ROUNDS:
        return f"a last-round puzzle is in round {ROUNDS}, this position is in {position.round}"
    others = [c for c in position.colours if c != me]
    if me in position.passed or any(c not in position.passed for c in others):
        return "in a last-round puzzle every player but the one to move has passed"
    if not position.buildings_of(me):
        return "the player to move has no building"
    return None


PERSONAL_SPECIALS = {"feen": ("feen-spade", "left"), "flaschengeister": ("lake-house", "left"),
                     "wuestentoechter": ("desert-dig", "left"),
                     "seebaeren": ("free-kontor", "right")}
"""The once-per-round special action of a faction's palace, and that palace's side."""


def once_specials(position: Position) -> tuple[str, ...]:
    """The once-per-round special actions P may still take this round (X-marker free):
    ``b-spade`` with that bonus tile, the palace action of some factions."""
    player = position.player(position.to_move)
    out = []
    if player.bonus == "b-spade":
        out.append("b-spade")
    personal, side = PERSONAL_SPECIALS.get(player.faction, (None, None))
    if personal and (side in player.palaces or position.palaces_left(player.colour) > 0):
        out.append(personal)
    return tuple(s for s in out if s not in player.specials_used)


def power_gain_bound(position: Position, candidates: int) -> int:
    """An upper bound on the power P can gain in the rest of the round: town tile
    ``t8p6``, and for Kobolde the palace's 6 and 2 per spade (≤ 2 per hex transformed)."""
    player = position.player(position.to_move)
    gain = TOWN_TILES["t8p6"].power if "t8p6" in player.town_tiles else 0
    if player.faction == "kobolde":
        gain += KOBOLDE_PALACE_POWER + KOBOLDE_POWER_PER_SPADE * 2 * candidates
    return gain


def bowl_three_inflow(position: Position, candidates: int) -> int:
    """An upper bound on the power that can still move into bowl III: each unit of
    gain moves one token one bowl; a token from bowl II needs one unit, any other
    (bowl I, or spent and back in bowl I) two."""
    player = position.player(position.to_move)
    gain = power_gain_bound(position, candidates)
    direct = min(gain, player.power[1])
    return direct + (gain - direct) // 2


def money_bound(position: Position, candidates: int) -> int:
    """An upper bound on the money P can ever hold this round: money, every power that
    can reach bowl III (now there + gains), ``pa-money7``, town tile ``t6g5``, the
    display's coins."""
    player = position.player(position.to_move)
    total = player.money + player.power[2] + bowl_three_inflow(position, candidates)
    if "pa-money7" not in position.power_actions_used:
        total += PA_MONEY
    if "t6g5" in player.town_tiles:
        total += TOWN_TILES["t6g5"].money
    return total + max((coins for _, coins in position.bonus_display), default=0)


def horizon(position: Position, candidates: int, non_home: int) -> int:
    """A sound bound on P's remaining turns, the pass included: 1 + the smaller of
    two counts of the turns before the pass.

    *Resources.* Every such turn but ``pa-money7`` and the power-free specials
    (``b-spade``, ``lake-house``, ``desert-dig``: once each) spends at least
    ``MIN_SPEND`` of money + power: a paid action at least 4 money (money may
    come from power 1:1), a power action at least 3 power, ``feen-spade`` 2
    (counted apart, once), ``inv-kontor`` 6. ``pa-money7`` nets +3 (4 power in,
    7 money out). What can ever be spent is money + bowl III + every power gain
    that can still reach bowl III + ``t6g5``'s 6 money + ``pa-money7``'s net 3.
    Ifrit power actions cost 1 less: the least spend is 2, ``pa-money7`` nets 4.

    *Pieces.* Every such turn places a piece (houses: the tableau's plus one back
    per Kontor upgrade; Kontore: the tableau's plus one back per palace),
    transforms a hex without building (each hex at most once), ships (up to the
    track end), bridges (supply and free spots) or takes ``pa-money7``.
    """
    me = position.to_move
    player = position.player(me)
    faction = position.faction(me)
    palaces = PALACES - position.count(me, "palace")
    kontore = KONTORE - position.count(me, "kontor") + palaces
    houses = HOUSES - position.count(me, "house") + kontore
    ships = max(0, faction.max_shipping - player.shipping)
    spots = len([s for s in position.board.bridge_spots
                 if s not in {b for p in position.players for b in p.bridges}])
    bridges = min(BRIDGES - len(player.bridges), spots)
    money7 = int("pa-money7" not in position.power_actions_used)
    rebate = IFRIT_POWER_REBATE if player.faction == "ifrit" else 0
    pieces = houses + kontore + palaces + non_home + ships + bridges + money7
    specials = once_specials(position)
    free = money7 + len(specials)
    units = spend_units(position, candidates)
    return 1 + min(pieces, free + units // (MIN_SPEND - rebate))


def spend_units(position: Position, candidates: int) -> int:
    """An upper bound on the money + power P can spend in the rest of the round: money,
    bowl III, the power that can still reach bowl III, ``pa-money7``'s net gain,
    ``t6g5``'s money."""
    player = position.player(position.to_move)
    rebate = IFRIT_POWER_REBATE if player.faction == "ifrit" else 0
    units = player.money + player.power[2] + bowl_three_inflow(position, candidates)
    if "pa-money7" not in position.power_actions_used:
        units += PA_MONEY - POWER_ACTIONS["pa-money7"] + rebate
    if "t6g5" in player.town_tiles:
        units += TOWN_TILES["t6g5"].money
    return units


def range_depth(position: Position, candidates: int, turns: int) -> int:
    """How many range steps from P's buildings a hex P touches can lie: each hex on the
    way but the last carries a new building, placed in a turn of its own (not the
    pass) for at least ``HOUSE_COST`` of money + power (a house, the house after a
    transformation, ``inv-kontor``'s 6 power); free buildings (``lake-house``, the
    Ifrit edge house) start chains of their own."""
    return min(turns - 1, spend_units(position, candidates) // HOUSE_COST + 1)
