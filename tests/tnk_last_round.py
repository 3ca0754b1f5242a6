"""Small last-round positions of Terra Nova (KOSMOS) for the model's tests."""

from __future__ import annotations

import random

from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.puzzlegen import last_round, random_last_round

__all__ = ["last_round", "random_small"]


def random_small(seed: int) -> Position:
    """A seeded small last-round position (3 × 4 hexes, two players, money ≤ 7) the
    engine accepts: few options, so the exhaustive search and the model finish fast."""
    return random_last_round(random.Random(seed))
