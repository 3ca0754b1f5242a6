"""The exhaustive max-score search against a plain search over draw sequences.

The reference here walks every legal sequence of draws with the engine's
``legal_draws``/``apply_draw`` (memoised on the player's element sets), so it
shares none of the set-based reasoning, pruning or bounds of ``best_score``.
"""

from __future__ import annotations

import random
import time

import pytest

from solver.geometry import SquareGrid
from solver.rift_valley.engine.draws import apply_draw, legal_draws, play_draws, score
from solver.rift_valley.engine.exhaustive import best_score
from solver.rift_valley.fileformat import read_position
from solver.rift_valley.notation import DrawStop
from solver.rift_valley.position import (
    ANIMALS,
    OPEN,
    RIFT_NS,
    RIFT_WE,
    TREE,
    WATER,
    Board,
    Position,
)
from solver.rift_valley.rules import Rules

BOARDS = "positions/rift-valley/boards"


def tiny_board(rng: random.Random) -> Board:
    """A 4×4 or 4×5 board: 9 areas grown from seeds, a few animals and obstacles, a rift."""
    grid = SquareGrid(4, rng.choice((4, 5)))
    areas = [0] * grid.size
    for number, seed in enumerate(rng.sample(range(grid.size), 9), start=1):
        areas[seed] = number
    while 0 in areas:
        cell = rng.choice([c for c in range(grid.size) if not areas[c]
                           and any(areas[nb] for nb in grid.neighbours[c])])
        areas[cell] = rng.choice([areas[nb] for nb in grid.neighbours[cell] if areas[nb]])
    terrain = [OPEN] * grid.size
    row = rng.randrange(grid.rows)
    col = rng.randrange(grid.cols - 1)
    vertical = rng.random() < 0.5
    for k in range(2):
        cell = grid.index(row, col + k) if not vertical else grid.index(k + (row > 1) * 2, col)
        terrain[cell] = RIFT_NS if vertical else RIFT_WE
    free = [c for c in range(grid.size) if terrain[c] == OPEN]
    for cell in rng.sample(free, 4):
        terrain[cell] = rng.choice(ANIMALS + (TREE, WATER))
    return Board(grid, tuple(terrain), tuple(areas))


def sequence_search(position: Position, budget: int, rules: Rules) -> int:
    """Best score over every legal draw sequence of length <= budget (plain DFS)."""
    colour = position.player
    best = score(position, colour).total
    seen: dict[tuple, int] = {}

    def key(p: Position, first: bool) -> tuple:
        own = p.of(colour)
        trails = frozenset((frozenset(t.ends), t.corner) for t in own.trails)
        return frozenset(own.stops), trails, frozenset(own.tents), first

    def walk(p: Position, left: int, first: bool) -> None:
        nonlocal best
        k = key(p, first)
        if seen.get(k, -1) >= left:
            return
        seen[k] = left
        best = max(best, score(p, colour).total)
        if left:
            for draw in legal_draws(p, colour, rules, first):
                walk(apply_draw(p, colour, draw, rules, first), left - 1, False)

    walk(position, budget, position.first_stop_rule)
    return best


def random_case(seed: int) -> tuple[Position, int, Rules]:
    rng = random.Random(seed)
    board = tiny_board(rng)
    player, other = "red", "blue"
    rules = Rules(stops_block_all_colours=rng.random() < 0.3)
    position = Position(board, rift_owner=rng.choice((player, other)), player=player,
                        first_stop_rule=rng.random() < 0.3)
    for colour in (other, player, other):
        for _ in range(rng.randrange(3)):
            options = list(legal_draws(position, colour, rules))
            if options:
                position = apply_draw(position, colour, rng.choice(options), rules)
    return position, rng.randint(1, 4), rules


@pytest.mark.parametrize("seed", range(40))
def test_exhaustive_equals_sequence_search(seed):
    position, budget, rules = random_case(seed)
    found = best_score(position, draws=budget, rules=rules)
    assert found.value == sequence_search(position, budget, rules)
    assert len(found.draws) <= budget
    final = play_draws(position.replace(draws=budget), found.draws, rules)
    assert score(final, position.player).total == found.value


def test_first_stop_rule_answer_starts_with_a_stop_away_from_animals():
    position = read_position("positions/rift-valley/midgame-crater-first-stop.toml")
    found = best_score(position)
    assert found.value == position.solution.value
    first = found.draws[0]
    assert isinstance(first, DrawStop)
    terrain = position.board.terrain
    assert not any(terrain[nb] in ANIMALS for nb in position.grid.touching[first.cell])


def test_budget_argument_overrides_the_file_and_zero_draws_keeps_the_score():
    position = read_position("positions/rift-valley/midgame-savanna.toml")
    assert best_score(position, draws=0).value == score(position, position.player).total
    assert best_score(position, draws=0).draws == []
    assert best_score(position, draws=2).value <= best_score(position, draws=3).value


def test_values_grow_with_the_budget_on_the_identical_board():
    position = read_position(f"{BOARDS}/identical.toml")
    values = [best_score(position, draws=b).value for b in range(5)]
    assert values == sorted(values)
    assert values[:3] == [0, 0, 0]  # a first trail needs 3 draws: two stops and itself
    assert values[3] > 0


def test_time_cap_raises_timeout():
    position = read_position(f"{BOARDS}/delta.toml")
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        best_score(position, draws=12, time_cap=0.3)
    assert time.monotonic() - started < 10


def test_time_cap_counts_the_candidate_build_and_is_looked_at_often(monkeypatch):
    # Before: the cap started after the candidate trails were built (0.4-0.5 s on large
    # boards under load) and the clock was read every 2,048 nodes (0.2-0.3 s there), so
    # a 1 s cap ended after about 1.45 s. Here the build alone outlasts the cap.
    from solver.rift_valley.engine import exhaustive

    build = exhaustive._Search._candidates

    def slow_build(self, occ):
        time.sleep(0.3)
        return build(self, occ)

    monkeypatch.setattr(exhaustive._Search, "_candidates", slow_build)
    nodes = []
    run = exhaustive._Search.run

    def counted(self):
        try:
            run(self)
        finally:
            nodes.append(self.nodes)

    monkeypatch.setattr(exhaustive._Search, "run", counted)
    position = read_position(f"{BOARDS}/delta.toml")
    with pytest.raises(TimeoutError):
        best_score(position, draws=12, time_cap=0.2)
    assert nodes == [exhaustive._CLOCK_EVERY]
