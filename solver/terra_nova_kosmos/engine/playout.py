"""Seeded random games: setup on a bundled board, random legal turns to the end.

The player to move picks a random candidate action and plays the first that is
legal (canonical exchange, random town tiles); it passes with a small chance
each turn or when nothing else is legal, so games reach round 5 with a
varied board. Full games (:func:`random_game`, ``boardsat play``) play *eager*:
often trying palaces and the factions' own actions first, the Seebären often
founding a town over the river when they can, and the Druiden now and then
exchanging power triples for VP, so that every rule comes up.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from solver.terra_nova_kosmos.engine import actions as act
from solver.terra_nova_kosmos.engine import board as topo
from solver.terra_nova_kosmos.engine import legal, rounds
from solver.terra_nova_kosmos.notation import Action, Exchange, Town, Turn
from solver.terra_nova_kosmos.position import Board, Position
from solver.terra_nova_kosmos.rules import DRUID_TRIPLE, FACTION_IDS, ROUNDS, Faction

PASS_CHANCE = 0.12
"""Chance that a random player passes although other actions may be legal."""
EAGER_CHANCE = 0.5
"""Eager play: chance to try palaces and the faction actions (not ``b-spade``) first."""
TRIPLE_CHANCE = 0.25
"""Eager play: chance that the Druiden exchange some power triples before the action."""
FAVOURED = frozenset({"feen-spade", "lake-house", "free-kontor", "desert-dig", "inv-kontor"})


@dataclass(frozen=True)
class Step:
    """One played turn: who, what, and the position right after it (before advancing)."""

    colour: str
    turn: Turn
    after: Position


def random_turn(position: Position, rng: random.Random, eager: bool = False
                ) -> tuple[Turn, Position]:
    """A random legal turn of ``to_move`` and the position after it (``eager``: see the
    module docstring)."""
    candidates = legal.candidate_actions(position)
    passes = [a for a in candidates if a.name == "pass"]
    others = [a for a in candidates if a.name != "pass"]
    rng.shuffle(others)
    if eager and rng.random() < EAGER_CHANCE:
        others.sort(key=lambda a: a.name not in FAVOURED and a.piece not in ("pl", "pr"))
    if rng.random() < PASS_CHANCE:
        others = []
    reach = topo.in_range(position, position.to_move)
    for action in others + [rng.choice(passes)]:
        found = _try(position, action, reach, rng, eager)
        if found is not None:
            return found
    raise AssertionError("passing is always legal")


def _triples(position: Position, rng: random.Random) -> tuple[Exchange, ...]:
    """Eager Druiden: now and then a random number of power triples for VP."""
    player = position.player(position.to_move)
    most = player.power[2] // DRUID_TRIPLE[0]
    if player.faction != "druiden" or most == 0 or rng.random() >= TRIPLE_CHANCE:
        return ()
    return (Exchange("*", rng.randint(1, most)),)


def _try(position: Position, action: Action, reach: set[int], rng: random.Random,
         eager: bool = False) -> tuple[Turn, Position] | None:
    triples = _triples(position, rng) if eager else ()
    start = act.apply_exchange(position, position.to_move, triples[0]) if triples \
        else position
    found = legal.afford(start, action, reach)
    if found is None and triples:
        triples, found = (), legal.afford(position, action, reach)
    if found is None:
        return None
    before, after = found
    before = triples + before
    if action.name == "pass":
        return Turn(action, before), after
    towns = rng.choice(legal.town_choices(after))
    rivers = legal.river_towns(after) if eager else []
    tiles = [t for t in after.player(after.to_move).town_tiles if t not in
             {town.tile for town in towns}]
    if rivers and tiles and rng.random() < EAGER_CHANCE:         # Seebären [D26]
        towns += (Town(rng.choice(tiles), rng.choice(rivers)),)
    return Turn(action, before, towns), act.found_towns(after, towns)


def random_game(board: Board, landscape: tuple[str, ...], factions: list[Faction],
                seed: int, stop: Callable[[Position], bool] | None = None,
                variant: str = "standard") -> tuple[Position, list[Step]]:
    """Play a seeded game from setup; ``stop(position)`` may end it early (before a turn).

    Returns the last position (after the final pass, or where ``stop`` said so)
    and every turn played.
    """
    rng = random.Random(seed)
    position = rounds.setup(board, landscape, factions, rng, variant=variant)
    steps: list[Step] = []
    while not rounds.game_over(position):
        if stop is not None and stop(position):
            break
        turn, after = random_turn(position, rng, eager=True)
        steps.append(Step(position.to_move, turn, after))
        position = rounds.advance(after, rng)
    return position, steps


def random_factions(rng: random.Random, count: int, factions: dict[str, Faction]
                    ) -> list[Faction]:
    """``count`` factions of distinct colours drawn at random from ``factions``."""
    by_colour: dict[str, str] = {}
    for faction_id in rng.sample(FACTION_IDS, len(FACTION_IDS)):
        by_colour.setdefault(factions[faction_id].colour, faction_id)
    return [factions[f] for f in list(by_colour.values())[:count]]


def last_round_position(board: Board, landscape: tuple[str, ...],
                        factions: dict[str, Faction], seed: int, players: int | None = None,
                        round: int = ROUNDS) -> Position:
    """A seeded last-round puzzle position [D35]: a random game on ``board`` played into
    ``round`` (default the last) until the player to move is the only one who has not
    passed (an earlier round gives a best-round position)."""
    rng = random.Random(seed)
    count = players or rng.choice([2, 3, 4])
    position = rounds.setup(board, landscape, random_factions(rng, count, factions), rng)
    while not (position.round == round and len(position.passed) == count - 1):
        _, after = random_turn(position, rng)
        position = rounds.advance(after, rng)
    return position
