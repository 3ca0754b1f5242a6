"""Terra Nova (KOSMOS) legal turns: the filtered candidate list loses no legal action.

Every action over every hex, spot, piece and tile is tried against the engine;
the actions it accepts must be exactly those :func:`legal.candidate_actions`
offers and :func:`legal.afford` accepts.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

import pytest

from solver.terra_nova_kosmos.engine import board as topo
from solver.terra_nova_kosmos.engine import legal, rounds
from solver.terra_nova_kosmos.engine.actions import apply_turn
from solver.terra_nova_kosmos.engine.perft import perft
from solver.terra_nova_kosmos.engine.playout import random_game, random_turn
from solver.terra_nova_kosmos.fileformat import BOARDS_DIR, read_board
from solver.terra_nova_kosmos.notation import (
    BRIDGE_ACTIONS,
    CELL_ACTIONS,
    DIG_ACTIONS,
    PLAIN_ACTIONS,
    Action,
    format_turn,
    parse_turn,
)
from solver.terra_nova_kosmos.position import Position
from solver.terra_nova_kosmos.rules import BONUS_TILES, SPECIAL_ACTIONS
from tests.support.tnk_positions import make, random_factions


def every_action(position: Position) -> list[Action]:
    """Every action the notation can write on this board (pa-spade2 pairs: in range)."""
    grid = position.grid
    cells = range(grid.size)
    out = [Action(name) for name in PLAIN_ACTIONS]
    out += [Action(name, cells=(c,)) for name in CELL_ACTIONS for c in cells]
    for name in DIG_ACTIONS + ("pa-spade2",):
        for c in cells:
            out += [Action(name, cells=(c,)), Action(name, cells=(c,), build=c)]
    out += [Action(name, bridge=s) for name in BRIDGE_ACTIONS for s in position.board.bridge_spots]
    for c in cells:
        out.append(Action("upgrade", cells=(c,), piece="k"))
        for piece in ("pl", "pr"):
            out.append(Action("upgrade", cells=(c,), piece=piece))
        out.append(Action("upgrade", cells=(c,), piece="pl", ship=True))
        out += [Action("upgrade", cells=(c,), piece="pl", edge=e) for e in position.board.edge]
    reach = sorted(topo.in_range(position, position.to_move))
    for a, b in combinations(reach, 2):
        out += [Action("pa-spade2", cells=(a, b)),
                Action("pa-spade2", cells=(a, b), build=a),
                Action("pa-spade2", cells=(a, b), build=b)]
    out += [Action("pass", tile=t) for t in BONUS_TILES] + [Action("pass")]
    return out


def sample_positions(count: int) -> list[Position]:
    board, landscape = read_board(BOARDS_DIR / "base.toml")
    out = []
    for seed in range(count):
        rng = random.Random(1000 + seed)
        position = rounds.setup(board, landscape, random_factions(rng, 2 + seed % 3), rng)
        for _ in range(rng.randrange(5, 60)):
            if rounds.game_over(position):
                break
            _, after = random_turn(position, rng)
            position = rounds.advance(after)
        if not rounds.game_over(position):
            out.append(position)
    return out


def rich(position: Position) -> Position:
    """The same position with the player to move holding 40 money and 8 power in bowl III."""
    player = position.player(position.to_move)
    return position.with_player(replace(player, money=40, power=(0, 0, 8)))


def special_positions() -> dict[str, Position]:
    """Per special action, the first position of the seeded full games (eager play) in
    which the player to move may take it."""
    board, landscape = read_board(BOARDS_DIR / "base.toml")
    found: dict[str, Position] = {}

    def look(position: Position) -> bool:
        for name in SPECIAL_ACTIONS:
            if name not in found and legal.special_ready(position, name):
                found[name] = position
        return len(found) == len(SPECIAL_ACTIONS)

    for seed in range(200):
        rng = random.Random(seed)
        random_game(board, landscape, random_factions(rng, 2 + seed % 3), seed, stop=look)
        if len(found) == len(SPECIAL_ACTIONS):
            break
    return found


POSITIONS = sample_positions(12)
SPECIALS = special_positions()


@pytest.mark.parametrize("position", POSITIONS + [rich(p) for p in POSITIONS],
                         ids=lambda p: f"round{p.round}-{p.player(p.to_move).money}")
def test_candidates_lose_no_legal_action(position: Position) -> None:
    offered = set(legal.candidate_actions(position))
    accepted = {a for a in every_action(position) if legal.afford(position, a) is not None}
    assert accepted <= offered
    assert accepted == {a for a in offered if legal.afford(position, a) is not None}


def test_every_special_action_is_generated() -> None:
    assert set(SPECIALS) == set(SPECIAL_ACTIONS)
    for name, position in SPECIALS.items():
        for p in (position, rich(position)):
            offered = set(legal.candidate_actions(p))
            accepted = {a for a in every_action(p) if legal.afford(p, a) is not None}
            assert accepted == {a for a in offered if legal.afford(p, a) is not None}
        assert any(t.action.name == name for t in legal.legal_turns(rich(position))), name


def test_druiden_triples_before_every_action_in_a_game() -> None:
    p = make("fGh f.. r..\n  r.. r.. wRh", {"green": "druiden", "red": "golems"},
             {"green": {"money": 4, "power": [0, 2, 6]}},
             round_tiles=["r-palace5"] * 5)
    turns = {format_turn(t, p.grid) for t in legal.legal_turns(p)}
    assert {"build b1", "*1 build b1", "*2 build b1", "*2 pass b-house",
            "*1 $3 pass b-house", "$6 pass b-house"} <= turns
    assert "pa-money7" in turns and "*1 pa-money7" not in turns     # 3 left, 4 needed
    assert perft(p).turns == len(turns)
    after = apply_turn(p, parse_turn("*2 build b1", p.grid)).player("green")
    assert (after.vp, after.money, after.power) == (4, 0, (6, 2, 0))
    puzzle = [turn for turn, _ in legal.successors(p)]            # the puzzles' form
    assert not any(e.kind == "*" for turn in puzzle for e in turn.before)
    assert not any(turn.before for turn in puzzle if turn.action.name == "pass")
    assert len(puzzle) < len(turns)


def test_any_exchange_before_passing_in_a_game() -> None:
    p = make("wRh w.. r..\n  r.. r.. lBh", {"red": "golems", "blue": "flaschengeister"},
             {"red": {"money": 0, "power": [0, 3, 5]}}, round_tiles=["r-palace5"] * 5)
    turns = {format_turn(t, p.grid) for t in legal.legal_turns(p)}
    assert {f"${k} pass b-house" for k in range(1, 6)} <= turns    # the rulebook's tip
    assert "$4 build b1" in turns and "pa-money7" in turns         # other actions: the
    assert not {"$5 build b1", "$1 pa-money7"} & turns              # shortfall only
    assert not any(t.before for t, _ in legal.successors(p)        # the puzzles' form
                   if t.action.name == "pass")
