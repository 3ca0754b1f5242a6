"""Setup, turn order, round end and income: the game around the actions.

A position is always in phase 2 of a round. :func:`advance` moves on after a
turn: to the next player who has not passed, or through phase 3 and the next
round's phase 1 to its phase 2, or (round 5, all passed) to the end.
"""

from __future__ import annotations

import random
from dataclasses import replace

from solver.errors import InputError
from solver.terra_nova_kosmos.engine.power import gain
from solver.terra_nova_kosmos.position import Board, Building, Player, Position
from solver.terra_nova_kosmos.rules import (
    BONUS_DISPLAY_EXTRA,
    BONUS_TILES,
    COLOURS,
    FEEN_INCOME_POWER,
    HOME,
    HOUSE,
    LANDSCAPE_LETTER,
    NEUTRAL,
    PLANER_LATER_HOUSES,
    PLANER_ROUND,
    POWER_START,
    ROUND_TILE_SET,
    ROUNDS,
    TOWN_TILES,
    Faction,
    Rules,
)


def game_over(position: Position) -> bool:
    """True when everyone has passed in round 5."""
    return position.round == ROUNDS and len(position.passed) == len(position.players)


def next_seat(position: Position) -> str | None:
    """The next player in this round's order (clockwise, or ``order``) after ``to_move``
    who has not passed (None: all passed)."""
    colours = position.order or position.colours
    seat = colours.index(position.to_move)
    for step in range(1, len(colours) + 1):
        colour = colours[(seat + step) % len(colours)]
        if not position.has_passed(colour):
            return colour
    return None


def advance(position: Position, rng: random.Random | None = None) -> Position:
    """The position after ``to_move``'s turn: next player, or next round, or game end.

    ``rng`` draws the Glücksgräber neutral houses before each phase 1 (required there).
    """
    nxt = next_seat(position)
    if nxt is not None:
        return position.replace(to_move=nxt)
    if position.round == ROUNDS:
        return position
    position = end_round(position)
    if position.variant == "glueckgraeber":
        if rng is None:
            raise InputError("the Glücksgräber variant draws neutral houses: it needs a seed")
        position = glueckgraeber_draws(position, rng)
    return income(position)


def _neutral_house(position: Position, colour: str, rng: random.Random | None) -> Position:
    """A neutral house of ``colour``'s landscape on a free marked hex still of that
    landscape ([D37]: the board keeps no printed landscape, so a transformed mark is
    no longer the colour's); at random with ``rng``, else on the first such hex; none: nothing."""
    land = LANDSCAPE_LETTER[HOME[colour]]
    free = [c for c in position.board.neutral_marks
            if position.buildings[c] is None and position.landscape[c] == land]
    if not free:
        return position
    cell = rng.choice(free) if rng is not None else free[0]
    buildings = list(position.buildings)
    buildings[cell] = Building(NEUTRAL, HOUSE)
    return position.replace(buildings=tuple(buildings))


def glueckgraeber_draws(position: Position, rng: random.Random) -> Position:
    """Before phase 1: the start player draws 1 of the 3 unchosen colours and places its
    house on a free marked hex of its landscape (else it is set aside), then the other
    player draws 1 of the remaining 2 likewise."""
    unchosen = [c for c in COLOURS if c not in position.colours]
    for _ in position.colours:
        colour = unchosen.pop(rng.randrange(len(unchosen)))
        position = _neutral_house(position, colour, rng)
    return position


def end_round(position: Position) -> Position:
    """Phase 3: (Planer, round 3: the neutral colour's houses go on its other marked
    hexes) X-markers off, +1 coin on every displayed bonus tile; then the next round
    begins with the start-marker holder (``turn_order = "pass"``: players act in the
    order they passed, the first to pass holding the start marker)."""
    if position.variant == "planer" and position.round == PLANER_ROUND:
        assert position.neutral is not None, "a Planer game has a neutral colour"
        for _ in range(PLANER_LATER_HOUSES):
            position = _neutral_house(position, position.neutral, None)
    players = tuple(replace(p, specials_used=()) for p in position.players)
    display = tuple((tile, coins + 1) for tile, coins in position.bonus_display)
    order = position.passed if position.rules.turn_order == "pass" else ()
    return position.replace(players=players, power_actions_used=(), bonus_display=display,
                            passed=(), order=order, round=position.round + 1,
                            to_move=order[0] if order else position.start)


def player_income(position: Position, colour: str) -> tuple[int, int]:
    """``(money, power)`` of phase 1: uncovered house and Kontor slots, the left palace,
    the bonus tile, Feen +2 power."""
    player = position.player(colour)
    faction = position.faction(colour)
    slots = (faction.house_income[:position.count(colour, HOUSE)]
             + faction.kontor_income[:position.count(colour, "kontor")])
    money = sum(m for m, _ in slots)
    power = sum(p for _, p in slots)
    if "left" in player.palaces:
        money += faction.palace_income[0]
        power += faction.palace_income[1]
    if player.bonus is not None:
        money += BONUS_TILES[player.bonus].money
        power += BONUS_TILES[player.bonus].power
    if player.faction == "feen":
        power += FEEN_INCOME_POWER
    return money, power


def income(position: Position) -> Position:
    """Phase 1 for everyone at once."""
    players = []
    for player in position.players:
        money, power = player_income(position, player.colour)
        players.append(replace(player, money=player.money + money,
                               power=gain(player.power, power)))
    return position.replace(players=tuple(players))


def setup(board: Board, landscape: tuple[str, ...], factions: list[Faction],
          rng: random.Random, rules: Rules | None = None, variant: str = "standard"
          ) -> Position:
    """A new game in phase 2 of round 1: tiles drawn, start houses placed at random
    ([D36]: placed, not built), bonus tiles taken, income paid. ``factions`` in
    seating order; the first player holds the start marker. The 2-player variants
    (``planer``, ``glueckgraeber``) need a board with neutral-house marks."""
    colours = [f.colour for f in factions]
    neutral = None
    if variant != "standard":
        if len(factions) != 2 or not board.neutral_marks:
            raise InputError(f"the {variant} variant is for 2 players on a board with "
                             "neutral-house marks")
        if variant == "planer":
            neutral = rng.choice([c for c in COLOURS if c not in colours])
    buildings: list[Building | None] = [None] * board.grid.size
    if neutral is not None:
        land = LANDSCAPE_LETTER[HOME[neutral]]
        buildings[rng.choice([c for c in board.neutral_marks if landscape[c] == land])] = \
            Building(NEUTRAL, HOUSE)
    order = list(range(len(factions))) + list(reversed(range(len(factions))))
    order += [i for i, f in enumerate(factions) if f.id == "wuestentoechter"]
    for seat in order:
        home = LANDSCAPE_LETTER[factions[seat].home]
        free = [i for i, land in enumerate(landscape) if land == home and buildings[i] is None]
        buildings[rng.choice(free)] = Building(colours[seat], HOUSE)
    tiles = tuple(rng.sample(ROUND_TILE_SET, ROUNDS))
    display = rng.sample(list(BONUS_TILES), BONUS_DISPLAY_EXTRA + len(factions))
    held = {}
    for seat in reversed(range(len(factions))):
        held[seat] = display.pop(rng.randrange(len(display)))
    players = tuple(Player(colour=colours[seat], faction=f.id, money=f.start_money,
                           power=POWER_START, bonus=held[seat], town_tiles=tuple(TOWN_TILES))
                    for seat, f in enumerate(factions))
    position = Position(
        board=board, landscape=landscape, buildings=tuple(buildings), players=players,
        factions=tuple(factions), to_move=colours[0], start=colours[0], round=1,
        round_tiles=tiles, bonus_display=tuple((t, 1) for t in BONUS_TILES if t in display),
        rules=rules or Rules(), variant=variant, neutral=neutral,
    )
    if variant == "glueckgraeber":
        position = glueckgraeber_draws(position, rng)
    return income(position)
