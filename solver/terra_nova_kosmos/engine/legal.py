"""Legal turns of the player to move, in canonical form.

A canonical turn exchanges power for money only right before its action and
only the shortfall (``$k``, k = money missing), except before an action that
may bring the player power (Kobolde spades and palace, a ``t8p6`` town, the
Druiden pass): there any larger exchange too, and Druiden triples, because
tokens moved to bowl I early let a gain count that full bowls would lose. It
founds the towns the action makes due (tile choices enumerated) and, for the
Seebären, optionally one town over the river (after any action, the pass
included [D26]). :func:`candidate_actions` lists every action worth trying;
:func:`successors` keeps the legal ones with the position each leads to.

In a game, more exchanges are real choices: power exchanged now rather than
later moves tokens to bowl I, where others' building and the next income refill
them (the rulebook's own tip: exchange in the pass turn before a power income).
``game=True`` (:func:`legal_turns`, ``perft``) adds every number of Druiden
triples before every action, and every exchange (any ``$k``, with the Druiden
any triples too) before passing. The puzzles' searches leave them out: there
the player's turns follow each other and nothing after the pass scores but the
triples the pass or the end take anyway.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from solver.terra_nova_kosmos.engine import actions as act
from solver.terra_nova_kosmos.engine import board as topo
from solver.terra_nova_kosmos.notation import Action, Exchange, Town, Turn
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import (
    BRIDGE_COST,
    DRUID_TRIPLE,
    FELINE_KONTOR_COST_NEIGHBOUR,
    FREE_SPADES_MUST_TRANSFORM,
    HOUSE,
    HOUSE_COST,
    KONTOR,
    LAKE_HOUSE_LANDSCAPE,
    LANDSCAPE_LETTER,
    PALACE_COST,
    REPEATABLE_SPECIALS,
    ROUNDS,
    SHIP_COST,
    SPADE_COST,
    TRANSFORM_WITHOUT_HOUSE,
)


def _digs(name: str, cells: list[int], can_build: bool) -> Iterator[Action]:
    """``name`` on each of ``cells``, with and without the house ([D12]; ``desert-dig``
    always may leave the hex unbuilt)."""
    bare = TRANSFORM_WITHOUT_HOUSE or name == "desert-dig"
    for cell in cells:
        if bare:
            yield Action(name, cells=(cell,))
        if can_build:
            yield Action(name, cells=(cell,), build=cell)


def special_ready(position: Position, name: str) -> bool:
    """Whether ``to_move`` holds what the special action needs and has not used it."""
    colour = position.to_move
    player = position.player(colour)
    if name in player.specials_used and name not in REPEATABLE_SPECIALS:
        return False
    if name == "b-spade":
        return player.bonus == "b-spade"
    owner, side = {"feen-spade": ("feen", "left"), "lake-house": ("flaschengeister", "left"),
                   "free-kontor": ("seebaeren", "right"),
                   "desert-dig": ("wuestentoechter", "left"),
                   "inv-kontor": ("erfinderinnen", "left")}[name]
    return act.has_palace(position, colour, owner, side)


def candidate_actions(position: Position) -> list[Action]:
    """Every action of ``to_move`` that may be legal (the engine decides); actions the
    player cannot pay for even with every power exchanged are left out."""
    colour = position.to_move
    player = position.player(colour)
    three = player.power[2]
    wealth = player.money + three
    reach = topo.in_range(position, colour)
    home = LANDSCAPE_LETTER[position.faction(colour).home]
    free = sorted(c for c in reach if position.buildings[c] is None)
    other = [c for c in free if position.landscape[c] != home]
    can_build = position.houses_left(colour) > 0
    own = position.buildings_of(colour)
    houses = [c for c in own if position.building(c).kind == HOUSE]
    kontore = [c for c in own if position.building(c).kind == KONTOR]

    def power_ok(name: str) -> bool:
        return (name not in position.power_actions_used
                and act.power_cost(position, colour, name) <= three)

    out: list[Action] = []
    if can_build and wealth >= HOUSE_COST:
        out += [Action("build", cells=(c,)) for c in free if position.landscape[c] == home]
    if wealth >= SPADE_COST:
        out += _digs("terraform", other, can_build)
    if position.kontore_left(colour) > 0 and wealth >= FELINE_KONTOR_COST_NEIGHBOUR:
        out += [Action("upgrade", cells=(c,), piece="k") for c in houses]
    edges = sorted(c for c in position.board.edge if position.buildings[c] is None)
    for cell in kontore if wealth >= PALACE_COST else ():
        for side in ("left", "right"):
            if side in player.palaces:
                continue
            piece = "pl" if side == "left" else "pr"
            out.append(Action("upgrade", cells=(cell,), piece=piece))
            if side == "left" and player.faction == "ifrit":
                out += [Action("upgrade", cells=(cell,), piece=piece, edge=e) for e in edges]
            if side == "left" and player.faction == "seebaeren":
                out.append(Action("upgrade", cells=(cell,), piece=piece, ship=True))
    if wealth >= SHIP_COST:
        out.append(Action("ship"))
    out += [Action(name) for name in ("pa-ship", "pa-money7") if power_ok(name)]
    spots = [s for s in position.board.bridge_spots
             if any(position.owner(c) == colour for c in s)]
    for name in ("bridge", "pa-bridge3", "pa-bridge4"):
        if power_ok(name) if name != "bridge" else wealth >= BRIDGE_COST:
            out += [Action(name, bridge=s) for s in spots]
    spadeable = other if FREE_SPADES_MUST_TRANSFORM else free        # [D13]
    for name in ("pa-spade1", "pa-spade2", "b-spade", "feen-spade"):
        if power_ok(name) if name.startswith("pa-") else special_ready(position, name):
            out += _digs(name, spadeable, can_build)
    if power_ok("pa-spade2"):
        ones = [c for c in other if act.spades_needed(position, colour, c) == 1]
        for a, b in combinations(ones, 2):
            if TRANSFORM_WITHOUT_HOUSE:
                out.append(Action("pa-spade2", cells=(a, b)))
            if can_build:
                out += [Action("pa-spade2", cells=(a, b), build=x) for x in (a, b)]
    if can_build and special_ready(position, "lake-house"):
        lake = LANDSCAPE_LETTER[LAKE_HOUSE_LANDSCAPE]
        out += [Action("lake-house", cells=(c,)) for c in range(position.grid.size)
                if position.landscape[c] == lake and position.buildings[c] is None]
    if special_ready(position, "free-kontor"):
        out += [Action("free-kontor", cells=(c,)) for c in houses]
    if special_ready(position, "desert-dig"):
        beside = sorted(c for c in range(position.grid.size)
                        if position.buildings[c] is None and not position.is_river(c)
                        and position.landscape[c] != home
                        and act.dig_neighbours(position, colour, c) & set(own))
        out += _digs("desert-dig", beside, can_build)
    if special_ready(position, "inv-kontor"):
        out += [Action("inv-kontor", cells=(c,)) for c in free]
    if position.round < ROUNDS or position.rules.final_round_swap:
        out += [Action("pass", tile=t) for t, _ in position.bonus_display]
    else:
        out.append(Action("pass"))
    return out


def afford(position: Position, action: Action, reach: set[int] | None = None
           ) -> tuple[tuple[Exchange, ...], Position] | None:
    """The canonical exchange for ``action`` (the money shortfall) and the position after
    both, or None when the action is illegal even with every affordable exchange."""
    colour = position.to_move
    exchanged = 0
    while True:
        before = (Exchange("$", exchanged),) if exchanged else ()
        try:
            start = position
            for exchange in before:
                start = act.apply_exchange(start, colour, exchange)
            return before, act.apply_action(start, action, reach)
        except act.ShortOfMoney as short:
            exchanged += short.missing
            if exchanged > position.player(colour).power[2]:
                return None
        except act.IllegalTurn:
            return None


def town_choices(position: Position) -> list[tuple[Town, ...]]:
    """The ways to found the towns now due for ``to_move`` (after the action)."""
    colour = position.to_move
    pending = topo.pending_towns(position, colour)
    tiles = position.player(colour).town_tiles
    due = min(len(pending), len(tiles))
    if due == 0:
        return [()]
    out = []
    for groups in combinations(pending, due):
        bare = due == 1 and groups[0] == pending[0]
        for chosen in combinations(tiles, due):
            out.append(tuple(Town(t, None if bare else min(g))
                             for t, g in zip(chosen, groups, strict=True)))
    return out


def river_towns(position: Position) -> list[int]:
    """Seebären: river hexes whose links would found a new town now."""
    colour = position.to_move
    if position.player(colour).faction != "seebaeren" or not position.player(colour).town_tiles:
        return []
    grid = position.grid
    own = set(position.buildings_of(colour))
    out = []
    for river in sorted(position.board.river):
        around = [c for c in grid.neighbours[river] if c in own]
        if len(around) < 2:
            continue
        try:
            act.found_towns(position, (Town(position.player(colour).town_tiles[0], river),))
        except act.IllegalTurn:
            continue
        out.append(river)
    return out


def _may_gain_power(position: Position, action: Action, after: Position) -> bool:
    """Whether ``action`` (or the towns it makes due) can give ``to_move`` power: Kobolde
    spades and palace, a town with ``t8p6`` (a Seebären river town founded on passing
    too), the Druiden palace's pass power."""
    colour = position.to_move
    player = position.player(colour)
    if action.name == "pass":
        return (act.has_palace(position, colour, "druiden", "left")
                or ("t8p6" in player.town_tiles and bool(river_towns(after))))
    if player.faction == "kobolde" and (action.name in ("terraform", "pa-spade1", "pa-spade2",
                                                        "b-spade", "feen-spade")
                                        or action.piece == "pl"):
        return True
    if "t8p6" not in player.town_tiles:
        return False
    return bool(topo.pending_towns(after, colour)) or bool(river_towns(after))


def _exchanges(position: Position, action: Action, before: tuple[Exchange, ...],
               reach: set[int]) -> list[tuple[tuple[Exchange, ...], Position]]:
    """Exchanges beyond the shortfall before an action that may bring power: tokens
    moved to bowl I early let a gain that would overflow full bowls count. The Druiden
    may also exchange triples for VP before passing."""
    colour = position.to_move
    three = position.player(colour).power[2]
    least = before[0].count if before else 0
    druid = position.player(colour).faction == "druiden"
    out = []
    for triples in range(three // 3 + 1 if druid else 1):
        for money in range(0 if triples else least + 1, three - 3 * triples + 1):
            if money < least:
                continue
            exchanges = ((Exchange("*", triples),) if triples else ()) + \
                ((Exchange("$", money),) if money else ())
            try:
                start = position
                for exchange in exchanges:
                    start = act.apply_exchange(start, colour, exchange)
                out.append((exchanges, act.apply_action(start, action, reach)))
            except act.IllegalTurn:
                continue
    return out


def _triples(position: Position, action: Action, reach: set[int]
             ) -> list[tuple[tuple[Exchange, ...], Position]]:
    """Druiden: n ≥ 1 power triples for VP before ``action``, then its shortfall."""
    colour = position.to_move
    player = position.player(colour)
    if player.faction != "druiden":
        return []
    out = []
    for n in range(1, player.power[2] // DRUID_TRIPLE[0] + 1):
        triples = Exchange("*", n)
        found = afford(act.apply_exchange(position, colour, triples), action, reach)
        if found is None:                  # more triples leave even less to pay with
            break
        out.append(((triples,) + found[0], found[1]))
    return out


def successors(position: Position, game: bool = False) -> list[tuple[Turn, Position]]:
    """Every canonical legal turn of ``to_move`` and the position after it (same mover);
    ``game``: the exchanges that matter in a game too (see the module docstring)."""
    colour = position.to_move
    if position.has_passed(colour):
        return []
    reach = topo.in_range(position, colour)
    out = []
    for action in candidate_actions(position):
        found = afford(position, action, reach)
        if found is None:
            continue
        variants = [found]
        if _may_gain_power(position, action, found[1]) or (game and action.name == "pass"):
            variants += _exchanges(position, action, found[0], reach)
        elif game:
            variants += _triples(position, action, reach)
        for before, after in variants:
            out += _with_towns(action, before, after)
    return out


def _with_towns(action: Action, before: tuple[Exchange, ...], after: Position
                ) -> list[tuple[Turn, Position]]:
    """The turns of ``action`` after ``before``: every way to found the towns due, and
    (Seebären) optionally one more over the river."""
    colour = after.to_move
    out = []
    for towns in town_choices(after):
        options = [towns]
        used = {t.tile for t in towns}
        for river in river_towns(after):
            options += [towns + (Town(t, river),)
                        for t in after.player(colour).town_tiles if t not in used]
        for option in options:
            if not option:                 # town_choices found no town due
                out.append((Turn(action, before), after))
                continue
            try:
                child = act.found_towns(after, option)
            except act.IllegalTurn:
                continue
            out.append((Turn(action, before, option), child))
    return out


def passes_before_income(position: Position) -> list[tuple[Turn, Position]]:
    """The canonical pass turns of ``to_move`` when an income follows (a puzzle's round
    before the last): each canonical pass turn, then every exchange after it (any
    ``$k``, and for the Druiden any triples first). Tokens exchanged there move to
    bowl I, where the income refills them while full bowls would lose it; an exchange
    in phase 3 is the same as one after the pass (nobody acts in between). Turns
    leading to the same position are given once."""
    colour = position.to_move
    out: dict[Position, Turn] = {}
    for turn, after in successors(position):
        if turn.action.name != "pass":
            continue
        three = after.player(colour).power[2]
        druid = after.player(colour).faction == "druiden"
        for triples in range(three // DRUID_TRIPLE[0] + 1 if druid else 1):
            for money in range(three - DRUID_TRIPLE[0] * triples + 1):
                exchanges = ((Exchange("*", triples),) if triples else ()) + \
                    ((Exchange("$", money),) if money else ())
                child = after
                for exchange in exchanges:
                    child = act.apply_exchange(child, colour, exchange)
                out.setdefault(child, Turn(turn.action, turn.before, turn.towns, exchanges))
    return [(turn, child) for child, turn in out.items()]


def legal_turns(position: Position) -> list[Turn]:
    """Every canonical legal turn of ``to_move`` in a game (the exchanges before passing
    and the Druiden triples included)."""
    return [turn for turn, _ in successors(position, game=True)]
