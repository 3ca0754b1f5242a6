"""Cross-checks of the CP-SAT model against the reference engine on seeded random positions.

* best-turn: the solver's full objective tuple equals the exhaustive search's on
  200+ positions;
* 2-turn closing (max-points): the same on 50+ positions; 3-turn on 30+ (60+ more in
  ``make sweep``);
* perft: enumerating the one-turn model gives the engine's turn and position counts.

Positions are small irregular boards (holes and ragged edges), 3–6 landscapes,
2–4 players, random stones and pieces, supplies of 0, 1, 2 or more stones. Each
test also asserts that the interesting situations actually occurred in its
sample (pieces removed mid-turn, turns ended early, empty/one-stone supply, …).
"""

from __future__ import annotations

from collections import Counter

import pytest

from solver.cpsat import SolveParams
from solver.terra_nova.engine import exhaustive
from solver.terra_nova.engine import turns as engine
from solver.terra_nova.model.geometry import Geometry
from solver.terra_nova.notation import Move, Stone
from solver.terra_nova.position import Position
from solver.terra_nova.solve import perft_via_model, solve_puzzle
from tests.support.tn_random import positions, random_position, three_turn_sample

PARAMS = SolveParams(workers=1, seed=0)
MAX_CANDIDATES = 200


def situations(position: Position, line) -> Counter:
    """Which interesting situations a line (checked by the engine) shows."""
    seen: Counter = Counter()
    seen[f"players={len(position.players)}"] += 1
    if position.stones_left <= 1:
        seen[f"stones_left={position.stones_left}"] += 1
    if any(position.grid.index(r, c) is None
           for r in range(position.grid.rows) for c in range(position.grid.cols)):
        seen["irregular"] += 1
    current = position
    for turn in line:
        outcome = engine.apply_turn(current, turn, advance=False)
        if 0 < len(turn) < 3:
            seen["ended early"] += 1
        if not turn:
            seen["pass"] += 1
        if outcome.removed:
            seen["pieces removed"] += 1
            last_stone = max(i for i, a in enumerate(turn) if isinstance(a, Stone))
            if any(r.winners for r in outcome.regions) and last_stone < len(turn) - 1:
                seen["removed mid-turn"] += 1
        if any(r.winners and len(r.winners) > 1 for r in outcome.regions):
            seen["tie split"] += 1
        if any(r.winners and position.to_move not in r.winners for r in outcome.regions):
            seen["others scored"] += 1
        current = outcome.position
    return seen


def checked_best_turns(sample: list[Position]):
    """Each position with the model's best turn and the exhaustive search's, after
    asserting that the model proved it and that both keys (points, tie-breaks) agree."""
    for number, position in enumerate(sample):
        truth = exhaustive.best_turn(position)
        answer = solve_puzzle(position, None, PARAMS)
        assert answer.optimal, number
        assert answer.key == tuple(truth.key), (number, answer.line, truth.line)
        yield position, answer, truth


def test_best_turn_matches_exhaustive_search():
    sample = positions(210, first_seed=1000)
    seen: Counter = Counter()
    for position, answer, truth in checked_best_turns(sample):
        seen += situations(position, answer.line)
        seen += situations(position, truth.line)
    for what in ("players=2", "players=3", "players=4", "stones_left=0", "stones_left=1",
                 "irregular", "ended early", "pieces removed", "removed mid-turn",
                 "tie split", "others scored"):
        assert seen[what] > 0, (what, seen)


def test_best_turn_with_open_last_move_matches_exhaustive_search():
    """Boards with more own pieces, where a move surely exists at the turn's last step
    (:meth:`Geometry.surely_movable`): the model leaves that move open and reads one
    off the solution, also after a piece came back to its starting cell."""
    sample = positions(70, first_seed=20000, cells=(25, 56), own_pieces=(4, 9))
    seen: Counter = Counter()
    for position, answer, _ in checked_best_turns(sample):
        if Geometry(position, 1).surely_movable(2):
            seen["open"] += 1
            first, second = answer.line[0][:2]
            if isinstance(second, Move) and first.src == second.dst:
                seen["back"] += 1
    assert seen["open"] >= 20 and seen["back"] >= 3, seen


def closing_matches(turns: int, sample: list[Position]) -> Counter:
    """Assert the model's optimum equals the exhaustive search's on every position."""
    seen: Counter = Counter()
    for number, position in enumerate(sample):
        truth = exhaustive.best_closing(position, turns, "max-points")
        answer = solve_puzzle(position, turns, PARAMS)
        assert answer.optimal, number
        assert answer.key == tuple(truth.key), (number, answer.line, truth.line)
        seen += situations(position, answer.line)
    return seen


@pytest.mark.slow
def test_two_turn_closing_matches_exhaustive_search():
    # Positions whose 2-turn model has more than MAX_CANDIDATES candidate regions are
    # skipped to keep the suite quick (the filter looks at size only, never at answers).
    sample = [p for p in positions(60, first_seed=5000, cells=(12, 22), own_pieces=(1, 2))
              if len(Geometry(p, 2).candidates) <= MAX_CANDIDATES]
    assert len(sample) >= 50
    seen = closing_matches(2, sample)
    for what in ("players=2", "players=3", "stones_left=0", "stones_left=1", "irregular",
                 "ended early", "pieces removed"):
        assert seen[what] > 0, (what, seen)


@pytest.mark.slow
def test_three_turn_closing_matches_exhaustive_search():
    # Three turns test the candidate pruning by stone schedules (Geometry.first_close)
    # hardest: up to 6 new stones, two per turn only as a pair next to the moved piece.
    sample = three_turn_sample(40)
    assert len(sample) >= 30
    seen = closing_matches(3, sample)
    for what in ("players=2", "players=3", "stones_left=1", "pieces removed"):
        assert seen[what] > 0, (what, seen)


@pytest.mark.sweep
def test_three_turn_closing_sweep():
    sample = three_turn_sample(120)[35:]  # beyond make test's sample
    assert len(sample) >= 60
    seen = closing_matches(3, sample)
    for what in ("players=2", "players=3", "stones_left=1", "pieces removed"):
        assert seen[what] > 0, (what, seen)


def test_model_perft_matches_engine():
    checked = 0
    seed = 9000
    total = Counter()
    while checked < 32:
        position = random_position(seed, cells=(12, 30))
        seed += 1
        if position is None:
            continue
        truth = engine.perft(position)
        if truth.turns > 800:
            continue  # enumeration is exact but slow on big counts; keep the suite quick
        counted = perft_via_model(position, PARAMS)
        assert (counted.turns, counted.positions) == (truth.turns, truth.positions), seed - 1
        total["turns"] += truth.turns
        checked += 1
    assert total["turns"] > 32 * 10
