"""Seeded random small Rift Valley positions for the solver-vs-engine cross-checks.

Boards are 5×5 to 6×6 with exactly 9 areas, each 4-connected (region growing
from 9 seeds), a few animals, trees and water, and a short straight rift.
Existing elements are drawn with the engine's own legal draws, so every
position is legal by construction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.geometry import SquareGrid
from solver.rift_valley.boardgen import random_areas, random_large_board
from solver.rift_valley.engine.draws import apply_draw, legal_draws, play_draws, score
from solver.rift_valley.engine.exhaustive import best_score
from solver.rift_valley.notation import DrawStop, DrawTent, DrawTrail
from solver.rift_valley.position import (
    COLOURS,
    ELEPHANT,
    KOB,
    LION,
    OPEN,
    RIFT_NS,
    RIFT_WE,
    TREE,
    WATER,
    Board,
    Position,
)
from solver.rift_valley.rules import Rules
from solver.rift_valley.solve import solve_max_score


def random_board(rng: random.Random) -> Board:
    """A 5×5 to 6×6 board: 9 areas, 2–4 animals, 0–2 trees, 0–2 water, a 2–3 cell rift."""
    grid = SquareGrid(rng.randint(5, 6), rng.randint(5, 6))
    terrain = [OPEN] * grid.size
    horizontal = rng.random() < 0.5
    length = rng.randint(2, 3)
    if horizontal:
        r, c = rng.randrange(grid.rows), rng.randrange(grid.cols - length + 1)
        rift = [grid.index(r, c + i) for i in range(length)]
    else:
        r, c = rng.randrange(grid.rows - length + 1), rng.randrange(grid.cols)
        rift = [grid.index(r + i, c) for i in range(length)]
    for cell in rift:
        terrain[cell] = RIFT_WE if horizontal else RIFT_NS
    free = [c for c in range(grid.size) if terrain[c] == OPEN]
    rng.shuffle(free)
    things = ([rng.choice((KOB, ELEPHANT, LION)) for _ in range(rng.randint(2, 4))]
              + [TREE] * rng.randint(0, 2) + [WATER] * rng.randint(0, 2))
    for letter, cell in zip(things, free, strict=False):
        terrain[cell] = letter
    return Board(grid, tuple(terrain), tuple(random_areas(grid, rng)))


def random_draws(position: Position, colour: str, count: int, rng: random.Random,
                 rules: Rules) -> Position:
    """``position`` after ``colour`` makes up to ``count`` random legal draws.

    Stops are drawn before anything else so that trails become possible; the
    choice among legal draws is uniform within the kind picked.
    """
    for _ in range(count):
        options = list(legal_draws(position, colour, rules))
        if not options:
            break
        kinds = {kind: [d for d in options if isinstance(d, kind)]
                 for kind in (DrawStop, DrawTrail, DrawTent)}
        weights = {DrawStop: 3, DrawTrail: 4, DrawTent: 1}
        present = [k for k in (DrawStop, DrawTrail, DrawTent) if kinds[k]]
        kind = rng.choices(present, [weights[k] for k in present])[0]
        position = apply_draw(position, colour, rng.choice(kinds[kind]), rules)
    return position


@dataclass(frozen=True)
class Case:
    """One random cross-check case: the position (with its budget) and the rule options."""

    seed: int
    position: Position
    rules: Rules

    @property
    def others_drawn(self) -> bool:
        return any(c != self.position.player for c in self.position.colours)

    @property
    def own_drawn(self) -> bool:
        return bool(self.position.of(self.position.player))


def _puzzle(rng: random.Random, board: Board, least: int,
            most: int) -> tuple[Position, list[str], Rules]:
    """An empty puzzle on ``board``: a random player among three colours, who owns the
    rift 60 % of the time, rule options, ``least``..``most`` draws, the first-stop rule
    30 % of the time; also the two other colours and the rules."""
    player = rng.choice(COLOURS[:3])
    others = [c for c in COLOURS[:3] if c != player]
    rift_owner = player if rng.random() < 0.6 else rng.choice(others)
    rules = Rules(stops_block_all_colours=rng.random() < 0.25)
    position = Position(board=board, rift_owner=rift_owner, player=player,
                        draws=rng.randint(least, most), first_stop_rule=rng.random() < 0.3)
    return position, others, rules


def check_against_exhaustive(case: Case, params) -> None:
    """The CP-SAT answer is proven optimal, equals the exhaustive optimum, fits the budget
    and replays through the engine to its value."""
    answer = solve_max_score(case.position, None, params, case.rules)
    oracle = best_score(case.position, None, case.rules)
    assert answer.optimal
    assert answer.value == oracle.value, (case.seed, answer.draw_strings())
    assert len(answer.draws) <= case.position.draws
    after = play_draws(case.position, answer.draws, case.rules)
    assert score(after, case.position.player).total == answer.value


def random_case(seed: int) -> Case:
    """A random small max-score puzzle; which situations occur depends on ``seed`` only."""
    rng = random.Random(seed)
    position, others, rules = _puzzle(rng, random_board(rng), 3, 6)
    player = position.player
    if rng.random() < 0.5:
        position = random_draws(position, rng.choice(others), rng.randint(1, 4), rng, rules)
    if rng.random() < 0.4:
        position = random_draws(position, player, rng.randint(1, 3), rng, rules)
    return Case(seed, position, rules)


def random_large_case(seed: int) -> Case:
    """A random mid-game max-score puzzle on an 8×8 to 9×10 board with 6–8 draws.

    The board comes from :func:`solver.rift_valley.boardgen.random_large_board`;
    the other colours have drawn 6–14 elements, the player 0–4.
    """
    rng = random.Random(seed)
    board = random_large_board(rng, rng.randint(8, 9), rng.randint(8, 10))
    position, others, rules = _puzzle(rng, board, 6, 8)
    for colour in others:
        position = random_draws(position, colour, rng.randint(3, 7), rng, rules)
    position = random_draws(position, position.player, rng.randint(0, 4), rng, rules)
    return Case(seed, position, rules)
