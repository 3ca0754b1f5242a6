"""The last-round CP-SAT model against the engine's exhaustive search on seeded small
random positions (3 × 4 hexes, two players, every faction, both ``bridge_adjacency``
options); the sample must show what the model encodes: most optima do more than
pass, and every faction, rule option and common action kind appears.
``make sweep`` adds richer positions (:func:`tnk_last_round.random_rich`)."""

from __future__ import annotations

from collections import Counter

import pytest

from solver.cpsat import SolveParams
from solver.terra_nova_kosmos.engine.exhaustive import solve_last_round as exhaustive
from solver.terra_nova_kosmos.solve import solve_last_round
from tests.support.tnk_last_round import FACTIONS, random_rich, small_case

SEEDS = range(200)
SWEEP_SEEDS = range(300)
PARAMS = SolveParams(workers=1, seed=0)
KINDS = ("build", "terraform", "upgrade", "ship", "pa-ship", "pa-money7", "b-spade",
         "lake-house", "town")
"""Action kinds (and towns) some optimum of the ``make test`` sample must take."""
MIN_ACTIVE = 0.75
"""The share of optima in the sample that do more than pass."""


@pytest.mark.parametrize("seed", SEEDS)
def test_model_equals_exhaustive(seed: int) -> None:
    position, best, _ = small_case(seed)
    answer = solve_last_round(position, PARAMS)
    assert answer.optimal
    assert answer.key == best.key


def situations(position, line) -> Counter:
    """What a sample position and its optimal line show."""
    seen: Counter = Counter()
    seen[position.player(position.to_move).faction] += 1
    seen[position.rules.bridge_adjacency] += 1
    seen["active"] += len(line) > 1
    for turn in line:
        seen[turn.action.name] += 1
        seen["town"] += bool(turn.towns)
        seen["river town"] += any(t.at is not None and position.is_river(t.at)
                                  for t in turn.towns)
        seen["edge house"] += turn.action.edge is not None
        seen["palace ship"] += turn.action.ship
    return seen


def test_sample_shows_every_mechanism() -> None:
    seen: Counter = Counter()
    for seed in SEEDS:
        position, _, line = small_case(seed)
        seen += situations(position, line)
    assert seen["active"] >= MIN_ACTIVE * len(SEEDS), seen
    for what in (*FACTIONS, "all", "owner", *KINDS):
        assert seen[what] > 0, (what, seen)


@pytest.mark.sweep
def test_model_equals_exhaustive_on_richer_positions() -> None:
    seen: Counter = Counter()
    for seed in SWEEP_SEEDS:
        position = random_rich(seed)
        best, line = exhaustive(position, cap=600)
        answer = solve_last_round(position, PARAMS)
        assert answer.optimal and answer.key == best.key, seed
        seen += situations(position, line)
    assert seen["active"] >= 0.4 * len(SWEEP_SEEDS), seen
    for what in (*FACTIONS, "all", "owner", "build", "ship", "town", "river town"):
        assert seen[what] > 0, (what, seen)
