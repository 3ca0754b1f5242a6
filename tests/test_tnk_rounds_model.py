"""The last-rounds CP-SAT model against the engine's exhaustive search over two rounds
on seeded small positions (:func:`tnk_last_rounds.rounds_case`): a few in ``make
test``, the rest in ``make sweep``, where the sample must also show what the model
encodes between and within the rounds: towns, bridges, transformations, power
actions, and a pass tile taken in round 4 for what it does in round 5."""

from __future__ import annotations

from collections import Counter

import pytest

from solver.cpsat import SolveParams
from solver.terra_nova_kosmos.notation import Turn
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.solve import solve_last_rounds
from tests.support.tnk_last_rounds import PASSES, rounds_case

PARAMS = SolveParams(workers=1, seed=0)
SEEDS = (2, 7, 10)
"""``make test``: positions the search and the model settle in about a second."""
SWEEP_SEEDS = range(60)
POWER_ACTIONS = ("pa-ship", "pa-money7", "pa-spade1", "pa-spade2", "pa-bridge3",
                 "pa-bridge4")
DIGS = ("terraform", "pa-spade1", "pa-spade2", "b-spade", "feen-spade", "desert-dig")
MIN_ACTIVE = 0.6
"""The share of the sweep's optima that do more than pass twice."""


def check(seed: int) -> None:
    position, best, _ = rounds_case(seed)
    answer = solve_last_rounds(position, PARAMS, hint=False)
    assert answer.optimal, seed
    assert answer.key == best.key, seed


@pytest.mark.parametrize("seed", SEEDS)
def test_model_equals_exhaustive(seed: int) -> None:
    check(seed)


def situations(position: Position, line: list[Turn]) -> Counter:
    """What a sample position and its optimal line show."""
    seen: Counter = Counter()
    seen[position.player(position.to_move).faction] += 1
    seen[position.rules.bridge_adjacency] += 1
    seen["active"] += len(line) > PASSES
    first = next(n for n, turn in enumerate(line) if turn.action.name == "pass")
    coins = dict(position.bonus_display)
    if coins[line[first].action.tile] < max(coins.values()):
        seen["pass tile"] += 1
    if line[first].after:
        seen["exchange before income"] += 1
    for number, turn in enumerate(line):
        name = turn.action.name
        seen["town"] += bool(turn.towns)
        seen["bridge"] += name in ("bridge", "pa-bridge3", "pa-bridge4")
        seen["terraform"] += name in DIGS
        seen["power action"] += name in POWER_ACTIONS
        seen["round 5 action"] += number > first and name != "pass"
        seen["b-spade in round 5"] += number > first and name == "b-spade"
    return seen


@pytest.mark.sweep
def test_model_equals_exhaustive_on_more_positions() -> None:
    seen: Counter = Counter()
    for seed in SWEEP_SEEDS:
        check(seed)
        position, _, line = rounds_case(seed)
        seen += situations(position, line)
    assert seen["active"] >= MIN_ACTIVE * len(SWEEP_SEEDS), seen
    for what in ("town", "bridge", "terraform", "power action", "pass tile",
                 "round 5 action", "all", "owner"):
        assert seen[what] > 0, (what, seen)
