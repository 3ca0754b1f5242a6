"""Rift Valley rule constants and options: every [D] project decision of the rules doc.

The reference engine, the scoring and the game flow read their numbers from here;
the CP-SAT model keeps its own copy of the rules (independence), but may import
these constants so that both sides agree on the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.rift_valley.position import ELEPHANT, KOB, LION

MAX_TENTS_PER_BOARD = 5
"""[D] At most 5 tents on one board, all colours together."""

TRAIL_AREA_CAP = 5
"""[D] A trail scores +1 per distinct area among its cells, at most 5."""

UNCONNECTED_STOP_PENALTY = -2
"""Each own stop with no trail ending at it scores −2."""

TENT_POINTS_PER_STOP = 2
"""Each own tent scores +2 per connected own stop orthogonally or diagonally adjacent to it."""

ANIMAL_POINTS: dict[str, int] = {KOB: 1, ELEPHANT: 2, LION: 3}
"""An animal cell next to (8-neighbourhood) one of a player's trails scores once for that player."""

END_TRIGGER_BOARDS: dict[int, int] = {2: 2, 3: 2, 4: 3, 5: 4}
"""Players → boards that must carry MAX_TENTS_PER_BOARD tents to trigger the game end."""

MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass(frozen=True)
class Rules:
    """Rule options.

    ``stops_block_all_colours``: [D] by default only stops of the same colour may
    not be orthogonally adjacent (the German text says "same colour"); with this
    option any two stops conflict.
    """

    stops_block_all_colours: bool = False


DEFAULT_RULES = Rules()
"""The rules as printed (no options)."""
