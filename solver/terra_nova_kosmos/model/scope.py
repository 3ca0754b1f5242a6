"""Which last-round positions the CP-SAT model covers, and its horizon.

The model refuses (with a one-line reason) what it does not encode rather than
answer wrongly. :func:`horizon` bounds P's remaining turns; the argument is in
its docstring.
"""

from __future__ import annotations

from heapq import heappop, heappush
from itertools import combinations

from solver.geometry.graph import components
from solver.terra_nova_kosmos.model.geometry import free_land, range_neighbours, related_bridges
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    BRIDGES,
    FEEN_SPADE_POWER,
    HOUSE_COST,
    HOUSES,
    IFRIT_POWER_REBATE,
    INV_KONTOR_POWER,
    KOBOLDE_PALACE_POWER,
    KOBOLDE_POWER_PER_SPADE,
    KONTORE,
    LETTER_LANDSCAPE,
    PA_MONEY,
    PALACES,
    POWER_ACTIONS,
    ROUNDS,
    SIDE_A,
    SPADE_COST,
    SPADES,
    TOWN6_MIN_VALUE,
    TOWN_MIN_BUILDINGS,
    TOWN_MIN_VALUE,
    TOWN_TILES,
    TOWN_VALUE,
)

MIN_SPEND = 3
"""The least money + power a turn spends (``pa-bridge3``; a house costs 4), apart from
``pa-money7``, the power-free specials and ``feen-spade`` (2, once)."""


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
    """An upper bound on the power P can gain in the rest of the round, whatever P can
    pay: town tile ``t8p6``, and for Kobolde the palace's 6 and 2 per spade (≤ 2 per
    hex transformed)."""
    player = position.player(position.to_move)
    gain = TOWN_TILES["t8p6"].power if "t8p6" in player.town_tiles else 0
    if player.faction == "kobolde":
        gain += KOBOLDE_PALACE_POWER + KOBOLDE_POWER_PER_SPADE * 2 * candidates
    return gain


def inflow(position: Position, gain: int) -> int:
    """An upper bound on the power ``gain`` units of gain can move into bowl III this
    round: a token from bowl II needs one unit, any other (bowl I, or spent and back in
    bowl I) two; and a gain empties bowl I before it fills bowl III, while bowl I only
    grows by spending, so the first bowl-I tokens' worth of gain never reaches it."""
    one, two, _ = position.player(position.to_move).power
    direct = min(gain, two)
    return min(direct + (gain - direct) // 2, gain - min(gain, one))


def bowl_three_inflow(position: Position, candidates: int) -> int:
    """An upper bound on the power that can still move into bowl III
    (:func:`inflow` of :func:`power_gain_bound`)."""
    return inflow(position, power_gain_bound(position, candidates))


def free_spades(position: Position) -> int:
    """Spades P may still take without paying money: ``b-spade``, ``pa-spade1``,
    ``pa-spade2``'s two."""
    used = position.power_actions_used
    return (int("b-spade" in once_specials(position)) + int("pa-spade1" not in used)
            + 2 * int("pa-spade2" not in used))


def kobolde_gain(position: Position, units: int) -> int:
    """Kobolde: an upper bound on the power their spades and palace bring when at most
    ``units`` of money + power are spent otherwise: 2 per free spade, the palace's 6,
    and 2 per paid spade, which costs 6 and so nets at least 4 of what is spent."""
    free = KOBOLDE_POWER_PER_SPADE * free_spades(position) + KOBOLDE_PALACE_POWER
    paid = (units + free) // (SPADE_COST - KOBOLDE_POWER_PER_SPADE)
    return free + KOBOLDE_POWER_PER_SPADE * paid


def money_bound(position: Position, candidates: int) -> int:
    """An upper bound on the money P can ever hold this round: money, every power that
    can reach bowl III (now there + gains), ``pa-money7``, town tile ``t6g5``, the
    display's coins."""
    player = position.player(position.to_move)
    total = player.money + player.power[2] + _inflow_bound(position, candidates)
    if "pa-money7" not in position.power_actions_used:
        total += PA_MONEY
    if "t6g5" in player.town_tiles:
        total += TOWN_TILES["t6g5"].money
    return total + max((coins for _, coins in position.bonus_display), default=0)


def _inflow_bound(position: Position, candidates: int) -> int:
    """What can still reach bowl III: :func:`bowl_three_inflow`, for Kobolde with their
    spades counted by what P can pay (:func:`kobolde_gain`)."""
    player = position.player(position.to_move)
    if player.faction != "kobolde":
        return bowl_three_inflow(position, candidates)
    t8p6 = TOWN_TILES["t8p6"].power if "t8p6" in player.town_tiles else 0
    base = player.money + player.power[2] + inflow(position, t8p6)
    base += PA_MONEY + TOWN_TILES["t6g5"].money
    kobolde = min(kobolde_gain(position, base),
                  KOBOLDE_PALACE_POWER + KOBOLDE_POWER_PER_SPADE * 2 * candidates)
    return min(bowl_three_inflow(position, candidates), inflow(position, t8p6) + kobolde)


def horizon(position: Position, candidates: int, non_home: int) -> int:
    """A sound bound on P's remaining turns, the pass included: 1 + the smaller of
    two counts of the turns before the pass, :func:`paid_turns` and the pieces.

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
    pieces = houses + kontore + palaces + non_home + ships + bridges + money7
    return 1 + min(pieces, paid_turns(position))


INCOME_TILES = ("t6g5", "t8p6")
"""The town tiles that bring what pays for more turns (money, power)."""


def paid_turns(position: Position) -> int:
    """A bound on P's turns before the pass by what they cost: the most of
    :func:`turns_paid_with` over :func:`income_choices`."""
    return max(turns_paid_with(position, tiles) for tiles in income_choices(position))


def income_choices(position: Position) -> list[tuple[str, ...]]:
    """The sets of income tiles (:data:`INCOME_TILES`) P may take this round: those that
    P's buildings outside towns can found towns for (:func:`could_found`) within the
    turns :func:`turns_paid_with` them allows."""
    player = position.player(position.to_move)
    tiles = [t for t in INCOME_TILES if t in player.town_tiles]
    return [chosen for n in range(len(tiles) + 1) for chosen in combinations(tiles, n)
            if could_found(position, n, turns_paid_with(position, chosen))]


def paid_budget(position: Position) -> int:
    """A bound on the money + power P's turns before the pass can cost, net of the
    power they bring (as :func:`turns_paid_with` counts it): the most of
    :func:`units_with` over :func:`income_choices`."""
    return max(units_with(position, tiles) for tiles in income_choices(position))


def units_with(position: Position, tiles: tuple[str, ...]) -> int:
    """What P can spend when the towns P founds bring the income ``tiles``: money +
    bowl III + what the tiles bring (``t6g5``'s money, :func:`inflow` of ``t8p6``'s
    power) + ``pa-money7``'s net gain (when bowl III can hold its power) + the Kobolde
    ``b-spade``'s 2 power."""
    player = position.player(position.to_move)
    rebate = IFRIT_POWER_REBATE if player.faction == "ifrit" else 0
    kobolde = player.faction == "kobolde"
    gain = TOWN_TILES["t8p6"].power if "t8p6" in tiles else 0
    power = player.power[2] + inflow(position, gain)
    units = player.money + power
    if "t6g5" in tiles:
        units += TOWN_TILES["t6g5"].money
    if kobolde and "b-spade" in once_specials(position):
        units += KOBOLDE_POWER_PER_SPADE
    if money7_paid(position, tiles):
        units += PA_MONEY - POWER_ACTIONS["pa-money7"] + rebate
    return units


def money7_paid(position: Position, tiles: tuple[str, ...]) -> bool:
    """Whether P may take ``pa-money7`` (still free, and bowl III can hold its power:
    Kobolde always, their spades bring power)."""
    player = position.player(position.to_move)
    if "pa-money7" in position.power_actions_used:
        return False
    rebate = IFRIT_POWER_REBATE if player.faction == "ifrit" else 0
    gain = TOWN_TILES["t8p6"].power if "t8p6" in tiles else 0
    power = player.power[2] + inflow(position, gain)
    return player.faction == "kobolde" or power >= POWER_ACTIONS["pa-money7"] - rebate


def turns_paid_with(position: Position, tiles: tuple[str, ...]) -> int:
    """The most turns before the pass P can pay for when the towns P founds bring the
    income ``tiles``: the cheapest first, out of :func:`units_with` them.

    Turns cost what they spend, net of the power they bring: the specials free of
    money and power (``b-spade``, and ``lake-house``, ``desert-dig``, ``free-kontor``
    once their palace stands: while it does not, the palace's turn pays for two) and
    ``pa-money7`` nothing, the other power actions their power (Ifrit 1 less; Kobolde
    spades 2 less each), ``feen-spade`` 2; every other turn at least ``HOUSE_COST``: a
    house 4, a Kontor 5 (Feline) or more, a spade 6 (Kobolde net 4), ``inv-kontor`` 6
    power, shipping 8, a bridge 10, a palace 14 (Kobolde net 8)."""
    me = position.to_move
    player = position.player(me)
    used = position.power_actions_used
    rebate = IFRIT_POWER_REBATE if player.faction == "ifrit" else 0
    kobolde = player.faction == "kobolde"
    units = units_with(position, tiles)
    specials = once_specials(position)
    personal, side = PERSONAL_SPECIALS.get(player.faction, (None, None))
    free = int("b-spade" in specials)
    if personal in specials and personal != "feen-spade" and side in player.palaces:
        free += 1
    cheap = []
    for action, cost in POWER_ACTIONS.items():
        if action in used or action == "pa-money7":
            continue
        spades = {"pa-spade1": 1, "pa-spade2": 2}.get(action, 0) if kobolde else 0
        cheap.append(cost - rebate - KOBOLDE_POWER_PER_SPADE * spades)
    if "feen-spade" in specials and "left" in player.palaces:
        cheap.append(FEEN_SPADE_POWER)
    money7 = int(money7_paid(position, tiles))
    turns = 0
    for cost in sorted(cheap):
        if cost >= HOUSE_COST or units < cost:
            break
        units -= cost
        turns += 1
    return free + money7 + turns + units // HOUSE_COST


def town_stock(position: Position) -> tuple[int, int]:
    """P's buildings outside every town: how many, and their town value."""
    me = position.to_move
    player = position.player(me)
    grid, river = position.grid, position.board.river
    own = position.buildings_of(me)
    links: dict[int, set[int]] = {c: set() for c in own}
    for a, b in related_bridges(position, me) | set(player.links):
        if a in links and b in links:
            links[a].add(b)
            links[b].add(a)
    marks = {c for c in player.towns if c not in river}
    for r in player.towns:
        if r in river:
            marks |= {c for link in player.links for c in link
                      if all(r in grid.neighbours[x] for x in link)}
    inside: set[int] = set()
    for comp in components(own, lambda c: set(grid.neighbours[c]) | links[c]):
        if comp & marks:
            inside |= comp
    outside = [c for c in own if c not in inside]
    value = sum(TOWN_VALUE[position.building(c).kind] for c in outside)
    return len(outside), value


def could_found(position: Position, towns: int, turns: int) -> bool:
    """Whether ``towns`` new towns may come within ``turns`` turns: each holds 4
    buildings outside the towns so far and their value (7; 6 for a side-A faction,
    whose right palace lowers it). A turn adds at most one building and one to the
    value, but the Erfinderinnen ``inv-kontor`` two (a Kontor on a free hex) and the
    Ifrit left palace two once (the palace and its edge house)."""
    if towns == 0:
        return True
    player = position.player(position.to_move)
    count, value = town_stock(position)
    once = int(player.faction == "ifrit")
    per_turn = TOWN_VALUE["kontor"] if player.faction == "erfinderinnen" else 1
    least = TOWN6_MIN_VALUE if player.faction in SIDE_A else TOWN_MIN_VALUE
    return (TOWN_MIN_BUILDINGS * towns <= count + turns + once
            and least * towns <= value + per_turn * turns + once)


def spend_units(position: Position, candidates: int) -> int:
    """An upper bound on the money + power P can spend in the rest of the round: money,
    bowl III, the power that can still reach bowl III, ``pa-money7``'s net gain,
    ``t6g5``'s money."""
    player = position.player(position.to_move)
    rebate = IFRIT_POWER_REBATE if player.faction == "ifrit" else 0
    units = player.money + player.power[2] + _inflow_bound(position, candidates)
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


def affordable_hexes(position: Position, sources: set[int], max_ship: int,
                     budget: int) -> set[int]:
    """The unbuilt landscape hexes P can touch (build on or transform) spending at most
    ``budget`` of money + power: a hex is in range only of a building, so every hex on
    the way from ``sources`` (P's buildings, the hexes of free buildings) but the last
    carries a new building, which costs at least ``HOUSE_COST`` and the spades that
    make it home (:data:`SPADE_COST` each, Kobolde net of their power; Golems count one
    for two); :func:`free_spades`, ``feen-spade`` and ``desert-dig`` (its hex's
    spades) save that many spades on the way, and Erfinderinnen may place a Kontor
    for :data:`INV_KONTOR_POWER` instead. A cheapest path over (hex, free spades
    used) gives each hex's least cost."""
    me = position.to_move
    player = position.player(me)
    home = position.faction(me).home
    specials = once_specials(position)
    free = (free_spades(position) + int("feen-spade" in specials)
            + max(SPADES[home].values()) * int("desert-dig" in specials))
    spade = SPADE_COST - (KOBOLDE_POWER_PER_SPADE if player.faction == "kobolde" else 0)
    inventor = player.faction == "erfinderinnen"
    land = free_land(position)
    near = range_neighbours(position, max_ship)

    def spades(cell: int) -> int:
        need = SPADES[home][LETTER_LANDSCAPE[position.landscape[cell]]]
        return 1 if need == 2 and player.faction == "golems" else need

    out: set[int] = set()
    best: dict[tuple[int, int], int] = {}
    queue = [(0, c, 0) for c in sorted(sources)]
    while queue:
        cost, cell, used = heappop(queue)
        if best.get((cell, used), budget + 1) < cost:
            continue
        for nb in near(cell):
            if nb not in land:
                continue
            out.add(nb)
            need = spades(nb)
            options = [(HOUSE_COST + spade * (need - k), used + k)
                       for k in range(min(need, free - used) + 1)]
            if inventor:
                options.append((INV_KONTOR_POWER, used))
            for extra, now in options:
                total = cost + extra
                if total <= budget and total < best.get((nb, now), budget + 1):
                    best[(nb, now)] = total
                    heappush(queue, (total, nb, now))
    return out
