"""Last-round and best-round puzzles of Terra Nova (KOSMOS): random positions,
uniqueness, grades.

:func:`random_last_round` makes a seeded round-5 position on a small random map
(two players, the other one passed) that the engine accepts;
:func:`make_puzzle` solves it with the CP-SAT model (one worker, a
deterministic-time cap, so a seed always gives the same file), keeps it only
when the optimal *plan* is unique — the actions taken, the final buildings,
habitable hexes, bridges and town tiles; the order of independent turns is
not part of the answer — and grades it by the turns the answer needs.
:func:`random_best_round` moves such a position to round 1–4 for the
best-round puzzle (:func:`make_best_round`), whose plan also holds the tile
taken on passing; :func:`random_last_rounds` to round 4 for the last-rounds
puzzle (:func:`make_last_rounds`), whose plan is each round's and the tile taken
on passing in round 4.
"""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass
from typing import Any

from solver.cpsat import SolveParams
from solver.cpsat.uniqueness import unique_answer
from solver.errors import InputError
from solver.protocol import Made
from solver.terra_nova_kosmos.engine.bestround import Result as BestResult
from solver.terra_nova_kosmos.engine.bestround import evaluate as evaluate_best
from solver.terra_nova_kosmos.engine.bestround import objective_of
from solver.terra_nova_kosmos.engine.lastround import evaluate
from solver.terra_nova_kosmos.engine.lastrounds import evaluate as evaluate_rounds
from solver.terra_nova_kosmos.engine.playout import last_round_position
from solver.terra_nova_kosmos.engine.validate import validate
from solver.terra_nova_kosmos.fileformat import (
    BOARDS_DIR,
    default_factions,
    parse_position,
    read_board,
    write_position,
)
from solver.terra_nova_kosmos.model.best_round import (
    best_plan,
    build_best_round,
    read_best_line,
)
from solver.terra_nova_kosmos.model.last_round import (
    Predicted,
    build_last_round,
    plan,
    predicted,
    read_line,
)
from solver.terra_nova_kosmos.model.last_rounds import (
    build_last_rounds,
    predicted_rounds,
    read_rounds_line,
    rounds_plan,
)
from solver.terra_nova_kosmos.notation import Turn, format_turn
from solver.terra_nova_kosmos.position import OBJECTIVES, Position, Puzzle, Solution
from solver.terra_nova_kosmos.rules import (
    BONUS_TILES,
    COLOUR_LETTER,
    HOME,
    LANDSCAPE_LETTER,
    ROUND_TILES,
    ROUNDS,
)
from solver.terra_nova_kosmos.solve import best_claim, best_replayed, replayed

MODEL_FACTIONS = ("flaschengeister", "golems", "kobolde", "feen", "wuestentoechter",
                  "seebaeren", "ifrit", "erfinderinnen", "druiden", "feline")
"""Factions the player to move may play in a generated position (every one)."""
BEST_ROUND_FACTIONS = ("flaschengeister", "golems", "kobolde", "feen", "wuestentoechter",
                       "erfinderinnen", "feline")
"""Factions of the best-round puzzles the generator draws and the cross-check samples
(fixed, so a candidate seed keeps its position; the model also takes Ifrit)."""
COLOUR_OF = {"flaschengeister": "blue", "golems": "red", "kobolde": "black", "feen": "green",
             "wuestentoechter": "yellow", "seebaeren": "blue", "ifrit": "red",
             "erfinderinnen": "black", "druiden": "green", "feline": "yellow"}
"""Each faction's colour (factions.toml)."""
EFFORT = 60.0
"""CP-SAT ``max_deterministic_time`` per solve of a candidate (one worker)."""
MIN_TURNS = 2
"""A kept puzzle's answer takes more than the pass alone."""
GRADES = ((2, "easy"), (3, "medium"))
"""Answers of at most this many turns (the pass included) get this grade; longer: hard."""
ROUNDS_GRADES = ((3, "easy"), (5, "medium"))
"""The grades of last-rounds answers by turns (both passes included)."""
ROUNDS_PASSES = 2
"""The turns of a last-rounds answer that only passes (a kept puzzle takes more)."""


def _toml(value: Any) -> str:
    """A TOML value: JSON for strings, numbers, Booleans; arrays and inline tables."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


def last_round(board: str, factions: dict[str, str],
               players: dict[str, dict[str, Any]] | None = None, **top: Any) -> Position:
    """A round-5 position, the first colour to move, everyone else passed. ``board`` is
    rows of 3-char tokens; ``players`` per colour overrides (money, power, bonus, …)."""
    colours = list(factions)
    top = {"to_move": colours[0], "start": colours[1], "round": 5,
           "round_tiles": ["r-spade2", "r-kontor3", "r-palace5", "r-ship2", "r-house2"],
           "power_actions_used": [], "bonus_display": {"b-money6": 1, "b-house": 2},
           "passed": colours[1:]} | top
    lines = ['game = "terra-nova-kosmos"', f"players = {_toml(colours)}",
             "factions = { " + ", ".join(f'{c} = "{f}"' for c, f in factions.items()) + " }"]
    lines += [f"{key} = {_toml(value)}" for key, value in top.items()]
    lines += ['board = """', board.strip("\n"), '"""']
    held = ("b-ship", "b-kontor", "b-palace", "b-reach", "b-m3p3")
    for seat, colour in enumerate(colours):
        table = {"vp": 20, "money": 0, "power": [4, 4, 0], "shipping": 0,
                 "bonus": held[seat],
                 "town_tiles": ["t6g5", "t9", "t8p6", "tship"]} | (players or {}).get(colour, {})
        lines.append(f"[player.{colour}]")
        lines += [f"{key} = {_toml(value)}" for key, value in table.items()]
    return parse_position("\n".join(lines) + "\n", "generated.toml")


def _spots(position: Position) -> list[str]:
    """Bridge spots of a map [D2]: landscape hexes, not adjacent, sharing a river hex."""
    grid, river = position.grid, position.board.river
    out = []
    for a in range(grid.size):
        for b in range(a + 1, grid.size):
            if a in river or b in river or b in grid.neighbours[a]:
                continue
            if set(grid.neighbours[a]) & set(grid.neighbours[b]) & river:
                out.append(f"{grid.name(a)}-{grid.name(b)}")
    return out


def random_last_round(rng: random.Random, rows: int = 3, cols: int = 4,
                      money: int = 7, buildings: int = 4,
                      factions: tuple[str, ...] = MODEL_FACTIONS) -> Position:
    """A seeded last-round position on a random ``rows`` × ``cols`` map with two players,
    P one of ``factions``, that the engine's ``validate`` accepts (candidates it refuses
    are drawn again)."""
    while True:
        try:
            position = _candidate(rng, rows, cols, money, buildings, factions)
            validate(position)
            return position
        except InputError:
            continue


def random_best_round(rng: random.Random, objective: str = "max-points", rows: int = 3,
                      cols: int = 4, money: int = 7, buildings: int = 4,
                      factions: tuple[str, ...] = MODEL_FACTIONS) -> Position:
    """A seeded best-round position (round 1–4, ``objective``): a random last-round
    position moved to an earlier round whose tile is drawn again, that the engine's
    ``validate`` accepts."""
    while True:
        position = random_last_round(rng, rows, cols, money, buildings, factions)
        number = rng.randint(1, ROUNDS - 1)
        tiles = list(position.round_tiles)
        tiles[number - 1] = rng.choice(sorted(ROUND_TILES))
        position = position.replace(round=number, round_tiles=tuple(tiles),
                                    puzzle=Puzzle("best-round", objective))
        try:
            validate(position)
            return position
        except InputError:
            continue


BRIDGE_ADJACENCY = ("all", "owner")
"""The values of the ``bridge_adjacency`` rule option [D4]."""


def board_names() -> list[str]:
    """The bundled maps (their files' names without ``.toml``)."""
    return sorted(path.stem for path in BOARDS_DIR.glob("*.toml"))


def playout_position(kind: str, board: str, players: int, seed: int, round: int | None = None,
                     bridge_adjacency: str = "all", objective: str = OBJECTIVES[0]
                     ) -> Position:
    """A ``kind`` puzzle position on the bundled map ``board``: a seeded random game of
    ``players`` played into ``round`` (``last-round``: the last; ``best-round`` and
    ``last-rounds``: default the fourth) until only the player to move has not passed,
    posed under the rule option ``bridge_adjacency`` (and ``objective`` for a
    best-round puzzle)."""
    grid, landscape = read_board(BOARDS_DIR / f"{board}.toml")
    best = kind == "best-round"
    number = round if round is not None else (ROUNDS if kind == "last-round" else ROUNDS - 1)
    position = last_round_position(grid, landscape, default_factions(), seed, players,
                                   number)
    rules = dataclasses.replace(position.rules, bridge_adjacency=bridge_adjacency)
    puzzle = Puzzle(kind, objective if best else None,
                    ROUNDS - number + 1 if kind == "last-rounds" else None)
    return position.replace(rules=rules, puzzle=puzzle)


def random_last_rounds(rng: random.Random, rows: int = 3, cols: int = 4, money: int = 7,
                       buildings: int = 4, factions: tuple[str, ...] = MODEL_FACTIONS
                       ) -> Position:
    """A seeded last-rounds position (round 4, two rounds to plan): a random last-round
    position moved there (:func:`to_last_rounds`) that the engine's ``validate``
    accepts."""
    while True:
        position = to_last_rounds(random_last_round(rng, rows, cols, money, buildings,
                                                    factions), rng)
        try:
            validate(position)
            return position
        except InputError:
            continue


def to_last_rounds(position: Position, rng: random.Random) -> Position:
    """A round-5 position moved to round 4 as a last-rounds puzzle: round 4's tile drawn
    again, one more display tile (0–2 coins) that nobody holds."""
    tiles = list(position.round_tiles)
    tiles[ROUNDS - 2] = rng.choice(sorted(ROUND_TILES))
    held = {p.bonus for p in position.players} | {t for t, _ in position.bonus_display}
    extra = rng.choice(sorted(set(BONUS_TILES) - held))
    display = dict(position.bonus_display) | {extra: rng.randint(0, 2)}
    return position.replace(
        round=ROUNDS - 1, round_tiles=tuple(tiles),
        bonus_display=tuple((t, display[t]) for t in BONUS_TILES if t in display),
        puzzle=Puzzle("last-rounds", rounds=2))


def map_text(rng: random.Random, rows: int, cols: int, river: set, kinds: dict, foe: list,
             colours: tuple[str, str]) -> str:
    """The ``[board]`` rows of a random small map: river hexes, P's buildings
    (``kinds``: hex → h/k/p) on P's home landscape, the other player's houses on
    theirs, every other hex a random landscape drawn from ``rng`` in reading order."""
    me, other = colours
    lines = []
    for r in range(rows):
        row = []
        for c in range(cols):
            x = (r, c)
            if x in river:
                row.append("r..")
            elif x in kinds:
                row.append(LANDSCAPE_LETTER[HOME[me]] + COLOUR_LETTER[me] + kinds[x])
            elif x in foe:
                row.append(LANDSCAPE_LETTER[HOME[other]] + COLOUR_LETTER[other] + "h")
            else:
                row.append(rng.choice("lfwds") + "..")
        lines.append(("  " if r % 2 else "") + " ".join(row))
    return "\n".join(lines)


def _candidate(rng: random.Random, rows: int, cols: int, money: int, buildings: int,
               factions: tuple[str, ...]) -> Position:
    mine = rng.choice(factions)
    theirs = rng.choice([f for f in COLOUR_OF if COLOUR_OF[f] != COLOUR_OF[mine]])
    me, other = COLOUR_OF[mine], COLOUR_OF[theirs]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    river = set(rng.sample(cells, rng.choice([1, 2, 3]) * rows * cols // 12))
    land = [x for x in cells if x not in river]
    rng.shuffle(land)
    own = land[:rng.randint(1, buildings)]
    foe = land[len(own):len(own) + rng.choice([1, 2])]
    kinds = {x: rng.choices("hkp", weights=(6, 3, 1))[0] for x in own}
    palaces = [k for k in kinds.values() if k == "p"]
    if len(palaces) > 2:
        raise InputError("more than two palaces")
    board = map_text(rng, rows, cols, river, kinds, foe, (me, other))
    split = sorted(rng.sample(range(9), 2))
    power = [split[0], split[1] - split[0], 8 - split[1]]
    display = dict(rng.sample([("b-money6", rng.randint(0, 2)), ("b-house", rng.randint(0, 2)),
                               ("b-spade", 1), ("b-palace", 0)], 2))
    bonus = rng.choice([b for b in ("b-ship", "b-kontor", "b-reach", "b-m3p3", "b-spade")
                        if b not in display])
    used = rng.sample(["pa-money7", "pa-ship", "pa-spade1", "pa-spade2", "pa-bridge3",
                       "pa-bridge4"], rng.choice([4, 5, 6]))
    tile = rng.choice(["r-house2", "r-kontor3", "r-palace5", "r-town5", "r-ship2", "r-spade2"])
    sides = rng.sample(["left", "right"], len(palaces))
    other_bonus = rng.choice([b for b in ("b-kontor", "b-palace", "b-money6", "b-house")
                              if b not in display and b != bonus])
    players = {me: {"vp": rng.randint(10, 30), "money": rng.randint(0, money), "power": power,
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


def grade(turns: int, grades: tuple[tuple[int, str], ...] = GRADES) -> str:
    """``easy``/``medium``/``hard`` by the turns the answer takes (pass included)."""
    return next((name for most, name in grades if turns <= most), "hard")


@dataclass(frozen=True)
class Checked:
    """A proven optimum, its line and whether its plan is unique."""

    line: list[Turn]
    unique: bool | None
    """True: no other optimal plan; False: another one; None: not decided in time."""


def check_unique(position: Position, effort: float = EFFORT) -> Checked | None:
    """Solve ``position``'s last-round puzzle (one worker, ``effort`` deterministic
    seconds per solve), then forbid the optimal plan and solve again. None when the
    optimum is not proven."""
    lr = build_last_round(position)
    params = SolveParams(workers=1, seed=0).with_settings(
        max_deterministic_time=effort, cp_model_probing_level=0, linearization_level=0)
    answers: list[tuple[list[Turn], Predicted]] = []
    checked = unique_answer(
        lr.model, [(lr.objective.expr, "max")], plan(lr), params,
        found=lambda solver: answers.append((read_line(lr, solver), predicted(lr, solver))))
    if checked is None:
        return None
    line, claim = answers[0]
    replayed(position, line, claim, optimal=True)
    return Checked(line, checked.unique)


def check_unique_best(position: Position, effort: float = EFFORT) -> Checked | None:
    """:func:`check_unique` for the position's best-round puzzle (its objective); the
    plan includes the tile taken on passing."""
    br = build_best_round(position, objective_of(position))
    params = SolveParams(workers=1, seed=0).with_settings(
        max_deterministic_time=effort, cp_model_probing_level=0, linearization_level=0)
    answers: list[tuple[list[Turn], BestResult]] = []
    checked = unique_answer(
        br.model, [(br.objective.expr, "max")], best_plan(br), params,
        found=lambda solver: answers.append((read_best_line(br, solver),
                                             best_claim(br, solver))))
    if checked is None:
        return None
    line, claim = answers[0]
    best_replayed(position, line, claim, optimal=True)
    return Checked(line, checked.unique)


def make_puzzle(seed: int, kind: str, turns: int) -> Made | None:
    """A last-round puzzle from candidate ``seed`` (4 × 5 map), or a best-round one
    (:func:`make_best_round`); None when its optimum is not unique, not proven within
    :data:`EFFORT`, or just the pass."""
    del turns  # the horizon is the model's own bound
    if kind == "best-round":
        return make_best_round(seed)
    if kind == "last-rounds":
        return make_last_rounds(seed)
    position = random_last_round(random.Random(seed), rows=4, cols=5, money=10, buildings=5)
    checked = check_unique(position)
    if checked is None or checked.unique is not True:
        return None
    line = checked.line
    if len(line) < MIN_TURNS:
        return None
    result = evaluate(position, line)
    posed = position.replace(puzzle=Puzzle("last-round"))
    return _made(seed, posed, line, evaluate, str(result.value), f"others {result.others}",
                 {})


def _made(seed: int, posed: Position, line: list[Turn], replay: Any, worth: str,
          figures: str, signals: dict[str, Any],
          grades: tuple[tuple[int, str], ...] = GRADES) -> Made:
    """The puzzle file of ``posed`` with ``line`` as its [solution] (value by ``replay``,
    the engine's evaluation), a header naming the candidate, ``worth`` and ``figures``;
    the file is read back and its solution replayed once more."""
    value = replay(posed, line).value
    texts = tuple(format_turn(t, posed.grid) for t in line)
    difficulty = grade(len(line), grades)
    header = (f"# Generated by boardsat generate (candidate seed {seed}); unique optimal "
              f"plan worth {worth} in {len(line)} turns\n# difficulty {difficulty}: "
              f"{len(line)} turns, {figures}\n")
    text = header + write_position(posed.replace(solution=Solution(value, texts)))
    check = parse_position(text)
    if replay(check, line).value != check.solution.value:
        raise AssertionError(f"generated file fails verification (seed {seed})")
    return Made(text, difficulty, {"value": value, "turns": len(line),
                                   "cells": posed.grid.size} | signals
                | {"faction": posed.player(posed.to_move).faction})


def make_best_round(seed: int) -> Made | None:
    """A best-round puzzle from candidate ``seed`` (3 × 5 map; even seeds max-points, odd
    max-value), or None when its optimal plan (tile included) is not unique, not proven
    within :data:`EFFORT`, or just the pass."""
    objective = OBJECTIVES[seed % 2]
    position = random_best_round(random.Random(seed), objective, rows=3, cols=5, money=12,
                                 buildings=5, factions=BEST_ROUND_FACTIONS)
    checked = check_unique_best(position)
    if checked is None or checked.unique is not True or len(checked.line) < MIN_TURNS:
        return None
    result = evaluate_best(position, checked.line)
    return _made(seed, position, checked.line, evaluate_best,
                 f"{result.value} ({objective})",
                 f"{result.points} VP, {result.leftover} money + power left, "
                 f"{result.given} power given", {"objective": objective})


def check_unique_rounds(position: Position, effort: float = EFFORT) -> Checked | None:
    """:func:`check_unique` for the position's last-rounds puzzle; the plan is each
    round's (:func:`~solver.terra_nova_kosmos.model.last_rounds.rounds_plan`)."""
    built = build_last_rounds(position)
    params = SolveParams(workers=1, seed=0).with_settings(
        max_deterministic_time=effort, cp_model_probing_level=0, linearization_level=0)
    answers: list[tuple[list[Turn], Predicted]] = []
    checked = unique_answer(
        built.model, [(built.lr.objective.expr, "max")], rounds_plan(built), params,
        found=lambda solver: answers.append((read_rounds_line(built, solver),
                                             predicted_rounds(built, solver))))
    if checked is None:
        return None
    line, claim = answers[0]
    replayed(position, line, claim, True, evaluate_rounds)
    return Checked(line, checked.unique)


def make_last_rounds(seed: int) -> Made | None:
    """A last-rounds puzzle from candidate ``seed`` (3 × 4 map), or None when its
    optimal plan is not unique, not proven within :data:`EFFORT`, or the two passes
    alone."""
    position = random_last_rounds(random.Random(seed), rows=3, cols=4, money=8, buildings=4)
    checked = check_unique_rounds(position)
    if checked is None or checked.unique is not True or len(checked.line) <= ROUNDS_PASSES:
        return None
    result = evaluate_rounds(position, checked.line)
    return _made(seed, position, checked.line, evaluate_rounds, str(result.value),
                 f"others {result.others}", {}, ROUNDS_GRADES)
