"""Applying one turn: exchanges, the action with all its effects, towns, exchanges.

:func:`apply_turn` is the reference for every rule of phase 2; it raises
:class:`IllegalTurn` (an :class:`~solver.errors.InputError`) with the reason.
The acting player is ``position.to_move``; whose turn comes next is decided
by :mod:`solver.terra_nova_kosmos.engine.rounds`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from solver.errors import InputError
from solver.terra_nova_kosmos.engine import board as topo
from solver.terra_nova_kosmos.engine.ledger import Source, record
from solver.terra_nova_kosmos.engine.power import gain, spend
from solver.terra_nova_kosmos.notation import Action, Exchange, Town, Turn
from solver.terra_nova_kosmos.position import Building, Player, Position
from solver.terra_nova_kosmos.rules import (
    BONUS_COINS_TAKEN,
    BONUS_TILES,
    BRIDGE_COST,
    BRIDGES,
    DESERT_DIG_BY_SIDE_ONLY,
    DRUID_TRIPLE,
    FEEN_SPADE_POWER,
    FELINE_KONTOR_COST,
    FELINE_KONTOR_COST_NEIGHBOUR,
    FLASCHENGEISTER_TOWN_VP,
    FREE_SPADES_MUST_TRANSFORM,
    GOLEMS_PASS_VP,
    HOUSE,
    HOUSE_COST,
    IFRIT_EDGE_NEEDS_HOUSE,
    IFRIT_POWER_REBATE,
    INV_KONTOR_POWER,
    KOBOLDE_PALACE_POWER,
    KOBOLDE_POWER_PER_SPADE,
    KONTOR,
    KONTOR_COST,
    KONTOR_COST_NEIGHBOUR,
    LAKE_HOUSE_LANDSCAPE,
    LANDSCAPE_LETTER,
    LETTER_LANDSCAPE,
    NEIGHBOUR_POWER_TO_PASSED,
    PA_MONEY,
    PA_SPADE2_PAIR_SPADES,
    PALACE,
    PALACE_COST,
    POWER_ACTIONS,
    REPEATABLE_SPECIALS,
    ROUND_TILES,
    ROUNDS,
    SHIP_AT_TRACK_END,
    SHIP_COST,
    SPADE_COST,
    SPADES,
    TOWN_TILES,
    TRANSFORM_WITHOUT_HOUSE,
)


class IllegalTurn(InputError):
    """A turn the rules do not allow in this position (the message says why)."""


class ShortOfMoney(IllegalTurn):
    """A payment the player cannot make; ``missing`` is the money lacking."""

    def __init__(self, message: str, missing: int):
        super().__init__(message)
        self.missing = missing


# ---- small state helpers -------------------------------------------------------------------

def _player(position: Position, colour: str) -> Player:
    return position.player(colour)


def _update(position: Position, colour: str, **changes: Any) -> Position:
    return position.with_player(replace(position.player(colour), **changes))


def _add(position: Position, colour: str, vp: int = 0, money: int = 0, power: int = 0,
         source: Source = Source.ACTION, what: str = "") -> Position:
    """Give ``colour`` VP, money and power (a power gain, [D9]); the VP are recorded as
    given by ``source`` (``what`` names the tile or track, :mod:`.ledger`)."""
    record(colour, source, vp, what)
    player = position.player(colour)
    return position.with_player(replace(player, vp=player.vp + vp, money=player.money + money,
                                        power=gain(player.power, power) if power
                                        else player.power))


def _pay(position: Position, colour: str, money: int = 0, power: int = 0) -> Position:
    player = position.player(colour)
    if money > player.money:
        raise ShortOfMoney(f"costs {money} money, {colour} has {player.money}",
                           money - player.money)
    if power > player.power[2]:
        raise IllegalTurn(f"costs {power} power, bowl III holds {player.power[2]}")
    return position.with_player(replace(player, money=player.money - money,
                                        power=spend(player.power, power)))


def _set_cell(position: Position, cell: int, building: Building | None,
              land: str | None = None) -> Position:
    buildings = list(position.buildings)
    buildings[cell] = building
    changes: dict[str, object] = {"buildings": tuple(buildings)}
    if land is not None:
        landscape = list(position.landscape)
        landscape[cell] = land
        changes["landscape"] = tuple(landscape)
    return position.replace(**changes)


def round_tile(position: Position) -> str:
    """The round tile scored in this round's phase 2."""
    return position.round_tiles[position.round - 1]


def _tile_vp(position: Position, tile: str, units: int = 1) -> int:
    return ROUND_TILES[tile] * units if round_tile(position) == tile else 0


def _round_tile(position: Position, colour: str, tile: str, units: int = 1) -> Position:
    """The VP of round tile ``tile`` for ``units`` of what it scores, if it is this round's."""
    return _add(position, colour, vp=_tile_vp(position, tile, units), source=Source.ROUND_TILE,
                what=tile)


def _home_letter(position: Position, colour: str) -> str:
    return LANDSCAPE_LETTER[position.faction(colour).home]


def has_palace(position: Position, colour: str, faction: str, side: str) -> bool:
    """True when ``colour`` plays ``faction`` and has built its ``side`` palace."""
    player = position.player(colour)
    return player.faction == faction and side in player.palaces


# ---- events shared by several actions ------------------------------------------------------

def _after_house(position: Position, colour: str, cell: int) -> Position:
    """A house was built on ``cell``: round tile, palaces, neighbours' power, Erfinderinnen."""
    position = _round_tile(position, colour, "r-house2")
    if has_palace(position, colour, "erfinderinnen", "right"):
        position = _add(position, colour, vp=2, what="Erfinderinnen right palace")
    position = _neighbour_power(position, colour, cell)
    return _watchers(position, colour, "erfinderinnen", "power")


def _after_upgrade(position: Position, colour: str, cell: int, kind: str) -> Position:
    """An upgrade to ``kind`` on ``cell``: round tile, Druiden, neighbours' power, Feline."""
    if kind == KONTOR:
        position = _round_tile(position, colour, "r-kontor3")
        if has_palace(position, colour, "druiden", "right"):
            position = _add(position, colour, vp=3, what="Druiden right palace")
    else:
        position = _round_tile(position, colour, "r-palace5")
    position = _neighbour_power(position, colour, cell)
    return _watchers(position, colour, "feline", "money")


def _watchers(position: Position, colour: str, faction: str, gift: str) -> Position:
    """Erfinderinnen (power) and Feline (money) gain 2 (2 players) or 1 when another
    faction builds a house / upgrades."""
    per = 2 if len(position.players) == 2 else 1
    for other in position.players:
        if other.colour != colour and other.faction == faction:
            position = _add(position, other.colour, money=per if gift == "money" else 0,
                            power=per if gift == "power" else 0)
    return position


def _neighbour_power(position: Position, colour: str, cell: int) -> Position:
    """[D24] Every other player gains 1 power per own building adjacent to ``cell``
    (passed players too)."""
    for other, count in sorted(topo.others_adjacent(position, cell, colour).items()):
        if NEIGHBOUR_POWER_TO_PASSED or not position.has_passed(other):
            position = _add(position, other, power=count)
    return position


def _spades_used(position: Position, colour: str, spades: int) -> Position:
    """[D13] Spades used: round tile ``r-spade2``, Kobolde power."""
    power = KOBOLDE_POWER_PER_SPADE * spades if _player(position, colour).faction == "kobolde" \
        else 0
    return _round_tile(_add(position, colour, power=power), colour, "r-spade2", spades)


def _ship_step(position: Position, colour: str) -> Position:
    """Shipping +1 with the track's VP and ``r-ship2``; at the track end nothing [D14]."""
    player = _player(position, colour)
    track = position.faction(colour).shipping_vp
    if player.shipping >= len(track):
        return position
    position = _update(position, colour, shipping=player.shipping + 1)
    position = _add(position, colour, vp=track[player.shipping], what="shipping track")
    return _round_tile(position, colour, "r-ship2")


def spades_needed(position: Position, colour: str, cell: int) -> int:
    """[D6] Spades to make ``cell`` home for ``colour`` (Golems left palace: 2 → 1)."""
    home = position.faction(colour).home
    spades = SPADES[home][LETTER_LANDSCAPE[position.landscape[cell]]]
    if spades == 2 and has_palace(position, colour, "golems", "left"):
        spades = 1
    return spades


# ---- checks --------------------------------------------------------------------------------

def _free_land(position: Position, cell: int) -> None:
    if position.is_river(cell):
        raise IllegalTurn(f"{position.grid.name(cell)} is a river hex")
    if position.buildings[cell] is not None:
        raise IllegalTurn(f"{position.grid.name(cell)} is built on")


def _in_range(position: Position, colour: str, cell: int, reach: set[int] | None = None
              ) -> None:
    if cell not in (reach if reach is not None else topo.in_range(position, colour)):
        raise IllegalTurn(f"{position.grid.name(cell)} is not in range of {colour}")


def _must_build(action: Action) -> None:
    """[D12] Whether a transformation may stay without a house."""
    if action.build is None and not TRANSFORM_WITHOUT_HOUSE:
        raise IllegalTurn("a transformed hex must be built on [D12]")


def _house_left(position: Position, colour: str) -> None:
    if position.houses_left(colour) <= 0:
        raise IllegalTurn(f"{colour} has no house left")


def _special(position: Position, colour: str, name: str) -> Position:
    player = _player(position, colour)
    if name in player.specials_used:
        raise IllegalTurn(f"{name} was used this round")
    return _update(position, colour, specials_used=tuple(sorted(player.specials_used + (name,))))


def power_cost(position: Position, colour: str, name: str) -> int:
    """Power a board power action costs ``colour`` (Ifrit: 1 less)."""
    rebate = IFRIT_POWER_REBATE if _player(position, colour).faction == "ifrit" else 0
    return POWER_ACTIONS[name] - rebate


# ---- the actions ---------------------------------------------------------------------------

def _build(position: Position, colour: str, cell: int, pay: bool = True) -> Position:
    """Put a house on ``cell`` (already home landscape), paying 4 unless free."""
    _house_left(position, colour)
    if pay:
        position = _pay(position, colour, money=HOUSE_COST)
    position = _set_cell(position, cell, Building(colour, HOUSE))
    return _after_house(position, colour, cell)


def _transform(position: Position, colour: str, cell: int) -> Position:
    return _set_cell(position, cell, None, _home_letter(position, colour))


def _dig(position: Position, colour: str, action: Action, free: int, reach: set[int]
         ) -> Position:
    """Action 1 with ``free`` free spades (0: all bought), optional house."""
    cell = action.cells[0]
    _free_land(position, cell)
    _in_range(position, colour, cell, reach)
    needed = spades_needed(position, colour, cell)
    if needed == 0 and (free == 0 or FREE_SPADES_MUST_TRANSFORM):
        raise IllegalTurn(f"{position.grid.name(cell)} is already home landscape; build there")
    _must_build(action)
    if action.name == "pa-spade2":
        bought = 0
        if needed > free:
            raise IllegalTurn("pa-spade2 buys no spades")
    else:
        bought = max(0, needed - free)
    position = _pay(position, colour, money=SPADE_COST * bought)
    position = _transform(position, colour, cell)
    position = _spades_used(position, colour, needed)
    if action.build is not None:
        position = _build(position, colour, cell)
    return position


def _pa_spade2_pair(position: Position, colour: str, action: Action, reach: set[int]
                    ) -> Position:
    """[D16] Two distinct hexes needing exactly 1 spade each, in range before the action."""
    a, b = action.cells
    _must_build(action)
    if a == b:
        raise IllegalTurn("pa-spade2 on two hexes needs two different hexes")
    for cell in (a, b):
        _free_land(position, cell)
        _in_range(position, colour, cell, reach)
        if spades_needed(position, colour, cell) != PA_SPADE2_PAIR_SPADES:
            raise IllegalTurn(f"{position.grid.name(cell)} does not need exactly 1 spade")
    for cell in (a, b):
        position = _transform(position, colour, cell)
    position = _spades_used(position, colour, 2)
    if action.build is not None:
        position = _build(position, colour, action.build)
    return position


def _upgrade(position: Position, colour: str, action: Action) -> Position:
    cell = action.cells[0]
    building = position.buildings[cell]
    name = position.grid.name(cell)
    if building is None or building.owner != colour:
        raise IllegalTurn(f"{colour} has no building on {name}")
    if action.piece == "k":
        if building.kind != HOUSE:
            raise IllegalTurn(f"only a house becomes a Kontor ({name} holds a {building.kind})")
        if position.kontore_left(colour) <= 0:
            raise IllegalTurn(f"{colour} has no Kontor left")
        near = topo.foreign_neighbour(position, cell, colour)
        if has_palace(position, colour, "feline", "left"):
            cost = FELINE_KONTOR_COST_NEIGHBOUR if near else FELINE_KONTOR_COST
        else:
            cost = KONTOR_COST_NEIGHBOUR if near else KONTOR_COST
        position = _pay(position, colour, money=cost)
        position = _set_cell(position, cell, Building(colour, KONTOR))
        return _after_upgrade(position, colour, cell, KONTOR)
    side = "left" if action.piece == "pl" else "right"
    if building.kind != KONTOR:
        raise IllegalTurn(f"only a Kontor becomes a palace ({name} holds a {building.kind})")
    player = _player(position, colour)
    if side in player.palaces:
        raise IllegalTurn(f"the {side} palace is built already")
    faction = player.faction
    if action.edge is not None and faction != "ifrit":
        raise IllegalTurn("only the Ifrit left palace builds an edge house")
    if action.ship and faction != "seebaeren":
        raise IllegalTurn("only the Seebären left palace gives a shipping step")
    position = _pay(position, colour, money=PALACE_COST)
    position = _set_cell(position, cell, Building(colour, PALACE))
    position = _update(position, colour, palaces=tuple(
        s for s in ("left", "right") if s in player.palaces or s == side))
    position = _after_upgrade(position, colour, cell, PALACE)
    if side != "left":
        return position
    if faction == "kobolde":
        position = _add(position, colour, power=KOBOLDE_PALACE_POWER)
    if action.ship:
        position = _ship(position, colour)
    if action.edge is not None:
        position = _ifrit_edge(position, colour, action.edge)
    return position


def _ifrit_edge(position: Position, colour: str, cell: int) -> Position:
    """[D20] Any unbuilt edge landscape becomes home, with a free house if one is left."""
    _free_land(position, cell)
    if cell not in position.board.edge:
        raise IllegalTurn(f"{position.grid.name(cell)} is not an edge hex")
    if IFRIT_EDGE_NEEDS_HOUSE:
        _house_left(position, colour)
    position = _transform(position, colour, cell)
    if position.houses_left(colour) > 0:
        position = _build(position, colour, cell, pay=False)
    return position


def _bridge(position: Position, colour: str, bridge: tuple[int, int] | None) -> Position:
    assert bridge is not None, "a bridge action names its hexes"
    if bridge not in position.board.bridge_spots:
        raise IllegalTurn("not a bridge spot")
    if any(bridge in p.bridges for p in position.players):
        raise IllegalTurn("the bridge spot is taken")
    player = _player(position, colour)
    if len(player.bridges) >= BRIDGES:
        raise IllegalTurn(f"{colour} has no bridge left")
    if not any(position.owner(c) == colour for c in bridge):
        raise IllegalTurn("a bridge needs a building of its builder at one end")
    return _update(position, colour, bridges=tuple(sorted(player.bridges + (bridge,))))


def _ship(position: Position, colour: str) -> Position:
    if _player(position, colour).shipping >= position.faction(colour).max_shipping \
            and not SHIP_AT_TRACK_END:
        raise IllegalTurn("shipping is at the track's end [D14]")
    return _ship_step(position, colour)


def _power_action(position: Position, colour: str, action: Action, reach: set[int]
                  ) -> Position:
    name = action.name
    if name in position.power_actions_used:
        raise IllegalTurn(f"{name} was used this round")
    position = _pay(position, colour, power=power_cost(position, colour, name))
    position = position.replace(power_actions_used=tuple(
        a for a in POWER_ACTIONS if a in position.power_actions_used or a == name))
    if name in ("pa-bridge3", "pa-bridge4"):
        return _bridge(position, colour, action.bridge)
    if name == "pa-ship":
        return _ship(position, colour)
    if name == "pa-money7":
        return _add(position, colour, money=PA_MONEY)
    if name == "pa-spade1":
        return _dig(position, colour, action, 1, reach)
    if len(action.cells) == 2:
        return _pa_spade2_pair(position, colour, action, reach)
    return _dig(position, colour, action, 2, reach)


def _special_action(position: Position, colour: str, action: Action, reach: set[int]
                    ) -> Position:
    name = action.name
    player = _player(position, colour)
    needs = {"b-spade": None, "feen-spade": "feen", "lake-house": "flaschengeister",
             "free-kontor": "seebaeren", "desert-dig": "wuestentoechter",
             "inv-kontor": "erfinderinnen"}[name]
    side = "right" if name == "free-kontor" else "left"
    if needs is None:
        if player.bonus != "b-spade":
            raise IllegalTurn("b-spade needs the bonus tile b-spade")
    elif not has_palace(position, colour, needs, side):
        raise IllegalTurn(f"{name} needs the {side} palace of the {needs}")
    if name not in REPEATABLE_SPECIALS:
        position = _special(position, colour, name)
    cell = action.cells[0]
    if name == "b-spade":
        return _dig(position, colour, action, 1, reach)
    if name == "feen-spade":
        position = _pay(position, colour, power=FEEN_SPADE_POWER)
        return _dig(position, colour, action, 1, reach)
    if name == "lake-house":
        _free_land(position, cell)
        if position.landscape[cell] != LANDSCAPE_LETTER[LAKE_HOUSE_LANDSCAPE]:
            raise IllegalTurn(f"{position.grid.name(cell)} is not a {LAKE_HOUSE_LANDSCAPE} "
                              "[D17]")
        return _build(position, colour, cell, pay=False)
    if name == "free-kontor":
        building = position.buildings[cell]
        if building is None or building.owner != colour or building.kind != HOUSE:
            raise IllegalTurn(f"{colour} has no house on {position.grid.name(cell)}")
        if position.kontore_left(colour) <= 0:
            raise IllegalTurn(f"{colour} has no Kontor left")
        position = _set_cell(position, cell, Building(colour, KONTOR))
        return _after_upgrade(position, colour, cell, KONTOR)
    if name == "desert-dig":
        _free_land(position, cell)
        if position.landscape[cell] == _home_letter(position, colour):
            raise IllegalTurn("desert-dig needs a landscape that is not home yet")
        if not set(position.buildings_of(colour)) & dig_neighbours(position, colour, cell):
            raise IllegalTurn("desert-dig needs a hex sharing a side with an own building [D18]")
        position = _transform(position, colour, cell)
        if action.build is not None:
            position = _build(position, colour, cell)
        return position
    # inv-kontor [D19]
    _free_land(position, cell)
    _in_range(position, colour, cell, reach)
    if position.kontore_left(colour) <= 0:
        raise IllegalTurn(f"{colour} has no Kontor left")
    position = _pay(position, colour, power=INV_KONTOR_POWER)
    position = _set_cell(position, cell, Building(colour, KONTOR),
                         _home_letter(position, colour))
    return _after_upgrade(position, colour, cell, KONTOR)


def dig_neighbours(position: Position, colour: str, cell: int) -> set[int]:
    """[D18] The hexes whose own building lets ``desert-dig`` reach ``cell``: those sharing
    a side with it (with the decision taken the other way: adjacent, bridges included)."""
    if DESERT_DIG_BY_SIDE_ONLY:
        return set(position.grid.neighbours[cell])
    return topo.adjacent(position, cell, colour)


def pass_bonus(position: Position, colour: str) -> tuple[int, int]:
    """``(VP, power)`` ``colour`` scores on passing: bonus tile, Golems, Ifrit right palace,
    Druiden left palace (power), Feline right palace."""
    vp = sum(points for _, points in pass_vp(position, colour))
    power = 0
    if has_palace(position, colour, "druiden", "left"):
        power += 2 * len(topo.components(position, colour))
    return vp, power


def pass_vp(position: Position, colour: str) -> list[tuple[str, int]]:
    """The VP ``colour`` scores on passing, by what gives them (the bonus tile by name,
    Golems, Ifrit right palace, Feline right palace)."""
    player = _player(position, colour)
    out: list[tuple[str, int]] = []
    tile = BONUS_TILES[player.bonus] if player.bonus else None
    if player.bonus is not None and tile is not None and tile.pass_per is not None:
        units = player.shipping if tile.pass_per == "shipping" \
            else position.count(colour, tile.pass_per)
        out.append((player.bonus, tile.pass_vp * units))
    if player.faction == "golems":
        out.append(("Golems", GOLEMS_PASS_VP[position.count(colour, KONTOR)]))
    if has_palace(position, colour, "ifrit", "right"):
        edge = position.board.edge
        out.append(("Ifrit right palace",
                    sum(1 for g in topo.components(position, colour) if g & edge)))
    if has_palace(position, colour, "feline", "right"):
        river = position.board.river_adjacent
        out.append(("Feline right palace",
                    sum(1 for c in position.buildings_of(colour) if c not in river)))
    return out


def _pass(position: Position, colour: str, action: Action) -> Position:
    if not position.passed:
        position = position.replace(start=colour)
    _, power = pass_bonus(position, colour)
    for what, vp in pass_vp(position, colour):
        position = _add(position, colour, vp=vp, source=Source.PASS, what=what)
    position = _add(position, colour, power=power)
    swap = position.round < ROUNDS or position.rules.final_round_swap
    if swap != (action.tile is not None):
        raise IllegalTurn("passing takes a bonus tile from the display" if swap
                          else "passing in the last round keeps the bonus tile")
    if swap:
        display = dict(position.bonus_display)
        if action.tile not in display:
            raise IllegalTurn(f"{action.tile} is not on display")
        coins = display.pop(action.tile)
        held = _player(position, colour).bonus
        if held is not None:
            display[held] = 0
        position = position.replace(bonus_display=tuple(
            (t, display[t]) for t in BONUS_TILES if t in display))
        position = _update(position, colour, bonus=action.tile)
        if BONUS_COINS_TAKEN:                       # [D21]
            position = _add(position, colour, money=coins)
    return position.replace(passed=position.passed + (colour,))


def apply_action(position: Position, action: Action, reach: set[int] | None = None
                 ) -> Position:
    """The action of ``position.to_move`` with all its effects, before any town founding
    (``reach``: the hexes in range of ``to_move``, when known)."""
    colour = position.to_move
    if reach is None:
        reach = topo.in_range(position, colour)
    name = action.name
    if name == "build":
        cell = action.cells[0]
        _free_land(position, cell)
        if position.landscape[cell] != _home_letter(position, colour):
            raise IllegalTurn(f"{position.grid.name(cell)} is not {colour}'s home landscape")
        _in_range(position, colour, cell, reach)
        return _build(position, colour, cell)
    if name == "terraform":
        return _dig(position, colour, action, 0, reach)
    if name == "upgrade":
        return _upgrade(position, colour, action)
    if name == "ship":
        position = _pay(position, colour, money=SHIP_COST)
        return _ship(position, colour)
    if name == "bridge":
        position = _pay(position, colour, money=BRIDGE_COST)
        return _bridge(position, colour, action.bridge)
    if name in POWER_ACTIONS:
        return _power_action(position, colour, action, reach)
    if name == "pass":
        return _pass(position, colour, action)
    return _special_action(position, colour, action, reach)


# ---- exchanges and towns -------------------------------------------------------------------

def apply_exchange(position: Position, colour: str, exchange: Exchange) -> Position:
    """``$n``: n power → n money; ``*n`` (Druiden): n × (3 power → 2 VP)."""
    if exchange.kind == "$":
        position = _pay(position, colour, power=exchange.count)
        return _add(position, colour, money=exchange.count)
    if _player(position, colour).faction != "druiden":
        raise IllegalTurn("only the Druiden exchange power for VP")
    power, vp = DRUID_TRIPLE
    position = _pay(position, colour, power=power * exchange.count)
    return _add(position, colour, vp=vp * exchange.count, source=Source.EXCHANGE,
                what=f"{exchange.count} × 3 power")


def _town_bonus(position: Position, colour: str, tile: str) -> Position:
    bonus = TOWN_TILES[tile]
    position = _add(position, colour, vp=bonus.vp, money=bonus.money, power=bonus.power,
                    source=Source.TOWN, what=tile)
    position = _round_tile(position, colour, "r-town5")
    if _player(position, colour).faction == "flaschengeister":
        position = _add(position, colour, vp=FLASCHENGEISTER_TOWN_VP, source=Source.TOWN,
                        what="Flaschengeister")
    for _ in range(bonus.shipping):
        position = _ship_step(position, colour)
    return position


def _link_town(position: Position, colour: str, river: int) -> tuple[Position, frozenset[int]]:
    """[D26] Seebären: link the own buildings around ``river``; the merged group."""
    grid = position.grid
    if _player(position, colour).faction != "seebaeren":
        raise IllegalTurn("only the Seebären found towns over the river")
    around = [c for c in grid.neighbours[river] if position.owner(c) == colour]
    links = {(a, b) for a in around for b in around if a < b and b not in grid.neighbours[a]}
    player = _player(position, colour)
    if not links - set(player.links):
        raise IllegalTurn(f"no new river link at {grid.name(river)}")
    position = _update(position, colour, links=tuple(sorted(set(player.links) | links)))
    group = next(g for g in topo.components(position, colour) if around[0] in g)
    marked = topo.town_cells(position.with_player(player), colour)
    if group & marked or not topo.qualifies(position, colour, group):
        raise IllegalTurn(f"the buildings linked at {grid.name(river)} make no new town")
    return position, group


def found_towns(position: Position, towns: tuple[Town, ...]) -> Position:
    """[D25] Found every qualifying tile-less component of ``to_move`` with the tiles named
    (one per component, as many as tiles allow); Seebären river towns on request [D26]."""
    colour = position.to_move
    river_towns = [(t.tile, t.at) for t in towns if t.at is not None and position.is_river(t.at)]
    land_towns = [t for t in towns if t.at is None or not position.is_river(t.at)]
    pending = topo.pending_towns(position, colour)
    tiles = _player(position, colour).town_tiles
    due = min(len(pending), len(tiles))
    if len(land_towns) != due:
        raise IllegalTurn(f"the action founds {due} town(s), the turn names {len(land_towns)}")
    chosen: dict[frozenset[int], Town] = {}
    group: frozenset[int] | None
    for number, town in enumerate(land_towns):
        if town.at is None:
            if due > 1:
                raise IllegalTurn("with several towns, name a member hex: town:t9@d5")
            group = pending[number]
        else:
            group = next((g for g in pending if town.at in g), None)
            if group is None:
                raise IllegalTurn(f"{position.grid.name(town.at)} is in no new town")
        if group in chosen:
            raise IllegalTurn("two town tiles for one town")
        chosen[group] = town
    for group, town in chosen.items():
        position = _take_tile(position, colour, town.tile,
                              town.at if town.at is not None else min(group))
    for tile, at in river_towns:
        position, _ = _link_town(position, colour, at)
        position = _take_tile(position, colour, tile, at)
    return position


def _take_tile(position: Position, colour: str, tile: str, cell: int) -> Position:
    player = _player(position, colour)
    if tile not in player.town_tiles:
        raise IllegalTurn(f"town tile {tile} is not in {colour}'s supply")
    position = _update(position, colour,
                       town_tiles=tuple(t for t in player.town_tiles if t != tile),
                       towns=tuple(sorted(player.towns + (cell,))))
    return _town_bonus(position, colour, tile)


def apply_turn(position: Position, turn: Turn) -> Position:
    """The whole turn of ``position.to_move``; ``to_move`` is left unchanged."""
    colour = position.to_move
    if position.has_passed(colour):
        raise IllegalTurn(f"{colour} has passed")
    for exchange in turn.before:
        position = apply_exchange(position, colour, exchange)
    position = apply_action(position, turn.action)
    position = found_towns(position, turn.towns)
    for exchange in turn.after:
        position = apply_exchange(position, colour, exchange)
    return position
