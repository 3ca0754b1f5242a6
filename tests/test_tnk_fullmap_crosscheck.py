"""The last-round and best-round CP-SAT models against the engine's exhaustive search on
the full bundled map: positions from seeded random games (2, 3 and 4 players, both
``bridge_adjacency`` options, both best-round objectives). ``make test`` checks a
sample of cheap ones; ``make sweep`` checks 200 (seeds whose exhaustive search passes its
cap are passed over) and asserts that the optima
show towns, bridges, terraforming, power actions and a choice of pass tile."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from solver.cpsat import SolveParams
from solver.terra_nova_kosmos.engine.exhaustive import solve_best_round as exhaustive_best
from solver.terra_nova_kosmos.engine.exhaustive import solve_last_round as exhaustive_last
from solver.terra_nova_kosmos.notation import Turn
from solver.terra_nova_kosmos.position import OBJECTIVES, Position
from solver.terra_nova_kosmos.puzzlegen import playout_position
from solver.terra_nova_kosmos.solve import solve_best_round, solve_last_round

KINDS = ("last-round", "best-round")
SAMPLE = {"last-round": (0, 2, 5, 6, 13, 14, 15, 16, 23, 25, 26, 27, 29, 31, 34),
          "best-round": (2, 5, 6, 11, 14, 15, 16, 17, 18, 21, 23, 24, 26, 27, 28)}
"""The seeds ``make test`` checks: of the first 35 per kind, the 15 cheapest to solve
(poor positions; the sweep takes every seed)."""
SWEEP_CHECKS = 100
"""Per kind, the positions ``make sweep`` checks: the first seeds whose two searches both
end (200 in all)."""
SWEEP_SEEDS = range(150)
"""Per kind, the seeds the sweep may try to find them."""
CAP = 600
"""Exhaustive-search seconds: past them ``make test``'s check fails (it has no answer to
compare) and the sweep goes on to the next seed."""
PARAMS = SolveParams(workers=1, seed=0)
SWEEP_PARAMS = SolveParams(workers=1, seed=0, time_limit=CAP)
"""The sweep's CP-SAT: a seed it does not prove within the cap is not counted (its line
must still be no better than the exhaustive optimum)."""


@cache
def full_case(kind: str, seed: int) -> Position:
    """The seeded position: 2 to 4 players by seed, ``owner`` bridges on odd seeds,
    ``max-value`` on every second pair of best-round seeds."""
    return playout_position(kind, "base", 2 + seed % 3, seed,
                            bridge_adjacency="owner" if seed % 2 else "all",
                            objective=OBJECTIVES[seed // 2 % 2])


def checked(kind: str, seed: int, params: SolveParams = PARAMS) -> list[Turn] | None:
    """Solve the case with CP-SAT and the exhaustive search; the same objective tuple.
    Returns the exhaustive search's optimal line, or None when CP-SAT did not prove its
    answer within ``params``' limit (its line is then no better than the optimum).
    TimeoutError when the exhaustive search passes :data:`CAP`."""
    position = full_case(kind, seed)
    search = exhaustive_best if kind == "best-round" else exhaustive_last
    best, line = search(position, cap=CAP)
    solve = solve_best_round if kind == "best-round" else solve_last_round
    answer = solve(position, params)
    if not answer.optimal and params.time_limit is not None:
        assert answer.key <= best.key, (kind, seed, answer.line, line)
        return None
    assert answer.optimal and answer.key == best.key, (kind, seed, answer.line, line)
    return line


def shown(line: list[Turn]) -> Counter:
    """What an optimal line shows."""
    seen: Counter = Counter()
    for turn in line:
        name = turn.action.name
        seen["town"] += bool(turn.towns)
        seen["bridge"] += name in ("bridge", "pa-bridge3", "pa-bridge4")
        seen["terraform"] += bool(turn.action.cells) and (
            "spade" in name or name in ("terraform", "desert-dig"))
        seen["power"] += name.startswith("pa-")
        if name == "pass" and turn.action.tile is not None:
            seen[f"tile {turn.action.tile}"] += 1
    return seen


@pytest.mark.parametrize(("kind", "seed"), [(kind, seed) for kind in KINDS
                                             for seed in SAMPLE[kind]])
def test_model_equals_exhaustive_on_the_full_map(kind: str, seed: int) -> None:
    assert checked(kind, seed) is not None


@pytest.mark.sweep
def test_many_full_map_positions_and_what_their_optima_show() -> None:
    seen: Counter = Counter()
    for kind in KINDS:
        count = 0
        for seed in SWEEP_SEEDS:
            try:
                line = checked(kind, seed, SWEEP_PARAMS)
            except TimeoutError:
                continue
            if line is not None:
                seen += shown(line)
                count += 1
            if count == SWEEP_CHECKS:
                break
        assert count == SWEEP_CHECKS, (kind, count)
    for what in ("town", "bridge", "terraform", "power"):
        assert seen[what] > 0, (what, seen)
    assert sum(1 for key in seen if key.startswith("tile ")) >= 2, seen
