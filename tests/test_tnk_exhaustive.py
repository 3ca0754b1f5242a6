"""Terra Nova (KOSMOS) last-round puzzle: line evaluation and the exhaustive search."""

from __future__ import annotations

import pytest

from solver.errors import PuzzleError
from solver.terra_nova_kosmos.engine import legal
from solver.terra_nova_kosmos.engine.actions import IllegalTurn
from solver.terra_nova_kosmos.engine.exhaustive import solve_last_round
from solver.terra_nova_kosmos.engine.lastround import Result, evaluate, score
from solver.terra_nova_kosmos.notation import format_turn, parse_line
from solver.terra_nova_kosmos.position import Position
from tests.support.tnk_positions import make, random_last_round

LAST = ["r-palace5", "r-palace5", "r-palace5", "r-palace5", "r-house2"]
SMALL = make("lBh l.. r.. wRh\n  r.. r.. r.. r..", {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 4, "power": [8, 0, 0]}, "red": {"money": 0}},
             round=5, passed=["red"], round_tiles=LAST)


def line(position: Position, *texts: str):
    return parse_line(list(texts), position.grid)


def test_small_puzzle_by_hand() -> None:
    # build b1 (+2 VP round tile, area 12 instead of a shared 10) beats keeping 4 money
    built = evaluate(SMALL, line(SMALL, "build b1", "pass b-house"))
    kept = evaluate(SMALL, line(SMALL, "pass b-house"))
    assert (built.value, kept.value) == (2 + 0 + 12, 2 + 10)
    assert built.final["red"] == 8 + 1 and kept.final["red"] == 10 + 1   # 4 power → 1 VP
    result, best = solve_last_round(SMALL)
    assert result.value == 14 and result.turns == 2
    assert format_turn(best[0], SMALL.grid) == "build b1"
    assert evaluate(SMALL, best) == result


def test_evaluate_rejects_bad_lines() -> None:
    with pytest.raises(IllegalTurn, match="end with a pass"):
        evaluate(SMALL, line(SMALL, "build b1"))
    with pytest.raises(IllegalTurn) as caught:
        evaluate(SMALL, line(SMALL, "pass b-house", "build b1"))
    assert caught.value.place == "turn 2"
    with pytest.raises(IllegalTurn) as caught:
        evaluate(SMALL, line(SMALL, "build b1", "build a2", "pass b-house"))
    assert caught.value.place == "turn 2"


def test_only_last_round_positions_are_puzzles() -> None:
    with pytest.raises(PuzzleError):
        solve_last_round(SMALL.replace(round=4))
    with pytest.raises(PuzzleError):
        solve_last_round(SMALL.replace(passed=()))


def brute_force(root: Position, position: Position, turns: int) -> tuple[int, int, int]:
    """Every canonical line, no memo: the best key."""
    best = None
    for turn, child in legal.successors(position):
        if turn.action.name == "pass":
            result = score(root, child, turns + 1)
            key = result.key
        else:
            key = brute_force(root, child, turns + 1)
        best = key if best is None or key > best else best
    return best


@pytest.mark.parametrize("seed", range(12))
def test_memo_search_equals_brute_force(seed: int) -> None:
    position = random_last_round(seed)
    try:
        result, best = solve_last_round(position, max_nodes=60)
    except TimeoutError:
        pytest.skip("too big for the brute force")
    assert result.key == brute_force(position, position, 0)
    assert evaluate(position, best) == result
    assert isinstance(result, Result)


def test_caps_raise_timeout() -> None:
    position = random_last_round(8)
    with pytest.raises(TimeoutError):
        solve_last_round(position, max_nodes=1)


def test_river_town_in_the_pass_turn() -> None:
    p = make("lBk lBk r.. lBk lBk\n  r.. r.. r.. r.. r..", {"blue": "seebaeren", "red": "golems"},
             {"blue": {"money": 0, "power": [8, 0, 0]}}, round=5, passed=["red"],
             round_tiles=LAST)
    result, best = solve_last_round(p)
    assert [format_turn(t, p.grid) for t in best] == ["pass b-house town:t9@c1"]
    assert result.turns == 1


def test_exchanging_early_lets_a_power_gain_count() -> None:
    # the build founds a town whose only tile left is t8p6 (8 power); with bowls 0/0/8
    # the gain would be lost, so exchanging 4 (not just the shortfall 0) gains 1 VP
    board = "lBk lBk lBk l.. r.. lBh\n  r.. r.. r.. r.. r.. lBh\nlBh r.. r.. r.. r.. lBh"
    p = make(board, {"blue": "flaschengeister", "red": "golems"},
             {"blue": {"money": 4, "power": [0, 0, 8], "town_tiles": ["t8p6"],
                       "towns": ["f1", "f2", "a3"]}, "red": {"money": 0}},
             round=5, passed=["red"], round_tiles=LAST,
             power_actions_used=["pa-bridge3", "pa-bridge4", "pa-ship", "pa-money7",
                                 "pa-spade1", "pa-spade2"])
    plain = evaluate(p, line(p, "build d1 town:t8p6", "pass b-house"))
    early = evaluate(p, line(p, "$4 build d1 town:t8p6", "pass b-house"))
    assert early.value == plain.value + 1            # 14 money-worth vs 10: 4 VP vs 3
    result, best = solve_last_round(p)
    assert result.value == early.value
    assert format_turn(best[0], p.grid) == "$2 build d1 town:t8p6"   # the least that does
