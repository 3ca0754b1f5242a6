"""Terra Nova (KOSMOS) best-round puzzle: file format, line evaluation, exhaustive search,
verify."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.errors import InputError, PuzzleError
from solver.terra_nova_kosmos.engine import bestround
from solver.terra_nova_kosmos.engine.actions import IllegalTurn
from solver.terra_nova_kosmos.engine.bestround import evaluate, score
from solver.terra_nova_kosmos.engine.exhaustive import solve_best_round
from solver.terra_nova_kosmos.fileformat import parse_position, write_position
from solver.terra_nova_kosmos.notation import format_turn, parse_line
from solver.terra_nova_kosmos.position import Position, Puzzle
from solver.terra_nova_kosmos.puzzlegen import random_best_round
from tests.support.tnk_positions import make

DEMO = Path("positions/terra-nova-kosmos/puzzles/best-round-demo.toml")
TILES = ["r-spade2", "r-house2", "r-kontor3", "r-town5", "r-ship2"]
DISPLAY = {"b-money6": 1, "b-kontor": 2}


def small(board: str = "lBh l.. r.. wRh\n  r.. r.. r.. r..", faction: str = "flaschengeister",
          blue: dict | None = None, objective: str = "max-points", **top) -> Position:
    """Round 2 (``r-house2``), red passed, blue to move."""
    colour = {"flaschengeister": "blue", "druiden": "green"}[faction]
    players = {colour: {"money": 4, "power": [8, 0, 0], "bonus": "b-house"} | (blue or {}),
               "red": {"bonus": "b-ship", "power": [2, 2, 4]}}
    top = {"round": 2, "passed": ["red"], "round_tiles": TILES,
           "bonus_display": DISPLAY} | top
    position = make(board, {colour: faction, "red": "golems"}, players, **top)
    return position.replace(puzzle=Puzzle("best-round", objective))


def line(position: Position, *texts: str):
    return parse_line(list(texts), position.grid)


def texts(position: Position, turns) -> list[str]:
    return [format_turn(t, position.grid) for t in turns]


# ---- the file format

def test_puzzle_table_round_trips_with_its_objective() -> None:
    for objective in ("max-points", "max-value"):
        text = write_position(small(objective=objective))
        again = parse_position(text, "x.toml")
        assert again.puzzle == Puzzle("best-round", objective)
        assert write_position(again) == text
        assert f'objective = "{objective}"' in text


def test_objective_defaults_to_max_points() -> None:
    text = write_position(small()).replace('objective = "max-points"\n', "")
    assert parse_position(text, "x.toml").puzzle == Puzzle("best-round", "max-points")


@pytest.mark.parametrize(("old", "new", "message"), [
    ('objective = "max-points"', 'objective = "max-vp"', "unknown objective 'max-vp'"),
    ('objective = "max-points"', "objective = 3", "puzzle.objective"),
    ('kind = "best-round"', 'kind = "last-round"', "a last-round puzzle takes no objective"),
    ('objective = "max-points"', "turns = 3", "puzzle.turns"),
])
def test_bad_puzzle_table_names_the_place(old: str, new: str, message: str) -> None:
    text = write_position(small()).replace(old, new)
    with pytest.raises(InputError) as caught:
        parse_position(text, "x.toml")
    assert message in str(caught.value)


def test_bad_objective_exits_2_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(DEMO.read_text().replace('"max-points"', '"most"'), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 2
    assert str(path) in result.output and "objective" in result.output
    assert len(result.output.strip().splitlines()) == 1


# ---- evaluation by hand

def test_small_position_by_hand_both_objectives() -> None:
    # build b1: round tile r-house2 2 VP, b-house on passing 2 houses = 2 VP, 0 money
    # left + 2 coins on b-kontor; passing at once: 1 VP, 4 money + 2 coins
    p = small()
    built = evaluate(p, line(p, "build b1", "pass b-kontor"))
    kept = evaluate(p, line(p, "pass b-kontor"))
    assert (built.points, built.leftover, built.given, built.turns) == (4, 2, 0, 2)
    assert (kept.points, kept.leftover, kept.turns) == (1, 6, 1)
    assert (built.value, kept.value) == (4, 1)
    valued = evaluate(p, line(p, "pass b-kontor"), "max-value")
    assert valued.value == 3 * 1 + 6
    for objective, value in (("max-points", 4), ("max-value", 14)):
        result, best = solve_best_round(p, objective)
        assert result.value == value
        assert texts(p, best) == ["build b1", "pass b-kontor"]


ALL_USED = ["pa-bridge3", "pa-bridge4", "pa-ship", "pa-money7", "pa-spade1", "pa-spade2"]


def test_the_objectives_differ_when_points_cost_too_much() -> None:
    # shipping scores 2 track VP for 8 money: max-points ships, max-value keeps the money
    p = small("lBh w.. r.. wRh\n  r.. r.. r.. r..", blue={"money": 12, "power": [8, 0, 0]},
              objective="max-value", power_actions_used=ALL_USED)
    points, best = solve_best_round(p, "max-points")
    assert texts(p, best) == ["ship", "pass b-kontor"]
    assert (points.points, points.leftover) == (1 + 2, 4 + 2)
    value, best = solve_best_round(p)
    assert texts(p, best) == ["pass b-kontor"]
    assert value.value == 3 * 1 + 12 + 2 > 3 * points.points + points.leftover
    dug = evaluate(p, line(p, "terraform b1", "pass b-kontor"))   # 2 spades, 0 VP
    assert (dug.points, dug.leftover) == (1, 2)


def test_pass_tile_choice_takes_the_most_coins() -> None:
    p = small(bonus_display={"b-money6": 1, "b-kontor": 3, "b-palace": 2})
    coins = {t: evaluate(p, line(p, f"pass {t}")).leftover for t in ("b-money6", "b-kontor",
                                                                       "b-palace")}
    assert coins == {"b-money6": 5, "b-kontor": 7, "b-palace": 6}
    result, best = solve_best_round(p)
    assert texts(p, best)[-1] == "pass b-kontor"
    _, best = solve_best_round(p, "max-value")
    assert texts(p, best)[-1] == "pass b-kontor"


def test_tie_break_least_power_to_others() -> None:
    # a1 and c1 both cost 4 and score 2 + 1; c1 is next to red's house: red gains 1
    p = small("l.. lBh l.. wRh\n  r.. r.. r.. r..")
    near = evaluate(p, line(p, "build c1", "pass b-kontor"))
    far = evaluate(p, line(p, "build a1", "pass b-kontor"))
    assert (near.points, near.leftover) == (far.points, far.leftover)
    assert (near.given, far.given) == (1, 0)
    result, best = solve_best_round(p)
    assert texts(p, best) == ["build a1", "pass b-kontor"] and result.given == 0


def test_given_counts_tokens_moved_not_the_gain() -> None:
    p = small("l.. lBh l.. wRh\n  r.. r.. r.. r..")
    full = p.with_player(p.player("red").__class__(**{**p.player("red").__dict__,
                                                      "power": (0, 0, 8)}))
    assert evaluate(full, line(full, "build c1", "pass b-kontor")).given == 0


def test_tie_break_leftover_then_fewest_turns() -> None:
    # round 3's tile r-kontor3 scores no house: building on b1 after the free b-spade
    # scores nothing and costs 4; the free dig alone changes nothing but takes a turn
    p = small("lBh f.. r.. wRh\n  r.. r.. r.. r..", blue={"bonus": "b-spade"}, round=3)
    result, best = solve_best_round(p)
    assert texts(p, best) == ["pass b-kontor"]
    assert (result.points, result.leftover, result.turns) == (0, 6, 1)
    built = evaluate(p, line(p, "b-spade b1 build", "pass b-kontor"))
    dug = evaluate(p, line(p, "b-spade b1", "pass b-kontor"))
    assert (built.points, built.leftover) == (0, 2)
    assert (dug.points, dug.leftover, dug.given, dug.turns) == (0, 6, 0, 2)
    assert built.key < dug.key < result.key


def test_druiden_end_with_every_triple_exchanged() -> None:
    p = small("fGh l.. r.. wRh\n  r.. r.. r.. r..", faction="druiden",
              blue={"money": 0, "power": [1, 0, 7]}, power_actions_used=ALL_USED)
    result, best = solve_best_round(p)
    assert texts(p, best) == ["pass b-kontor *2"]
    assert (result.points, result.leftover) == (1 + 4, 1 + 2)
    _, best = solve_best_round(p, "max-value")
    assert texts(p, best) == ["pass b-kontor *2"]


def test_evaluate_rejects_bad_lines_and_positions() -> None:
    p = small()
    with pytest.raises(IllegalTurn, match="end with a pass"):
        evaluate(p, line(p, "build b1"))
    with pytest.raises(IllegalTurn) as caught:
        evaluate(p, line(p, "pass b-kontor", "build b1"))
    assert caught.value.place == "turn 2"
    with pytest.raises(IllegalTurn, match="not on display"):
        evaluate(p, line(p, "pass b-palace"))
    for bad in (p.replace(round=5), p.replace(passed=()), p.replace(bonus_display=())):
        with pytest.raises(PuzzleError):
            solve_best_round(bad)


# ---- the exhaustive search

def brute_force(root: Position, position: Position, turns: int, objective: str) -> tuple:
    """Every canonical line, no memo, Druiden triples closing the pass: the best key."""
    best = None
    search_children = _children(position)
    for turn, child in search_children:
        if turn.action.name == "pass":
            key = score(root, child, turns + 1, objective).key
        else:
            key = brute_force(root, child, turns + 1, objective)
        best = key if best is None or key > best else best
    return best


def _children(position: Position):
    from solver.terra_nova_kosmos.engine.exhaustive import _BestRound
    return _BestRound(position, "max-points", None, None).children(position)


@pytest.mark.parametrize("seed", range(10))
def test_memo_search_equals_brute_force(seed: int) -> None:
    objective = ("max-points", "max-value")[seed % 2]
    position = random_best_round(random.Random(seed), objective)
    try:
        result, best = solve_best_round(position, max_nodes=60)
    except TimeoutError:
        pytest.skip("too big for the brute force")
    assert result.key == brute_force(position, position, 0, objective)
    assert evaluate(position, best) == result
    assert isinstance(result, bestround.Result)


# ---- verify and solve on the command line

def test_verify_demo_and_a_wrong_value(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["verify", str(DEMO)])
    assert result.exit_code == 0, result.output
    assert "worth 17" in result.output
    path = tmp_path / "wrong.toml"
    path.write_text(DEMO.read_text().replace("value = 17", "value = 18"), encoding="utf-8")
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 1 and "the file says 18" in result.output


def test_demo_solution_is_the_exhaustive_optimum() -> None:
    from solver.terra_nova_kosmos.fileformat import read_position
    position = read_position(DEMO)
    result, _ = solve_best_round(position, cap=60)
    assert result.value == position.solution.value
