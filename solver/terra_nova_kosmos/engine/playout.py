"""Seeded random games: setup on a bundled board, random legal turns to the end.

The player to move picks a random candidate action and plays the first that is
legal (canonical exchange, random town tiles); it passes with a small chance
each turn or when nothing else is legal, so games reach round 5 with a
varied board.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from solver.terra_nova_kosmos.engine import actions as act
from solver.terra_nova_kosmos.engine import board as topo
from solver.terra_nova_kosmos.engine import legal, rounds
from solver.terra_nova_kosmos.notation import Action, Turn
from solver.terra_nova_kosmos.position import Board, Position
from solver.terra_nova_kosmos.rules import FACTION_IDS, ROUNDS, Faction

PASS_CHANCE = 0.12
"""Chance that a random player passes although other actions may be legal."""


@dataclass(frozen=True)
class Step:
    """One played turn: who, what, and the position right after it (before advancing)."""

    colour: str
    turn: Turn
    after: Position


def random_turn(position: Position, rng: random.Random) -> tuple[Turn, Position]:
    """A random legal turn of ``to_move`` and the position after it."""
    candidates = legal.candidate_actions(position)
    passes = [a for a in candidates if a.name == "pass"]
    others = [a for a in candidates if a.name != "pass"]
    rng.shuffle(others)
    if rng.random() < PASS_CHANCE:
        others = []
    reach = topo.in_range(position, position.to_move)
    for action in others + [rng.choice(passes)]:
        found = _try(position, action, reach, rng)
        if found is not None:
            return found
    raise AssertionError("passing is always legal")


def _try(position: Position, action: Action, reach: set[int], rng: random.Random
         ) -> tuple[Turn, Position] | None:
    found = legal.afford(position, action, reach)
    if found is None:
        return None
    before, after = found
    if action.name == "pass":
        return Turn(action, before), after
    towns = rng.choice(legal.town_choices(after))
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
        turn, after = random_turn(position, rng)
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
                        factions: dict[str, Faction], seed: int, players: int | None = None
                        ) -> Position:
    """A seeded last-round puzzle position [D35]: a random game on ``board`` played into
    round 5 until the player to move is the only one who has not passed."""
    rng = random.Random(seed)
    count = players or rng.choice([2, 3, 4])
    position = rounds.setup(board, landscape, random_factions(rng, count, factions), rng)
    while not (position.round == ROUNDS and len(position.passed) == count - 1):
        _, after = random_turn(position, rng)
        position = rounds.advance(after, rng)
    return position
