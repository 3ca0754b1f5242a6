"""Small last-round positions of Terra Nova (KOSMOS) for the model's tests.

:func:`random_small` (``make test``) draws the generator's 3 × 4 positions (every
faction, money ≤ 7) and makes them say more: odd seeds take the rule option
``bridge_adjacency = "owner"``, a bridge spot on the map may belong to the other
player, and four seeds in five keep only a position whose optimal line (by the
exhaustive search, cheap here) does more than pass. :func:`random_rich`
(``make sweep``) draws richer 3 × 4 positions: more money and power, free power
actions, Kontore and palaces, bridges owned by either player, the factions in
turn (seed mod 10).
"""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from typing import Any

from solver.errors import InputError
from solver.terra_nova_kosmos.engine.exhaustive import solve_last_round as exhaustive
from solver.terra_nova_kosmos.engine.lastround import Result
from solver.terra_nova_kosmos.engine.validate import validate
from solver.terra_nova_kosmos.model.scope import horizon
from solver.terra_nova_kosmos.notation import Turn
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.puzzlegen import COLOUR_OF, last_round, map_text, random_last_round
from solver.terra_nova_kosmos.rules import HOME, LANDSCAPE_LETTER, Rules

__all__ = ["FACTIONS", "last_round", "random_rich", "random_small", "small_case"]

FACTIONS = ("flaschengeister", "golems", "kobolde", "feen", "wuestentoechter",
            "seebaeren", "ifrit", "erfinderinnen", "druiden", "feline")
"""Every faction; :func:`random_rich` gives P ``FACTIONS[seed % 10]``."""
POWER_ACTIONS = ("pa-money7", "pa-ship", "pa-spade1", "pa-spade2", "pa-bridge3", "pa-bridge4")
BONUS = ("b-money6", "b-m3p3", "b-reach", "b-spade", "b-house", "b-kontor", "b-palace",
         "b-ship")
SPECIALS = ("b-spade", "lake-house", "desert-dig", "feen-spade", "free-kontor")
ROUND_TILES = ("r-house2", "r-kontor3", "r-palace5", "r-town5", "r-ship2", "r-spade2")
ROWS, COLS = 3, 4
DRAWS = 20
"""Draws :func:`random_small` makes at most for a position whose optimum is no lone pass."""
MAX_TURNS = 10
""":func:`random_small` keeps positions whose turn horizon is at most this (cheap models)."""


def random_small(seed: int) -> Position:
    """A seeded small last-round position the engine accepts: few options, so the
    exhaustive search and the model finish fast."""
    return small_case(seed)[0]


@functools.cache
def small_case(seed: int) -> tuple[Position, Result, list[Turn]]:
    """:func:`random_small`'s position with its exhaustive optimum and optimal line
    (computed once per test run)."""
    rng = random.Random(seed)
    for _ in range(DRAWS):
        position = _varied(random_last_round(rng), seed)
        if _turn_bound(position) > MAX_TURNS:
            continue
        best, line = exhaustive(position, cap=60)
        if seed % 5 == 0 or len(line) > 1:
            break
    return position, best, line


def _turn_bound(position: Position) -> int:
    """The model's horizon with every free hex a candidate (an upper bound on its own)."""
    me = position.to_move
    home = LANDSCAPE_LETTER[HOME[me]]
    free = [c for c in range(position.grid.size)
            if not position.is_river(c) and position.buildings[c] is None]
    return horizon(position, len(free), sum(position.landscape[c] != home for c in free))


def _varied(position: Position, seed: int) -> Position:
    """Odd seeds: bridges join hexes for their owner only [D4]; every third seed: a
    bridge spot of the map holds the other player's bridge."""
    if seed % 2:
        position = position.replace(rules=Rules(bridge_adjacency="owner"))
    other = next(p for p in position.players if p.colour != position.to_move)
    if seed % 3 == 0 and position.board.bridge_spots:
        position = position.with_player(replace(other,
                                                bridges=position.board.bridge_spots[:1]))
    return position


def random_rich(seed: int) -> Position:
    """A seeded richer small last-round position the engine accepts (candidates it
    refuses are drawn again)."""
    rng = random.Random(seed)
    mine = FACTIONS[seed % len(FACTIONS)]
    while True:
        try:
            position = _candidate(rng, mine)
            validate(position)
            return position
        except InputError:
            continue


def _board(rng: random.Random, me: str, other: str) -> tuple[str, list, list]:
    """Board text, P's building hexes and kinds, the other player's hexes (row, col)."""
    cells = [(r, c) for r in range(ROWS) for c in range(COLS)]
    river = set(rng.sample(cells, rng.choice([2, 3, 3, 4])))
    land = [x for x in cells if x not in river]
    rng.shuffle(land)
    own = land[:rng.randint(2, 4)]
    foe = land[len(own):len(own) + rng.choice([1, 1, 2])]
    kinds = {x: rng.choices("hkp", weights=(5, 3, 1))[0] for x in own}
    if list(kinds.values()).count("p") > 2:
        raise InputError("more than two palaces")
    text = map_text(rng, ROWS, COLS, river, kinds, foe, (me, other))
    return text, [(x, kinds[x]) for x in own], foe


def _name(x: tuple[int, int]) -> str:
    return f"{'abcdefghijklm'[x[1]]}{x[0] + 1}"


def _candidate(rng: random.Random, mine: str) -> Position:
    theirs = rng.choice([f for f in COLOUR_OF if COLOUR_OF[f] != COLOUR_OF[mine]])
    me, other = COLOUR_OF[mine], COLOUR_OF[theirs]
    board, own, foe = _board(rng, me, other)
    factions = {me: mine, other: theirs}
    display = dict(rng.sample([(b, rng.randint(0, 3)) for b in BONUS], 2))
    held = [b for b in BONUS if b not in display]
    bonus = rng.choice(held)
    split = sorted(rng.choices(range(9), k=2))
    palaces = [k for _, k in own].count("p")
    towns = [_name(x) for x, _ in own[:1]] if rng.random() < 0.2 else []
    player: dict[str, Any] = {
        "vp": rng.randint(10, 30), "money": rng.randint(2, 9),
        "power": [split[0], split[1] - split[0], 8 - split[1]],
        "shipping": rng.choice([0, 0, 1]), "bonus": bonus,
        "palaces": rng.sample(["left", "right"], palaces),
        "specials_used": rng.sample(SPECIALS, rng.choice([0, 0, 1])),
        "town_tiles": rng.sample(["t6g5", "t9", "t8p6", "tship"], 4 - len(towns)),
        "towns": towns}
    foe_player = {"vp": rng.randint(10, 30), "money": rng.randint(0, 6),
                  "bonus": rng.choice([b for b in held if b != bonus]),
                  "power": rng.choice([[3, 3, 2], [0, 4, 4], [6, 2, 0], [0, 0, 8]])}
    top = {"bonus_display": display,
           "power_actions_used": rng.sample(POWER_ACTIONS, rng.choice([4, 5, 5, 6])),
           "round_tiles": ["r-spade2", "r-kontor3", "r-palace5", "r-ship2",
                           rng.choice(ROUND_TILES)],
           "rules": {"bridge_adjacency": rng.choice(["all", "owner"])}}
    players = {me: player, other: foe_player}
    spots = _spots(last_round(board, factions, players, **top))
    if spots:
        top["bridge_spots"] = [_spot(s) for s in spots]
        _own_bridges(rng, spots, own, foe, player, foe_player)
    return last_round(board, factions, players, **top)


def _spots(position: Position) -> list[tuple[int, int]]:
    """Bridge spots of the map [D2]: landscape hexes, not adjacent, sharing a river hex."""
    grid, river = position.grid, position.board.river
    return [(a, b) for a in range(grid.size) for b in range(a + 1, grid.size)
            if a not in river and b not in river and b not in grid.neighbours[a]
            and set(grid.neighbours[a]) & set(grid.neighbours[b]) & river]


def _spot(spot: tuple[int, int]) -> str:
    a, b = (divmod(c, COLS) for c in spot)
    return f"{_name(a)}-{_name(b)}"


def _own_bridges(rng: random.Random, spots: list, own: list, foe: list,
                 player: dict[str, Any], foe_player: dict[str, Any]) -> None:
    """Sometimes a bridge of P or of the other player on a spot next to their building."""
    cells = {x[0] * COLS + x[1] for x, _ in own}
    foes = {x[0] * COLS + x[1] for x in foe}
    for table, mine in ((player, cells), (foe_player, foes)):
        taken = player.get("bridges", []) + foe_player.get("bridges", [])
        free = [s for s in spots if set(s) & mine and _spot(s) not in taken]
        if free and rng.random() < 0.35:
            table["bridges"] = [_spot(rng.choice(free))]
