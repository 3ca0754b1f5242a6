"""Small last-round positions of Terra Nova (KOSMOS) for the model's tests."""

from __future__ import annotations

import random
from typing import Any

from solver.terra_nova_kosmos.fileformat import parse_position
from solver.terra_nova_kosmos.position import Position


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f'"{k}" = {_toml(v)}' for k, v in value.items()) + " }"
    return str(value)


def last_round(board: str, factions: dict[str, str],
               players: dict[str, dict[str, Any]] | None = None, **top: Any) -> Position:
    """Round 5, the first colour to move, everyone else passed. ``board`` is rows of
    3-char tokens; ``players`` per colour overrides (money, power, bonus, …)."""
    colours = list(factions)
    top = {"to_move": colours[0], "start": colours[1], "round": 5,
           "round_tiles": ["r-spade2", "r-kontor3", "r-palace5", "r-ship2", "r-house2"],
           "power_actions_used": [], "bonus_display": {"b-money6": 1, "b-house": 2},
           "passed": colours[1:]} | top
    lines = ['game = "terra-nova-kosmos"', f"players = {_toml(colours)}",
             "factions = { " + ", ".join(f"{c} = \"{f}\"" for c, f in factions.items()) + " }"]
    lines += [f"{key} = {_toml(value)}" for key, value in top.items()]
    lines += ['board = """', board.strip("\n"), '"""']
    held = ("b-ship", "b-kontor", "b-palace", "b-reach", "b-m3p3")
    for seat, colour in enumerate(colours):
        table = {"vp": 20, "money": 0, "power": [4, 4, 0], "shipping": 0,
                 "bonus": held[seat],
                 "town_tiles": ["t6g5", "t9", "t8p6", "tship"]} | (players or {}).get(colour, {})
        lines.append(f"[player.{colour}]")
        lines += [f"{key} = {_toml(value)}" for key, value in table.items()]
    return parse_position("\n".join(lines) + "\n", "test.toml")


SUPPORTED = ("flaschengeister", "golems", "kobolde", "feen", "wuestentoechter",
             "erfinderinnen", "druiden", "feline")
"""Factions the model takes as the player to move (not Seebären, not Ifrit)."""
_COLOUR_OF = {"flaschengeister": "blue", "golems": "red", "kobolde": "black", "feen": "green",
              "wuestentoechter": "yellow", "seebaeren": "blue", "ifrit": "red",
              "erfinderinnen": "black", "druiden": "green", "feline": "yellow"}
_HOME = {"blue": "l", "red": "w", "black": "s", "green": "f", "yellow": "d"}
_LETTER = {"blue": "B", "red": "R", "black": "K", "green": "G", "yellow": "Y"}


def _spots(position: Position) -> list[str]:
    """Bridge spots of a map: landscape hexes, not adjacent, sharing a river neighbour."""
    grid, river = position.grid, position.board.river
    out = []
    for a in range(grid.size):
        for b in range(a + 1, grid.size):
            if a in river or b in river or b in grid.neighbours[a]:
                continue
            if set(grid.neighbours[a]) & set(grid.neighbours[b]) & river:
                out.append(f"{grid.name(a)}-{grid.name(b)}")
    return out


def random_small(seed: int) -> Position:
    """A seeded small last-round position (3 × 4 hexes, 2 players) the engine accepts:
    few options, so the exhaustive search and the model both finish fast."""
    from solver.errors import InputError
    from solver.terra_nova_kosmos.engine.validate import validate
    rng = random.Random(seed)
    while True:
        try:
            position = _random_small(rng)
            validate(position)
            return position
        except InputError:
            continue


def _random_small(rng: random.Random) -> Position:
    from solver.errors import InputError
    rows, cols = 3, 4
    mine = rng.choice(SUPPORTED)
    theirs = rng.choice([f for f in _COLOUR_OF if _COLOUR_OF[f] != _COLOUR_OF[mine]])
    me, other = _COLOUR_OF[mine], _COLOUR_OF[theirs]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    river = set(rng.sample(cells, rng.choice([1, 2, 3])))
    land = [x for x in cells if x not in river]
    rng.shuffle(land)
    own = land[:rng.choice([1, 2, 3, 4])]
    foe = land[len(own):len(own) + rng.choice([1, 2])]
    kinds = {}
    for x in own:
        kinds[x] = rng.choices("hkp", weights=(6, 3, 1))[0]
    palaces = [k for k in kinds.values() if k == "p"]
    tokens = []
    for r in range(rows):
        row = []
        for c in range(cols):
            x = (r, c)
            if x in river:
                row.append("r..")
            elif x in kinds:
                row.append(_HOME[me] + _LETTER[me] + kinds[x])
            elif x in foe:
                row.append(_HOME[other] + _LETTER[other] + "h")
            else:
                row.append(rng.choice("lfwds") + "..")
        tokens.append(("  " if r % 2 else "") + " ".join(row))
    board = "\n".join(tokens)
    split = sorted(rng.sample(range(9), 2))
    power = [split[0], split[1] - split[0], 8 - split[1]]
    display = dict(rng.sample([("b-money6", rng.randint(0, 2)), ("b-house", rng.randint(0, 2)),
                               ("b-spade", 1), ("b-palace", 0)], 2))
    bonus = rng.choice([b for b in ("b-ship", "b-kontor", "b-reach", "b-m3p3", "b-spade")
                        if b not in display])
    used = rng.sample(["pa-money7", "pa-ship", "pa-spade1", "pa-spade2", "pa-bridge3",
                       "pa-bridge4"], rng.choice([4, 5, 6]))
    tile = rng.choice(["r-house2", "r-kontor3", "r-palace5", "r-town5", "r-ship2", "r-spade2"])
    if len(palaces) > 2:
        raise InputError("more than two palaces")
    sides = rng.sample(["left", "right"], len(palaces))
    other_bonus = rng.choice([b for b in ("b-kontor", "b-palace", "b-money6", "b-house")
                              if b not in display and b != bonus])
    players = {me: {"vp": rng.randint(10, 30), "money": rng.randint(0, 7), "power": power,
                    "shipping": rng.choice([0, 0, 1]), "bonus": bonus, "palaces": sides,
                    "specials_used": rng.sample(["b-spade", "lake-house", "desert-dig",
                                                 "feen-spade"], rng.choice([0, 1, 2]))},
               other: {"vp": rng.randint(10, 30), "money": rng.randint(0, 6),
                       "bonus": other_bonus,
                       "power": rng.choice([[3, 3, 2], [0, 4, 4], [6, 2, 0]])}}
    top = {"bonus_display": display, "power_actions_used": used,
           "round_tiles": ["r-spade2", "r-kontor3", "r-palace5", "r-ship2", tile]}
    spots = _spots(last_round(board, {me: mine, other: theirs}, players, **top))
    chosen = rng.sample(spots, min(len(spots), rng.choice([0, 1])))
    return last_round(board, {me: mine, other: theirs}, players, bridge_spots=chosen, **top)
